import Foundation
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

/// The real week on a real file: service days past midnight, the slot grid per interval, date
/// exceptions and their precedence, lead time, refusals that say what to do, orphaned bookings.
@Suite("The week: service days, exceptions, lead time, refusals")
struct ScheduleTests {
    /// Given the typical pizzeria of the issue: closed Mondays, lunch and dinner, Friday and
    /// Saturday nights until 01:00, Sunday evening only; 20 minutes of lead time. The clock is
    /// 2026-12-01 10:00 in Rome (a Tuesday).
    func pizzeria() throws -> OrderFixture {
        let fixture = try OrderFixture()
        try fixture.pizzeria.schedule.setWeek(
            try HoursSyntax.osm(
                "Tu-Th 12:00-14:30,18:30-23:30; Fr,Sa 12:00-14:30,18:30-01:00; Su 18:30-23:30; Mo off"))
        try fixture.pizzeria.settings.update(.leadMinutes(20))
        return fixture
    }

    func day(_ text: String) -> LocalDate { LocalDate(text)! }

    func refusal(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "no refusal"
        } catch {
            return "\(error)"
        }
    }

    @Test(
        "a slot after midnight belongs to the night it opened: Friday's 00:30 is Friday's in slots, lists and reports")
    func serviceDayAfterMidnight() throws {
        let f = try pizzeria()
        let (order, _) = try f.place("anna", "00:30", day: "2026-12-05", ("Margherita", 2))
        #expect(order.serviceDay == day("2026-12-04"))
        let friday = try f.pizzeria.orders.slots(on: day("2026-12-04"))
        #expect(friday.first { $0.local == "Sat 00:30" }?.booked == 2)
        #expect(try f.pizzeria.orders.slots(on: day("2026-12-05")).allSatisfy { $0.booked == 0 })
        #expect(try f.pizzeria.orders.list(OrderFilter(serviceDay: day("2026-12-04"))).map(\.id) == [order.id])
        #expect(try f.pizzeria.orders.list(OrderFilter(serviceDay: day("2026-12-05"))).isEmpty)
        #expect(
            try f.pizzeria.orders.sales(from: day("2026-12-04"), to: day("2026-12-04")).days.map(\.serviceDay) == [
                day("2026-12-04")
            ])
        #expect(try f.pizzeria.orders.sales(from: day("2026-12-05"), to: day("2026-12-05")).days.isEmpty)
        // The database agrees, for analysts: service day and local time with offset.
        let stored = try f.pizzeria.database.read { db in
            try db.fetchOne("SELECT service_day, pickup_local FROM orders WHERE id = ?", [order.id]) {
                "\(try $0.string("service_day")) \(try $0.string("pickup_local"))"
            }
        }
        #expect(stored == "2026-12-04 2026-12-05T00:30+01:00")
    }

    @Test("the grid restarts at each interval's opening and the last slot ends by closing")
    func gridPerInterval() throws {
        let f = try pizzeria()
        try f.pizzeria.schedule.setHours(
            [.wednesday], [try HoursSyntax.parseInterval("12:10-13:00"), try HoursSyntax.parseInterval("18:05-18:40")])
        let slots = try f.pizzeria.orders.slots(on: day("2026-12-02")).map(\.local)
        #expect(slots == ["12:10", "12:25", "12:40", "18:05", "18:20"])
        let friday = try f.pizzeria.orders.slots(on: day("2026-12-04")).map(\.local)
        #expect(
            friday.first == "12:00" && friday.contains("14:15") && !friday.contains("14:30")
                && friday.last == "Sat 00:45")
    }

    @Test(
        "refusals name what to do: closed weekday and date, outside the hours, off the grid, too soon",
        arguments: [
            ("2026-12-07", "19:00", "pickup: closed on Mondays; next open Tuesday 12:00"),
            (
                "2026-12-02", "16:00",
                "is outside the hours of Wednesday 2026-12-02 (12:00-14:30, 18:30-23:30; the last slot ends at closing); nearest slots: 14:15, 18:30"
            ),
            ("2026-12-02", "19:07", "is not the start of a 15-minute slot; nearest slots: 19:00, 19:15"),
            ("2026-12-01", "12:00", "no refusal"),
        ])
    func refusals(date: String, time: String, message: String) throws {
        let f = try pizzeria()
        let before = try f.base.snapshot()
        let text = refusal { try f.place("anna", time, day: date, ("Margherita", 1)) }
        #expect(text.contains(message), "\(text)")
        if message != "no refusal" { #expect(try f.base.snapshot() == before) }
    }

    @Test("too soon counts real minutes: a slot 19 minutes ahead is refused, 20 is booked, across midnight too")
    func leadTimeIsElapsed() throws {
        let directory = TemporaryDirectory()
        // 00:11 on Saturday 2026-12-05 in Rome: Friday night is still open until 01:00.
        let now = try PickupTime.parse("2026-12-05T00:11", timeZone: TimeZone(identifier: "Europe/Rome")!, now: Date())
            .get()
        let f = try OrderFixture(directory: directory, now: now)
        try f.pizzeria.schedule.setWeek(try HoursSyntax.osm("Fr,Sa 18:30-01:00"))
        try f.pizzeria.settings.update(.leadMinutes(20))
        #expect(
            refusal { try f.place("anna", "00:30", day: "2026-12-05", ("Margherita", 1)) }.contains(
                "the earliest slot is Saturday 00:45"))
        #expect(
            try f.place("anna", "00:45", day: "2026-12-05", ("Margherita", 1)).order.serviceDay == day("2026-12-04"))
    }

    @Test(
        "special hours replace the weekday's; a closure or a cut subtracts from whatever applies; clear restores the week"
    )
    func precedence() throws {
        let f = try pizzeria()
        let schedule = f.pizzeria.schedule
        // Christmas Eve (a Thursday) has special hours; a cut inside them subtracts from them.
        try schedule.special(
            LocalDateRange(day("2026-12-24")), [try HoursSyntax.parseInterval("12:00-16:00")], reason: "Christmas Eve")
        try schedule.close(
            LocalDateRange(day("2026-12-24")), cutting: try HoursSyntax.parseInterval("13:00-14:00"),
            reason: "staff lunch")
        let eve = try schedule.hours(of: day("2026-12-24"))
        #expect(eve.basis == .special && eve.summary == "12:00-13:00, 14:00-16:00")
        // A special date on a closed weekday opens it.
        try schedule.special(LocalDateRange(day("2026-12-07")), [try HoursSyntax.parseInterval("18:00-22:00")])
        #expect(try schedule.hours(of: day("2026-12-07")).summary == "18:00-22:00")
        #expect(try f.place("anna", "18:00", day: "2026-12-07", ("Margherita", 1)).created)
        // A whole-day closure wins over special hours, and is named with its reason.
        try schedule.close(LocalDateRange(day("2026-12-25"), day("2026-12-26"))!, reason: "Christmas")
        #expect(
            refusal { try f.place("anna", "19:00", day: "2026-12-25", ("Margherita", 1)) }
                .contains("pickup: closed on 2026-12-25 (Christmas); next open Sunday 18:30"))
        #expect(try schedule.clear(LocalDateRange(day("2026-12-24"), day("2026-12-26"))!) == 4)
        #expect(try schedule.hours(of: day("2026-12-25")).summary == "12:00-14:30, 18:30-01:00")
    }

    @Test("a change that would orphan a booking is refused naming it; --keep-orders applies it and the order stays")
    func orphans() throws {
        let f = try pizzeria()
        let (order, _) = try f.place("anna", "19:00", day: "2026-12-02", ("Margherita", 1))
        let before = try f.base.snapshot()
        let changes: [() throws -> Void] = [
            { try f.pizzeria.schedule.setHours([.wednesday], []) },
            { try f.pizzeria.schedule.close(LocalDateRange(self.day("2026-12-02"))) },
            {
                try f.pizzeria.schedule.close(
                    LocalDateRange(self.day("2026-12-02")), cutting: try HoursSyntax.parseInterval("18:30-20:00"))
            },
            {
                try f.pizzeria.schedule.special(
                    LocalDateRange(self.day("2026-12-02")), [try HoursSyntax.parseInterval("12:00-14:00")])
            },
            { try f.pizzeria.settings.update(.slotMinutes(20)) },
            { try f.pizzeria.settings.update(.timeZone(TimeZone(identifier: "Asia/Tokyo"))) },
        ]
        for change in changes {
            let error = #expect(throws: ScheduleError.self) { try change() }
            #expect(
                error
                    == .wouldOrphan([
                        OrphanedOrder(
                            id: order.id, handle: "anna", pickupAt: order.pickupAt, pickupLocal: "2026-12-02 19:00")
                    ]))
            #expect(try f.base.snapshot() == before)
        }
        try f.pizzeria.schedule.setHours([.wednesday], [], keepOrders: true)
        #expect(try f.pizzeria.orders.order(id: order.id)?.status == .placed)
    }

    @Test(
        "the database refuses overlapping weekly intervals and orders whose local time disagrees, whoever writes them")
    func triggers() throws {
        let f = try pizzeria()
        let overlap = #expect(throws: DatabaseError.self) {
            try f.pizzeria.database.write {
                try $0.run("INSERT INTO weekly_hours (weekday, opens_at, closes_at) VALUES (6, '00:30', '02:00')")
            }
        }
        #expect(
            overlap?.constraint
                == .trigger(token: "hours_overlap", message: "hours_overlap: two opening intervals of the week overlap")
        )
        let (order, _) = try f.place("anna", "19:00", day: "2026-12-02", ("Margherita", 1))
        for update in [
            "UPDATE orders SET pickup_local = '2026-12-02T19:00+00:00'", "UPDATE orders SET service_day = '2026-11-30'",
        ] {
            let error = #expect(throws: DatabaseError.self) {
                try f.pizzeria.database.write { try $0.run(update + " WHERE id = ?", [order.id]) }
            }
            if case .trigger(let token, _)? = error?.constraint {
                #expect(token == "order_local_time")
            } else {
                Issue.record("\(String(describing: error))")
            }
        }
        let bad = #expect(throws: DatabaseError.self) {
            try f.pizzeria.database.write {
                try $0.run("INSERT INTO schedule_exceptions (day, kind) VALUES ('2026-02-30', 'closed')")
            }
        }
        #expect(bad?.constraint != nil)
    }

    @Test("at most 1,000 exceptions; a special day may not run into the next day's hours")
    func exceptionLimits() throws {
        let f = try pizzeria()
        let start = day("2027-01-01")
        for block in 0..<3 {
            try f.pizzeria.schedule.close(
                LocalDateRange(start.adding(days: block * 333), start.adding(days: block * 333 + 332))!)
        }
        let error = #expect(throws: ScheduleError.self) {
            try f.pizzeria.schedule.close(LocalDateRange(day("2026-12-20"), day("2026-12-21"))!)
        }
        #expect(error == .tooManyExceptions(existing: 999, adding: 2))
        let night = #expect(throws: ScheduleError.self) {
            try f.pizzeria.schedule.special(
                LocalDateRange(day("2026-12-03")), [try HoursSyntax.parseInterval("18:00-13:00")])
        }
        #expect(night?.description.contains("2026-12-03 18:00-13:00 runs into 2026-12-04 12:00-14:30") == true)
    }
}
