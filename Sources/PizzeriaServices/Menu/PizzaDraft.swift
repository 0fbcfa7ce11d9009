import Foundation

/// The state of the add or edit sheet: what the user has typed so far.
///
/// As in the app, an **add** flow starts from ``blank`` (empty name, price 0: invalid until
/// filled) and an **edit** flow from ``init(editing:)``, which remembers the pizza's version so
/// that saving over someone else's change is refused. ``validate()`` returns every field error
/// at once (the app disables its save button while there are any); ``MenuService/save(_:)``
/// validates again and writes; dismissing is simply dropping the draft.
///
/// ```swift
/// var draft = PizzaDraft.blank
/// draft.name = "Diavola"
/// draft.price = try Money.parse("8,50").get()
/// let pizza = try pizzeria.menu.save(draft)
/// ```
public struct PizzaDraft: Sendable, Hashable {
    /// Whether the draft adds a pizza or edits one.
    public enum Mode: Sendable, Hashable {
        /// A new pizza.
        case add
        /// An existing pizza, as it was at `baseVersion`.
        case edit(pizzaID: Pizza.ID, baseVersion: Int)
    }

    /// Add or edit.
    public let mode: Mode
    /// The name as typed (normalised on validation and save).
    public var name: String
    /// The price; zero until filled in.
    public var price: Money
    /// The menu section to put it in; `nil` keeps an edited pizza's and puts a new one in
    /// ``Category/defaultID``.
    public var categoryID: Category.ID?
    /// The EU allergens it contains; `nil` keeps an edited item's (a new one declares none).
    public var allergens: Set<Allergen>?
    /// Its variants, the whole list; `nil` keeps an edited item's (a new one gets `Normale` at
    /// ``price``). With variants the item's price is the default variant's: ``setVariants(_:)``
    /// keeps ``price`` equal to it, and ``validate()`` refuses a draft where they differ.
    public var variants: [VariantLine]?
    /// The modifier groups it offers, the whole list; `nil` keeps an edited item's (a new one offers none).
    public var modifierGroupIDs: [ModifierGroup.ID]?

    /// A variant as the sheet edits it: matched by name to the item's on save.
    public struct VariantLine: Sendable, Hashable, Codable {
        /// Its name.
        public var name: String
        /// Its price.
        public var price: Money
        /// Whether it is the default.
        public var isDefault: Bool

        /// A line.
        public init(name: String, price: Money, isDefault: Bool = false) {
            (self.name, self.price, self.isDefault) = (name, price, isDefault)
        }
    }

    /// Whether it sets allergens, variants or groups.
    var hasChoices: Bool { allergens != nil || variants != nil || modifierGroupIDs != nil }

    /// Sets the variants and the price to the default's (the first when none is marked).
    public mutating func setVariants(_ lines: [VariantLine]) {
        var lines = lines
        if !lines.isEmpty, !lines.contains(where: \.isDefault) { lines[0].isDefault = true }
        variants = lines
        if let first = lines.first(where: \.isDefault) { price = first.price }
    }

    /// Sets the price; with variants, the default variant's price with it (the item's price is
    /// the default's), as a form's one price field does.
    public mutating func setPrice(_ price: Money) {
        self.price = price
        if let index = variants?.firstIndex(where: \.isDefault) { variants?[index].price = price }
    }

    /// A draft in any state; prefer ``blank`` and ``init(editing:)``.
    public init(mode: Mode, name: String, price: Money, categoryID: Category.ID? = nil) {
        self.mode = mode
        self.name = name
        self.price = price
        self.categoryID = categoryID
    }

    /// The add sheet's starting point: empty name, price 0.
    public static let blank = PizzaDraft(mode: .add, name: "", price: Money(cents: 0))

    /// The edit sheet's starting point: the pizza's current values and version.
    public init(editing pizza: Pizza) {
        self.init(mode: .edit(pizzaID: pizza.id, baseVersion: pizza.version), name: pizza.name, price: pizza.price)
    }

