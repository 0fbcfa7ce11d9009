import Foundation
import PizzeriaStorage

/// A named set of choices attached to items — `Aggiunte` (extras, 0 to 3), `Senza` (removals at
/// 0.00), `Impasto` (exactly one dough) — saying how many of its modifiers one order line takes.
///
/// JSON: `{"id", "name", "kind", "default_modifier_id", "min_selected", "max_selected", "position",
/// "modifiers": [...]}`.
public struct ModifierGroup: Sendable, Hashable, Identifiable, Codable, JSONMembers {
    /// A group's id.
    public typealias ID = RowNumber<ModifierGroup>

    /// What a group's modifiers do to a line, as menus have them.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Priced additions (`Aggiunte`): a line prints them `Aggiunte: bufala`.
        case extra
        /// Things left out, at no price (`Senza`): a line prints them `senza basilico`.
        case removal
        /// Exactly one of (`Impasto`), with a default a line takes when it names none; the
        /// default is not printed.
        case choice
    }

    /// The longest name, in Unicode scalars.
    public static let maximumNameLength = 40
    /// The most modifiers a group has, and the most a line takes of one.
    public static let maximumModifiers = 30
    /// The largest position.
    public static let maximumPosition = 100

    /// Its id.
    public let id: ID
    /// 1 to 40 characters, unique ignoring case.
    public let name: String
    /// The fewest of its modifiers a line takes (1 for a required choice).
    public let minSelected: Int
    /// The most of its modifiers a line takes.
    public let maxSelected: Int
    /// Where it is offered among an item's groups.
    public let position: Int
    /// What its modifiers do to a line.
    public let kind: Kind
    /// A choice's default: the modifier a line takes when it names none of the group.
    public let defaultModifier: Modifier.ID?
    /// Its modifiers, archived ones included, in menu order.
    public internal(set) var modifiers: [Modifier]

    /// A value; stores use it when reading rows.
    public init(
        id: ID, name: String, minSelected: Int, maxSelected: Int, position: Int, kind: Kind = .extra,
        defaultModifier: Modifier.ID? = nil, modifiers: [Modifier] = []
    ) {
        (self.id, self.name, self.minSelected, self.maxSelected) = (id, name, minSelected, maxSelected)
        (self.position, self.kind, self.defaultModifier, self.modifiers) = (position, kind, defaultModifier, modifiers)
    }

    /// The modifiers still offered.
    public var offered: [Modifier] { modifiers.filter { !$0.isArchived } }

    /// The rule in words: "0 to 3", "exactly 1".
    public var ruleText: String {
        minSelected == maxSelected ? "exactly \(minSelected)" : "\(minSelected) to \(maxSelected)"
    }

    /// The documented JSON shape, defined once (see ``JSONMembers``).
    public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        try writer.member("default_modifier_id", defaultModifier.map { Int($0.rawValue) })
        try writer.member("id", id.rawValue)
        try writer.member("kind", kind.rawValue)
        try writer.member("max_selected", maxSelected)
        try writer.member("min_selected", minSelected)
        try writer.member("modifiers", objects: modifiers)
        try writer.member("name", name)
        try writer.member("position", position)
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }

    /// Reads the documented JSON shape.
    public init(from decoder: Decoder) throws {
        var members = try ContainerMemberReader(decoder)
        try self.init(reading: &members)
        modifiers = try members.decoded("modifiers", as: [Modifier].self) ?? []
    }

    /// What is wrong with a group's name, bounds and position (each when given), naming the field.
    static func problems(name: String?, min: Int?, max: Int?, position: Int?) -> [FieldError] {
        var problems = name.map { TextLimit.problems($0, field: "name", maximum: maximumNameLength) } ?? []
        if let min, !(0...maximumModifiers).contains(min) {
            problems.append(FieldError(field: "min", message: "must be from 0 to \(maximumModifiers)"))
        }
        if let max, !(1...maximumModifiers).contains(max) {
            problems.append(FieldError(field: "max", message: "must be from 1 to \(maximumModifiers)"))
        }
        if let min, let max, min > max {
            problems.append(FieldError(field: "min", message: "must not be more than max (\(min) > \(max))"))
        }
        if let position, !(1...maximumPosition).contains(position) {
            problems.append(FieldError(field: "position", message: "must be from 1 to \(maximumPosition)"))
        }
        return problems
    }
}

extension ModifierGroup: StoredMembers {
    static let table = "modifier_groups"

    /// The stored members, read once for rows of `modifier_groups` and for JSON.
    init<Reader: MemberReader>(reading members: inout Reader) throws {
        self.init(
            id: ID(try members.number("id")), name: try members.text("name"),
            minSelected: try members.int("min_selected"), maxSelected: try members.int("max_selected"),
            position: try members.int("position"),
            kind: try members.optionalText("kind").flatMap(Kind.init(rawValue:)) ?? .extra,
            defaultModifier: try members.optionalNumber("default_modifier_id").map(Modifier.ID.init))
    }
}

/// One choice of a group: `bufala` +2.00, `basilico` (senza) 0.00, `integrale` +1.00 — with the
/// allergens it brings, and a price per variant name where it differs (bufala on a Maxi: 3.00).
///
/// JSON: `{"id", "group_id", "name", "price", "price_cents", "allergens": ["milk"], "position",
/// "archived_at", "stock_left", "stock_until", "variant_prices": [{"variant": "Maxi", "price_cents": 300}]}`.
public struct Modifier: Sendable, Hashable, Identifiable, Codable, JSONMembers {
    /// A modifier's id.
    public typealias ID = RowNumber<Modifier>

