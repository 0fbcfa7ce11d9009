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
            try context.emit(sheet) { NavigationText.sheet(sheet) }
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
        arguments: [user],
        options: [name, price],
        run: { invocation in
            let context = invocation.context
            let name = try invocation[Self.name], price = try invocation[Self.price]
            guard name != nil || price != nil else { throw invocation.usage("give --name and/or --price") }
            let (navigation, user, _) = try NavigationCommands.open(invocation)
            return try NavigationCommands.report(
                try navigation.setSheet(user, name: name, price: price), context, navigation)
        })

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
