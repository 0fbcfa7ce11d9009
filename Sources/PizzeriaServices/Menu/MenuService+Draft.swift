import Foundation
import PizzeriaStorage

// The sheet's menu choices, saved with the item in the sheet's transaction.
extension MenuService {
    /// The edit sheet's draft of an item: every field it has — name, price, category,
    /// allergens, variants with their prices and default, the groups it offers — at its current
    /// version, so the sheet shows them and a save keeps what was not changed.
    static func wholeDraft(editing id: Pizza.ID, in db: Connection) throws -> PizzaDraft {
        let pizza = try required(id, in: db)
        var draft = PizzaDraft(editing: pizza)
        draft.categoryID = pizza.categoryID
        draft.allergens = pizza.allergens
        draft.variants = try VariantStore.variants(of: id, in: db).map {
            PizzaDraft.VariantLine(name: $0.name, price: $0.price, isDefault: $0.isDefault)
        }
        draft.modifierGroupIDs = try ModifierStore.attachedGroups(of: id, in: db).map(\.id)
        return draft
    }

    /// Applies a saved draft's allergens, variants and modifier groups (each when the draft sets it)
    /// to the item: the variants and groups become exactly the draft's.
    static func applyChoices(of draft: PizzaDraft, to pizza: Pizza.ID, in db: Connection) throws {
        let item = try required(pizza, in: db)
        if let allergens = draft.allergens, allergens != item.allergens {
            try ModifierStore.setAllergens(allergens, of: pizza, in: db)
        }
        if let lines = draft.variants { try syncVariants(lines, of: item, in: db) }
        if let wanted = draft.modifierGroupIDs {
            let groups = try ModifierStore.groups(in: db)
            for id in wanted where !groups.contains(where: { $0.id == id }) {
                throw MenuError.partNotFound(
                    part: "modifier group", name: id.description, place: "the menu", known: groups.map(\.name))
            }
            let current = try ModifierStore.groups(of: pizza, in: db).map(\.id)
            for id in wanted where !current.contains(id) { _ = try ModifierStore.attach(id, to: pizza, in: db) }
            for id in current where !wanted.contains(id) { _ = try ModifierStore.detach(id, from: pizza, in: db) }
        }
    }

    /// Makes the item's variants the lines: the default first (the current default takes its name
    /// and price when no variant has that name), then the others matched by name or added, then
    /// those left out removed — refused for one that booked lines name.
    static func syncVariants(_ lines: [PizzaDraft.VariantLine], of item: Pizza, in db: Connection) throws {
        var existing = try VariantStore.variants(of: item.id, in: db)
        func match(_ name: String) -> Variant? {
            existing.first { PizzaName.foldKey($0.name) == PizzaName.foldKey(PizzaName.normalize(name)) }
        }
        let ordered = lines.filter(\.isDefault) + lines.filter { !$0.isDefault }
        var kept: Set<Variant.ID> = []
        for line in ordered {
            let position = min((lines.firstIndex(of: line) ?? 0) + 1, Variant.maximumPosition)
            let name = PizzaName.normalize(line.name)
            let target =
                match(name) ?? (line.isDefault ? existing.first(where: { $0.isDefault && !kept.contains($0.id) }) : nil)
            if let target {
                let changed = Variant(
                    id: target.id, pizzaID: item.id, name: name, price: line.price, position: position,
                    isDefault: line.isDefault)
                if changed != target { try VariantStore.update(changed, in: db) }
                kept.insert(target.id)
            } else {
                let added = try VariantStore.insert(
                    pizza: item.id, name: name, price: line.price, position: position, isDefault: line.isDefault, in: db
                )
                kept.insert(added.id)
            }
            existing = try VariantStore.variants(of: item.id, in: db)
        }
        for variant in existing where !kept.contains(variant.id) {
            guard try !VariantStore.isBooked(variant.id, in: db) else {
                throw MenuError.partRefused(
                    "variants: \(item.name) \(variant.name) is on booked order lines; keep it in the list (rename or reprice it)"
                )
            }
            try VariantStore.delete(variant.id, in: db)
        }
    }
}
