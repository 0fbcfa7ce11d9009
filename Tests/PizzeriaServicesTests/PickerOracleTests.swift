import Foundation
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

/// The picker and the booking are one predicate: for random weeks, exceptions, capacity rules,
/// zones (daylight saving included), lead times, rushes, pauses and bookings, the slots
/// `availableSlots` lists are exactly the first bookable instants an independent oracle finds by
/// trying every 5-minute instant against the booking's own rules (time rules, `locate`,
/// capacity) — none listed that a booking would refuse, none bookable left out.
@Suite("The picker and the booking agree (property test with an oracle)")
struct PickerOracleTests {
    /// A small seeded generator (SplitMix64), so a failing case can be replayed by its seed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    struct Rollback: Error {}

    static let zones = [
        "UTC", "Europe/Rome", "America/New_York", "Pacific/Kiritimati", "Asia/Kathmandu", "Australia/Lord_Howe",
        "Europe/London",
    ]
    /// Moments near daylight-saving changes and ordinary days (UTC).
    static let moments = [
        "2026-12-04T18:00:00Z", "2027-03-27T20:00:00Z", "2027-03-13T22:00:00Z", "2027-10-30T21:00:00Z",
        "2027-11-06T20:00:00Z", "2027-04-03T13:00:00Z", "2027-10-02T12:00:00Z", "2027-06-18T09:00:00Z",
    ]

    /// Case count: `PIZZERIA_ORACLE_CASES` (default 10,000).
    static var cases: Int { Int(ProcessInfo.processInfo.environment["PIZZERIA_ORACLE_CASES"] ?? "") ?? 10_000 }

