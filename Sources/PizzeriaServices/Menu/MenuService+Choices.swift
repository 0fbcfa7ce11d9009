import Foundation
import PizzeriaStorage

// What an item is made of: its variants (sizes, each with a price; one the default, whose price is
// the item's), the modifier groups it offers (extras, removals, a required choice of dough) and
// the EU allergens it contains. Every change is one audited write transaction; a refused one
// writes nothing. The schema's triggers hold the same rules for a hand-written UPDATE.
extension MenuService {
    // MARK: - Reading

    /// The item with its variants and modifier groups.
    /// - Throws: ``MenuError/notFound(_:closest:)``.
    public func item(_ id: Pizza.ID) throws -> MenuItem {
        try database.read { db in try Self.item(id, in: db) }
    }

    static func item(_ id: Pizza.ID, in db: Connection) throws -> MenuItem {
        MenuItem(
            pizza: try required(id, in: db), variants: try VariantStore.variants(of: id, in: db),
            modifierGroups: try ModifierStore.groups(of: id, in: db))
    }

    /// Every modifier group with its modifiers, in menu order.
    public func modifierGroups() throws -> [ModifierGroup] {
        try database.read { try ModifierStore.groups(in: $0) }
    }

    /// The group called `name` (ignoring case) or with this id.
    /// - Throws: ``MenuError/partNotFound(part:name:place:known:)`` naming the groups there are.
    public func modifierGroup(named name: String) throws -> ModifierGroup {
        try database.read { db in try Self.group(named: name, in: db) }
    }

    static func group(named name: String, in db: Connection) throws -> ModifierGroup {
        let all = try ModifierStore.groups(in: db)
        let key = PizzaName.foldKey(name)
        if let found = all.first(where: { PizzaName.foldKey($0.name) == key || $0.id.description == name }) {
            return found
        }
        throw MenuError.partNotFound(part: "modifier group", name: name, place: "the menu", known: all.map(\.name))
    }

    /// The item's variant called `name` (ignoring case).
    /// - Throws: ``MenuError/partNotFound(part:name:place:known:)`` naming the item's variants.
    public func variant(named name: String, of pizza: Pizza.ID) throws -> Variant {
        try database.read { db in try Self.variant(named: name, of: pizza, in: db) }
    }

    static func variant(named name: String, of pizza: Pizza.ID, in db: Connection) throws -> Variant {
        let item = try required(pizza, in: db)
        let variants = try VariantStore.variants(of: pizza, in: db)
        let key = PizzaName.foldKey(name)
        if let found = variants.first(where: { PizzaName.foldKey($0.name) == key }) { return found }
        throw MenuError.partNotFound(part: "variant", name: name, place: item.name, known: variants.map(\.name))
    }

    /// The modifier called `name` (ignoring case) among the groups `pizza` offers — or, without an
    /// item, among every group; `group` narrows the search when two groups have the name.
    /// - Throws: ``MenuError/partNotFound(part:name:place:known:)``; ``MenuError/partRefused(_:)``
    ///   when the name is in two of the groups and none is named.
    public func modifier(named name: String, for pizza: Pizza.ID?, group: String? = nil) throws -> Modifier {
        try database.read { db in
            let item = try pizza.map { try Self.required($0, in: db) }
            var groups = try pizza.map { try ModifierStore.groups(of: $0, in: db) } ?? ModifierStore.groups(in: db)
            if let group {
                let key = PizzaName.foldKey(group)
                groups = groups.filter { PizzaName.foldKey($0.name) == key }
            }
            let key = PizzaName.foldKey(name)
            let found = groups.flatMap { group in group.modifiers.filter { PizzaName.foldKey($0.name) == key } }
            let place = item?.name ?? "the menu"
            guard let first = found.first else {
                throw MenuError.partNotFound(
                    part: "modifier", name: name, place: place, known: groups.flatMap(\.offered).map(\.name))
            }
            guard found.count == 1 else {
                let names = groups.filter { $0.modifiers.contains { found.contains($0) } }.map(\.name)
                throw MenuError.partRefused(
                    "modifiers: '\(name)' is in \(names.joined(separator: " and ")); name the group as GROUP:NAME")
            }
            return first
        }
    }

    // MARK: - Variants

