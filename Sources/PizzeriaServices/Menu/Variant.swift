import Foundation
import PizzeriaStorage

/// One way an item is sold — a size (`Normale`, `Maxi`, `Baby`) or a measure (`33 cl`) — with its
/// own price. Every item has one or more; exactly one is the default, and the item's
/// ``Pizza/price`` is the default's. An item with one variant is ordered as before: "2 × Margherita".
///
/// JSON: `{"id", "pizza_id", "name", "price": "9.00", "price_cents", "position", "is_default"}`.
public struct Variant: Sendable, Hashable, Identifiable, Record {
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
    public internal(set) var id: ID = ID(0)
    /// The item it belongs to.
    public internal(set) var pizzaID: Pizza.ID = .blank
    /// 1 to 30 characters, unique in its item ignoring case.
    public internal(set) var name: String = ""
    /// More than zero, at most ``Money/maximum``.
    public internal(set) var price: Money = Money(cents: 0)
    /// Where it is offered among the item's variants: smaller first.
    public internal(set) var position: Int = 0
    /// Whether a plain order of the item gets it.
    public internal(set) var isDefault: Bool = false

    /// A value from its parts (rows are read through its members, see ``Record``).
    public init(id: ID, pizzaID: Pizza.ID, name: String, price: Money, position: Int, isDefault: Bool) {
        (self.id, self.pizzaID, self.name, self.price) = (id, pizzaID, name, price)
        (self.position, self.isDefault) = (position, isDefault)
    }

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members, declared once for its rows, its JSON and its CSV (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.member("id", &id, absent: nil)
        try visitor.member("is_default", &isDefault, absent: false)
        try visitor.member("name", &name)
        try visitor.member("pizza_id", &pizzaID)
        try visitor.member("position", &position)
        try visitor.derived("price", plain: price)
        try visitor.member("price_cents", cents: &price)
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
}
