import Foundation
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

/// The rule table of docs/CLI.md ("One rule, every path"), cell by cell: each change that puts
/// pizzas into a slot — place, move, add, undo a cancellation — against each rule — the hours,
/// the past, the horizon, the lead time, a pause, capacity — and what a staff override passes.
/// The clock is 2026-12-01 10:00 in Rome; the week is 12:00-23:00 every day; lead time 15.
@Suite("One rule, every path: the rule table, cell by cell")
struct RuleTableTests {
    let giulia = "giulia"
    let walkIn = StaffOverride(reason: "walk-in at the counter")

    /// The rule that refused, as the table names it, or `ok`.
    func outcome(_ body: () throws -> Any) -> String {
        do {
            _ = try body()
            return "ok"
        } catch let error as OrderError {
            switch error {
            case .paused: return "pause"
            case .pickupInPast: return "past"
            case .beyondHorizon: return "horizon"
            case .tooSoon: return "lead"
            case .outsideOpeningHours, .closedDate, .closedWeekday, .notOnSlotBoundary: return "hours"
            case .slotFull, .orderTooLarge, .overMargin: return "capacity"
            default: return "\(error)"
            }
        } catch {
            return "\(error)"
        }
    }

    func fixture() throws -> OrderFixture {
        let f = try OrderFixture(capacity: 12)
        try f.pizzeria.settings.update(.bookingHorizonDays(30))
        return f
    }

    func request(_ f: OrderFixture, _ time: String, day: String = "2026-12-01", pizzas: Int = 1) throws -> OrderRequest
    {
        OrderRequest(
            user: try f.user("anna"), items: [.init(pizza: try f.pizza("Margherita"), quantity: pizzas)],
            pickup: try f.at(time, day: day))
    }

    func more(_ f: OrderFixture, _ quantity: Int) throws -> OrderEdit {
        OrderEdit(add: [.init(pizza: try f.pizza("Porcini"), quantity: quantity)])
    }