    /// Adds a variant to an item (`Maxi` at 10.00). With `isDefault`, it becomes the one a plain
    /// order gets, and its price the item's.
    /// - Throws: ``ValidationError`` naming each field; ``MenuError/duplicatePart(part:name:place:)``;
    ///   ``MenuError/partRefused(_:)`` past ``Variant/maximumPerItem``.
    @discardableResult
    public func addVariant(
        to pizza: Pizza.ID, name: String, price: Money, position: Int? = nil, isDefault: Bool = false
    ) throws -> Variant {
        let name = PizzaName.normalize(name)
        let problems = Variant.problems(name: name, price: price, position: position)
        guard problems.isEmpty else { throw ValidationError(problems) }
        return try database.audited(acting, at: now()) { db in
            let item = try Self.required(pizza, in: db)
            let variants = try VariantStore.variants(of: pizza, in: db)
            try Self.requireUniqueVariantName(name, among: variants, except: nil, of: item)
            guard variants.count < Variant.maximumPerItem else {
                throw MenuError.partRefused(
                    "variants: \(item.name) already has \(Variant.maximumPerItem) variants, the most an item has")
            }
            let position = position ?? min((variants.map(\.position).max() ?? 0) + 1, Variant.maximumPosition)
            return try VariantStore.insert(
                pizza: pizza, name: name, price: price, position: position, isDefault: isDefault, in: db)
        }
    }

    /// Renames, reprices or moves a variant, or makes it the default (the one that was stops being
    /// it). Lines already booked keep the name and price they were booked with.
    /// - Throws: ``ValidationError``; ``MenuError``.
    @discardableResult
    public func editVariant(
        _ id: Variant.ID, of pizza: Pizza.ID, name: String? = nil, price: Money? = nil, position: Int? = nil,
        makeDefault: Bool = false
    ) throws -> Variant {
        let name = name.map(PizzaName.normalize)
        let problems = Variant.problems(name: name, price: price, position: position)
        guard problems.isEmpty else { throw ValidationError(problems) }
        return try database.audited(acting, at: now()) { db in
            let item = try Self.required(pizza, in: db)
            let variants = try VariantStore.variants(of: pizza, in: db)
            guard let current = variants.first(where: { $0.id == id }) else {
                throw MenuError.partNotFound(
                    part: "variant", name: id.description, place: item.name, known: variants.map(\.name))
            }
            if let name { try Self.requireUniqueVariantName(name, among: variants, except: id, of: item) }
            let changed = Variant(
                id: id, pizzaID: pizza, name: name ?? current.name, price: price ?? current.price,
                position: position ?? current.position, isDefault: current.isDefault || makeDefault)
            try VariantStore.update(changed, in: db)
            return changed
        }
    }

    /// Removes a variant that is not the default and was never booked (a booked one keeps its
    /// row: its lines name it).
    /// - Throws: ``MenuError/partRefused(_:)`` saying what to do instead.
    public func removeVariant(_ id: Variant.ID, of pizza: Pizza.ID) throws {
        try database.audited(acting, at: now()) { db in
            let item = try Self.required(pizza, in: db)
            let variants = try VariantStore.variants(of: pizza, in: db)
            guard let variant = variants.first(where: { $0.id == id }) else {
                throw MenuError.partNotFound(
                    part: "variant", name: id.description, place: item.name, known: variants.map(\.name))
            }
            guard !variant.isDefault else {
                throw MenuError.partRefused(
                    "variant: \(variant.name) is \(item.name)'s default variant; make another the default first "
                        + "(pizza variant edit '\(item.name)' OTHER --default)")
            }
            guard try !VariantStore.isBooked(id, in: db) else {
                throw MenuError.partRefused(
                    "variant: \(item.name) \(variant.name) is on booked order lines, which name it; "
                        + "rename or reprice it instead")
            }
            try VariantStore.delete(id, in: db)
        }
    }

    static func requireUniqueVariantName(
        _ name: String, among variants: [Variant], except id: Variant.ID?, of item: Pizza
    )
        throws
    {
        let key = PizzaName.foldKey(name)
        if variants.contains(where: { PizzaName.foldKey($0.name) == key && $0.id != id }) {
            throw MenuError.duplicatePart(part: "variant", name: name, place: item.name)
        }
    }

    // MARK: - Allergens

    /// Declares the EU allergens an item contains (replacing what was declared).
    @discardableResult
    public func setAllergens(_ allergens: Set<Allergen>, of pizza: Pizza.ID) throws -> Pizza {
        try database.audited(acting, at: now()) { db in
            _ = try Self.required(pizza, in: db)
            try ModifierStore.setAllergens(allergens, of: pizza, in: db)
            return try Self.required(pizza, in: db)
        }
    }

