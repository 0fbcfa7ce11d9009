import Foundation
import PizzeriaStorage

// What a booking's lines are: the items asked for merged by choice, each snapshotted from the
// menu as it is now (variant, modifiers, allergens, stock), with the refusals a person reads.
extension OrderService {
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

    /// Lines of one choice (item, variant, modifiers, annotations) as one line: two items that differ
    /// only in naming a choice's default (`Marinara` and `Marinara +classico`) book the same line.
    static func mergedByChoice(_ lines: [OrderLine]) throws -> [OrderLine] {
        var merged: [OrderLine] = []
        for line in lines {
            guard let index = merged.firstIndex(where: { $0.choice == line.choice }) else {
                merged.append(line)
                continue
            }
            let quantity = merged[index].quantity + line.quantity
            guard quantity <= OrderRequest.maximumQuantity else {
                throw OrderError.tooMany(name: line.label, quantity: quantity)
            }
            merged[index] = merged[index].with(quantity: quantity)
        }
        return merged
    }

    /// The modifiers a line of `item` books: those it names, and each choice group's default
    /// where it names nothing of that group — the rule ``snapshot(_:for:zone:in:)`` applies,
    /// read here so an edit finds the line an item means (a line booked without naming its dough
    /// carries the default, and `--add Marinara` grows it instead of making a second one).
    static func chosenModifiers(of item: OrderRequest.Item, in db: Connection) throws -> Set<Modifier.ID> {
        var modifiers = Set(item.modifiers)
        let choices = try ModifierStore.attachedGroups(of: item.pizza, in: db).filter {
            $0.kind == .choice && $0.defaultModifier != nil
        }
        guard !choices.isEmpty else { return modifiers }
        var named: Set<ModifierGroup.ID> = []
        for id in item.modifiers {
            if let choice = try ModifierStore.choice(id: id, onVariant: "", in: db) { named.insert(choice.groupID) }
        }
        for group in choices where !named.contains(group.id) {
            guard let id = group.defaultModifier,
                let choice = try ModifierStore.choice(id: id, onVariant: "", in: db), !choice.isArchived
            else { continue }
            modifiers.insert(id)
        }
        return modifiers
    }