    @Test("10,000 random cases: every listed slot is bookable, every bookable slot within the limit is listed")
    func pickerEqualsBooking() throws {
        let f = try OrderFixture()
        let users = [try f.user("anna"), try f.user("marco")]
        let pizza = try f.pizza("Margherita")
        let pizzaLine = OrderLine(pizzaID: pizza, pizzaName: "Margherita", unitPrice: Money(cents: 600), quantity: 1)
        var checked = 0, nonEmpty = 0, failures: [String] = []
        for seed in 0..<Self.cases {
            var rng = SplitMix(state: UInt64(seed) &* 7919 &+ 17)
            do {
                try f.pizzeria.database.write { db in
                    let result = try Self.runCase(&rng, users: users, line: pizzaLine, in: db)
                    checked += 1
                    if !result.expected.isEmpty { nonEmpty += 1 }
                    if result.listed != result.expected, failures.count < 5 {
                        failures.append(
                            "seed \(seed): listed \(result.listed.map(PickupTime.utc)) expected \(result.expected.map(PickupTime.utc)) — \(result.setup)"
                        )
                    }
                    throw Rollback()
                }
            } catch is Rollback {
                continue
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(checked == Self.cases)
        // The generator must produce cases with something to find, and cases with nothing.
        #expect(nonEmpty > checked / 4 && nonEmpty < checked, "\(nonEmpty) of \(checked) cases had a bookable slot")
    }

    /// One random case, written in the caller's transaction: what the picker lists and what the
    /// oracle expects.
    static func runCase(
        _ rng: inout SplitMix, users: [User.ID], line: OrderLine,
        in db: Connection
    ) throws -> (listed: [Date], expected: [Date], setup: String) {
        func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &rng)] }
        func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
        let slotMinutes = pick([10, 15, 20, 30, 60])
        let zoneName = pick(zones)
        guard var now = Timestamp.date(from: pick(moments)) else { throw Rollback() }
        now = now.addingTimeInterval(Double(Int.random(in: -36...36, using: &rng) * 1_800))
        // Often off the 5-minute grid.
        if chance(0.6) { now = now.addingTimeInterval(Double(Int.random(in: 1...299, using: &rng))) }
        // The week: up to two intervals a weekday, on the 5-minute grid, nights ending by 06:00.
        var week = Week()
        for day in Weekday.allCases where chance(0.85) {
            var intervals: [OpeningInterval] = []
            var start = Int.random(in: 0...20, using: &rng) * 60 + pick([0, 5, 30, 45])
            for _ in 0..<Int.random(in: 1...2, using: &rng) {
                let end = min(start + Int.random(in: 1...12, using: &rng) * slotMinutes, 1800)
                guard end > start, start < 1440, let opens = LocalTime(minutes: start),
                    let closes = LocalTime(minutes: end > 1440 ? end - 1440 : end),
                    let interval = OpeningInterval(opens: opens, closes: closes)
                else { break }
                intervals.append(interval)
                start = end + Int.random(in: 1...6, using: &rng) * 30
            }
            week[day] = intervals
            if !week.problems().isEmpty { week[day] = [] }
        }
        try db.run("DELETE FROM weekly_hours")
        try db.run("DELETE FROM schedule_exceptions")
        try db.run("DELETE FROM capacity_rules")
        try ScheduleStore.replace(Set(Weekday.allCases), with: week, in: db)
        // Settings: capacity, zone, horizon, lead, rush, pause.
        let pause: (until: Date?, on: Bool) =
            chance(0.15)
            ? (chance(0.5) ? now.addingTimeInterval(Double(Int.random(in: 5...300, using: &rng) * 60)) : nil, true)
            : (nil, false)
        let rush =
            chance(0.2)
            ? (
                minutes: Int.random(in: 5...60, using: &rng),
                until: chance(0.5) ? now.addingTimeInterval(Double(Int.random(in: 10...240, using: &rng) * 60)) : nil
            ) : nil
        let horizon = Int.random(in: 1...3, using: &rng), lead = pick([0, 0, 5, 15, 20, 45, 90]),
            capacity = Int.random(in: 1...6, using: &rng)
        try db.run(
            """
            UPDATE settings SET slot_minutes = ?, slot_capacity = ?, time_zone = ?, booking_horizon_days = ?, lead_minutes = ?,
                   paused = ?, paused_until = ?, pause_reason = NULL, busy_minutes = ?, busy_until = ? WHERE id = 1
            """,
            [
                slotMinutes, capacity, zoneName, horizon, lead, pause.on ? 1 : 0,
                pause.until.map(Timestamp.string(from:)),
                rush?.minutes ?? 0, rush?.until.map(Timestamp.string(from:)),
            ])
        let settings = try SettingsStore.current(in: db)
        let clock = ZonedClock(zone: settings.timeZone)
        let today = clock.local(now).date
        // Exceptions of the next days: closures, special hours (within the day, from 06:00), cuts.
        for offset in -1...3 {
            let date = today.adding(days: offset)
            if chance(0.08) {
                try ScheduleStore.insert(ScheduleException(date: date, kind: .closed)!, in: db); continue
            }
            if chance(0.15) {
                let start = Int.random(in: 6...20, using: &rng) * 60 + pick([0, 15, 30])
                let end = min(start + Int.random(in: 1...10, using: &rng) * slotMinutes, 1440)
                if let opens = LocalTime(minutes: start), let closes = LocalTime(minutes: end), end > start,
                    let exception = ScheduleException(
                        date: date, kind: .special, interval: OpeningInterval(opens: opens, closes: closes))
                {
                    try ScheduleStore.insert(exception, in: db)
                }
            }
            if chance(0.2) {
                let start = Int.random(in: 0...47, using: &rng) * 30,
                    end = start + Int.random(in: 1...6, using: &rng) * 15
                if let opens = LocalTime(minutes: start), let closes = LocalTime(minutes: end % 1440),
                    let exception = ScheduleException(
                        date: date, kind: .cut, interval: OpeningInterval(opens: opens, closes: closes))
                {
                    try ScheduleStore.insert(exception, in: db)
                }
            }
        }
        // Capacity rules: by weekday or date, within a day or past midnight (a partial overlap is refused: skipped).
        for _ in 0..<Int.random(in: 0...3, using: &rng) {
            let start = Int.random(in: 0...23, using: &rng) * 60,
                end = (start + Int.random(in: 1...8, using: &rng) * 60) % 1440
            let day: String? = chance(0.5) ? today.adding(days: Int.random(in: 0...2, using: &rng)).description : nil
            do {
                try db.run(
                    "INSERT INTO capacity_rules (weekday, day, starts_at, ends_at, capacity) VALUES (?, ?, ?, ?, ?)",
                    [
                        day == nil ? Int.random(in: 1...7, using: &rng) : nil, day, LocalTime.clock(start),
                        LocalTime.clock(end),
                        Int.random(in: 1...6, using: &rng),
                    ])
            } catch let error as DatabaseError where error.constraint != nil {
                continue
            }
        }
        let schedule = ScheduleStore.schedule(settings, in: db)
        // Bookings on random slots of the next days (a full slot refuses the line: skipped).
        let slots = try (-1...3).flatMap { try schedule.slots(of: today.adding(days: $0)) }
        if !slots.isEmpty {
            for _ in 0..<Int.random(in: 0...10, using: &rng) {
                let slot = pick(slots)
                let booked = OrderLine(
                    pizzaID: line.pizzaID, pizzaName: line.pizzaName, unitPrice: line.unitPrice,
                    quantity: Int.random(in: 1...3, using: &rng))
                do {
                    try OrderStore.insert(
                        id: Order.ID.random(), userID: pick(users), pickupAt: PickupTime.utc(slot.start),
                        serviceDay: slot.serviceDay,
                        pickupLocal: clock.localText(slot.start), key: nil, fingerprint: nil, lines: [booked],
                        actor: nil,
                        at: now, in: db)
                } catch let error as DatabaseError where error.constraint != nil {
                    continue
                }
            }
        }
        // The question, often asked exactly at a slot's start (the slot starting now is not bookable)
        // or from one.
        if !slots.isEmpty, chance(0.35) {
            now = pick(slots).start.addingTimeInterval(chance(0.5) ? 0 : Double(pick([-1, 1, 59])))
        }
        let pizzas = Int.random(in: 1...4, using: &rng), limit = Int.random(in: 1...6, using: &rng)
        var from = chance(0.6) ? now : now.addingTimeInterval(Double(Int.random(in: 0...96, using: &rng) * 900))
        if let slot = slots.filter({ $0.start > now }).randomElement(using: &rng), chance(0.2) { from = slot.start }
        let fresh = ScheduleStore.schedule(settings, in: db)
        let answer = try SlotFinder(settings: settings, schedule: fresh, now: now, db: db).availability(
            pizzas: pizzas, from: from, limit: limit)
        let setup =
            "zone \(zoneName), now \(PickupTime.utc(now)), slots \(slotMinutes), lead \(lead), rush \(String(describing: rush)), "
            + "pause \(pause), horizon \(horizon), capacity \(capacity), pizzas \(pizzas), from \(PickupTime.utc(from)), limit \(limit), week \(HoursSyntax.osm(week))"

