/// A pizza as stored: on the menu, or archived.
///
/// Encodes to the CLI's documented JSON shape:
/// `{"id", "name", "price": "6.00", "price_cents": 600, "currency": "EUR", "archived": false,
///   "archived_at", "version", "created_at", "updated_at"}`.
public struct Pizza: Sendable, Hashable, Identifiable, Encodable {
    /// Lowercase UUID text.
    public let id: String
    /// Trimmed, NFC-normalised, unique ignoring case.
    public let name: String
    /// More than zero, at most ``Money/maximum``.
    public let price: Money
    /// When it was taken off the menu; `nil` while on it.
    public let archivedAt: String?
    /// Incremented by every change; edits name the version they started from.
    public let version: Int
    /// When it was added (ISO-8601 UTC).
    public let createdAt: String
    /// When it last changed (ISO-8601 UTC).
    public let updatedAt: String

    /// Creates a value; stores use it when reading rows.
    public init(id: String, name: String, price: Money, archivedAt: String?, version: Int,
                createdAt: String, updatedAt: String) {
        self.id = id
        self.name = name
        self.price = price
        self.archivedAt = archivedAt
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Whether it is off the menu.
    public var isArchived: Bool { archivedAt != nil }

    private enum CodingKeys: String, CodingKey {
        case id, name, price, priceCents = "price_cents", currency, archived, archivedAt = "archived_at"
        case version, createdAt = "created_at", updatedAt = "updated_at"
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(price, forKey: .price, centsKey: .priceCents)
        try container.encode("EUR", forKey: .currency)
        try container.encode(isArchived, forKey: .archived)
        try container.encode(archivedAt, forKey: .archivedAt)
        try container.encode(version, forKey: .version)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}

/// One entry of a pizza's append-only history.
public struct PizzaChange: Sendable, Hashable, Encodable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, Encodable {
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
    /// When (ISO-8601 UTC).
    public let changedAt: String

    private enum CodingKeys: String, CodingKey {
        case change, oldName = "old_name", newName = "new_name", oldPrice = "old_price"
        case oldPriceCents = "old_price_cents", newPrice = "new_price", newPriceCents = "new_price_cents"
        case version, changedAt = "changed_at"
    }

    /// JSON with prices as `"6.00"` plus `*_cents`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(change, forKey: .change)
        try container.encode(oldName, forKey: .oldName)
        try container.encode(newName, forKey: .newName)
        try container.encode(oldPrice, forKey: .oldPrice, centsKey: .oldPriceCents)
        try container.encode(newPrice, forKey: .newPrice, centsKey: .newPriceCents)
        try container.encode(version, forKey: .version)
        try container.encode(changedAt, forKey: .changedAt)
    }
}