    /// The longest name, in Unicode scalars.
    public static let maximumNameLength = 40

    /// A modifier's price on the variants of one name.
    public struct VariantPrice: Sendable, Hashable, Codable {
        /// The variant's name (`Maxi`), matched ignoring case.
        public let variant: String
        /// What the modifier costs on it.
        public let price: Money

        /// A price.
        public init(variant: String, price: Money) { (self.variant, self.price) = (variant, price) }

        enum CodingKeys: String, CodingKey {
            case variant
            case priceCents = "price_cents"
        }

        /// `{"variant", "price_cents"}`.
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            variant = try container.decode(String.self, forKey: .variant)
            price = Money(cents: try container.decode(Int64.self, forKey: .priceCents))
        }

        /// `{"variant", "price_cents"}`.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(variant, forKey: .variant)
            try container.encode(price.cents, forKey: .priceCents)
        }
    }

    /// Its id.
    public let id: ID
    /// Its group.
    public let groupID: ModifierGroup.ID
    /// 1 to 40 characters, unique in its group ignoring case.
    public let name: String
    /// What it adds to a line's unit price: 0.00 to ``Money/maximumModifier``.
    public let price: Money
    /// The allergens it brings to a line.
    public let allergens: Set<Allergen>
    /// Where it is offered in its group.
    public let position: Int
    /// When it was taken off; `nil` while offered.
    public let archivedAt: Date?
    /// Its prices on variants of a given name, where they differ from ``price``.
    public let variantPrices: [VariantPrice]
    /// How many more lines' worth can be booked for pickups before ``stockUntil`` (0: sold out).
    public let stockLeft: Int?
    /// When the limit ends.
    public let stockUntil: Date?

    /// A value; stores use it when reading rows.
    public init(
        id: ID, groupID: ModifierGroup.ID, name: String, price: Money, allergens: Set<Allergen> = [],
        position: Int = 1, archivedAt: Date? = nil, variantPrices: [VariantPrice] = [], stockLeft: Int? = nil,
        stockUntil: Date? = nil
    ) {
        (self.id, self.groupID, self.name, self.price, self.allergens) = (id, groupID, name, price, allergens)
        (self.position, self.archivedAt, self.variantPrices) = (position, archivedAt, variantPrices)
        (self.stockLeft, self.stockUntil) = (stockLeft, stockUntil)
    }

    /// How many more can be booked for a pickup at `pickup` (`nil`: no limit).
    public func left(for pickup: Date) -> Int? { Stock.left(stockLeft, until: stockUntil, for: pickup) }

    /// Whether it is no longer offered.
    public var isArchived: Bool { archivedAt != nil }

    /// What it costs on a variant called `variant`.
    public func price(on variant: String?) -> Money {
        guard let variant else { return price }
        return variantPrices.first { $0.variant.caseInsensitiveCompare(variant) == .orderedSame }?.price ?? price
    }

    /// The documented JSON shape, defined once (see ``JSONMembers``).
    public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        try writer.member("allergens", encoded: Allergen.codes(allergens))
        try writer.member("archived_at", timestamp: archivedAt)
        try writer.member("group_id", groupID.rawValue)
        try writer.member("id", id.rawValue)
        try writer.member("name", name)
        try writer.member("position", position)
        try writer.member("price", plain: price)
        try writer.member("price_cents", price.cents)
        try writer.member("stock_left", stockLeft)
        try writer.member("stock_until", timestamp: stockUntil)
        try writer.member("variant_prices", encoded: variantPrices)
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }

    /// Reads the documented JSON shape.
    public init(from decoder: Decoder) throws {
        var members = try ContainerMemberReader(decoder)
        try self.init(reading: &members)
    }

    /// What is wrong with a modifier's name and price (each when given), naming the field.
    static func problems(name: String?, price: Money?) -> [FieldError] {
        var problems = name.map { TextLimit.problems($0, field: "name", maximum: maximumNameLength) } ?? []
        if let price, !(0...Money.maximumModifier.cents).contains(price.cents) {
            problems.append(
                FieldError(field: "price", message: "must be 0.00 to \(Money.maximumModifier.formatted)"))
        }
        return problems
    }
}

extension Modifier: StoredMembers {
    static let table = "modifiers"

    /// The stored members, read once for rows of `modifiers` (with `variant_prices` as JSON text
    /// built from `modifier_prices`) and for JSON.
    init<Reader: MemberReader>(reading members: inout Reader) throws {
        self.init(
            id: ID(try members.number("id")), groupID: ModifierGroup.ID(try members.number("group_id")),
            name: try members.text("name"), price: try members.money(cents: "price_cents"),
            allergens: try members.allergens("allergens"), position: try members.int("position"),
            archivedAt: try members.optionalTimestamp("archived_at"),
            variantPrices: try members.decoded("variant_prices", as: [VariantPrice].self) ?? [],
            stockLeft: try members.optionalNumber("stock_left").map { Int($0) },
            stockUntil: try members.optionalTimestamp("stock_until"))
    }
}
