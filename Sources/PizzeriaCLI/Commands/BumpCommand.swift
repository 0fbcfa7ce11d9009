import PizzeriaServices

/// `pizzeria order bump ID --station NAME`: a station's part of an order done.
enum BumpCommand {
    static let station = Option("station", "station", help: "The station whose part is done (station list).")

    static let command = Command(
        name: "bump",
        abstract: "Mark a station's part of an order done; the order is ready once every station's is.",
        discussion: """
            As a kitchen screen's bump: the station's lines leave its board (order board --station NAME).
            When no station of the order's lines still owes its part, the order goes to ready by itself
            (through preparing; its history says "every station done" and who). Only a placed or preparing
            order; bumping again changes nothing. Undoing the ready status, or an edit that gives a station
            more to make, takes the station's bump back.
            """,
        arguments: [OrderCommands.orderArgument], options: [station, OrderCommands.by],
        examples: [
            "pizzeria order bump 84af --station Friggitrice", "pizzeria order bump 84af --station Forno --json",
        ],
        run: { invocation in
            let context = invocation.context
            guard let name = try invocation[station] else { throw invocation.usage("give --station NAME") }
            let pizzeria = try context.open(.requireCurrent)
            let station = try pizzeria.menu.station(named: name)
            let result = try pizzeria.orders.bump(
                id: try pizzeria.lookup.order(try invocation[OrderCommands.orderArgument]).id, station: station.id,
                by: try OrderCommands.actor(invocation))
            try context.emit(result) {
                let id = result.order.id.short
                if result.alreadyDone { return "\(result.station) had already marked order \(id) done.\n" }
                if result.madeReady { return "\(result.station) done: order \(id) is ready (every station done).\n" }
                return "\(result.station) done on order \(id); still owing: \(result.owing.joined(separator: ", ")).\n"
            }
            return .ok
        })
}
