import Foundation

/// A modifier as an order line booked it: which one, its group's and its own name, and its price
/// on the line's variant — a snapshot, like the line's unit price.
///
/// JSON (and the stored `order_lines.modifiers` array): `{"default", "group", "id", "kind", "name",
/// "price": "2.00", "price_cents"}` (`kind` and `default` are absent from lines booked before
/// groups had kinds: they read as an extra, not a default).
public struct ChosenModifier: Sendable, Hashable, Record {
    /// The modifier.
    public internal(set) var id: Modifier.ID = Modifier.ID(0)
    /// Its group's name when booked (`Aggiunte`).
    public internal(set) var group: String = ""
    /// Its name when booked (`bufala`).
    public internal(set) var name: String = ""
    /// What it added to the unit price.
    public internal(set) var price: Money = Money(cents: 0)
    /// Its group's kind when booked.
    public internal(set) var kind: ModifierGroup.Kind = .extra
    /// Whether it was its choice group's default, taken because the line named none.
    public internal(set) var isDefault: Bool = false

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

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members, declared once (see ``Record``); `price` is for people, `price_cents` is read.
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.member("default", &isDefault, absent: false)
        try visitor.member("group", &group)
        try visitor.member("id", &id, absent: nil)
        try visitor.member("kind", raw: &kind, absent: .extra)
        try visitor.member("name", &name)
        try visitor.derived("price", plain: price)
        try visitor.member("price_cents", cents: &price)
    }
}

/// One line of an order: an item in one variant with its chosen modifiers, and how many — with
/// the names and prices as they were at booking time.
public struct OrderLine: Sendable, Hashable, Record {
    /// The pizza's id.
    public internal(set) var pizzaID: Pizza.ID = .blank
    /// Its name when the order was booked.
    public internal(set) var pizzaName: String = ""
    /// One of it: the variant's price plus the modifiers' when booked.
    public internal(set) var unitPrice: Money = Money(cents: 0)
    /// 1–20.
    public internal(set) var quantity: Int = 0
    /// Whether the item's category used the oven when the line was booked: only such lines
    /// count toward a slot's capacity (a drink does not take a pizza's place).
    public internal(set) var usesOven: Bool = true
    /// The variant booked (`nil` only in a value built without one: every stored line has one).
    public internal(set) var variantID: Variant.ID?
    /// The variant's name when booked; `nil` when the item had only that variant ("2 × Margherita").
    public internal(set) var variantName: String?
    /// The variant's price when booked (the unit price before modifiers).
    public internal(set) var basePrice: Money = Money(cents: 0)
    /// The modifiers chosen, in the menu's order.
    public internal(set) var modifiers: [ChosenModifier] = []
    /// The item's and the modifiers' allergens when booked.
    public internal(set) var allergens: Set<Allergen> = []
    /// The VAT rate of the item's category when booked (the shop's default where it had none).
    public internal(set) var vatRate: VATRate = .standardFood
    /// The kitchen's note on this line (`ben cotta`): 1 to ``OrderEdit/maximumNoteLength``
    /// characters, or `nil`.
    public internal(set) var note: String?
    /// The station its item's category prepared it at when booked, or `nil`: none (a drink
    /// handed over at the counter).
    public internal(set) var stationID: Station.ID?

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
        var annotations = annotations
        annotations.note = note
        return with(annotations: annotations)
    }

    /// What the line carries in words beyond its item (``LineAnnotations``): its members that are
    /// words, as one value.
    public var annotations: LineAnnotations { LineAnnotations(note: note) }

    /// The same line with other annotations.
    public func with(annotations: LineAnnotations) -> OrderLine {
        var line = self
        line.note = annotations.note
        return line
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

    /// The label with the line's remarks, for the kitchen: `Margherita Maxi + senza basilico (ben cotta)`.
    public var labelWithNote: String { label + remarks.map { " (\($0.text))" }.joined() }

    /// What the line says beyond its item, variant and modifiers (its ``annotations``), in the
    /// order every view shows them: `order show` prints each as `LABEL: TEXT`, the kitchen's
    /// ticket as `>> TEXT`, the receipt as `(TEXT)`, the board and the order's summary in the
    /// line's label (``labelWithNote``).
    public var remarks: [LineRemark] { annotations.remarks }

    /// The line as its customer may read it: without the annotations that are staff text.
    public var forCustomer: OrderLine { with(annotations: annotations.forCustomer) }

    /// What makes two lines the same choice (merged in a booking): the item, the variant, the
    /// set of modifiers and the annotations.
    public var choice: LineChoice {
        LineChoice(pizza: pizzaID, variant: variantID, modifiers: Set(modifiers.map(\.id)), annotations: annotations)
    }

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members, declared once for its rows of `order_lines` (`pizza_name AS name`,
    /// `variant_name AS variant`) and its JSON, with prices as `"6.00"` plus `*_cents` (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.member("allergens", allergens: &allergens)
        var basePrice: Money? = self.basePrice
        try visitor.member("base_price_cents", cents: &basePrice)
        self.basePrice = basePrice ?? Self.unreadBasePrice
        try visitor.derived("line_total", plain: total)
        try visitor.derived("line_total_cents", total.cents)
        try visitor.member("modifiers", objects: &modifiers)
        try visitor.member("name", &pizzaName)
        try visitor.member("note", &note)
        try visitor.member("pizza_id", &pizzaID)
        try visitor.member("quantity", &quantity)
        try visitor.member("station_id", &stationID)
        try visitor.derived("unit_price", plain: unitPrice)
        try visitor.member("unit_price_cents", cents: &unitPrice)
        try visitor.member("uses_oven", &usesOven, absent: true)
        try visitor.member("variant", &variantName)
        try visitor.member("variant_id", &variantID)
        try visitor.member("vat_rate_bp", basisPoints: &vatRate, absent: .standardFood)
    }

    /// A base price JSON of an older version lacks (no price is negative): read as the unit price.
    private static let unreadBasePrice = Money(cents: -1)

    /// Reads a missing base price as the unit price (lines booked before variants had prices).
    public mutating func didReadMembers() {
        if basePrice == Self.unreadBasePrice { basePrice = unitPrice }
    }
}

/// One thing an order line says beyond its item, variant and modifiers (``OrderLine/remarks``).
public struct LineRemark: Sendable, Hashable {
    /// What it is, as `order show` names it (`note`).
    public let label: String
    /// What it says (`ben cotta`).
    public let text: String
    /// Whether it is the staff's words, left out of what a customer is sent.
    public let isStaffText: Bool

    /// A remark.
    public init(label: String, text: String, isStaffText: Bool) {
        (self.label, self.text, self.isStaffText) = (label, text, isStaffText)
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
    /// The line's annotations: a Margherita `ben cotta` and a plain one are two lines.
    public let annotations: LineAnnotations
    /// The line's note (of its ``annotations``).
    public var note: String? { annotations.note }

    /// A choice.
    public init(pizza: Pizza.ID, variant: Variant.ID?, modifiers: Set<Modifier.ID>, note: String? = nil) {
        self.init(pizza: pizza, variant: variant, modifiers: modifiers, annotations: LineAnnotations(note: note))
    }

    /// A choice with its annotations.
    public init(pizza: Pizza.ID, variant: Variant.ID?, modifiers: Set<Modifier.ID>, annotations: LineAnnotations) {
        (self.pizza, self.variant, self.modifiers, self.annotations) = (pizza, variant, modifiers, annotations)
    }
}

extension OrderLine: StoredMembers {
    static let table = "order_lines"
}
