import PizzeriaServices

/// `pizzeria slots`: a day's pickup slots and their room.
enum SlotsCommand {
    static let date = Option("date", "date", help: "The service day: YYYY-MM-DD in the pizzeria's time zone, today or tomorrow.", default: "today")

    /// A day's slots in every list mode.
    static let shape = ListOutput.Shape<SlotUsage>(
        table: Table("SLOT", "BOOKED", "REMAINING", "CAPACITY", "STATE", rightAligned: [1, 2, 3]),
        cells: { ["\($0.local)", "\($0.booked)", "\($0.remaining)", "\($0.capacity)", $0.state.label] },
        empty: "No slots: the opening hours are shorter than one slot.\n", csvHeader: CSVRows.slotHeader, csvRow: CSVRows.slot)

    static let command = Command(
        name: "slots",
        abstract: "Show each pickup slot of a day with booked and remaining capacity.",
        discussion: "STATE says whether a slot can be booked now: open, full, too soon (within the lead time) or past.",
        options: [date] + ListOptions.all,
        run: { invocation in
            let context = invocation.context
            let day = try invocation[date]
            let pizzeria = try context.open(.requireCurrent)
            let slots = try pizzeria.orders.slots(on: try day.map { try DateText.date($0, field: "date", pizzeria) })
            let (format, headers) = try invocation.listFormat()
            if format == .table, headers, let display = context.terminal.display {
                context.console.out(Chart.slots(slots, day: day ?? "today", display: display))
                return .ok
            }
            try context.list.write(invocation, shape) { each in try slots.forEach(each) }
            return .ok
        })
}
