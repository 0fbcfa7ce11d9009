import PizzeriaServices

/// `pizzeria pizza …`: the menu.
enum PizzaCommands {
    static let command = Command(
        name: "pizza",
        abstract: "Manage the menu: list, show, add, edit, archive and restore pizzas.",
        discussion: """
            PIZZA names a pizza by its id, a unique id prefix of at least 4 characters, or its name
            (ignoring case). Prices accept 6, 6.5, 6.50 or 6,50, with an optional € or EUR.
            """,
        subcommands: [
            list, show, add, edit, archive, restore, VariantCommands.command, VariantCommands.allergens,
            VariantCommands.attach, VariantCommands.detach, StockCommands.soldOut, StockCommands.available,
        ])

    static let pizzaArgument = Argument(
        "pizza", help: "Id, unique id prefix (4+ characters) or name.", completion: .pizzas)
    static let all = Flag("all", help: "Include archived pizzas.")
    static let name = Option("name", "name", help: "The name: 1 to 60 characters, unique ignoring case.")
    static let price = Option("price", "price", help: "The price in EUR, more than 0 and at most 1000.00.")
    static let newName = Option("name", "name", help: "The new name.")
    static let newPrice = Option("price", "price", help: "The new price in EUR.")
    static let category = Option(
        "category", "category", help: "The menu section (pizzeria category list); default: the first one made, Pizze.")
    static let newCategory = Option("category", "category", help: "Move it to this menu section.")

    static let list = Command(
        name: "list",
        abstract: "Show the menu: name and price, by name.",
        options: [all] + ListOptions.all,
        run: { invocation in
            let context = invocation.context
            let menu = try context.open(.requireCurrent).menu
            let all = try invocation[Self.all]
            let now = try context.clock()()
            // Streamed: a menu of a million pizzas prints in the memory of a few rows.
            let shape = ListOutput.Shape<Pizza>(
                table: PizzaText.table(showStatus: all), cells: { PizzaText.cells($0, showStatus: all, now: now) },
                empty: "The menu is empty.\n", csv: CSVRows.pizza)
            try context.list.write(invocation, shape) { each in try menu.forEach(includeArchived: all, each) }
            return .ok
        })

    static let show = Command(
        name: "show",
        abstract: "Show one pizza with its full history of changes.",
        arguments: [pizzaArgument],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let pizza = try pizzeria.lookup.pizza(try invocation[pizzaArgument])
            let history = try pizzeria.menu.history(of: pizza.id)
            let zone = try pizzeria.settings.current().timeZone
            let category = try pizzeria.menu.categories().first { $0.id == pizza.categoryID }
            let item = try pizzeria.menu.item(pizza.id)
            // The pizza's members as before, with its history, variants and modifier groups beside them.
            let shown = Extended(
                base: Extended(
                    base: Extended(base: pizza, key: "history", extra: history), key: "variants", extra: item.variants),
                key: "modifier_groups", extra: item.modifierGroups)
            try context.emit(shown) {
                PizzaText.detail(item, category: category, history: history, zone: zone)
            }
            return .ok
        })

    static let add = Command(
        name: "add",
        abstract: "Add a pizza to the menu (the add sheet).",
        discussion: "Without --name and --price on a terminal, opens an interactive form.",
        options: [name, price, category],
        examples: [
            "pizzeria pizza add --name Diavola --price 8.50",
            "pizzeria pizza add --name Coca-Cola --price 3 --category Bevande",
            "pizzeria pizza add   # on a terminal: the form",
        ],
        run: { invocation in
            let context = invocation.context
            let menu = try context.open(.requireCurrent).menu
            let name = try invocation[Self.name], price = try invocation[Self.price]
            var blank = PizzaDraft.blank
            blank.categoryID = try invocation[category].map { try menu.category(named: $0).id }
            let pizza: Pizza
            if let name, let price {
                pizza = try menu.save(try PizzaText.draft(from: blank, name: name, price: price))
            } else if context.terminal.isInteractive {
                guard
                    let saved = try PizzaForm(context: context, menu: menu).run(
                        blank, presetName: name, presetPrice: price)
                else {
                    return .refused
                }
                pizza = saved
            } else {
                throw invocation.usage("give --name and --price (the interactive form needs a terminal)")
            }
            try context.emit(pizza) { "Added \(pizza.name) (\(pizza.price.formatted)), id \(pizza.id).\n" }
            return .ok
        })

    static let edit = Command(
        name: "edit",
        abstract: "Change a pizza's name and/or price (the edit sheet).",
        discussion: """
            Refused as a conflict (exit 1) if the pizza changed since the edit started. Without --name and
            --price on a terminal, opens an interactive form showing the current values.
            """,
        arguments: [pizzaArgument],
        options: [newName, newPrice, newCategory],
        examples: ["pizzeria pizza edit Margherita --price 6.50", "pizzeria pizza edit Supplì --category Fritti"],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let menu = pizzeria.menu
            var draft = PizzaDraft(editing: try pizzeria.lookup.pizza(try invocation[pizzaArgument]))
            let name = try invocation[Self.newName], price = try invocation[Self.newPrice]
            let category = try invocation[newCategory].map { try menu.category(named: $0).id }
            draft.categoryID = category
            let pizza: Pizza
            if name != nil || price != nil || category != nil {
                pizza = try menu.save(try PizzaText.draft(from: draft, name: name, price: price))
            } else if context.terminal.isInteractive {
                guard
                    let saved = try PizzaForm(context: context, menu: menu).run(
                        draft, presetName: nil, presetPrice: nil)
                else {
                    return .refused
                }
                pizza = saved
            } else {
                throw invocation.usage("give --name, --price and/or --category (the interactive form needs a terminal)")
            }
            try context.emit(pizza) { "Saved \(pizza.name) (\(pizza.price.formatted)), version \(pizza.version).\n" }
            return .ok
        })

    static let archive = Command(
        name: "archive",
        abstract: "Take a pizza off the menu (it is kept: orders refer to it).",
        arguments: [pizzaArgument],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let pizza = try pizzeria.menu.archive(id: try pizzeria.lookup.pizza(try invocation[pizzaArgument]).id)
            try context.emit(pizza) { "Archived \(pizza.name).\n" }
            return .ok
        })

    static let restore = Command(
        name: "restore",
        abstract: "Put an archived pizza back on the menu.",
        arguments: [pizzaArgument],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let pizza = try pizzeria.menu.restore(id: try pizzeria.lookup.pizza(try invocation[pizzaArgument]).id)
            try context.emit(pizza) { "Restored \(pizza.name) to the menu.\n" }
            return .ok
        })
}
