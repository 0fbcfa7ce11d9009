import Foundation
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

/// Changes that re-home bookings: a change of week, exception, slot length or time zone
/// recomputes every future order's service day and local time, and is refused (naming only the
/// orders it affects) when one would leave the hours, change service day or overfill its slot.
@Suite("Changes that re-home bookings: hours, service days, capacity, kept orders")
struct RehomingTests {
    func day(_ text: String) -> LocalDate { LocalDate(text)! }

    func interval(_ opens: String, _ closes: String) -> OpeningInterval {
        OpeningInterval(opens: LocalTime(opens)!, closes: LocalTime(closes)!)!
    }

    @Test("a time zone change that takes a slot past its capacity rule is refused naming its orders; --keep-orders applies it")
    func zoneOverfills() throws {
        let f = try OrderFixture()
        try f.pizzeria.capacity.set([.weekday(.friday)], interval("19:00", "20:00"), capacity: 4)
        let (order, _) = try f.place("anna", "20:00", day: "2026-12-04", ("Margherita", 10))
        let before = try f.base.snapshot()
        let refused = #expect(throws: ScheduleError.self) { try f.pizzeria.settings.update(.timeZone(TimeZone(identifier: "Europe/London"))) }
        guard case .wouldOrphan(let orders)? = refused else { Issue.record("\(String(describing: refused))"); return }
        #expect(orders.map(\.id) == [order.id] && orders.first?.problem == .overCapacity)
        #expect(try f.base.snapshot() == before)
        try f.pizzeria.settings.update(.timeZone(TimeZone(identifier: "Europe/London")), keepOrders: true)
        let slot = try f.pizzeria.orders.slots(on: day("2026-12-04")).first { $0.local == "19:00" }
        #expect(slot?.booked == 10 && slot?.capacity == 4)
    }

    @Test("a week that moves a night's 00:30 to the next service day is refused; kept, the order moves with its slot and the picker agrees")
    func nightToAnotherServiceDay() throws {
        let f = try OrderFixture()
        try f.pizzeria.schedule.setWeek(try HoursSyntax.osm("Mo-Su 12:00-14:30; Fr 18:30-01:00"))
        let (order, _) = try f.place("anna", "00:30", day: "2026-12-05", ("Margherita", 11))
        #expect(order.serviceDay == day("2026-12-04"))
        let week = try HoursSyntax.osm("Mo-Su 12:00-14:30; Fr 18:30-24:00; Sa 00:00-01:00,12:00-14:30")
        let refused = #expect(throws: ScheduleError.self) { try f.pizzeria.schedule.setWeek(week) }
        guard case .wouldOrphan(let orders)? = refused else { Issue.record("\(String(describing: refused))"); return }
        #expect(orders.map(\.problem) == [.otherServiceDay])
        try f.pizzeria.schedule.setWeek(week, keepOrders: true)
        #expect(try f.pizzeria.orders.order(id: order.id)?.serviceDay == day("2026-12-05"))
        #expect(try f.pizzeria.orders.slots(on: day("2026-12-05")).first { $0.local == "00:30" }?.booked == 11)
        // The picker does not offer the slot the booking would refuse.
        let offered = try f.pizzeria.orders.availableSlots(pizzas: 11, after: try f.at("00:00", day: "2026-12-05"), limit: 3)
        #expect(!offered.slots.contains { $0.start == order.pickupAt })
        #expect(throws: OrderError.self) { try f.place("marco", "00:30", day: "2026-12-05", ("Margherita", 11)) }
    }

    @Test("an order kept outside the hours blocks no later change that does not touch it")
    func keptOrderBlocksNothingElse() throws {
        let f = try OrderFixture()
        let (kept, _) = try f.place("anna", "19:00", day: "2026-12-10", ("Margherita", 1))
        #expect(throws: ScheduleError.self) { try f.pizzeria.schedule.close(LocalDateRange(day("2026-12-10"))) }
        try f.pizzeria.schedule.close(LocalDateRange(day("2026-12-10")), keepOrders: true)
        try f.pizzeria.schedule.close(LocalDateRange(day("2027-08-15")))
        try f.pizzeria.schedule.special(LocalDateRange(day("2026-12-24")), [interval("18:00", "22:00")])
        try f.pizzeria.settings.update(.slotMinutes(30))
        // A new booking affected by a change still blocks it, named alone.
        let (other, _) = try f.place("marco", "19:00", day: "2026-12-11", ("Margherita", 1))
        let refused = #expect(throws: ScheduleError.self) { try f.pizzeria.schedule.close(LocalDateRange(day("2026-12-10"), day("2026-12-11"))!) }
        guard case .wouldOrphan(let orders)? = refused else { Issue.record("\(String(describing: refused))"); return }
        #expect(orders.map(\.id) == [other.id])
        // Open again, the kept order loses its mark; check agrees all along.
        try f.pizzeria.schedule.clear(LocalDateRange(day("2026-12-10")))
        let marked = try f.pizzeria.database.read { db in
            try db.fetchOne("SELECT kept_outside_hours_at FROM orders WHERE id = ?", [kept.id]) { try $0.optionalString("kept_outside_hours_at") }
        }
        #expect(marked == .some(nil))
        #expect(try Maintenance.check(path: f.base.path, now: f.clock.now).domainProblems.isEmpty)
    }
}
