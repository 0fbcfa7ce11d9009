import Foundation

/// A modifier as an order line booked it: which one, its group's and its own name, and its price
/// on the line's variant — a snapshot, like the line's unit price.
///
/// JSON (and the stored `order_lines.modifiers` array): `{"default", "group", "id", "kind", "name",
/// "price": "2.00", "price_cents"}` (`kind` and `default` are absent from lines booked before
/// groups had kinds: they read as an extra, not a default).
public struct ChosenModifier: Sendable, Hashable, Codable, JSONMembers {
    /// The modifier.
    public let id: Modifier.ID
    /// Its group's name when booked (`Aggiunte`).
    public let group: String
    /// Its name when booked (`bufala`).
    public let name: String
    /// What it added to the unit price.
    public let price: Money
    /// Its group's kind when booked.
    public let kind: ModifierGroup.Kind
    /// Whether it was its choice group's default, taken because the line named none.
    public let isDefault: Bool

    /// A chosen modifier.
    public init(
        id: Modifier.ID, group: String, name: String, price: Money, kind: ModifierGroup.Kind = .extra,
        isDefault: Bool = false
    ) {
        (self.id, self.group, self.name, self.price) = (id, group, name, price)
        (self.kind, self.isDefault) = (kind, isDefault)
    }

    /// How a line prints it — `Aggiunte: bufala`, `senza basilico` — or `nil` for a choice's
    /// default that costs nothing, which goes without saying.
    public var text: String? {
        switch kind {
        case .removal: "senza \(name)"
        case .choice where isDefault && price.cents == 0: nil
        case .extra, .choice: "\(group): \(name)"
        }
    }

    /// How a line lists it under its item — `+ Aggiunte: bufala`; a removal without the plus,
    /// `senza basilico` — or `nil` as ``text``. One home for every view: show, receipt, ticket.
    public var listed: String? { text.map { kind == .removal ? $0 : "+ " + $0 } }

    /// The JSON shape, defined once (see ``JSONMembers``).
    public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        try writer.member("default", isDefault)
        try writer.member("group", group)
        try writer.member("id", id.rawValue)
        try writer.member("kind", kind.rawValue)
        try writer.member("name", name)
        try writer.member("price", plain: price)
        try writer.member("price_cents", price.cents)
    }

    /// The JSON shape.
    public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }

    /// Reads the JSON shape (`price` is for people; `price_cents` is read).
    public init(from decoder: Decoder) throws {
        var members = try ContainerMemberReader(decoder)
        self.init(
            id: Modifier.ID(try members.number("id")), group: try members.text("group"), name: try members.text("name"),
            price: try members.money(cents: "price_cents"),
            kind: try members.optionalText("kind").flatMap(ModifierGroup.Kind.init(rawValue:)) ?? .extra,
            isDefault: try members.optionalFlag("default") ?? false)
    }
}

/// One line of an order: an item in one variant with its chosen modifiers, and how many — with
/// the names and prices as they were at booking time.
public struct OrderLine: Sendable, Hashable, Codable, JSONMembers {
    /// The pizza's id.
    public let pizzaID: Pizza.ID
    /// Its name when the order was booked.
    public let pizzaName: String
    /// One of it: the variant's price plus the modifiers' when booked.
    public let unitPrice: Money
    /// 1–20.
    public let quantity: Int
    /// Whether the item's category used the oven when the line was booked: only such lines
    /// count toward a slot's capacity (a drink does not take a pizza's place).
    public let usesOven: Bool
    /// The variant booked (`nil` only in a value built without one: every stored line has one).
    public let variantID: Variant.ID?
    /// The variant's name when booked; `nil` when the item had only that variant ("2 × Margherita").
    public let variantName: String?
    /// The variant's price when booked (the unit price before modifiers).
    public let basePrice: Money
    /// The modifiers chosen, in the menu's order.
    public let modifiers: [ChosenModifier]
    /// The item's and the modifiers' allergens when booked.
    public let allergens: Set<Allergen>
    /// The VAT rate of the item's category when booked (the shop's default where it had none).
    public let vatRate: VATRate
    /// The kitchen's note on this line (`ben cotta`): 1 to ``OrderEdit/maximumNoteLength``
    /// characters, or `nil`.
    public let note: String?
    /// The station its item's category prepared it at when booked, or `nil`: none (a drink
    /// handed over at the counter).
    public let stationID: Station.ID?

    /// A line.
    public init(
        pizzaID: Pizza.ID, pizzaName: String, unitPrice: Money, quantity: Int, usesOven: Bool = true,
        variantID: Variant.ID? = nil, variantName: String? = nil, basePrice: Money? = nil,
        modifiers: [ChosenModifier] = [], allergens: Set<Allergen> = [], vatRate: VATRate = .standardFood,
        note: String? = nil, stationID: Station.ID? = nil
    ) {
        self.pizzaID = pizzaID
        self.pizzaName = pizzaName
        self.unitPrice = unitPrice
        self.quantity = quantity
        self.usesOven = usesOven
        self.variantID = variantID
        self.variantName = variantName
        self.basePrice = basePrice ?? unitPrice
        self.modifiers = modifiers
        self.allergens = allergens
        self.vatRate = vatRate
        self.note = note
        self.stationID = stationID
    }

