import PizzeriaServices

/// `pizzeria order ticket ID`: one order's kitchen ticket.
enum TicketCommand {
    static let width = Option(
        "width", "columns",
        help: "The printer's width in display columns: 32, 42 or 48 (default 42; CJK and emoji count as 2).",
        completion: .choices(["32", "42", "48"]), .integer(in: 32...48))
    static let station = Option("station", "station", help: "Only the lines this station makes (station list).")

    static let command = Command(
        name: "ticket",
        abstract: "Print an order's kitchen ticket: pickup time, short id, customer, items with their modifiers.",
        discussion: """
            For a kitchen printer: the items of one order with variants, modifiers (a removal as senza
            NAME; a choice's default left out), line notes and the order's note, and nothing about money.
            Every line fits --width display columns. --station NAME prints only what that station makes, with its
            name on top (a station's printer). --json gives the same for a printer bridge.
            """,
        arguments: [OrderCommands.orderArgument], options: [station, width],
        examples: [
            "pizzeria order ticket 84af", "pizzeria order ticket 84af --station Friggitrice --width 32",
            "pizzeria order ticket 84af --json",
        ],
        run: { invocation in
            let context = invocation.context
            let width = try invocation[width] ?? 42
            guard KitchenTicket.widths.contains(width) else {
                throw ValidationError([FieldError(field: "width", message: "must be 32, 42 or 48, not \(width)")])
            }
            let pizzeria = try context.open(.requireCurrent)
            let station = try invocation[station].map { try pizzeria.menu.station(named: $0).id }
            let ticket = try pizzeria.orders.ticket(
                of: try pizzeria.lookup.order(try invocation[OrderCommands.orderArgument]).id, station: station)
            if context.json {
                try context.printJSON(ticket)
            } else {
                context.console.out(ticket.text(width: width, language: try pizzeria.payments.shop().language))
            }
            return .ok
        })
}