    @Test("place: hours, past, horizon, lead (override passes), pause (override passes), capacity (a quarter over)")
    func place() throws {
        let f = try fixture()
        let orders = f.pizzeria.orders
        #expect(outcome { try orders.place(try request(f, "23:30")) } == "hours")
        #expect(outcome { try orders.place(try request(f, "09:00")) } == "past")
        #expect(outcome { try orders.place(try request(f, "19:00", day: "2027-01-15")) } == "horizon")
        #expect(outcome { try orders.place(try request(f, "13:00", pizzas: 13)) } == "capacity")
        f.clock.advance(minutes: 110)  // 11:50
        #expect(outcome { try orders.place(try request(f, "12:00")) } == "lead")
        #expect(outcome { try orders.place(try request(f, "12:00"), by: giulia, override: walkIn) } == "ok")
        #expect(outcome { try orders.place(try request(f, "11:45"), by: giulia, override: walkIn) } == "past")
        try f.pizzeria.capacity.pause(reason: "oven repair")
        #expect(outcome { try orders.place(try request(f, "19:00")) } == "pause")
        #expect(outcome { try orders.place(try request(f, "19:00"), by: giulia, override: walkIn) } == "ok")
        // Over capacity by at most its margin (12 a slot: 3): 13 of 12 passes, 16 does not.
        #expect(
            outcome { try orders.place(try request(f, "19:00", pizzas: 12), by: giulia, override: walkIn) } == "ok")
        #expect(
            outcome { try orders.place(try request(f, "19:00", pizzas: 3), by: giulia, override: walkIn) }
                == "capacity")
        // The override is in the history, with who gave it; an override without a name is refused.
        let booked = try orders.list().first { $0.pickupAt == (try? f.at("12:00")) }
        #expect(
            booked?.history.first?.detail == "override: walk-in at the counter"
                && booked?.history.first?.actor == giulia)
        #expect(throws: ValidationError.self) { try orders.place(try request(f, "20:00"), override: walkIn) }
    }

    @Test("move: hours, past, horizon, lead (override passes), capacity; a pause does not stop the counter")
    func move() throws {
        let f = try fixture()
        let orders = f.pizzeria.orders
        let order = try f.place("anna", "19:00", ("Margherita", 5)).order
        try f.place("marco", "20:00", ("Margherita", 8))
        #expect(outcome { try orders.move(id: order.id, to: try f.at("23:30")) } == "hours")
        #expect(outcome { try orders.move(id: order.id, to: try f.at("09:00")) } == "past")
        #expect(outcome { try orders.move(id: order.id, to: try f.at("19:00", day: "2027-01-15")) } == "horizon")
        #expect(outcome { try orders.move(id: order.id, to: try f.at("20:00")) } == "capacity")
        try f.pizzeria.capacity.pause(reason: "oven repair")
        #expect(outcome { try orders.move(id: order.id, to: try f.at("19:30"), by: giulia) } == "ok")
        try f.pizzeria.capacity.resume()
        f.clock.advance(minutes: 110)  // 11:50
        #expect(outcome { try orders.move(id: order.id, to: try f.at("12:00")) } == "lead")
        #expect(outcome { try orders.move(id: order.id, to: try f.at("12:00"), by: giulia, override: walkIn) } == "ok")
        let moved = try #require(try orders.order(id: order.id))
        #expect(
            moved.history.last?.detail?.hasSuffix(", override: walk-in at the counter") == true
                && moved.history.last?.actor == giulia)
    }

    @Test(
        "add: the slot must still be open, not past, outside the lead time (override), not paused (override), with room; removals pass"
    )
    func add() throws {
        let f = try fixture()
        let orders = f.pizzeria.orders
        let order = try f.place("anna", "12:30", ("Margherita", 2)).order
        try f.place("marco", "12:30", ("Margherita", 5))
        #expect(outcome { try orders.edit(id: order.id, try more(f, 6)) } == "capacity")
        try f.pizzeria.capacity.pause(reason: "oven repair")
        #expect(outcome { try orders.edit(id: order.id, try more(f, 4)) } == "pause")
        #expect(outcome { try orders.edit(id: order.id, try more(f, 1), by: giulia, override: walkIn) } == "ok")
        #expect(outcome { try orders.edit(id: order.id, OrderEdit(note: .set("no basil"))) } == "ok")
        try f.pizzeria.capacity.resume()
        f.clock.advance(minutes: 138)  // 12:18, two minutes inside the lead time
        #expect(outcome { try orders.edit(id: order.id, try more(f, 5)) } == "lead")
        #expect(outcome { try orders.edit(id: order.id, try more(f, 1), by: giulia, override: walkIn) } == "ok")
        #expect(outcome { try orders.edit(id: order.id, OrderEdit(remove: [try f.pizza("Porcini")])) } == "ok")
        f.clock.advance(minutes: 13)  // 12:31: after the pickup
        #expect(outcome { try orders.edit(id: order.id, try more(f, 1), by: giulia, override: walkIn) } == "past")
        #expect(
            outcome {
                try orders.edit(
                    id: order.id, OrderEdit(setQuantity: [.init(pizza: try f.pizza("Margherita"), quantity: 1)]))
            } == "ok")
        // A slot cut out of the hours after the booking takes no more pizzas.
        let later = try f.place("anna", "19:00", ("Margherita", 1)).order
        let cut = try #require(OpeningInterval(opens: LocalTime("19:00")!, closes: LocalTime("19:30")!))
        try f.pizzeria.schedule.close(LocalDateRange(LocalDate("2026-12-01")!), cutting: cut, keepOrders: true)
        #expect(outcome { try orders.edit(id: later.id, try more(f, 1)) } == "hours")
    }

    @Test(
        "undo a cancellation: the slot must still be open, not past, outside the lead time (override), not paused (override), with room"
    )
    func restore() throws {
        let f = try fixture()
        let orders = f.pizzeria.orders
        let closed = try f.place("anna", "19:00", day: "2026-12-03", ("Margherita", 2)).order
        try orders.cancel(id: closed.id)
        try f.pizzeria.schedule.close(LocalDateRange(LocalDate("2026-12-03")!), reason: "inventory")
        #expect(outcome { try orders.undo(id: closed.id) } == "hours")

        let full = try f.place("anna", "13:00", ("Margherita", 5)).order
        try orders.cancel(id: full.id)
        try f.place("marco", "13:00", ("Margherita", 10))
        #expect(outcome { try orders.undo(id: full.id) } == "capacity")

        let paused = try f.place("anna", "14:00", ("Margherita", 2)).order
        try orders.cancel(id: paused.id)
        try f.pizzeria.capacity.pause(reason: "oven repair")
        #expect(outcome { try orders.undo(id: paused.id) } == "pause")
        #expect(outcome { try orders.undo(id: paused.id, by: giulia, override: walkIn) } == "ok")
        try f.pizzeria.capacity.resume()

        let soon = try f.place("anna", "12:15", ("Margherita", 1)).order
        f.clock.advance(minutes: 125)  // 12:05
        try orders.cancel(id: soon.id)
        #expect(outcome { try orders.undo(id: soon.id) } == "lead")
        #expect(outcome { try orders.undo(id: soon.id, by: giulia, override: walkIn) } == "ok")
        f.clock.advance(minutes: 5)  // 12:10
        try orders.cancel(id: soon.id)
        f.clock.advance(minutes: 6)  // 12:16: within the undo window, after the pickup
        #expect(outcome { try orders.undo(id: soon.id, by: giulia, override: walkIn) } == "past")
        // Undoing a collection takes nothing from a slot: no rule but the window, even while paused.
        let (collected, _) = try orders.place(try request(f, "12:30"), by: giulia, override: walkIn)
        for _ in 0..<2 { try orders.advance(id: collected.id) }
        try orders.advance(id: collected.id, settling: .unpaid(reason: "tab"))
        try f.pizzeria.capacity.pause(reason: "oven repair")
        #expect(outcome { try orders.undo(id: collected.id) } == "ok")
    }
}

