import Foundation

/// A pizza as stored: on the menu, or archived.
///
/// `Codable` in the documented JSON shape:
/// `{"id", "name", "price": "6.00", "price_cents": 600, "currency": "EUR", "archived": false,
///   "archived_at", "category_id": 1, "allergens": ["gluten", "milk"], "stock_left": null,
///   "stock_until": null, "version", "created_at", "updated_at"}`. Its variants and modifier groups are read with it as a ``MenuItem``.
public struct Pizza: Sendable, Hashable, Identifiable, Codable, JSONMembers {
    /// A pizza's id.
    public typealias ID = Identifier<Pizza>

    /// Its id.
    public let id: ID
    /// Trimmed, NFC-normalised, unique by full case folding.
    public let name: String
    /// More than zero, at most ``Money/maximum``.
    public let price: Money
    /// When it was taken off the menu; `nil` while on it.
    public let archivedAt: Date?
    /// Incremented by every change; edits name the version they started from.
    public let version: Int
    /// When it was added.
    public let createdAt: Date
    /// When it last changed.
    public let updatedAt: Date
    /// The menu section it is in (``Category/defaultID`` for every pizza of an older file).
    public let categoryID: Category.ID
    /// The EU allergens it contains (its modifiers may add more to a line).
    public let allergens: Set<Allergen>
    /// How many more can be booked for pickups before ``stockUntil`` (0: sold out); `nil`: no limit.
    public let stockLeft: Int?
    /// When the limit ends (the end of tonight's service); `nil` with a limit: until made available.
    public let stockUntil: Date?

    /// Creates a value; stores use it when reading rows.
    public init(
        id: ID, name: String, price: Money, archivedAt: Date?, version: Int, createdAt: Date, updatedAt: Date,
        categoryID: Category.ID = Category.defaultID, allergens: Set<Allergen> = [], stockLeft: Int? = nil,
        stockUntil: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.price = price
        self.archivedAt = archivedAt
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.categoryID = categoryID
        self.allergens = allergens
        self.stockLeft = stockLeft
        self.stockUntil = stockUntil
    }

    /// How many more can be booked for a pickup at `pickup` (`nil`: no limit).
    public func left(for pickup: Date) -> Int? { Stock.left(stockLeft, until: stockUntil, for: pickup) }

    /// Whether it is off the menu.
    public var isArchived: Bool { archivedAt != nil }

    /// The documented JSON shape, defined once (see ``JSONMembers``).
    public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        try writer.member("allergens", encoded: Allergen.codes(allergens))
        try writer.member("archived", isArchived)
        try writer.member("archived_at", timestamp: archivedAt)
        try writer.member("category_id", categoryID.rawValue)
        try writer.member("created_at", timestamp: createdAt)
        try writer.member("currency", "EUR")
        try writer.member("id", id: id)
        try writer.member("name", name)
        try writer.member("price", plain: price)
        try writer.member("price_cents", price.cents)
        try writer.member("stock_left", stockLeft)
        try writer.member("stock_until", timestamp: stockUntil)
        try writer.member("updated_at", timestamp: updatedAt)
        try writer.member("version", version)
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }

    /// Reads the documented JSON shape.
    public init(from decoder: Decoder) throws {
        var members = try ContainerMemberReader(decoder)
        try self.init(reading: &members)
    }
}

extension Pizza: StoredMembers {
    static let table = "pizzas"

    /// The stored members, read once for rows of `pizzas` and for JSON.
    init<Reader: MemberReader>(reading members: inout Reader) throws {
        self.init(
            id: try members.id("id"), name: try members.text("name"), price: try members.money(cents: "price_cents"),
            archivedAt: try members.optionalTimestamp("archived_at"), version: try members.int("version"),
            createdAt: try members.timestamp("created_at"), updatedAt: try members.timestamp("updated_at"),
            categoryID: Category.ID(try members.optionalNumber("category_id") ?? Category.defaultID.rawValue),
            allergens: try members.allergens("allergens"),
            stockLeft: try members.optionalNumber("stock_left").map { Int($0) },
            stockUntil: try members.optionalTimestamp("stock_until"))
    }
}

/// One entry of a pizza's append-only history.
public struct PizzaChange: Sendable, Hashable, Codable, JSONMembers {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Added to the menu.
        case created
        /// Name and/or price changed.
        case edited
        /// Taken off the menu.
        case archived
        /// Put back on the menu.
        case restored
    }

    /// What happened.
    public let change: Kind
    /// The name before (`nil` for `created`).
    public let oldName: String?
    /// The name after.
    public let newName: String
    /// The price before (`nil` for `created`).
    public let oldPrice: Money?
    /// The price after.
    public let newPrice: Money
    /// The pizza's version after the change.
    public let version: Int
    /// When.
    public let changedAt: Date

    /// Creates a value; stores use it when reading rows.
    public init(
        change: Kind, oldName: String?, newName: String, oldPrice: Money?, newPrice: Money, version: Int,
        changedAt: Date
    ) {
        self.change = change
        self.oldName = oldName
        self.newName = newName
        self.oldPrice = oldPrice
        self.newPrice = newPrice
        self.version = version
        self.changedAt = changedAt
    }

    /// JSON with prices as `"6.00"` plus `*_cents`, defined once (see ``JSONMembers``).
    public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        try writer.member("change", change.rawValue)
        try writer.member("changed_at", timestamp: changedAt)
        try writer.member("new_name", newName)
        try writer.member("new_price", plain: newPrice)
        try writer.member("new_price_cents", newPrice.cents)
        try writer.member("old_name", oldName)
        try writer.member("old_price", oldPrice?.plain)
        try writer.member("old_price_cents", oldPrice.map { Int($0.cents) })
        try writer.member("version", version)
    }

    /// The JSON shape.
    public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }

    /// Reads the JSON shape.
    public init(from decoder: Decoder) throws {
        var members = try ContainerMemberReader(decoder)
        try self.init(reading: &members)
    }
}

extension PizzaChange: StoredMembers {
    static let table = "pizza_history"

    /// The stored members, read once for rows of `pizza_history` and for JSON.
    init<Reader: MemberReader>(reading members: inout Reader) throws {
        self.init(
            change: try members.raw("change", as: Kind.self), oldName: try members.optionalText("old_name"),
            newName: try members.text("new_name"), oldPrice: try members.optionalMoney(cents: "old_price_cents"),
            newPrice: try members.money(cents: "new_price_cents"), version: try members.int("version"),
            changedAt: try members.timestamp("changed_at"))
    }
}