    // MARK: - Modifier groups and modifiers

    /// Adds a modifier group: a line takes `min` to `max` of its modifiers (0–3 extras; exactly 1
    /// dough is `min: 1, max: 1`).
    /// - Throws: ``ValidationError`` (min > max, out of range, the name); ``MenuError/duplicatePart(part:name:place:)``.
    @discardableResult
    public func addModifierGroup(
        name: String, min: Int = 0, max: Int = 1, position: Int? = nil, kind: ModifierGroup.Kind = .extra
    ) throws -> ModifierGroup {
        let name = PizzaName.normalize(name)
        // A choice takes exactly one, whatever bounds were given.
        let (min, max) = kind == .choice ? (1, 1) : (min, max)
        let problems = ModifierGroup.problems(name: name, min: min, max: max, position: position)
        guard problems.isEmpty else { throw ValidationError(problems) }
        return try database.audited(acting, at: now()) { db in
            let groups = try ModifierStore.groups(in: db)
            try Self.requireUniqueGroupName(name, among: groups, except: nil)
            let position = position ?? Swift.min((groups.map(\.position).max() ?? 0) + 1, ModifierGroup.maximumPosition)
            return try ModifierStore.insertGroup(name: name, min: min, max: max, position: position, kind: kind, in: db)
        }
    }

    /// Renames a group, changes its bounds or its position. Lines already booked keep what they were booked with.
    @discardableResult
    public func editModifierGroup(
        _ id: ModifierGroup.ID, name: String? = nil, min: Int? = nil, max: Int? = nil, position: Int? = nil,
        kind: ModifierGroup.Kind? = nil, defaultModifier: Modifier.ID?? = nil
    ) throws -> ModifierGroup {
        let name = name.map(PizzaName.normalize)
        let shape = ModifierGroup.problems(name: name, min: min, max: max, position: position)
        guard shape.isEmpty else { throw ValidationError(shape) }
        return try database.audited(acting, at: now()) { db in
            let groups = try ModifierStore.groups(in: db)
            guard let current = groups.first(where: { $0.id == id }) else {
                throw MenuError.partNotFound(
                    part: "modifier group", name: id.description, place: "the menu", known: groups.map(\.name))
            }
            if let name { try Self.requireUniqueGroupName(name, among: groups, except: id) }
            let kind = kind ?? current.kind
            let choice = kind == .choice
            let changed = ModifierGroup(
                id: id, name: name ?? current.name, minSelected: choice ? 1 : min ?? current.minSelected,
                maxSelected: choice ? 1 : max ?? current.maxSelected, position: position ?? current.position,
                kind: kind, defaultModifier: choice ? defaultModifier ?? current.defaultModifier : nil,
                modifiers: current.modifiers)
            var problems = ModifierGroup.problems(
                name: nil, min: changed.minSelected, max: changed.maxSelected, position: nil)
            problems += Self.kindProblems(changed)
            if !choice, case .some(.some) = defaultModifier {
                problems.append(
                    FieldError(
                        field: "default", message: "only a choice has a default; \(changed.name) is a \(kind.rawValue)")
                )
            }
            guard problems.isEmpty else { throw ValidationError(problems) }
            try ModifierStore.updateGroup(changed, in: db)
            return changed
        }
    }

