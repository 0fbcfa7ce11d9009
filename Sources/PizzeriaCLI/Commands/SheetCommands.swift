import PizzeriaServices

/// `pizzeria sheet …`: the add/edit-pizza sheet over a user's stack, kept between runs.
enum SheetCommands {
    static let command = Command(
        name: "sheet",
        abstract: "The add-pizza and edit-pizza sheet of a user: open, set fields, save, dismiss.",
        discussion:
            "One sheet at a time per user. Saving runs the menu's validation: invalid drafts keep the sheet open.",
        subcommands: [show, open, set, save, dismiss])

    static let user = NavigationCommands.user
    static let kind = Argument("kind", help: "add or edit.", completion: .choices(["add", "edit"]))
    static let pizza = OptionalArgument("pizza", help: "For edit: id, id prefix or name.", completion: .pizzas)
    static let name = Option("name", "name", help: "The pizza's name.")
    static let price = Option("price", "price", help: "The price in EUR.", .money)

    static let show = Command(
        name: "show",
        abstract: "Show the open sheet and its draft's errors.",
        arguments: [user],
        run: { invocation in
            let context = invocation.context
            let (navigation, user, _) = try NavigationCommands.open(invocation)
            let state = try navigation.state(of: user)
            guard let sheet = state.sheet else { throw NavigationError.noSheet }
            let groups = try NavigationText.groups(navigation.sheetGroups(sheet))
            try context.emit(sheet) { NavigationText.sheet(sheet, groups: groups) }
            return .ok
        })

    static let open = Command(
        name: "open",
        abstract: "Open the add sheet (blank draft) or the edit sheet of a pizza.",
        arguments: [user, kind, pizza],
        examples: ["pizzeria sheet open anna add", "pizzeria sheet open anna edit Margherita"],
        run: { invocation in
            let context = invocation.context
            let (navigation, user, pizzeria) = try NavigationCommands.open(invocation)
            let request: NavigationService.SheetRequest
            switch (try invocation[kind], try invocation[pizza]) {
            case ("add", nil): request = .addPizza
            case ("edit", let pizza?): request = .editPizza(try pizzeria.lookup.pizza(pizza).id)
            case ("add", _): throw invocation.usage("the add sheet takes no pizza")
            case ("edit", nil): throw invocation.usage("missing argument <pizza> for the edit sheet")
            case (let kind, _): throw invocation.usage("unknown sheet '\(kind)': add or edit")
            }
            return try NavigationCommands.report(try navigation.openSheet(user, request), context, navigation)
        })

    static let set = Command(
        name: "set",
        abstract: "Change the draft's fields (the draft may stay invalid until saved).",
        discussion: """
            --variant NAME=PRICE gives the whole list of variants (repeat it; a * after the price marks the
            default, else the first is): the price becomes the default's. --groups A,B gives the whole list of
            modifier groups (none for none); --allergens the EU codes (none for none).
            """,
        arguments: [user],
        options: [name, price, category, allergens, variant, groups],
        examples: [
            "pizzeria sheet set luca --variant Normale=6 --variant 'Maxi=9' --groups Aggiunte --allergens gluten,milk"
        ],
        run: { invocation in
            let context = invocation.context
            let name = try invocation[Self.name], price = try invocation[Self.price]
            let categoryName = try invocation[category], codes = try invocation[allergens]
            let variantTexts = try invocation[all: variant], groupText = try invocation[groups]
            guard
                name != nil || price != nil || categoryName != nil || codes != nil || !variantTexts.isEmpty
                    || groupText != nil
            else { throw invocation.usage("give --name, --price, --category, --allergens, --variant or --groups") }
            let (navigation, user, pizzeria) = try NavigationCommands.open(invocation)
            var choices = NavigationService.SheetChoices(allergens: codes)
            choices.category = try categoryName.map { try pizzeria.menu.category(named: $0).id }
            if !variantTexts.isEmpty { choices.variants = try variantTexts.map(variantLine) }
            if let groupText {
                choices.modifierGroups =
                    groupText.lowercased() == "none"
                    ? []
                    : try groupText.split(separator: ",").map {
                        try pizzeria.menu.modifierGroup(named: $0.trimmingCharacters(in: .whitespaces)).id
                    }
            }
            return try NavigationCommands.report(
                try navigation.setSheet(user, name: name, price: price, choices: choices), context, navigation)
        })

    static let category = Option("category", "category", help: "The menu section.")
    static let allergens = Option(
        "allergens", "codes", help: "EU allergen codes (gluten,milk), or none.", .allergens)
    static let variant = Option(
        "variant", "name=price",
        help: "A variant (repeatable; the whole list): Maxi=9, * after the price for the default.")
    static let groups = Option("groups", "names", help: "The modifier groups offered (the whole list), or none.")

    /// `Maxi=9` or `Normale=6*`.
    static func variantLine(_ text: String) throws -> PizzaDraft.VariantLine {
        guard let equals = text.lastIndex(of: "="), equals != text.startIndex else {
            throw ValidationError([FieldError(field: "variant", message: "must be NAME=PRICE, not '\(text)'")])
        }
        var amount = String(text[text.index(after: equals)...])
        let isDefault = amount.hasSuffix("*")
        if isDefault { amount.removeLast() }
        let price = try ValueParser.money.parse(amount, "variant")
        return PizzaDraft.VariantLine(name: String(text[..<equals]), price: price, isDefault: isDefault)
    }

    static let save = Command(
        name: "save",
        abstract: "Save the sheet: validate, save the pizza and dismiss the sheet.",
        arguments: [user],
        run: { invocation in
            let context = invocation.context
            let (navigation, user, _) = try NavigationCommands.open(invocation)
            let (pizza, _) = try navigation.saveSheet(user)
            try context.emit(pizza) { "Saved \(pizza.name) (\(pizza.price.formatted)); the sheet is dismissed.\n" }
            return .ok
        })

    static let dismiss = Command(
        name: "dismiss",
        abstract: "Dismiss the sheet, discarding its draft.",
        arguments: [user],
        run: { invocation in
            let (navigation, user, _) = try NavigationCommands.open(invocation)
            return try NavigationCommands.report(try navigation.dismissSheet(user), invocation.context, navigation)
        })
}
