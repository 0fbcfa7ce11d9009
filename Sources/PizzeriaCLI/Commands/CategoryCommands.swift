import PizzeriaServices

/// `pizzeria category …`: the menu's sections, and where their items are prepared.
enum CategoryCommands {
    static let command = Command(
        name: "category",
        abstract: "Manage the menu's categories: list, add, edit and remove them.",
        discussion: """
            Every item is in one category. A category's items are prepared at a station (station list):
            Forno unless it is added or edited with --station NAME, or --no-station (bottled drinks; --no-oven
            says the same). Only items prepared at Forno count toward a pickup slot's capacity; another
            station has its own capacity per slot. A line already booked keeps what it was booked as.
            CATEGORY names a category by its name (ignoring case) or its number.
            """,
        subcommands: [list, add, edit, vat, remove])

    static let categoryArgument = Argument("category", help: "Name (ignoring case) or number.")
    static let name = Argument("name", help: "The name: 1 to 40 characters, unique ignoring case.")
    static let newName = Option("name", "name", help: "The new name.")
    static let noOven = Flag("no-oven", help: "Its items do not use the oven: they take no slot capacity.")
    static let oven = Flag("oven", help: "Its items use the oven: they count toward slot capacity.")
    static let station = Option("station", "station", help: "The station its items are prepared at (station list).")
    static let noStation = Flag(
        "no-station", help: "Its items are prepared at no station (handed over at the counter).")
    static let position = Option(
        "position", "n", help: "Where it comes in the menu: 1 first (default: last).", .integer(in: 1...1000))

    /// A category beside its station's name, for lists.
    struct Row: Encodable, JSONMembers {
        let category: Category
        let station: String?

        func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
            try category.writeMembers(to: &writer)
            try writer.member("station", station)
        }

        func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }
    }

    static let shape = ListOutput.Shape<Row>(
        table: Table("NO", "NAME", "OVEN", "STATION", "POSITION", rightAligned: [0, 4]),
        cells: {
            [
                "\($0.category.id)", $0.category.name, $0.category.usesOven ? "yes" : "no", $0.station ?? "-",
                "\($0.category.position)",
            ]
        },
        empty: "No categories.\n",
        csv: CSVColumns([.member("id"), .member("name"), .member("uses_oven"), .member("position"), .member("station")])
    )

    static let list = Command(
        name: "list", abstract: "List the categories in menu order.", options: ListOptions.all,
        run: { invocation in
            let context = invocation.context
            let menu = try context.open(.requireCurrent).menu
            let categories = try menu.categories(), stations = try menu.stations()
            try context.list.write(invocation, shape) { each in
                for category in categories {
                    try each(Row(category: category, station: stations.first { $0.id == category.stationID }?.name))
                }
            }
            return .ok
        })

    /// The station `--station` names, `.some(nil)` for `--no-station`, `nil` for neither.
    static func stationChoice(_ invocation: Invocation, menu: MenuService) throws -> Station.ID?? {
        let named = try invocation[station]
        if try invocation[noStation] { return .some(nil) }
        return try named.map { .some(try menu.station(named: $0).id) }
    }

    static let add = Command(
        name: "add", abstract: "Add a category.", arguments: [name],
        options: [station, noStation, noOven, position, OrderCommands.by], exclusive: [[station, noStation]],
        examples: [
            "pizzeria category add Bevande --no-station", "pizzeria category add Fritti --station Friggitrice",
            "pizzeria category add \"Pizze bianche\" --position 2",
        ],
        run: { invocation in
            let context = invocation.context
            let menu = try context.open(.requireCurrent).menu
            let choice = try stationChoice(invocation, menu: menu)
            let category = try menu.addCategory(
                name: try invocation[name], usesOven: !invocation[noOven] && choice != .some(nil),
                station: choice ?? nil, position: try invocation[position])
            let text = try Self.stationText(category, menu: menu)
            try context.emit(category) { "Added category \(category.name) (\(text)).\n" }
            return .ok
        })

    static let edit = Command(
        name: "edit", abstract: "Rename a category, move it, or say at which station its items are prepared.",
        arguments: [categoryArgument],
        options: [newName, station, noStation, oven, noOven, position, OrderCommands.by],
        exclusive: [[station, noStation], [oven, noOven]],
        examples: [
            "pizzeria category edit Fritti --station Friggitrice", "pizzeria category edit Bevande --no-station",
            "pizzeria category edit Pizze --name \"Pizze rosse\"",
        ],
        run: { invocation in
            let context = invocation.context
            let usesOven: Bool? = try invocation[oven] ? true : invocation[noOven] ? false : nil
            let newName = try invocation[Self.newName], position = try invocation[Self.position]
            let menu = try context.open(.requireCurrent).menu
            let choice = try stationChoice(invocation, menu: menu)
            if newName == nil && usesOven == nil && position == nil && choice == nil {
                throw invocation.usage("give --name, --station, --no-station, --oven, --no-oven or --position")
            }
            let category = try menu.editCategory(
                try menu.category(named: try invocation[categoryArgument]).id, name: newName, usesOven: usesOven,
                station: choice, position: position)
            let text = try Self.stationText(category, menu: menu)
            try context.emit(category) { "Saved category \(category.name) (\(text)).\n" }
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

    /// `prepared at Forno, counts toward slot capacity`, `prepared at no station`.
    static func stationText(_ category: Category, menu: MenuService) throws -> String {
        guard let id = category.stationID, let station = try menu.stations().first(where: { $0.id == id }) else {
            return "prepared at no station: takes no capacity"
        }
        return "prepared at \(station.name)"
            + (station.holdsSlotCapacity
                ? ", counts toward slot capacity" : station.capacity.map { ", \($0) per slot" } ?? "")
    }
}
