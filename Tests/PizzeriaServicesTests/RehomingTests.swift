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

    @Test(
        "a time zone change that takes a slot past its capacity rule is refused naming its orders; --keep-orders applies it"
    )
    func zoneOverfills() throws {
        let f = try OrderFixture()
        try f.pizzeria.capacity.set([.weekday(.friday)], interval("19:00", "20:00"), capacity: 4)
        let (order, _) = try f.place("anna", "20:00", day: "2026-12-04", ("Margherita", 10))
        let before = try f.base.snapshot()
        let refused = #expect(throws: ScheduleError.self) {
            try f.pizzeria.settings.update(.timeZone(TimeZone(identifier: "Europe/London")))
        }
        guard case .wouldOrphan(let orders)? = refused else { Issue.record("\(String(describing: refused))"); return }
        #expect(orders.map(\.id) == [order.id] && orders.first?.problem == .overCapacity)
        #expect(try f.base.snapshot() == before)
        try f.pizzeria.settings.update(.timeZone(TimeZone(identifier: "Europe/London")), keepOrders: true)
        let slot = try f.pizzeria.orders.slots(on: day("2026-12-04")).first { $0.local == "19:00" }
        #expect(slot?.booked == 10 && slot?.capacity == 4)
    }

    @Test(
        "a week that moves a night's 00:30 to the next service day is refused; kept, the order moves with its slot and the picker agrees"
    )
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
        let offered = try f.pizzeria.orders.availableSlots(
            pizzas: 11, after: try f.at("00:00", day: "2026-12-05"), limit: 3)
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
        let refused = #expect(throws: ScheduleError.self) {
            try f.pizzeria.schedule.close(LocalDateRange(day("2026-12-10"), day("2026-12-11"))!)
        }
        guard case .wouldOrphan(let orders)? = refused else { Issue.record("\(String(describing: refused))"); return }
        #expect(orders.map(\.id) == [other.id])
        // Open again, the kept order loses its mark; check agrees all along.
        try f.pizzeria.schedule.clear(LocalDateRange(day("2026-12-10")))
        let marked = try f.pizzeria.database.read { db in
            try db.fetchOne("SELECT kept_outside_hours_at FROM orders WHERE id = ?", [kept.id]) {
                try $0.optionalString("kept_outside_hours_at")
            }
        }
        #expect(marked == .some(nil))
        #expect(try Maintenance.check(path: f.base.path, now: f.clock.now).domainProblems.isEmpty)
    }
}

/// A partial closure in the service day's own terms: the first hours of a night are cut on the
/// night's date, a cut that takes nothing out is refused, daylight-saving nights both ways.
@Suite("Nights are cut like days")
struct NightCutTests {
    func day(_ text: String) -> LocalDate { LocalDate(text)! }

    func locals(_ f: OrderFixture, _ date: String) throws -> [String] {
        try f.pizzeria.orders.slots(on: day(date)).map(\.local)
    }

    @Test("close FRI --from 00:00 --to 00:30 (or 24:00-24:30) cuts Friday night's first half hour after midnight")
    func nightCut() throws {
        let f = try OrderFixture()
        try f.pizzeria.schedule.setWeek(try HoursSyntax.osm("Mo-Su 18:30-01:00"))
        #expect(try locals(f, "2026-12-04").contains("Sat 00:15"))
        try f.pizzeria.schedule.close(
            LocalDateRange(day("2026-12-04")), cutting: try HoursSyntax.parseCut(from: "00:00", to: "00:30"))
        let friday = try locals(f, "2026-12-04")
        #expect(
            !friday.contains("Sat 00:00") && !friday.contains("Sat 00:15") && friday.contains("Sat 00:30")
                && friday.contains("23:45"))
        #expect(throws: OrderError.self) { try f.place("anna", "00:15", day: "2026-12-05", ("Margherita", 1)) }
        try f.pizzeria.schedule.close(
            LocalDateRange(day("2026-12-11")), cutting: try HoursSyntax.parseCut(from: "24:00", to: "24:30"))
        #expect(!(try locals(f, "2026-12-11")).contains("Sat 00:15"))
        // A cut that takes nothing out (Saturday's calendar morning belongs to Friday night) is refused.
        let nothing = #expect(throws: ValidationError.self) {
            try f.pizzeria.schedule.close(
                LocalDateRange(day("2026-12-05")), cutting: try HoursSyntax.parseCut(from: "10:00", to: "11:00"))
        }
        #expect(nothing?.errors.first?.field == "from")
    }

    @Test(
        "daylight-saving nights: a cut of 02:00-02:30 takes both 02:xx of the long night; on the short night the skipped hour stays skipped"
    )
    func daylightSaving() throws {
        let f = try OrderFixture()
        try f.pizzeria.schedule.setWeek(try HoursSyntax.osm("Sa 18:30-04:00"))
        let long = try locals(f, "2027-10-30")
        #expect(long.filter { $0.hasPrefix("Sun 02:00") }.count == 2, "\(long)")
        try f.pizzeria.schedule.close(
            LocalDateRange(day("2027-10-30")), cutting: try HoursSyntax.parseCut(from: "02:00", to: "02:30"))
        let cut = try locals(f, "2027-10-30")
        #expect(
            !cut.contains { $0.hasPrefix("Sun 02:00") || $0.hasPrefix("Sun 02:15") }
                && cut.contains { $0.hasPrefix("Sun 02:30") }, "\(cut)")
        try f.pizzeria.schedule.close(
            LocalDateRange(day("2027-03-27")), cutting: try HoursSyntax.parseCut(from: "01:30", to: "02:30"))
        let short = try locals(f, "2027-03-27")
        #expect(
            !short.contains("Sun 01:30") && !short.contains("Sun 02:00") && short.contains("Sun 03:00")
                && short.contains("Sun 01:15"), "\(short)")
    }
}