    /// Every rule the draft breaks, name errors first, then price; empty when it can be saved
    /// (uniqueness of the name is checked on save, against the database).
    public func validate() -> [FieldError] {
        PizzaName.problems(PizzaName.normalize(name)) + Self.priceProblems(price) + variantProblems()
    }

    /// The variants' rules: 1 to ``Variant/maximumPerItem``, names unique ignoring case, each
    /// price valid, one default whose price is ``price``.
    func variantProblems() -> [FieldError] {
        guard let variants else { return [] }
        guard (1...Variant.maximumPerItem).contains(variants.count) else {
            return [FieldError(field: "variants", message: "must be 1 to \(Variant.maximumPerItem)")]
        }
        var problems: [FieldError] = []
        var names: Set<String> = []
        for (index, line) in variants.enumerated() {
            let name = PizzaName.normalize(line.name)
            problems += Variant.problems(name: name, price: line.price, position: nil).map {
                FieldError(field: "variants[\(index)].\($0.field)", message: $0.message)
            }
            if !names.insert(PizzaName.foldKey(name)).inserted {
                problems.append(FieldError(field: "variants[\(index)].name", message: "names a variant twice"))
            }
        }
        let defaults = variants.filter(\.isDefault)
        if defaults.count != 1 {
            problems.append(
                FieldError(field: "variants", message: "must have exactly one default, not \(defaults.count)"))
        } else if let first = defaults.first, first.price != price {
            problems.append(
                FieldError(
                    field: "price",
                    message: "is the default variant's price (\(first.price.formatted)), not \(price.formatted)"))
        }
        return problems
    }

    /// Whether ``validate()`` finds nothing.
    public var isValid: Bool { validate().isEmpty }

    static func priceProblems(_ price: Money) -> [FieldError] {
        if price.cents <= 0 { return [FieldError(field: "price", message: "must be greater than 0")] }
        if price > Money.maximum {
            return [FieldError(field: "price", message: "must be at most \(Money.maximum.formatted)")]
        }
        return []
    }
}

extension PizzaDraft {
    /// The draft's menu choices as a sheet stores them (`navigation_sheets.draft_choices`).
    struct Choices: Codable {
        struct Line: Codable {
            let name: String
            let priceCents: Int64
            let isDefault: Bool

            enum CodingKeys: String, CodingKey {
                case name
                case priceCents = "price_cents"
                case isDefault = "default"
            }
        }

        var categoryID: Int64?
        var allergens: [String]?
        var variants: [Line]?
        var modifierGroups: [Int64]?

        enum CodingKeys: String, CodingKey {
            case categoryID = "category_id"
            case allergens, variants
            case modifierGroups = "modifier_groups"
        }

        init(_ draft: PizzaDraft) {
            categoryID = draft.categoryID?.rawValue
            allergens = draft.allergens.map(Allergen.codes)
            variants = draft.variants?.map { Line(name: $0.name, priceCents: $0.price.cents, isDefault: $0.isDefault) }
            modifierGroups = draft.modifierGroupIDs?.map(\.rawValue)
        }

        /// The JSON text, or `nil` when the draft sets none of them.
        var stored: String? {
            get throws {
                guard categoryID != nil || allergens != nil || variants != nil || modifierGroups != nil else {
                    return nil
                }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                return String(decoding: try encoder.encode(self), as: UTF8.self)
            }
        }

        func apply(to draft: inout PizzaDraft) throws {
            draft.categoryID = categoryID.map(Category.ID.init)
            draft.allergens = try allergens.map { try Allergen.parse($0.joined(separator: ",")) }
            draft.variants = variants?.map {
                VariantLine(name: $0.name, price: Money(cents: $0.priceCents), isDefault: $0.isDefault)
            }
            draft.modifierGroupIDs = modifierGroups?.map(ModifierGroup.ID.init)
        }
    }
}
