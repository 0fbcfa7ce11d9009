import PizzeriaServices

/// `pizzeria slots`: a day's pickup slots and their room.
enum SlotsCommand {
    static let date = Option(
        "date", "date", help: "The service day: YYYY-MM-DD in the pizzeria's time zone, today or tomorrow.",
        default: "today")

    /// A day's slots in every list mode.
    static let shape = ListOutput.Shape<SlotUsage>(
        table: Table("SLOT", "BOOKED", "REMAINING", "CAPACITY", "STATE", "RULE", "STATIONS", rightAligned: [1, 2, 3]),
        cells: {
            [
                "\($0.local)", "\($0.booked)", "\($0.remaining)", "\($0.capacity)", $0.state.label,
                $0.capacityRule ?? "-", $0.stations.isEmpty ? "-" : $0.stations.map(\.text).joined(separator: ", "),
            ]
        },
        empty: "No slots: the opening hours are shorter than one slot.\n", csv: CSVRows.slot)

    static let available = Flag("available", help: "The pickup-time picker: the next slots that can take an order now.")
    static let items = VariadicArgument(
        "item", help: "With --available: the cart's items, PIZZA[/VARIANT][+MODIFIER…][=QTY] (instead of --pizzas).",
        optional: true, completion: .pizzas)
    static let pizzas = Option(
        "pizzas", "n", help: "With --available: the order's size in pizzas (default 1).",
        .integer(in: Int.min...Int.max))
    static let after = Option("after", "time", help: "With --available: from this time on (default now).")
    static let limit = Option(
        "limit", "k", help: "With --available: how many slots, 1 to 100 (default 10).", .integer(in: Int.min...Int.max))

    /// The picker's answer in every list mode.
    static let availableShape = ListOutput.Shape<AvailableSlot>(
        table: Table("PICKUP", "OFFSET", "REMAINING", "CAPACITY", "RULE", rightAligned: [2, 3]),
        cells: { [$0.local, $0.offset, "\($0.remaining)", "\($0.capacity)", $0.capacityRule ?? "slot-capacity"] },
        empty: "", csv: CSVRows.available)

    static let command = Command(
        name: "slots",
        abstract:
            "Show each pickup slot of a day with booked and remaining capacity, or the next slots an order can take.",
        discussion: """
            STATE says whether a slot can be booked now: open, full, too soon (within the lead time), paused or
            past; CAPACITY is the slot's effective capacity and RULE where it came from. --available lists the
            next K slots (within the booking horizon, across closed days) that can take N pizzas now, honouring
            the week, exceptions, lead time and rush, a pause, capacity rules and what is booked; --json gives
            {"slots": […], "reason": …} for the app. An empty answer says why (exit 0). Given the cart's items
            instead of --pizzas (as `order place` takes them), a slot is offered only if every station has room
            for its part: the oven's pieces, and each other station's (a fryer's) within its capacity.
            STATIONS lists the pieces booked at each station other than the oven, against its capacity.
            """,
        arguments: [items],
        options: [date, available, pizzas, after, limit] + ListOptions.all, exclusive: [[date, available]],
        examples: [
            "pizzeria slots --date tomorrow", "pizzeria slots --available --pizzas 4",
            "pizzeria slots --available --after 20:00 --limit 3 --json",
            "pizzeria slots --available Margherita=2 'Supplì=4'",
        ],
        run: { invocation in
            let context = invocation.context
            let day = try invocation[date]
            let pizzeria = try context.open(.requireCurrent)
            if try invocation[available] {
                let from = try CapacityCommands.time(try invocation[after], pizzeria, field: "after")
                let cart = try invocation[items]
                let answer: SlotAvailability
                if cart.isEmpty {
                    answer = try pizzeria.orders.availableSlots(
                        pizzas: try invocation[pizzas] ?? 1, after: from, limit: try invocation[limit] ?? 10)
                } else {
                    guard try invocation[pizzas] == nil else {
                        throw invocation.usage("give the cart's items or --pizzas, not both")
                    }
                    let lines = try cart.map {
                        try OrderCommands.parseItem($0, lookup: pizzeria.lookup, menu: pizzeria.menu)
                    }
                    answer = try pizzeria.orders.availableSlots(
                        for: lines, after: from, limit: try invocation[limit] ?? 10)
                }
                let (format, _) = try invocation.listFormat()
                if format == .json {
                    try context.printJSON(answer)
                } else {
                    try context.list.write(invocation, availableShape) { each in try answer.slots.forEach(each) }
                    if answer.slots.isEmpty, let message = answer.message { context.console.note(message) }
                }
                return .ok
            }
            guard try invocation[pizzas] == nil, try invocation[after] == nil, try invocation[limit] == nil,
                try invocation[items].isEmpty
            else {
                throw invocation.usage("--pizzas, --after, --limit and a cart's items go with --available")
            }
            let slots = try pizzeria.orders.slots(on: try day.map { try DateText.date($0, field: "date", pizzeria) })
            let (format, headers) = try invocation.listFormat()
            if format == .table, headers, let display = context.terminal.display {
                context.console.outFormatted(Chart.slots(slots, day: day ?? "today", display: display))
                return .ok
            }
            try context.list.write(invocation, shape) { each in try slots.forEach(each) }
            return .ok
        })
}
