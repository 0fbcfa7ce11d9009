import Foundation

/// A pizza as stored: on the menu, or archived.
///
/// `Codable` in the documented JSON shape:
/// `{"id", "name", "price": "6.00", "price_cents": 600, "currency": "EUR", "archived": false,
///   "archived_at", "category_id": 1, "allergens": ["gluten", "milk"], "stock_left": null,
///   "stock_until": null, "version", "created_at", "updated_at"}`. Its variants and modifier groups are read with it as a ``MenuItem``.
public struct Pizza: Sendable, Hashable, Identifiable, Record {
    /// A pizza's id.
    public typealias ID = Identifier<Pizza>

    /// Its id.
    public internal(set) var id: ID = .blank
    /// Trimmed, NFC-normalised, unique by full case folding.
    public internal(set) var name: String = ""
    /// More than zero, at most ``Money/maximum``.
    public internal(set) var price: Money = Money(cents: 0)
    /// When it was taken off the menu; `nil` while on it.
    public internal(set) var archivedAt: Date?
    /// Incremented by every change; edits name the version they started from.
    public internal(set) var version: Int = 0
    /// When it was added.
    public internal(set) var createdAt: Date = Date(timeIntervalSince1970: 0)
    /// When it last changed.
    public internal(set) var updatedAt: Date = Date(timeIntervalSince1970: 0)
    /// The menu section it is in (``Category/defaultID`` for every pizza of an older file).
    public internal(set) var categoryID = Category.ID(0)
    /// The EU allergens it contains (its modifiers may add more to a line).
    public internal(set) var allergens: Set<Allergen> = []
    /// How many more can be booked for pickups before ``stockUntil`` (0: sold out); `nil`: no limit.
    public internal(set) var stockLeft: Int?
    /// When the limit ends (the end of tonight's service); `nil` with a limit: until made available.
    public internal(set) var stockUntil: Date?

    /// A value from its parts (rows are read through its members, see ``Record``).
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

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members, declared once for its rows, its JSON and its CSV (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.member("allergens", allergens: &allergens)
        try visitor.derived("archived", isArchived)
        try visitor.member("archived_at", timestamp: &archivedAt)
        try visitor.member("category_id", &categoryID, absent: Category.defaultID)
        try visitor.member("created_at", timestamp: &createdAt)
        try visitor.derived("currency", "EUR")
        try visitor.member("id", &id)
        try visitor.member("name", &name)
        try visitor.derived("price", plain: price)
        try visitor.member("price_cents", cents: &price)
        try visitor.member("stock_left", &stockLeft)
        try visitor.member("stock_until", timestamp: &stockUntil)
        try visitor.member("updated_at", timestamp: &updatedAt)
        try visitor.member("version", &version)
    }
}

extension Pizza: StoredMembers {
    static let table = "pizzas"
}

/// One entry of a pizza's append-only history.
public struct PizzaChange: Sendable, Hashable, Record {
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
    public internal(set) var change: Kind = .created
    /// The name before (`nil` for `created`).
    public internal(set) var oldName: String?
    /// The name after.
    public internal(set) var newName: String = ""
    /// The price before (`nil` for `created`).
    public internal(set) var oldPrice: Money?
    /// The price after.
    public internal(set) var newPrice: Money = Money(cents: 0)
    /// The pizza's version after the change.
    public internal(set) var version: Int = 0
    /// When.
    public internal(set) var changedAt: Date = Date(timeIntervalSince1970: 0)

    /// A value from its parts (rows are read through its members, see ``Record``).
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

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members, declared once for its rows and its JSON (prices as `"6.00"` plus `*_cents`) (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.member("change", raw: &change, absent: nil)
        try visitor.member("changed_at", timestamp: &changedAt)
        try visitor.member("new_name", &newName)
        try visitor.derived("new_price", plain: newPrice)
        try visitor.member("new_price_cents", cents: &newPrice)
        try visitor.member("old_name", &oldName)
        try visitor.derived("old_price", oldPrice?.plain)
        try visitor.member("old_price_cents", cents: &oldPrice)
        try visitor.member("version", &version)
    }
}

extension PizzaChange: StoredMembers {
    static let table = "pizza_history"
}
