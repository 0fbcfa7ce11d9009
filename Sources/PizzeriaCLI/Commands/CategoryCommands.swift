import PizzeriaServices

/// `pizzeria category …`: the menu's sections, and whether their items use the oven.
enum CategoryCommands {
    static let command = Command(
        name: "category",
        abstract: "Manage the menu's categories: list, add, edit and remove them.",
        discussion: """
            Every item is in one category. A category's items use the oven unless it is added or edited with
            --no-oven (drinks, desserts): only items that use the oven count toward a pickup slot's capacity.
            A line already booked keeps what it was booked as. CATEGORY names a category by its name
            (ignoring case) or its number.
            """,
        subcommands: [list, add, edit, vat, remove])

    static let categoryArgument = Argument("category", help: "Name (ignoring case) or number.")
    static let name = Argument("name", help: "The name: 1 to 40 characters, unique ignoring case.")
    static let newName = Option("name", "name", help: "The new name.")
    static let noOven = Flag("no-oven", help: "Its items do not use the oven: they take no slot capacity.")
    static let oven = Flag("oven", help: "Its items use the oven: they count toward slot capacity.")
    static let position = Option(
        "position", "n", help: "Where it comes in the menu: 1 first (default: last).", .integer(in: 1...1000))

    static let shape = ListOutput.Shape<Category>(
        table: Table("NO", "NAME", "OVEN", "POSITION", rightAligned: [0, 3]),
        cells: { ["\($0.id)", $0.name, $0.usesOven ? "yes" : "no", "\($0.position)"] },
        empty: "No categories.\n",
        csv: CSVColumns([.member("id"), .member("name"), .member("uses_oven"), .member("position")]))

    static let list = Command(
        name: "list", abstract: "List the categories in menu order.", options: ListOptions.all,
        run: { invocation in
            let context = invocation.context
            let categories = try context.open(.requireCurrent).menu.categories()
            try context.list.write(invocation, shape) { each in try categories.forEach(each) }
            return .ok
        })

    static let add = Command(
        name: "add", abstract: "Add a category.", arguments: [name], options: [noOven, position, OrderCommands.by],
        examples: ["pizzeria category add Bevande --no-oven", "pizzeria category add \"Pizze bianche\" --position 2"],
        run: { invocation in
            let context = invocation.context
            let category = try context.open(.requireCurrent).menu.addCategory(
                name: try invocation[name], usesOven: !invocation[noOven], position: try invocation[position])
            try context.emit(category) { "Added category \(category.name) (\(Self.ovenText(category))).\n" }
            return .ok
        })

    static let edit = Command(
        name: "edit", abstract: "Rename a category, move it, or say whether its items use the oven.",
        arguments: [categoryArgument], options: [newName, oven, noOven, position, OrderCommands.by],
        examples: ["pizzeria category edit Fritti --no-oven", "pizzeria category edit Pizze --name \"Pizze rosse\""],
        run: { invocation in
            let context = invocation.context
            if invocation[oven] && invocation[noOven] { throw invocation.usage("give --oven or --no-oven, not both") }
            let usesOven: Bool? = invocation[oven] ? true : invocation[noOven] ? false : nil
            let newName = try invocation[Self.newName], position = try invocation[Self.position]
            if newName == nil && usesOven == nil && position == nil {
                throw invocation.usage("give --name, --oven, --no-oven or --position")
            }
            let menu = try context.open(.requireCurrent).menu
            let category = try menu.editCategory(
                try menu.category(named: try invocation[categoryArgument]).id, name: newName, usesOven: usesOven,
                position: position)
            try context.emit(category) { "Saved category \(category.name) (\(Self.ovenText(category))).\n" }
            return .ok
        })

    static let remove = Command(
        name: "remove", abstract: "Remove an empty category.", arguments: [categoryArgument],
        options: [OrderCommands.by],
        run: { invocation in
            let context = invocation.context
            let menu = try context.open(.requireCurrent).menu
            let category = try menu.category(named: try invocation[categoryArgument])
            try menu.removeCategory(category.id)
            struct Removed: Encodable { let removed: String }
            try context.emit(Removed(removed: category.name)) { "Removed category \(category.name).\n" }
            return .ok
        })

    static let rate = Argument("rate", help: "A percentage (22, 10, 5.5), or 'shop' for the shop's rate.")

    static let vat = Command(
        name: "vat", abstract: "Set a category's VAT rate (drinks: 22 in Italy); lines already booked keep theirs.",
        arguments: [categoryArgument, rate],
        examples: ["pizzeria category vat Bevande 22", "pizzeria category vat Bevande shop"],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let category = try pizzeria.menu.category(named: try invocation[categoryArgument])
            let text = try invocation[rate]
            let updated = try pizzeria.payments.setVATRate(
                text.lowercased() == "shop" ? nil : try VATRate.parse(text, field: "rate"), of: category.id)
            try context.emit(updated) {
                "Category \(updated.name): VAT "
                    + (updated.vatRate.map(\.description) ?? "at the shop's rate (config set vat-rate)") + ".\n"
            }
            return .ok
        })

    static func ovenText(_ category: Category) -> String {
        category.usesOven ? "uses the oven" : "does not use the oven"
    }
}
