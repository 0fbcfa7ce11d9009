import Foundation
import PizzeriaStorage

/// The add-pizza and edit-pizza sheets, presented over a user's stack and kept between runs.
extension NavigationService {
    /// Which sheet to open.
    public enum SheetRequest: Sendable {
        /// A blank draft.
        case addPizza
        /// A draft of this pizza, at its current version.
        case editPizza(Pizza.ID)
    }

    /// Opens a sheet. Only one sheet at a time.
    /// - Throws: ``NavigationError/sheetAlreadyOpen(kind:)``; ``MenuError/notFound(_:)``.
    @discardableResult
    public func openSheet(_ user: User.ID, _ request: SheetRequest) throws -> NavigationState {
        try sheetChange(user, action: .sheetOpen) { db, user, sheet, now in
            if let sheet { throw NavigationError.sheetAlreadyOpen(kind: sheet.kind) }
            let draft: PizzaDraft
            switch request {
            case .addPizza: draft = .blank
            case .editPizza(let id): draft = try MenuService.wholeDraft(editing: id, in: db)
            }
            try NavigationStore.openSheet(draft, userID: user, at: now, in: db)
            if case .edit(let id, _) = draft.mode { return ([.route(.pizza(id: id))], "edit_pizza") }
            return ([], "add_pizza")
        }
    }

    /// What `setSheet` changes of the draft's menu choices (each `nil`: unchanged).
    public struct SheetChoices: Sendable, Hashable {
        /// The menu section.
        public var category: Category.ID?
        /// The allergens.
        public var allergens: Set<Allergen>?
        /// The variants, the whole list (the price follows the default's).
        public var variants: [PizzaDraft.VariantLine]?
        /// The modifier groups, the whole list.
        public var modifierGroups: [ModifierGroup.ID]?

        /// Changes.
        public init(
            category: Category.ID? = nil, allergens: Set<Allergen>? = nil, variants: [PizzaDraft.VariantLine]? = nil,
            modifierGroups: [ModifierGroup.ID]? = nil
        ) {
            (self.category, self.allergens, self.variants, self.modifierGroups) = (
                category, allergens, variants, modifierGroups
            )
        }
    }

    /// Changes the open sheet's draft. The draft may be invalid: that is what the form shows.
    /// - Throws: ``NavigationError/noSheet``.
    @discardableResult
    public func setSheet(
        _ user: User.ID, name: String? = nil, price: Money? = nil, choices: SheetChoices = SheetChoices()
    ) throws -> NavigationState {
        try sheetChange(user, action: .sheetSet) { db, user, sheet, now in
            guard let sheet else { throw NavigationError.noSheet }
            var draft = sheet.draft
            if let name { draft.name = name }
            if let price { draft.setPrice(price) }
            if let category = choices.category { draft.categoryID = category }
            if let allergens = choices.allergens { draft.allergens = allergens }
            if let variants = choices.variants { draft.setVariants(variants) }
            if let groups = choices.modifierGroups { draft.modifierGroupIDs = groups }
            try NavigationStore.updateSheet(draft, userID: user, at: now, in: db)
            let detail = [
                name.map { "name=\($0)" }, price.map { "price=\($0.plain)" },
                choices.category.map { "category=\($0)" },
                choices.allergens.map { "allergens=" + Allergen.codes($0).joined(separator: ",") },
                choices.variants.map { "variants=" + $0.map { "\($0.name):\($0.price.plain)" }.joined(separator: ",") },
                choices.modifierGroups.map { "groups=" + $0.map(\.description).joined(separator: ",") },
            ]
            return ([], String(detail.compactMap { $0 }.joined(separator: " ").prefix(1_000)))
        }
    }

    /// Saves the sheet: runs the menu's validation; when valid, saves the pizza and dismisses the
    /// sheet in the same transaction.
    /// - Returns: the saved pizza and the state after.
    /// - Throws: ``ValidationError`` (the sheet stays open, unchanged); ``MenuError`` for a
    ///   duplicate name or an edit conflict (the sheet stays open); ``NavigationError/noSheet``.
    public func saveSheet(_ user: User.ID) throws -> (pizza: Pizza, state: NavigationState) {
        var saved: Pizza?
        let state = try sheetChange(user, action: .sheetSave) { db, user, sheet, now in
            guard let sheet else { throw NavigationError.noSheet }
            let problems = sheet.draft.validate()
            guard problems.isEmpty else { throw ValidationError(problems) }
            let pizza = try MenuService.save(sheet.draft, at: now, in: db)
            try NavigationStore.closeSheet(userID: user, in: db)
            saved = pizza
            return ([.route(.pizza(id: pizza.id))], sheet.kind)
        }
        guard let saved else { throw NavigationError.noSheet }
        return (saved, state)
    }

    /// The modifier groups the sheet's draft offers, in its order, each with its kind and
    /// default (what the form shows beside each: `Impasto` — a choice, default `classico`);
    /// empty when the draft keeps the item's groups unchanged or offers none.
    public func sheetGroups(_ sheet: Sheet) throws -> [ModifierGroup] {
        guard let ids = sheet.draft.modifierGroupIDs, !ids.isEmpty else { return [] }
        let groups = try database.read { try ModifierStore.groups(in: $0) }
        return ids.compactMap { id in groups.first { $0.id == id } }
    }

    /// Dismisses the sheet, discarding its draft.
    /// - Throws: ``NavigationError/noSheet``.
    @discardableResult
    public func dismissSheet(_ user: User.ID) throws -> NavigationState {
        try sheetChange(user, action: .sheetDismiss) { db, user, sheet, now in
            guard let sheet else { throw NavigationError.noSheet }
            try NavigationStore.closeSheet(userID: user, in: db)
            return ([], sheet.kind)
        }
    }

    /// One write transaction: read the user and their sheet, let `body` act, append the event.
    /// The clock is read once: `body`, the audit trail and the event share one time (a saved
    /// pizza's `updated_at` is the one its history trigger writes).
    private func sheetChange(
        _ user: User.ID, action: NavigationAction,
        _ body: (Connection, User.ID, Sheet?, Date) throws -> (routes: [NavigationElement], detail: String)
    ) throws -> NavigationState {
        let now = now()
        return try refusingErased(user) {
            try database.audited(acting, at: now) { db in
                let before = try Self.state(of: user, in: db)
                let (routes, detail) = try body(db, user, before.sheet, now)
                try NavigationStore.appendEvent(
                    userID: user, action: action, routes: routes, depthAfter: before.path.count,
                    topBefore: nil, detail: detail.isEmpty ? nil : detail, at: now, in: db)
                return try Self.state(of: user, in: db)
            }
        }
    }
}
