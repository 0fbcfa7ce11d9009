import PizzeriaServices

extension ValueParser where Value == LocalTime {
    /// A local time of day, `HH:MM`.
    static let localTime = ValueParser { text, field in
        guard let time = LocalTime(text) else {
            throw ValidationError([
                FieldError(field: field, message: "must be a time HH:MM such as 20:00, not '\(text)'")
            ])
        }
        return time
    }
}

/// `pizzeria order delay`: the oven stopped — many orders later at once.
enum DelayCommand {
    static let orders = VariadicArgument(
        "order", help: "Order ids or short ids (or the start of either) to delay (or give --from and --to).",
        optional: true, completion: .orders)
    static let minutes = RequiredOption(
        "by-minutes", "n", help: "How many minutes later: whole slots, 1 to 240.", .integer(in: 1...10_000))
    static let from = Option(
        "from", "time", help: "Delay the pickups from this local time (HH:MM, included)…", .localTime)
    static let to = Option(
        "to", "time", help: "…to this one (excluded; at or before --from: past midnight).", .localTime)
    static let date = Option(
        "date", "date", help: "The service day of --from/--to: YYYY-MM-DD, today (default) or tomorrow.")
    static let bestEffort = Flag(
        "best-effort",
        help: "Move what fits and list the rest (exit 1 if any is left), instead of refusing the whole delay.")

    static let command = Command(
        name: "delay",
        abstract: "Delay many orders at once, preparing ones included, in one transaction (the oven stopped).",
        discussion: """
            Every order named, or every placed or preparing order with a pickup from --from to --to, moves
            --by-minutes later into slots that must take it: the hours, the horizon and each slot's capacity
            (the lead time and a pause do not apply to orders the kitchen already has). The latest move first,
            so a window shifted onto itself frees each slot before filling it. If one does not fit, nothing moves
            and each that does not is named (exit 1); --best-effort moves what fits instead. Each order's history
            says `delayed +N` with --by NAME; --override REASON is recorded with it.
            """,
        arguments: [orders], options: [minutes, from, to, date, bestEffort, OrderCommands.by, OrderCommands.override],
        examples: [
            "pizzeria order delay --from 20:00 --to 21:00 --by-minutes 15 --by giulia",
            "pizzeria order delay 84af 0b0a --by-minutes 30",
            "pizzeria order delay --from 20:00 --to 21:00 --by-minutes 15 --best-effort",
        ],
        lostOutputHint: "the delay was made; `order list --date DAY` shows the new pickups",
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let references = try invocation[orders]
            let (start, end) = (try invocation[from], try invocation[to])
            let selection: DelaySelection
            switch (references.isEmpty, start, end) {
            case (false, nil, nil):
                selection = .orders(try references.map { try pizzeria.lookup.order($0).id })
            case (true, let start?, let end?):
                let day = try invocation[date].map { try DateText.date($0, field: "date", pizzeria) }
                selection = .window(day: day, from: start, to: end)
            case (true, _, _):
                throw invocation.usage("name the orders, or give both --from and --to")
            default:
                throw invocation.usage("name the orders or give --from and --to, not both")
            }
            let result = try pizzeria.orders.delay(
                selection, byMinutes: try invocation[minutes], bestEffort: invocation[bestEffort],
                by: try OrderCommands.actor(invocation), override: try OrderCommands.staffOverride(invocation))
            try context.emit(result) {
                var text =
                    "Delayed \(result.delayed.count) order\(result.delayed.count == 1 ? "" : "s") by \(result.minutes) minutes"
                    + (result.delayed.isEmpty ? ".\n" : ":\n")
                for order in result.delayed {
                    text +=
                        "  \(order.id.short)  \(order.handle)  now \(order.pickupLocal)  (\(order.status.rawValue))\n"
                }
                if !result.refused.isEmpty {
                    text += "Not moved (\(result.refused.count)):\n"
                    for refusal in result.refused {
                        text += "  \(refusal.orderID.short)  \(refusal.pickupLocal): \(refusal.reason)\n"
                    }
                }
                return text
            }
            return result.refused.isEmpty ? .ok : .refused
        })
}
