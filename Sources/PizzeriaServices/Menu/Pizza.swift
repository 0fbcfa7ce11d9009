import Foundation

/// A pizza as stored: on the menu, or archived.
///
/// `Codable` in the documented JSON shape:
/// `{"id", "name", "price": "6.00", "price_cents": 600, "currency": "EUR", "archived": false,
///   "archived_at", "version", "created_at", "updated_at"}`.
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

    /// Creates a value; stores use it when reading rows.
    public init(id: ID, name: String, price: Money, archivedAt: Date?, version: Int, createdAt: Date, updatedAt: Date) {
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
        case id, name, priceCents = "price_cents", archivedAt = "archived_at"
        case version, createdAt = "created_at", updatedAt = "updated_at"
    }

    /// The documented JSON shape, defined once (see ``JSONMembers``).
    public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        try writer.member("archived", isArchived)
        try writer.member("archived_at", timestamp: archivedAt)
        try writer.member("created_at", timestamp: createdAt)
        try writer.member("currency", "EUR")
        try writer.member("id", id: id)
        try writer.member("name", name)
        try writer.member("price", plain: price)
        try writer.member("price_cents", price.cents)
        try writer.member("updated_at", timestamp: updatedAt)
        try writer.member("version", version)
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }

    /// Reads the documented JSON shape.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(ID.self, forKey: .id), name: try container.decode(String.self, forKey: .name),
            price: try container.decodeMoney(centsKey: .priceCents),
            archivedAt: try container.decodeTimestampIfPresent(forKey: .archivedAt),
            version: try container.decode(Int.self, forKey: .version),
            createdAt: try container.decodeTimestamp(forKey: .createdAt),
            updatedAt: try container.decodeTimestamp(forKey: .updatedAt))
    }
}

/// One entry of a pizza's append-only history.
public struct PizzaChange: Sendable, Hashable, Codable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, Codable {
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
        try container.encodeTimestamp(changedAt, forKey: .changedAt)
    }

    /// Reads the JSON shape.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            change: try container.decode(Kind.self, forKey: .change),
            oldName: try container.decodeIfPresent(String.self, forKey: .oldName),
            newName: try container.decode(String.self, forKey: .newName),
            oldPrice: try container.decodeMoneyIfPresent(centsKey: .oldPriceCents),
            newPrice: try container.decodeMoney(centsKey: .newPriceCents),
            version: try container.decode(Int.self, forKey: .version),
            changedAt: try container.decodeTimestamp(forKey: .changedAt))
    }
}
