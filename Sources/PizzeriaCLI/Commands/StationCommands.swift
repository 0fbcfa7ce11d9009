import PizzeriaServices

/// `pizzeria station …`: the kitchen's stations and their capacity per slot.
enum StationCommands {
    static let command = Command(
        name: "station",
        abstract: "Manage the kitchen's stations (Forno, Friggitrice, Bar) and their capacity per slot.",
        discussion: """
            A category's items are prepared at one station, or none (category edit NAME --station S or
            --no-station). Every file has Forno, which holds the slot capacity (capacity set, config set
            slot-capacity): it may be renamed, never removed. Any other station makes at most --capacity
            pieces per pickup slot (no limit without one); a booking, move, delay, edit or undo that would
            go past it is refused, naming the station. STATION names one by name (ignoring case) or number.
            """,
        subcommands: [list, add, edit, remove])

    static let stationArgument = Argument("station", help: "Name (ignoring case) or number.")
    static let name = Argument("name", help: "The name: 1 to 40 characters, unique ignoring case.")
    static let newName = Option("name", "name", help: "The new name.")
    static let capacity = Option(
        "capacity", "n", help: "Pieces it makes per pickup slot: 1 to 10000 (default: no limit).",
        .integer(in: 1...Station.maximumCapacity))
    static let noLimit = Flag("no-limit", help: "No capacity of its own: it makes any number per slot.")
    static let position = Option(
        "position", "n", help: "Where it is listed: 1 first (default: last).", .integer(in: 1...Station.maximumPosition)
    )

    static let shape = ListOutput.Shape<Station>(
        table: Table("NO", "NAME", "CAPACITY", "POSITION", rightAligned: [0, 3]),
        cells: { ["\($0.id)", $0.name, Self.capacityText($0), "\($0.position)"] },
        empty: "No stations.\n",
        csv: CSVColumns([
            .member("id"), .member("name"), .member("capacity"), .member("holds_slot_capacity"), .member("position"),
        ]))

    static let list = Command(
        name: "list", abstract: "List the stations.", options: ListOptions.all,
        run: { invocation in
            let context = invocation.context
            let stations = try context.open(.requireCurrent).menu.stations()
            try context.list.write(invocation, shape) { each in try stations.forEach(each) }
            return .ok
        })

    static let add = Command(
        name: "add", abstract: "Add a station.", arguments: [name], options: [capacity, position, OrderCommands.by],
        examples: ["pizzeria station add Friggitrice --capacity 12", "pizzeria station add Bar"],
        run: { invocation in
            let context = invocation.context
            let station = try context.open(.requireCurrent).menu.addStation(
                name: try invocation[name], capacity: try invocation[capacity], position: try invocation[position])
            try context.emit(station) { "Added station \(station.name) (\(Self.capacityText(station))).\n" }
            return .ok
        })

    static let edit = Command(
        name: "edit", abstract: "Rename a station, change its capacity per slot, or move it.",
        arguments: [stationArgument], options: [newName, capacity, noLimit, position, OrderCommands.by],
        exclusive: [[capacity, noLimit]],
        examples: [
            "pizzeria station edit Friggitrice --capacity 8", "pizzeria station edit Forno --name \"Forno a legna\"",
        ],
        run: { invocation in
            let context = invocation.context
            let newName = try invocation[newName], capacity = try invocation[capacity]
            let position = try invocation[position]
            if try newName == nil && capacity == nil && !invocation[noLimit] && position == nil {
                throw invocation.usage("give --name, --capacity, --no-limit or --position")
            }
            let menu = try context.open(.requireCurrent).menu
            let current = try menu.station(named: try invocation[stationArgument])
            let limit: Int?? = try invocation[noLimit] ? .some(nil) : capacity.map { .some($0) }
            let station = try menu.editStation(current.id, name: newName, capacity: limit, position: position)
            try context.emit(station) { "Saved station \(station.name) (\(Self.capacityText(station))).\n" }
            return .ok
        })

    static let remove = Command(
        name: "remove", abstract: "Remove a station no category uses and no line was booked at.",
        arguments: [stationArgument], options: [OrderCommands.by],
        run: { invocation in
            let context = invocation.context
            let menu = try context.open(.requireCurrent).menu
            let station = try menu.station(named: try invocation[stationArgument])
            try menu.removeStation(station.id)
            struct Removed: Encodable { let removed: String }
            try context.emit(Removed(removed: station.name)) { "Removed station \(station.name).\n" }
            return .ok
        })

    static func capacityText(_ station: Station) -> String {
        station.holdsSlotCapacity
            ? "the slot capacity" : station.capacity.map { "\($0) per slot" } ?? "no limit"
    }
}
