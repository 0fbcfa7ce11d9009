import PizzeriaStorage

// The rules a modifier group and its modifiers keep, written once for the menu's edits and its
// import: unique names, and what a group's kind allows (the schema's triggers mirror them).
extension MenuService {
    /// What a group's kind refuses, naming the field: a default that is not one of its offered
    /// modifiers, or only a choice having one; a removal with a modifier that costs something.
    static func kindProblems(_ group: ModifierGroup) -> [FieldError] {
        var problems: [FieldError] = []
        if let id = group.defaultModifier, !group.offered.contains(where: { $0.id == id }) {
            problems.append(
                FieldError(field: "default", message: "must be one of \(group.name)'s modifiers still offered"))
        }
        if group.kind == .removal,
            let priced = group.modifiers.first(where: {
                $0.price.cents != 0 || $0.variantPrices.contains { $0.price.cents != 0 }
            })
        {
            problems.append(
                FieldError(
                    field: "kind",
                    message: "a removal costs nothing: \(priced.name) has a price (set its prices to 0 first)"))
        }
        return problems
    }

    static func requireUniqueGroupName(_ name: String, among groups: [ModifierGroup], except id: ModifierGroup.ID?)
        throws
    {
        let key = PizzaName.foldKey(name)
        if groups.contains(where: { PizzaName.foldKey($0.name) == key && $0.id != id }) {
            throw MenuError.duplicatePart(part: "modifier group", name: name, place: "the menu")
        }
    }

    /// Refuses what a group's kind does not allow of a modifier: a price on a removal, archiving a
    /// choice's default.
    static func requireKind(of group: ModifierGroup, allows prices: [Money], archiving: Modifier.ID?) throws {
        if group.kind == .removal, let price = prices.first(where: { $0.cents != 0 }) {
            throw ValidationError([
                FieldError(
                    field: "price", message: "\(group.name) is a removal: it costs nothing, not \(price.formatted)")
            ])
        }
        if let archiving, group.defaultModifier == archiving {
            throw ValidationError([
                FieldError(
                    field: "archive",
                    message: "it is \(group.name)'s default; make another the default first"
                        + " (modifier group edit \(group.name) --default NAME)")
            ])
        }
    }

    static func requireUniqueModifierName(_ name: String, in group: ModifierGroup, except id: Modifier.ID?) throws {
        let key = PizzaName.foldKey(name)
        if group.modifiers.contains(where: { PizzaName.foldKey($0.name) == key && $0.id != id }) {
            throw MenuError.duplicatePart(part: "modifier", name: name, place: group.name)
        }
    }
}
