import PizzeriaServices

/// `pizzeria slots`: a day's pickup slots and their room.
enum SlotsCommand {
    static let command = Command(
        name: "slots",
        abstract: "Show each pickup slot of a day with booked and remaining capacity.",
        options: [.value("date", "date", help: "The day, YYYY-MM-DD in the pizzeria's time zone.", default: "today"), GlobalOptions.csv],
        run: { invocation in
            let context = invocation.context
            let slots = try context.open(.requireCurrent).orders.slots(day: invocation.option("date"))
            if try invocation.csv() {
                try context.list.csv(header: CSVRows.slotHeader, row: CSVRows.slot) { each in try slots.forEach(each) }
                return .ok
            }
            if !context.json, let display = context.terminal.display {
                context.console.out(Chart.slots(slots, day: invocation.option("date") ?? "today", display: display))
                return .ok
            }
            try context.emit(slots) {
                guard !slots.isEmpty else { return "No slots: the opening hours are shorter than one slot.\n" }
                var table = Table("SLOT", "BOOKED", "REMAINING", "CAPACITY", rightAligned: [1, 2, 3])
                for slot in slots { table.add(slot.local, "\(slot.booked)", "\(slot.remaining)", "\(slot.capacity)") }
                return table.rendered
            }
            return .ok
        })
}
