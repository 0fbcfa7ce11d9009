import Foundation
import PizzeriaStorage

// The menu as a file: export what there is, import a file in one transaction. Existing items,
// categories, groups, modifiers and variants are matched by name (full Unicode case folding); the
// import adds and updates, and never removes (a variant or group the file leaves out stays).
// Every refusal names the place in the file and the rule, and nothing is written.
extension MenuService {
    /// The whole menu (archived items left out) as a ``MenuFile``.
    public func export() throws -> MenuFile {
        let menu = try menu()
        let groupsByID = Dictionary(uniqueKeysWithValues: menu.groups.map { ($0.id, $0) })
        let categories = Dictionary(uniqueKeysWithValues: menu.categories.map { ($0.id, $0) })
        var file = MenuFile()
        let stations = try self.stations()
        file.categories = menu.categories.map { category in
            .init(
                name: category.name, usesOven: category.usesOven,
                station: category.stationID.flatMap { id in stations.first { $0.id == id }?.name },
                vatRate: category.vatRate?.description.replacingOccurrences(of: "%", with: ""))
        }
        file.modifierGroups = menu.groups.map { group in
            .init(
                name: group.name, min: group.minSelected, max: group.maxSelected,
                kind: group.kind == .extra ? nil : group.kind.rawValue,
                default: group.defaultModifier.flatMap { id in group.modifiers.first { $0.id == id }?.name },
                modifiers: group.modifiers.map { modifier in
                    .init(
                        name: modifier.name, price: modifier.price.plain,
                        allergens: Allergen.codes(modifier.allergens),
                        variantPrices: modifier.variantPrices.isEmpty
                            ? nil
                            : Dictionary(modifier.variantPrices.map { ($0.variant, $0.price.plain) }) { a, _ in a },
                        archived: modifier.isArchived ? true : nil)
                })
        }
        file.items = menu.entries.map { entry in
            .init(
                name: entry.pizza.name, category: categories[entry.pizza.categoryID]?.name,
                allergens: Allergen.codes(entry.pizza.allergens),
                variants: entry.variants.map { .init(name: $0.name, price: $0.price.plain, isDefault: $0.isDefault) },
                modifierGroups: entry.groupIDs.compactMap { groupsByID[$0]?.name })
        }
        return file
    }

    /// Imports a menu file in one transaction; with `dryRun`, rolls it back. Returns the
    /// differences it makes (or would make), in file order.
    /// - Throws: ``ValidationError`` naming the place (`items[3].variants[0].price: must be greater than 0`);
    ///   ``MenuError`` (a name taken by another item, a category or group the file does not define).
    @discardableResult
    public func importMenu(_ file: MenuFile, dryRun: Bool = false) throws -> [MenuImportChange] {
        struct DryRun: Error { let changes: [MenuImportChange] }
        let now = now()
        do {
            return try database.audited(acting, at: now) { db in
                var importer = MenuImporter(db: db, now: now)
                try importer.run(file)
                if dryRun { throw DryRun(changes: importer.changes) }
                return importer.changes
            }
        } catch let dry as DryRun {
            return dry.changes
        }
    }
}

/// One import, in its transaction: each part matched by name, validated, then written.
struct MenuImporter {
    let db: Connection
    let now: Date
    var changes: [MenuImportChange] = []

    init(db: Connection, now: Date) { (self.db, self.now) = (db, now) }

    mutating func note(_ subject: String, _ change: String) {
        changes.append(MenuImportChange(subject: subject, change: change))
    }

    func fail(_ place: String, _ problems: [FieldError]) -> ValidationError {
        ValidationError(problems.map { FieldError(field: "\(place).\($0.field)", message: $0.message) })
    }

    private func money(_ text: String?, _ place: String, modifier: Bool = false) throws -> Money {
        let parsed =
            modifier
            ? Money.parse(text ?? "0", allowingZero: true, maximum: Money.maximumModifier) : Money.parse(text ?? "")
        switch parsed {
        case .success(let money): return money
        case .failure(let error): throw ValidationError([FieldError(field: place, message: error.message)])
        }
    }

    private func allergens(_ codes: [String]?, _ place: String) throws -> Set<Allergen>? {
        try codes.map { try Allergen.parse($0.joined(separator: ","), field: place) }
    }

