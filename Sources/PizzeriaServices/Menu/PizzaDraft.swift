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
        PizzaName.problems(PizzaName.normalize(name)) + Self.priceProblems(price)
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
