import Foundation

/// What to book: a user, pizzas and quantities, a pickup time, optionally an idempotency key.
///
/// ```swift
/// let request = OrderRequest(user: anna.id, items: [.init(pizza: margherita.id, quantity: 2)],
///                            pickup: try pizzeria.orders.pickup(parsing: "19:30"), idempotencyKey: "app-7f3a")
/// let (order, created) = try pizzeria.orders.place(request)
/// ```
public struct OrderRequest: Sendable, Hashable {
    /// One item in one variant with its modifiers, and how many.
    public struct Item: Sendable, Hashable {
        /// The pizza.
        public var pizza: Pizza.ID
        /// 1–20.
        public var quantity: Int
        /// The variant; `nil` for the item's default.
        public var variant: Variant.ID?
        /// The modifiers chosen (each at most once), from the item's groups.
        public var modifiers: [Modifier.ID]
        /// What its line carries in words (``LineAnnotations``): part of the line's choice, so a
        /// noted Margherita and a plain one are two lines.
        public var annotations: LineAnnotations
        /// The kitchen's note on its line (`ben cotta`), 1–200 characters (of its ``annotations``).
        public var note: String? {
            get { annotations.note }
            set { annotations.note = newValue }
        }

        /// An item.
        public init(
            pizza: Pizza.ID, quantity: Int = 1, variant: Variant.ID? = nil, modifiers: [Modifier.ID] = [],
            note: String? = nil
        ) {
            self.init(
                pizza: pizza, quantity: quantity, variant: variant, modifiers: modifiers,
                annotations: LineAnnotations(note: note))
        }

        /// An item with its line's annotations.
        public init(
            pizza: Pizza.ID, quantity: Int = 1, variant: Variant.ID? = nil, modifiers: [Modifier.ID] = [],
            annotations: LineAnnotations
        ) {
            self.pizza = pizza
            self.quantity = quantity
            self.variant = variant
            self.modifiers = modifiers
            self.annotations = annotations
        }

        /// What the item is of, for merging repeats.
        public var choice: LineChoice {
            LineChoice(pizza: pizza, variant: variant, modifiers: Set(modifiers), annotations: annotations.normalized)
        }

        /// The item in a request's fingerprint: `PIZZAxQTY` as before variants, then `/VARIANT`
        /// and `+MODIFIER…` (sorted) when chosen and the annotations' words as given, so old keys
        /// keep matching their retries.
        var fingerprint: String {
            "\(pizza)" + (variant.map { "/\($0)" } ?? "") + modifiers.sorted().map { "+\($0)" }.joined()
                + "x\(quantity)" + annotations.fingerprint
        }
    }

    /// Who books.
    public var user: User.ID
    /// One or more items; the same pizza twice is merged.
    public var items: [Item]
    /// The start of a pickup slot.
    public var pickup: Date
    /// Booking again with the same key and content returns the first order: a retry after a
    /// lost answer never books twice.
    public var idempotencyKey: String?

    /// A request.
    public init(user: User.ID, items: [Item], pickup: Date, idempotencyKey: String? = nil) {
        self.user = user
        self.items = items
        self.pickup = pickup
        self.idempotencyKey = idempotencyKey
    }

    /// The largest quantity of one pizza in one order.
    public static let maximumQuantity = 20
    /// The one quantity rule, for every path that takes a quantity (a booking, an edit, the CLI's
    /// `PIZZA=QTY`): 1 to ``maximumQuantity`` of one pizza in one order. `item` names which one
    /// in the refusal (`item 2`, `Margherita`); without it the refusal quotes the value.
    public static func quantityProblem(_ quantity: Int, of item: String? = nil) -> FieldError? {
        guard !(1...maximumQuantity).contains(quantity) else { return nil }
        let which = item.map { " (\($0): \(quantity))" } ?? ", not \(quantity)"
        return FieldError(field: "quantity", message: "must be from 1 to \(maximumQuantity)\(which)")
    }

    /// The most lines (distinct pizzas) in one order.
    public static let maximumItems = 50
    /// The most pizzas one order can hold (every item at its maximum quantity).
    public static let maximumPizzas = maximumItems * maximumQuantity

    /// The shape rule of a line's modifiers, for every path that takes them: at most
    /// ``ModifierGroup/maximumModifiers``, each once.
    static func modifierProblems(_ modifiers: [Modifier.ID], of item: String) -> [FieldError] {
        if modifiers.count > ModifierGroup.maximumModifiers {
            return [
                FieldError(
                    field: "modifiers",
                    message:
                        "must be at most \(ModifierGroup.maximumModifiers) for one line (\(item): \(modifiers.count))")
            ]
        }
        if Set(modifiers).count != modifiers.count {
            return [FieldError(field: "modifiers", message: "must name each modifier once (\(item))")]
        }
        return []
    }

    /// Shape problems, found without the database.
    func problems() -> [FieldError] {
        var errors: [FieldError] = []
        if items.isEmpty { errors.append(FieldError(field: "items", message: "must name at least one pizza")) }
        if items.count > Self.maximumItems {
            errors.append(FieldError(field: "items", message: "must be at most \(Self.maximumItems)"))
        }
        for (index, item) in items.enumerated() {
            if let problem = Self.quantityProblem(item.quantity, of: "item \(index + 1)") { errors.append(problem) }
            errors += Self.modifierProblems(item.modifiers, of: "item \(index + 1)")
            errors += item.annotations.normalized.problems(of: "item \(index + 1)")
        }
        if let key = idempotencyKey,
            key.isEmpty || key.count > 128 || key.unicodeScalars.contains(where: PizzaName.isForbidden)
        {
            errors.append(FieldError(field: "key", message: "must be 1 to 128 characters without control characters"))
        }
        return errors
    }
}