    mutating func run(_ file: MenuFile) throws {
        let categories = try importCategories(file.categories)
        var groups = try ModifierStore.groups(in: db)
        for (index, entry) in file.modifierGroups.enumerated() {
            try importGroup(entry, place: "modifier_groups[\(index)]", position: index + 1, groups: &groups)
        }
        groups = try ModifierStore.groups(in: db)
        var seen: Set<String> = []
        for (index, entry) in file.items.enumerated() {
            let place = "items[\(index)]"
            guard seen.insert(PizzaName.foldKey(PizzaName.normalize(entry.name))).inserted else {
                throw ValidationError([FieldError(field: "\(place).name", message: "names an item twice in the file")])
            }
            try importItem(entry, place: place, categories: categories, groups: groups)
        }
    }

    private mutating func importGroup(
        _ entry: MenuFile.GroupEntry, place: String, position: Int, groups: inout [ModifierGroup]
    ) throws {
        let name = PizzaName.normalize(entry.name)
        guard let kind = ModifierGroup.Kind(rawValue: entry.kind ?? "extra") else {
            throw fail(
                place,
                [FieldError(field: "kind", message: "must be extra, removal or choice, not '\(entry.kind ?? "")'")])
        }
        let (minimum, maximum) = kind == .choice ? (1, 1) : (entry.min ?? 0, entry.max ?? 1)
        let problems = ModifierGroup.problems(
            name: name, min: minimum, max: maximum, position: min(position, ModifierGroup.maximumPosition))
        guard problems.isEmpty else { throw fail(place, problems) }
        var group: ModifierGroup
        // A group becoming a removal changes once its modifiers are free; any other change, before.
        var becomesRemoval: ModifierGroup?
        if let current = groups.first(where: { PizzaName.foldKey($0.name) == PizzaName.foldKey(name) }) {
            group = current
            if current.minSelected != minimum || current.maxSelected != maximum || current.kind != kind {
                group = ModifierGroup(
                    id: current.id, name: current.name, minSelected: minimum, maxSelected: maximum,
                    position: current.position, kind: kind,
                    defaultModifier: kind == .choice ? current.defaultModifier : nil, modifiers: current.modifiers)
                if kind == .removal && current.kind != .removal {
                    becomesRemoval = group
                } else {
                    try ModifierStore.updateGroup(group, in: db)
                }
                note(
                    "group \(current.name)", "takes \(group.ruleText)" + (kind == .extra ? "" : ", a \(kind.rawValue)"))
            }
        } else {
            group = try ModifierStore.insertGroup(
                name: name, min: minimum, max: maximum, position: min(position, ModifierGroup.maximumPosition),
                kind: kind, in: db)
            groups.append(group)
            note("group \(name)", "added (\(group.ruleText))")
        }
        var names: Set<String> = []
        for (index, modifierEntry) in entry.modifiers.enumerated() {
            let here = "\(place).modifiers[\(index)]"
            let modifierName = PizzaName.normalize(modifierEntry.name)
            var problems = Modifier.problems(name: modifierName, price: nil)
            if !names.insert(PizzaName.foldKey(modifierName)).inserted {
                problems.append(FieldError(field: "name", message: "names a modifier twice in the group"))
            }
            guard problems.isEmpty else { throw fail(here, problems) }
            let price = try money(modifierEntry.price, "\(here).price", modifier: true)
            if kind == .removal && price.cents != 0 {
                throw fail(here, [FieldError(field: "price", message: "\(name) is a removal: it costs nothing")])
            }
            let codes = try allergens(modifierEntry.allergens, "\(here).allergens") ?? []
            let archivedAt: Date? = modifierEntry.archived == true ? now : nil
            let id: Modifier.ID
            if let current = group.modifiers.first(where: {
                PizzaName.foldKey($0.name) == PizzaName.foldKey(modifierName)
            }) {
                id = current.id
                let changed = Modifier(
                    id: current.id, groupID: group.id, name: current.name, price: price, allergens: codes,
                    position: min(index + 1, ModifierGroup.maximumPosition),
                    archivedAt: modifierEntry.archived == nil ? current.archivedAt : (current.archivedAt ?? archivedAt),
                    variantPrices: current.variantPrices)
                if modifierEntry.archived == false {
                    try ModifierStore.update(changed.restored, in: db)
                } else {
                    try ModifierStore.update(changed, in: db)
                }
                if current.price != price {
                    note("modifier \(group.name) \(current.name)", "price \(current.price.plain) → \(price.plain)")
                }
                if current.allergens != codes {
                    note(
                        "modifier \(group.name) \(current.name)",
                        "allergens " + Allergen.codes(codes).joined(separator: ","))
                }
            } else {
                id = try ModifierStore.insert(
                    group: group.id, name: modifierName, price: price, allergens: codes,
                    position: min(index + 1, ModifierGroup.maximumPosition), in: db)
                note("modifier \(group.name) \(modifierName)", "added at \(price.plain)")
            }
            for (variant, text) in (modifierEntry.variantPrices ?? [:]).sorted(by: { $0.key < $1.key }) {
                let problems = TextLimit.problems(variant, field: "variant_prices", maximum: Variant.maximumNameLength)
                guard problems.isEmpty else { throw fail(here, problems) }
                let price = try money(text, "\(here).variant_prices.\(variant)", modifier: true)
                if kind == .removal && price.cents != 0 {
                    throw fail(
                        here, [FieldError(field: "variant_prices", message: "\(name) is a removal: it costs nothing")])
                }
                try ModifierStore.setPrice(price, of: id, onVariant: PizzaName.normalize(variant), in: db)
            }
        }
        if let becomesRemoval {
            // Modifiers of the group the file leaves out keep their price: name them.
            if let priced = try ModifierStore.group(id: becomesRemoval.id, in: db)?.modifiers.first(where: {
                $0.price.cents != 0 || $0.variantPrices.contains { $0.price.cents != 0 }
            }) {
                throw fail(
                    place, [FieldError(field: "kind", message: "a removal costs nothing: \(priced.name) has a price")])
            }
            try ModifierStore.updateGroup(becomesRemoval, in: db)
        }
        // A choice's default, once its modifiers are there.
        if let wanted = entry.default {
            guard kind == .choice,
                let fresh = try ModifierStore.group(id: group.id, in: db),
                let modifier = fresh.offered.first(where: {
                    PizzaName.foldKey($0.name) == PizzaName.foldKey(PizzaName.normalize(wanted))
                })
            else {
                throw fail(
                    place,
                    [FieldError(field: "default", message: "must name one of a choice's modifiers, not '\(wanted)'")])
            }
            if fresh.defaultModifier != modifier.id {
                try ModifierStore.updateGroup(
                    ModifierGroup(
                        id: fresh.id, name: fresh.name, minSelected: 1, maxSelected: 1, position: fresh.position,
                        kind: .choice, defaultModifier: modifier.id),
                    in: db)
                note("group \(fresh.name)", "default \(modifier.name)")
            }
        }
    }

