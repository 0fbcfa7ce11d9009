import Foundation
import PizzeriaStorage

/// A named set of choices attached to items — `Aggiunte` (extras, 0 to 3), `Senza` (removals at
/// 0.00), `Impasto` (exactly one dough) — saying how many of its modifiers one order line takes.
///
/// JSON: `{"id", "name", "kind", "default_modifier_id", "min_selected", "max_selected", "position",
/// "modifiers": [...]}`.
public struct ModifierGroup: Sendable, Hashable, Identifiable, Record {
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
    public internal(set) var id: ID = ID(0)
    /// 1 to 40 characters, unique ignoring case.
    public internal(set) var name: String = ""
    /// The fewest of its modifiers a line takes (1 for a required choice).
    public internal(set) var minSelected: Int = 0
    /// The most of its modifiers a line takes.
    public internal(set) var maxSelected: Int = 0
    /// Where it is offered among an item's groups.
    public internal(set) var position: Int = 0
    /// What its modifiers do to a line.
    public internal(set) var kind: Kind = .extra
    /// A choice's default: the modifier a line takes when it names none of the group.
    public internal(set) var defaultModifier: Modifier.ID?
    /// Its modifiers, archived ones included, in menu order.
    public internal(set) var modifiers: [Modifier] = []

    /// A value from its parts (rows are read through its members, see ``Record``).
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

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members, declared once for its rows, its JSON and its CSV (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.member("default_modifier_id", &defaultModifier)
        try visitor.member("id", &id, absent: nil)
        try visitor.member("kind", raw: &kind, absent: .extra)
        try visitor.member("max_selected", &maxSelected)
        try visitor.member("min_selected", &minSelected)
        try visitor.member("modifiers", assembled: &modifiers)
        try visitor.member("name", &name)
        try visitor.member("position", &position)
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
}

/// One choice of a group: `bufala` +2.00, `basilico` (senza) 0.00, `integrale` +1.00 — with the
/// allergens it brings, and a price per variant name where it differs (bufala on a Maxi: 3.00).
///
/// JSON: `{"id", "group_id", "name", "price", "price_cents", "allergens": ["milk"], "position",
/// "archived_at", "stock_left", "stock_until", "variant_prices": [{"variant": "Maxi", "price_cents": 300}]}`.
public struct Modifier: Sendable, Hashable, Identifiable, Record {
    /// A modifier's id.
    public typealias ID = RowNumber<Modifier>

    /// The longest name, in Unicode scalars.
    public static let maximumNameLength = 40

    /// A modifier's price on the variants of one name.
    public struct VariantPrice: Sendable, Hashable, Record {
        /// The variant's name (`Maxi`), matched ignoring case.
        public internal(set) var variant = ""
        /// What the modifier costs on it.
        public internal(set) var price = Money(cents: 0)

        /// A price.
        public init(variant: String, price: Money) { (self.variant, self.price) = (variant, price) }

        /// A value for a reader to fill (see ``Record``).
        public init(blank: RecordBlank) {}

        /// `{"price_cents", "variant"}`, declared once (see ``Record``).
        public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
            try visitor.member("price_cents", cents: &price)
            try visitor.member("variant", &variant)
        }
    }

    /// Its id.
    public internal(set) var id: ID = ID(0)
    /// Its group.
    public internal(set) var groupID: ModifierGroup.ID = ModifierGroup.ID(0)
    /// 1 to 40 characters, unique in its group ignoring case.
    public internal(set) var name: String = ""
    /// What it adds to a line's unit price: 0.00 to ``Money/maximumModifier``.
    public internal(set) var price: Money = Money(cents: 0)
    /// The allergens it brings to a line.
    public internal(set) var allergens: Set<Allergen> = []
    /// Where it is offered in its group.
    public internal(set) var position: Int = 0
    /// When it was taken off; `nil` while offered.
    public internal(set) var archivedAt: Date?
    /// Its prices on variants of a given name, where they differ from ``price``.
    public internal(set) var variantPrices: [VariantPrice] = []
    /// How many more lines' worth can be booked for pickups before ``stockUntil`` (0: sold out).
    public internal(set) var stockLeft: Int?
    /// When the limit ends.
    public internal(set) var stockUntil: Date?

    /// A value from its parts (rows are read through its members, see ``Record``).
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

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members, declared once for its rows, its JSON and its CSV (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.member("allergens", allergens: &allergens)
        try visitor.member("archived_at", timestamp: &archivedAt)
        try visitor.member("group_id", &groupID, absent: nil)
        try visitor.member("id", &id, absent: nil)
        try visitor.member("name", &name)
        try visitor.member("position", &position)
        try visitor.derived("price", plain: price)
        try visitor.member("price_cents", cents: &price)
        try visitor.member("stock_left", &stockLeft)
        try visitor.member("stock_until", timestamp: &stockUntil)
        try visitor.member("variant_prices", objects: &variantPrices)
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
}