    /// Refuses lines that would take more of an item's or a modifier's stock than is left for
    /// `pickup` (the schema's stock triggers refuse the same; this names what and how many): the
    /// lines of a cancelled order booked again, or the pizzas an edit adds to lines it keeps.
    static func requireStock(for lines: [OrderLine], at pickup: Date, zone: TimeZone, in db: Connection) throws {
        var pizzas: [Pizza.ID: Int] = [:], modifiers: [Modifier.ID: Int] = [:]
        for line in lines {
            pizzas[line.pizzaID, default: 0] += line.quantity
            for modifier in line.modifiers { modifiers[modifier.id, default: 0] += line.quantity }
        }
        for (id, asked) in pizzas.sorted(by: { $0.key.description < $1.key.description }) {
            guard let pizza = try PizzaStore.snapshot(id: id, in: db),
                let left = Stock.left(pizza.stockLeft, until: pizza.stockUntil, for: pickup), asked > left
            else { continue }
            throw OrderError.soldOut(
                name: pizza.name, left: left, requested: asked,
                until: pizza.stockUntil.map { PickupTime.local($0, in: zone) })
        }
        for (id, asked) in modifiers.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            guard let modifier = try ModifierStore.modifier(id: id, in: db),
                let left = Stock.left(modifier.stockLeft, until: modifier.stockUntil, for: pickup), asked > left
            else { continue }
            throw OrderError.soldOut(
                name: modifier.name, left: left, requested: asked,
                until: modifier.stockUntil.map { PickupTime.local($0, in: zone) })
        }
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
            let pizza = try bookable(item, in: db)
            guard item.quantity <= OrderRequest.maximumQuantity else {
                throw OrderError.tooMany(name: pizza.name, quantity: item.quantity)
            }
            guard !pizza.isArchived else { throw OrderError.archivedPizza(name: pizza.name) }
            let (chosen, choices) = try choose(item, of: pizza, in: db)
            let line = chosen.with(annotations: item.annotations.normalized)
            if let left = Stock.left(pizza.stockLeft, until: pizza.stockUntil, for: pickup) {
                let asked = line.quantity + lines.filter { $0.pizzaID == line.pizzaID }.reduce(0) { $0 + $1.quantity }
                guard asked <= left else {
                    throw OrderError.soldOut(
                        name: pizza.name, left: left, requested: asked,
                        until: pizza.stockUntil.map { PickupTime.local($0, in: zone) })
                }
            }
            for choice in choices {
                guard let left = Stock.left(choice.stockLeft, until: choice.stockUntil, for: pickup) else { continue }
                let asked =
                    line.quantity
                    + lines.filter { $0.modifiers.contains { $0.id == choice.id } }.reduce(0) { $0 + $1.quantity }
                guard asked <= left else {
                    throw OrderError.soldOut(
                        name: choice.name, left: left, requested: asked,
                        until: choice.stockUntil.map { PickupTime.local($0, in: zone) })
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

    /// The item `item` names with the variant it books (one row): the variant named, else the
    /// default. An unknown item, or a variant that is not the item's, is refused naming what there is.
    static func bookable(_ item: OrderRequest.Item, in db: Connection) throws -> PizzaStore.BookingSnapshot {
        if let found = try PizzaStore.snapshot(id: item.pizza, variant: item.variant, in: db) { return found }
        guard let pizza = try PizzaStore.snapshot(id: item.pizza, in: db) else {
            throw MenuError.notFound(item.pizza.description)
        }
        let variants = try VariantStore.variants(of: item.pizza, in: db)
        throw ValidationError([
            FieldError(
                field: "variant",
                message: "\(pizza.name) has no variant \(item.variant.map(\.description) ?? "");"
                    + " it has " + variants.map(\.name).joined(separator: ", "))
        ])
    }

    /// The line `item` books of `pizza` (read with its variant): its modifiers checked against
    /// the item's groups — each named modifier read once, priced on the variant — with what a
    /// stock check needs of them.
    static func choose(_ item: OrderRequest.Item, of pizza: PizzaStore.BookingSnapshot, in db: Connection) throws
        -> (OrderLine, [ModifierStore.Choice])
    {
        let variant = pizza.variant
        var chosen: [ChosenModifier] = []
        var choices: [ModifierStore.Choice] = []
        var allergens = pizza.allergens
        if pizza.hasGroups || !item.modifiers.isEmpty {
            let groups = try ModifierStore.attachedGroups(of: item.pizza, in: db)
            var counts: [ModifierGroup.ID: Int] = [:]
            for id in item.modifiers {
                guard let choice = try ModifierStore.choice(id: id, onVariant: variant.name, in: db),
                    groups.contains(where: { $0.id == choice.groupID })
                else { throw try notOffered(id, with: pizza, item: item.pizza, in: db) }
                guard !choice.isArchived else {
                    throw OrderError.archivedModifier(item: pizza.name, modifier: choice.name)
                }
                counts[choice.groupID, default: 0] += 1
                choices.append(choice)
                allergens.formUnion(choice.allergens)
            }
            // A choice the line names nothing of takes its default.
            for group in groups where group.kind == .choice && counts[group.id] == nil {
                guard let id = group.defaultModifier,
                    let choice = try ModifierStore.choice(id: id, onVariant: variant.name, in: db), !choice.isArchived
                else { continue }
                counts[group.id] = 1
                choices.append(choice)
                allergens.formUnion(choice.allergens)
            }
            // In the groups' order, as the schema's JSON and the receipt list them.
            for group in groups {
                for choice in choices.filter({ $0.groupID == group.id }).sorted(by: {
                    ($0.position, $0.id) < ($1.position, $1.id)
                }) {
                    chosen.append(choice.chosen)
                }
                let picked = counts[group.id] ?? 0
                guard (group.minSelected...group.maxSelected).contains(picked) else {
                    let offered = try ModifierStore.groups(of: item.pizza, in: db).first { $0.id == group.id }?.offered
                    let names = (offered ?? []).map(\.name).joined(separator: ", ")
                    throw ValidationError([
                        FieldError(
                            field: "modifiers",
                            message: "\(pizza.name) takes \(group.ruleText) of \(group.name) (\(names)), not \(picked)")
                    ])
                }
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
        let line = OrderLine(
            pizzaID: item.pizza, pizzaName: pizza.name, unitPrice: Money(cents: unit), quantity: item.quantity,
            usesOven: pizza.usesOven, variantID: variant.id, variantName: pizza.variantCount > 1 ? variant.name : nil,
            basePrice: variant.price, modifiers: chosen, allergens: allergens, vatRate: pizza.vatRate,
            stationID: pizza.stationID)
        return (line, choices)
    }

    /// The refusal of a modifier the item does not offer, naming what it offers.
    static func notOffered(
        _ id: Modifier.ID, with pizza: PizzaStore.BookingSnapshot, item: Pizza.ID, in db: Connection
    ) throws -> Error {
        let name = try ModifierStore.modifier(id: id, in: db)?.name ?? "modifier \(id)"
        let offered = try ModifierStore.groups(of: item, in: db).flatMap(\.offered).map(\.name)
        return ValidationError([
            FieldError(
                field: "modifiers",
                message: "'\(name)' is not offered with \(pizza.name)"
                    + (offered.isEmpty ? " (it has no modifiers)" : "; it offers " + offered.joined(separator: ", ")))
        ])
    }
}