        // The oracle: every 5-minute instant from `from`, through the booking's own rules.
        let window = BookingWindow(settings: settings, now: now)
        var expected: [Date] = []
        if window.pause == nil {
            let oracleSchedule = ScheduleStore.schedule(settings, in: db)
            var instant = Date(timeIntervalSince1970: (max(from, now).timeIntervalSince1970 / 300).rounded(.up) * 300)
            while instant <= window.horizon, expected.count < limit {
                defer { instant = instant.addingTimeInterval(300) }
                guard window.refusal(at: instant, .place) == nil,
                    case .slot(let slot) = try oracleSchedule.locate(instant)
                else { continue }
                let load = try OrderStore.slotLoad(pickupAt: PickupTime.utc(instant), in: db)
                let rules = CapacityRules(
                    try CapacityStore.rules(on: slot.serviceDay, in: db), defaultCapacity: settings.slotCapacity)
                let capacity = load?.capacity.capacity ?? rules.capacity(of: slot).capacity
                if capacity - (load?.booked ?? 0) >= pizzas { expected.append(instant) }
            }
        } else if !answer.slots.isEmpty || answer.reason != .paused {
            return (answer.slots.map(\.start), [], setup + " (paused: the answer must be empty with reason paused)")
        }
        return (answer.slots.map(\.start), expected, setup)
    }
}
