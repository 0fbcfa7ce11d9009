import Foundation
import PizzeriaStorage

/// One way an item is sold — a size (`Normale`, `Maxi`, `Baby`) or a measure (`33 cl`) — with its
/// own price. Every item has one or more; exactly one is the default, and the item's
/// ``Pizza/price`` is the default's. An item with one variant is ordered as before: "2 × Margherita".
///
/// JSON: `{"id", "pizza_id", "name", "price": "9.00", "price_cents", "position", "is_default"}`.
public struct Variant: Sendable, Hashable, Identifiable, Codable, JSONMembers {
    /// A variant's id.
    public typealias ID = RowNumber<Variant>

    /// The name a new item's only variant gets (and every item of an older file).
    public static let defaultName = "Normale"
    /// The longest name, in Unicode scalars.
    public static let maximumNameLength = 30
    /// The largest position.
    public static let maximumPosition = 100
    /// The most variants one item has.
    public static let maximumPerItem = 10

    /// Its id.
    public let id: ID
    /// The item it belongs to.
    public let pizzaID: Pizza.ID
    /// 1 to 30 characters, unique in its item ignoring case.
    public let name: String
    /// More than zero, at most ``Money/maximum``.
    public let price: Money
    /// Where it is offered among the item's variants: smaller first.
    public let position: Int
    /// Whether a plain order of the item gets it.
    public let isDefault: Bool

    /// A value; stores use it when reading rows.
    public init(id: ID, pizzaID: Pizza.ID, name: String, price: Money, position: Int, isDefault: Bool) {
        (self.id, self.pizzaID, self.name, self.price) = (id, pizzaID, name, price)
        (self.position, self.isDefault) = (position, isDefault)
    }

    /// The documented JSON shape, defined once (see ``JSONMembers``).
    public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        try writer.member("id", id.rawValue)
        try writer.member("is_default", isDefault)
        try writer.member("name", name)
        try writer.member("pizza_id", id: pizzaID)
        try writer.member("position", position)
        try writer.member("price", plain: price)
        try writer.member("price_cents", price.cents)
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }

    /// Reads the documented JSON shape.
    public init(from decoder: Decoder) throws {
        var members = try ContainerMemberReader(decoder)
        try self.init(reading: &members)
    }

    /// What is wrong with a variant's name, price and position (each when given), naming the field.
    static func problems(name: String?, price: Money?, position: Int?) -> [FieldError] {
        var problems = name.map { TextLimit.problems($0, field: "name", maximum: maximumNameLength) } ?? []
        if let price, !(1...Money.maximum.cents).contains(price.cents) {
            problems.append(
                FieldError(field: "price", message: "must be more than 0 and at most \(Money.maximum.formatted)"))
        }
        if let position, !(1...maximumPosition).contains(position) {
            problems.append(FieldError(field: "position", message: "must be from 1 to \(maximumPosition)"))
        }
        return problems
    }
}

extension Variant: StoredMembers {
    static let table = "pizza_variants"

    /// The stored members, read once for rows of `pizza_variants` and for JSON.
    init<Reader: MemberReader>(reading members: inout Reader) throws {
        self.init(
            id: ID(try members.number("id")), pizzaID: try members.id("pizza_id"), name: try members.text("name"),
            price: try members.money(cents: "price_cents"), position: try members.int("position"),
            isDefault: try members.optionalFlag("is_default") ?? false)
    }
}