    /// Adds a modifier to a group (`bufala` at 2.00 bringing milk; `basilico` at 0.00 in `Senza`).
    /// - Throws: ``ValidationError`` (the name, a price over ``Money/maximumModifier``);
    ///   ``MenuError/duplicatePart(part:name:place:)``; ``MenuError/partRefused(_:)`` for a full group.
    @discardableResult
    public func addModifier(
        to group: ModifierGroup.ID, name: String, price: Money, allergens: Set<Allergen> = [], position: Int? = nil
    ) throws -> Modifier {
        let name = PizzaName.normalize(name)
        var problems = Modifier.problems(name: name, price: price)
        if let position, !(1...ModifierGroup.maximumPosition).contains(position) {
            problems.append(
                FieldError(field: "position", message: "must be from 1 to \(ModifierGroup.maximumPosition)"))
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        return try database.audited(acting, at: now()) { db in
            guard let current = try ModifierStore.group(id: group, in: db) else {
                throw MenuError.partNotFound(
                    part: "modifier group", name: group.description, place: "the menu",
                    known: try ModifierStore.groups(in: db).map(\.name))
            }
            try Self.requireUniqueModifierName(name, in: current, except: nil)
            try Self.requireKind(of: current, allows: [price], archiving: nil)
            guard current.modifiers.count < ModifierGroup.maximumModifiers else {
                throw MenuError.partRefused(
                    "modifiers: \(current.name) already has \(ModifierGroup.maximumModifiers) modifiers, the most a group has; archive one or add another group"
                )
            }
            let position =
                position ?? Swift.min((current.modifiers.map(\.position).max() ?? 0) + 1, ModifierGroup.maximumPosition)
            let id = try ModifierStore.insert(
                group: group, name: name, price: price, allergens: allergens, position: position, in: db)
            guard let inserted = try ModifierStore.modifier(id: id, in: db) else {
                throw DataError.damagedRow(table: "modifiers", id: id.description, problem: "not inserted")
            }
            return inserted
        }
    }

    /// Renames, reprices or moves a modifier, changes its allergens, archives it (no longer
    /// offered; lines booked keep it) or restores it; `variantPrice` sets (or with a `nil` price
    /// removes) its price on variants of one name.
    /// - Throws: ``ValidationError``; ``MenuError``.
    @discardableResult
    public func editModifier(
        _ id: Modifier.ID, name: String? = nil, price: Money? = nil, allergens: Set<Allergen>? = nil,
        position: Int? = nil, archived: Bool? = nil, variantPrice: (variant: String, price: Money?)? = nil
    ) throws -> Modifier {
        let name = name.map(PizzaName.normalize)
        var problems = Modifier.problems(name: name, price: price)
        if let position, !(1...ModifierGroup.maximumPosition).contains(position) {
            problems.append(
                FieldError(field: "position", message: "must be from 1 to \(ModifierGroup.maximumPosition)"))
        }
        if let variantPrice {
            problems += TextLimit.problems(variantPrice.variant, field: "variant", maximum: Variant.maximumNameLength)
            problems += Modifier.problems(name: nil, price: variantPrice.price).map {
                FieldError(field: "variant-price", message: $0.message)
            }
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        let now = now()
        return try database.audited(acting, at: now) { db in
            guard let current = try ModifierStore.modifier(id: id, in: db),
                let group = try ModifierStore.group(id: current.groupID, in: db)
            else {
                throw MenuError.partNotFound(part: "modifier", name: id.description, place: "the menu", known: [])
            }
            if let name { try Self.requireUniqueModifierName(name, in: group, except: id) }
            try Self.requireKind(
                of: group, allows: [price, variantPrice?.price].compactMap { $0 },
                archiving: archived == true && current.archivedAt == nil ? id : nil)
            let archivedAt: Date? =
                switch archived {
                case true?: current.archivedAt ?? now
                case false?: nil
                case nil: current.archivedAt
                }
            let changed = Modifier(
                id: id, groupID: current.groupID, name: name ?? current.name, price: price ?? current.price,
                allergens: allergens ?? current.allergens, position: position ?? current.position,
                archivedAt: archivedAt, variantPrices: current.variantPrices)
            try ModifierStore.update(changed, in: db)
            if let variantPrice {
                try ModifierStore.setPrice(
                    variantPrice.price, of: id, onVariant: PizzaName.normalize(variantPrice.variant), in: db)
            }
            guard let saved = try ModifierStore.modifier(id: id, in: db) else {
                throw DataError.damagedRow(table: "modifiers", id: id.description, problem: "not saved")
            }
            return saved
        }
    }

    /// Offers a group with an item (`Aggiunte` on every pizza); attaching it twice changes nothing.
    /// - Returns: whether it was newly attached.
    @discardableResult
    public func attach(_ group: ModifierGroup.ID, to pizza: Pizza.ID) throws -> Bool {
        try database.audited(acting, at: now()) { db in
            _ = try Self.required(pizza, in: db)
            guard try ModifierStore.group(id: group, in: db) != nil else {
                throw MenuError.partNotFound(
                    part: "modifier group", name: group.description, place: "the menu",
                    known: try ModifierStore.groups(in: db).map(\.name))
            }
            return try ModifierStore.attach(group, to: pizza, in: db)
        }
    }

    /// Stops offering a group with an item (lines booked keep their modifiers).
    /// - Returns: whether it was attached.
    @discardableResult
    public func detach(_ group: ModifierGroup.ID, from pizza: Pizza.ID) throws -> Bool {
        try database.audited(acting, at: now()) { db in
            _ = try Self.required(pizza, in: db)
            return try ModifierStore.detach(group, from: pizza, in: db)
        }
    }
}