/// Limits on free text are counted as the schema counts them (Unicode scalars, SQLite's
/// `length()`), so the service refuses first, naming the field, never a bare CHECK.
@Suite("Limits in one unit: Unicode scalars, in the library as in the CHECKs")
struct TextLimitTests {
    @Test(
        "a 101-emoji note (202 scalars), a 10-family --by (70 scalars), a long reason: refused naming the field, nothing written"
    )
    func scalars() throws {
        let f = try OrderFixture()
        let order = try f.place("anna", "19:00", ("Margherita", 1)).order
        let before = try f.base.snapshot()
        let note = String(repeating: "👍🏽", count: 101)
        #expect(note.count == 101 && note.unicodeScalars.count == 202)
        let refused = #expect(throws: ValidationError.self) {
            try f.pizzeria.orders.edit(id: order.id, OrderEdit(note: .set(note)))
        }
        #expect(refused?.errors.map(\.field) == ["note"])
        let family = String(repeating: "👨‍👩‍👧‍👦", count: 10)
        let by = #expect(throws: ValidationError.self) { try f.pizzeria.orders.cancel(id: order.id, by: family) }
        #expect(by?.errors.map(\.field) == ["by"])
        let reason = #expect(throws: ValidationError.self) { try f.pizzeria.capacity.pause(reason: note) }
        #expect(reason?.errors.map(\.field) == ["reason"])
        let override = #expect(throws: ValidationError.self) {
            try f.pizzeria.orders.place(
                OrderRequest(
                    user: try f.user("anna"), items: [.init(pizza: try f.pizza("Margherita"), quantity: 1)],
                    pickup: try f.at("20:00")), by: "giulia", override: StaffOverride(reason: note))
        }
        #expect(override?.errors.map(\.field) == ["override"])
        #expect(try f.base.snapshot() == before)
        // 200 scalars is the limit, as the CHECK has it.
        try f.pizzeria.orders.edit(id: order.id, OrderEdit(note: .set(String(repeating: "👍🏽", count: 100))))
    }
}