    private mutating func importItem(
        _ entry: MenuFile.ItemEntry, place: String, categories: [Category], groups: [ModifierGroup]
    ) throws {
        let name = PizzaName.normalize(entry.name)
        let nameProblems = PizzaName.problems(name)
        guard nameProblems.isEmpty else { throw fail(place, nameProblems) }
        let category = try entry.category.map { wanted in
            guard let found = categories.first(where: { PizzaName.foldKey($0.name) == PizzaName.foldKey(wanted) })
            else {
                throw ValidationError([
                    FieldError(
                        field: "\(place).category",
                        message:
                            "names no category ('\(wanted)'); add it (\"categories\" in a JSON file, or pizzeria category add) or use one of "
                            + categories.map(\.name).joined(separator: ", "))
                ])
            }
            return found
        }
        var variants: [(name: String, price: Money, isDefault: Bool)] = []
        for (index, variant) in entry.variants.enumerated() {
            let here = "\(place).variants[\(index)]"
            let variantName = PizzaName.normalize(variant.name)
            var problems = Variant.problems(name: variantName, price: nil, position: nil)
            if variants.contains(where: { PizzaName.foldKey($0.name) == PizzaName.foldKey(variantName) }) {
                problems.append(FieldError(field: "name", message: "names a variant twice in the item"))
            }
            guard problems.isEmpty else { throw fail(here, problems) }
            variants.append((variantName, try money(variant.price, "\(here).price"), variant.isDefault == true))
        }
        let defaults = variants.filter(\.isDefault).count
        guard defaults <= 1 else {
            throw ValidationError([FieldError(field: "\(place).variants", message: "must have at most one default")])
        }
        if defaults == 0 { variants[0].isDefault = true }
        let codes = try allergens(entry.allergens, "\(place).allergens")
        let wantedGroups = try (entry.modifierGroups ?? []).enumerated().map { index, wanted in
            guard let found = groups.first(where: { PizzaName.foldKey($0.name) == PizzaName.foldKey(wanted) }) else {
                throw ValidationError([
                    FieldError(
                        field: "\(place).modifier_groups[\(index)]",
                        message: "names no modifier group ('\(wanted)'); define it in \"modifier_groups\"")
                ])
            }
            return found
        }
        let subject = "item \(name)"
        let defaultVariant = variants.first(where: \.isDefault) ?? variants[0]
        let pizza: Pizza
        if let current = try PizzaStore.sameName(as: name, in: db) {
            pizza = current
            if let category, category.id != current.categoryID {
                try CategoryStore.move(pizza: current.id, to: category.id, in: db)
                note(subject, "category \(category.name)")
            }
            if current.isArchived {
                try PizzaStore.setArchived(id: current.id, at: nil, in: db)
                note(subject, "restored")
            }
        } else {
            pizza = try PizzaStore.insert(
                id: Pizza.ID.random(), name: name, price: defaultVariant.price,
                category: category?.id ?? Category.defaultID, at: now, in: db)
            note(subject, "added")
        }
        var existing = try VariantStore.variants(of: pizza.id, in: db)
        if existing.count == 1, let only = existing.first, only.name == Variant.defaultName,
            !variants.contains(where: { PizzaName.foldKey($0.name) == PizzaName.foldKey(only.name) }),
            try !VariantStore.isBooked(only.id, in: db)
        {
            // A new item's automatic `Normale` becomes the file's default variant.
            let renamed = Variant(
                id: only.id, pizzaID: pizza.id, name: defaultVariant.name, price: only.price, position: 1,
                isDefault: true)
            try VariantStore.update(renamed, in: db)
            existing = [renamed]
        }
        for (position, variant) in variants.enumerated() {
            if let current = existing.first(where: { PizzaName.foldKey($0.name) == PizzaName.foldKey(variant.name) }) {
                let changed = Variant(
                    id: current.id, pizzaID: pizza.id, name: current.name, price: variant.price,
                    position: min(position + 1, Variant.maximumPosition),
                    isDefault: current.isDefault || variant.isDefault)
                guard changed != current else { continue }
                try VariantStore.update(changed, in: db)
                if current.price != variant.price {
                    note(subject, "\(current.name) \(current.price.plain) → \(variant.price.plain)")
                }
                if !current.isDefault && variant.isDefault { note(subject, "\(current.name) is the default") }
            } else {
                guard existing.count < Variant.maximumPerItem else {
                    throw ValidationError([
                        FieldError(
                            field: "\(place).variants",
                            message: "would give \(name) more than \(Variant.maximumPerItem) variants")
                    ])
                }
                existing.append(
                    try VariantStore.insert(
                        pizza: pizza.id, name: variant.name, price: variant.price,
                        position: min(position + 1, Variant.maximumPosition), isDefault: variant.isDefault, in: db))
                note(subject, "variant \(variant.name) at \(variant.price.plain)")
            }
        }
        if let codes, codes != pizza.allergens {
            try ModifierStore.setAllergens(codes, of: pizza.id, in: db)
            note(subject, "allergens " + (codes.isEmpty ? "none" : Allergen.codes(codes).joined(separator: ",")))
        }
        for group in wantedGroups where try ModifierStore.attach(group.id, to: pizza.id, in: db) {
            note(subject, "offers \(group.name)")
        }
    }
}

extension Modifier {
    /// The same modifier, offered again.
    var restored: Modifier {
        Modifier(
            id: id, groupID: groupID, name: name, price: price, allergens: allergens, position: position,
            archivedAt: nil, variantPrices: variantPrices, stockLeft: stockLeft, stockUntil: stockUntil)
    }
}
