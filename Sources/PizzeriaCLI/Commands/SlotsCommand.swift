import PizzeriaServices

/// `pizzeria slots`: a day's pickup slots and their room.
enum SlotsCommand {
    static let command = Command(
        name: "slots",
        abstract: "Show each pickup slot of a day with booked and remaining capacity.",
        options: [.value("date", "date", help: "The day, YYYY-MM-DD in the pizzeria's time zone.", default: "today")],
        run: { invocation in
            let context = invocation.context
            let slots = try context.open(.requireCurrent).orders.slots(day: invocation.option("date"))
            try context.emit(slots) {
                guard !slots.isEmpty else { return "No slots: the opening hours are shorter than one slot.\n" }
                var table = Table("SLOT", "BOOKED", "REMAINING", "CAPACITY", rightAligned: [1, 2, 3])
                for slot in slots { table.add(slot.local, "\(slot.booked)", "\(slot.remaining)", "\(slot.capacity)") }
                return table.rendered
            }
            return .ok
        })
}
