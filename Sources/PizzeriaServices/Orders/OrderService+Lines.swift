import Foundation
import PizzeriaStorage

// What a booking's lines are: the items asked for merged by choice, each snapshotted from the
// menu as it is now (variant, modifiers, allergens, stock), with the refusals a person reads.
extension OrderService {
    /// An item in a request's fingerprint: `PIZZAxQTY` as before variants, then `/VARIANT` and
    /// `+MODIFIER…` (sorted) when chosen, so old keys keep matching their retries.
    static func fingerprint(of item: OrderRequest.Item) -> String {
        "\(item.pizza)" + (item.variant.map { "/\($0)" } ?? "")
            + item.modifiers.sorted().map { "+\($0)" }.joined() + "x\(item.quantity)"
    }

    /// The items with repeats of one choice (item, variant, modifiers) merged, in first-mention order.
    static func merged(_ items: [OrderRequest.Item]) throws -> [OrderRequest.Item] {
        var merged: [OrderRequest.Item] = []
        for item in items {
            if let index = merged.firstIndex(where: { $0.choice == item.choice }) {
                merged[index].quantity += item.quantity
            } else {
                merged.append(item)
            }
        }
        return merged
    }

    /// Each line snapshots its item as it is now: the name, the variant's name and price, the
    /// modifiers' names and prices on that variant, the allergens. An archived item or modifier
    /// cannot be ordered; the modifiers must be offered in the item's groups and keep each group's
    /// bounds; a merged quantity must stay within the maximum.
    /// Sold-out items and modifiers (their limit for `pickup`) are refused, saying when they are back.
    static func snapshot(_ items: [OrderRequest.Item], for pickup: Date, zone: TimeZone, in db: Connection) throws
        -> [OrderLine]
    {
        var lines: [OrderLine] = []
        for item in items {
            guard let pizza = try PizzaStore.snapshot(id: item.pizza, in: db) else {
                throw MenuError.notFound(item.pizza.description)
            }
            guard item.quantity <= OrderRequest.maximumQuantity else {
                throw OrderError.tooMany(name: pizza.name, quantity: item.quantity)
            }
            guard !pizza.isArchived else { throw OrderError.archivedPizza(name: pizza.name) }
            let line = try choose(item, of: pizza, in: db)
            if let left = Stock.left(pizza.stockLeft, until: pizza.stockUntil, for: pickup) {
                let asked = line.quantity + lines.filter { $0.pizzaID == line.pizzaID }.reduce(0) { $0 + $1.quantity }
                guard asked <= left else {
                    throw OrderError.soldOut(
                        name: pizza.name, left: left, requested: asked,
                        until: pizza.stockUntil.map { PickupTime.local($0, in: zone) })
                }
            }
            for chosen in line.modifiers {
                guard let modifier = try ModifierStore.modifier(id: chosen.id, in: db),
                    let left = modifier.left(for: pickup)
                else { continue }
                let asked =
                    line.quantity
                    + lines.filter { $0.modifiers.contains { $0.id == chosen.id } }.reduce(0) { $0 + $1.quantity }
                guard asked <= left else {
                    throw OrderError.soldOut(
                        name: modifier.name, left: left, requested: asked,
                        until: modifier.stockUntil.map { PickupTime.local($0, in: zone) })
                }
            }
            // Two requests that resolve to one choice (the default variant named and not) are one line.
            if let index = lines.firstIndex(where: { $0.choice == line.choice }) {
                let quantity = lines[index].quantity + line.quantity
                guard quantity <= OrderRequest.maximumQuantity else {
                    throw OrderError.tooMany(name: line.label, quantity: quantity)
                }
                lines[index] = lines[index].with(quantity: quantity)
            } else {
                lines.append(line)
            }
        }
        return lines
    }

    /// The line `item` books of `pizza`: its variant (the default when none is named), its
    /// modifiers checked against the item's groups and priced on the variant.
    static func choose(_ item: OrderRequest.Item, of pizza: PizzaStore.BookingSnapshot, in db: Connection) throws
        -> OrderLine
    {
        let variant: (id: Variant.ID, name: String?, price: Money)
        if pizza.variantCount == 1 && (item.variant == nil || item.variant == pizza.defaultVariant.id) {
            variant = (pizza.defaultVariant.id, nil, pizza.defaultVariant.price)
        } else {
            let variants = try VariantStore.variants(of: item.pizza, in: db)
            let wanted = item.variant ?? pizza.defaultVariant.id
            guard let found = variants.first(where: { $0.id == wanted }) else {
                throw ValidationError([
                    FieldError(
                        field: "variant",
                        message: "\(pizza.name) has no variant \(wanted); it has "
                            + variants.map(\.name).joined(separator: ", "))
                ])
            }
            variant = (found.id, variants.count > 1 ? found.name : nil, found.price)
        }
        var chosen: [ChosenModifier] = []
        var allergens = pizza.allergens
        if pizza.hasGroups || !item.modifiers.isEmpty {
            let groups = try ModifierStore.groups(of: item.pizza, in: db)
            let variantName = variant.name ?? pizza.defaultVariant.name
            var wanted = Set(item.modifiers)
            for group in groups {
                let picked = group.modifiers.filter { wanted.contains($0.id) }
                for modifier in picked {
                    wanted.remove(modifier.id)
                    guard !modifier.isArchived else {
                        throw OrderError.archivedModifier(item: pizza.name, modifier: modifier.name)
                    }
                    chosen.append(
                        ChosenModifier(
                            id: modifier.id, group: group.name, name: modifier.name,
                            price: modifier.price(on: variantName)))
                    allergens.formUnion(modifier.allergens)
                }
                guard (group.minSelected...group.maxSelected).contains(picked.count) else {
                    let offered = group.offered.map(\.name).joined(separator: ", ")
                    throw ValidationError([
                        FieldError(
                            field: "modifiers",
                            message:
                                "\(pizza.name) takes \(group.ruleText) of \(group.name) (\(offered)), not \(picked.count)"
                        )
                    ])
                }
            }
            if let stray = wanted.first {
                let name = try ModifierStore.modifier(id: stray, in: db)?.name ?? "modifier \(stray)"
                let offered = groups.flatMap(\.offered).map(\.name)
                throw ValidationError([
                    FieldError(
                        field: "modifiers",
                        message: "'\(name)' is not offered with \(pizza.name)"
                            + (offered.isEmpty
                                ? " (it has no modifiers)" : "; it offers " + offered.joined(separator: ", ")))
                ])
            }
        }
        let unit = variant.price.cents + chosen.reduce(0) { $0 + $1.price.cents }
        guard unit <= Money.maximum.cents else {
            throw ValidationError([
                FieldError(
                    field: "modifiers",
                    message: "would make one \(pizza.name) cost more than \(Money.maximum.formatted)")
            ])
        }
        return OrderLine(
            pizzaID: item.pizza, pizzaName: pizza.name, unitPrice: Money(cents: unit), quantity: item.quantity,
            usesOven: pizza.usesOven, variantID: variant.id, variantName: variant.name, basePrice: variant.price,
            modifiers: chosen, allergens: allergens)
    }
}