    /// quantity × unit price.
    public var total: Money { Money(cents: unitPrice.cents * Int64(quantity)) }

    /// The same line with another quantity.
    public func with(quantity: Int) -> OrderLine {
        OrderLine(
            pizzaID: pizzaID, pizzaName: pizzaName, unitPrice: unitPrice, quantity: quantity, usesOven: usesOven,
            variantID: variantID, variantName: variantName, basePrice: basePrice, modifiers: modifiers,
            allergens: allergens, vatRate: vatRate, note: note, stationID: stationID)
    }

    /// The same line with another note.
    public func with(note: String?) -> OrderLine {
        OrderLine(
            pizzaID: pizzaID, pizzaName: pizzaName, unitPrice: unitPrice, quantity: quantity, usesOven: usesOven,
            variantID: variantID, variantName: variantName, basePrice: basePrice, modifiers: modifiers,
            allergens: allergens, vatRate: vatRate, note: note, stationID: stationID)
    }

    /// What the line takes of its slot's capacity: its quantity when it uses the oven, else 0.
    public var slotUnits: Int { usesOven ? quantity : 0 }

    /// The line for people: `Margherita`, `Margherita Maxi + Aggiunte: bufala + senza basilico` —
    /// an extra or a choice with its group, as an order names it (`GROUP:MODIFIER`), a removal as
    /// `senza NAME`, a choice's default left out (``ChosenModifier/text``).
    public var label: String {
        ([pizzaName + (variantName.map { " " + $0 } ?? "")] + modifiers.compactMap(\.text))
            .joined(separator: " + ")
    }

    /// The label with the line's note, for the kitchen: `Margherita Maxi + senza basilico (ben cotta)`.
    public var labelWithNote: String { label + (note.map { " (\($0))" } ?? "") }

    /// What makes two lines the same choice (merged in a booking): the item, the variant and the
    /// set of modifiers.
    public var choice: LineChoice {
        LineChoice(pizza: pizzaID, variant: variantID, modifiers: Set(modifiers.map(\.id)), note: note)
    }

    /// JSON with prices as `"6.00"` plus `*_cents`, defined once (see ``JSONMembers``).
    public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        try writer.member("allergens", encoded: Allergen.codes(allergens))
        try writer.member("base_price_cents", basePrice.cents)
        try writer.member("line_total", plain: total)
        try writer.member("line_total_cents", total.cents)
        try writer.member("modifiers", objects: modifiers)
        try writer.member("name", pizzaName)
        try writer.member("note", note)
        try writer.member("pizza_id", id: pizzaID)
        try writer.member("quantity", quantity)
        try writer.member("station_id", stationID.map { Int($0.rawValue) })
        try writer.member("unit_price", plain: unitPrice)
        try writer.member("unit_price_cents", unitPrice.cents)
        try writer.member("uses_oven", usesOven)
        try writer.member("variant", variantName)
        try writer.member("variant_id", variantID.map { Int($0.rawValue) })
        try writer.member("vat_rate_bp", vatRate.basisPoints)
    }

    /// The JSON shape.
    public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }

    /// Reads the JSON shape.
    public init(from decoder: Decoder) throws {
        var members = try ContainerMemberReader(decoder)
        try self.init(reading: &members)
    }
}

/// What an order line is of: an item, its variant and a set of modifiers. Two requests for the
/// same choice are one line.
public struct LineChoice: Sendable, Hashable {
    /// The item.
    public let pizza: Pizza.ID
    /// The variant (`nil`: the item's default).
    public let variant: Variant.ID?
    /// The modifiers.
    public let modifiers: Set<Modifier.ID>
    /// The line's note: a Margherita `ben cotta` and a plain one are two lines.
    public let note: String?

    /// A choice.
    public init(pizza: Pizza.ID, variant: Variant.ID?, modifiers: Set<Modifier.ID>, note: String? = nil) {
        (self.pizza, self.variant, self.modifiers, self.note) = (pizza, variant, modifiers, note)
    }
}

extension OrderLine: StoredMembers {
    static let table = "order_lines"

    /// The stored members, read once for rows of `order_lines` (`pizza_name AS name`,
    /// `variant_name AS variant`) and for JSON (where members added by later migrations may be
    /// absent).
    init<Reader: MemberReader>(reading members: inout Reader) throws {
        let unitPrice = try members.money(cents: "unit_price_cents")
        self.init(
            pizzaID: try members.id("pizza_id"), pizzaName: try members.text("name"),
            unitPrice: unitPrice, quantity: try members.int("quantity"),
            usesOven: try members.optionalFlag("uses_oven") ?? true,
            variantID: try members.optionalNumber("variant_id").map(Variant.ID.init),
            variantName: try members.optionalText("variant"),
            basePrice: try members.optionalMoney(cents: "base_price_cents") ?? unitPrice,
            modifiers: try members.decoded("modifiers", as: [ChosenModifier].self) ?? [],
            allergens: try members.allergens("allergens"),
            vatRate: try members.optionalNumber("vat_rate_bp").flatMap { VATRate(basisPoints: Int($0)) }
                ?? .standardFood,
            note: try members.optionalText("note"),
            stationID: try members.optionalNumber("station_id").map(Station.ID.init))
    }
}
