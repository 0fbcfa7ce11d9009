import Foundation
import Synchronization
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

/// The picker keeps the configuration between calls while `config_generation` holds: every
/// change to what it reads — through the library, another connection or a hand-written
/// statement — must show in the next answer, and nothing else may make it read again.
@Suite("The picker's kept configuration follows every change")
struct PickerConfigurationTests {
    func range(_ text: String) throws -> OpeningInterval { try HoursSyntax.parseInterval(text) }
    func first(_ f: OrderFixture, pizzas: Int = 1) throws -> AvailableSlot? {
        try f.pizzeria.orders.availableSlots(pizzas: pizzas, limit: 1).slots.first
    }
    func reads(_ f: OrderFixture) -> Int { f.pizzeria.pickerConfiguration.reads.load(ordering: .relaxed) }
    func sql(_ f: OrderFixture, _ text: String) throws { try f.pizzeria.database.write { try $0.run(text) } }

    @Test("calls without a change read the configuration once; bookings do not make it read again")
    func keptBetweenCalls() throws {
        let f = try OrderFixture(capacity: 4)
        _ = try first(f)
        let once = reads(f)
        // While the configuration holds, a call is one statement (the generation and the bookings
        // together), its own snapshot: no BEGIN and COMMIT, no configuration query.
        let counter = StatementCounter()
        try f.pizzeria.database.countWriterStatements(into: counter)
        for _ in 0..<5 { _ = try first(f) }
        try f.pizzeria.database.countWriterStatements(into: nil)
        let counted = counter.take()
        #expect(counted.statements == 5 && counted.triggers == 0, "\(counted)")
        try f.place("anna", "12:00", ("Margherita", 4))
        // The booking is seen (it is not configuration): 12:00 is full now.
        #expect(try first(f)?.time == "12:15")
        #expect(reads(f) == once, "a booking or a repeated call read the configuration again")
    }

    @Test("each kind of change through the library shows in the next answer")
    func libraryChanges() throws {
        let f = try OrderFixture(capacity: 4)
        #expect(try first(f)?.remaining == 4)
        try f.pizzeria.settings.update(.slotCapacity(6))
        #expect(try first(f)?.remaining == 6)
        try f.pizzeria.capacity.set([.weekday(.tuesday)], try range("12:00-13:00"), capacity: 9)
        #expect(try first(f)?.remaining == 9)
        let today = try #require(LocalDate("2026-12-01"))
        try f.pizzeria.schedule.close(LocalDateRange(today), reason: "inventory")
        #expect(try first(f)?.serviceDay == LocalDate("2026-12-02"))
        try f.pizzeria.schedule.clear(LocalDateRange(today))
        try f.pizzeria.schedule.setHours([.tuesday], [try range("18:00-22:00")], keepOrders: true)
        #expect(try first(f)?.time == "18:00")
        try f.pizzeria.capacity.pause(until: nil, reason: "oven")
        let paused = try f.pizzeria.orders.availableSlots()
        #expect(paused.slots.isEmpty && paused.reason == .paused)
        try f.pizzeria.capacity.resume()
        try f.pizzeria.settings.update(.leadMinutes(8 * 60 + 30))  // from 10:00: the first slot is 18:30
        #expect(try first(f)?.time == "18:30")
    }

    @Test("a change typed by hand, or made by another connection, shows in the next answer")
    func handChanges() throws {
        let f = try OrderFixture(capacity: 4)
        #expect(try first(f)?.remaining == 4)
        try sql(f, "UPDATE settings SET slot_capacity = 7")
        #expect(try first(f)?.remaining == 7)
        // Another process: a sqlite3 shell left open.
        let shell = try SQLiteShell(databasePath: f.base.path)
        defer { shell.close() }
        try shell.run("UPDATE settings SET slot_capacity = 3;")
        #expect(try first(f)?.remaining == 3)
        try shell.run("DELETE FROM weekly_hours WHERE weekday = 2;")  // Tuesday closed
        #expect(try first(f)?.serviceDay == LocalDate("2026-12-02"))
    }

    @Test("the generation only moves forward, and its row stays")
    func generationGuarded() throws {
        let f = try OrderFixture()
        #expect(throws: DatabaseError.self) { try sql(f, "UPDATE config_generation SET generation = 0") }
        #expect(throws: DatabaseError.self) { try sql(f, "DELETE FROM config_generation") }
        #expect(throws: DatabaseError.self) {
            try sql(f, "INSERT INTO config_generation (id, generation) VALUES (2, 9)")
        }
        try sql(f, "UPDATE config_generation SET generation = generation + 1")
    }
}

/// The picker's plans are read without a lock: each entry is written once, and every thread
/// that asks sees the one plan kept there.
@Suite("The plan table keeps the first plan of each day")
struct PlanTableTests {
    func plan(_ mark: Int) -> [PickerConfiguration.PlannedSlot] {
        let start = Date(timeIntervalSince1970: Double(mark) * 60)
        let day = LocalDate(days: Int64(mark / 1440))
        return [
            PickerConfiguration.PlannedSlot(
                slot: Slot(start: start, serviceDay: day, wallMinute: mark % 1440), seconds: Int64(mark) * 60,
                ruled: SlotCapacity(capacity: mark, rule: "rule \(mark), long enough to be a string on the heap"))
        ]
    }

    @Test("an empty entry reads nil, a kept one its plan; the first kept wins; outside the table keeps nothing")
    func firstWins() {
        let table = PlanTable(days: 4)
        #expect(table[0] == nil && table[3] == nil && table[-1] == nil && table[4] == nil)
        #expect(table.keep(plan(7), at: 2)?.first?.ruled.capacity == 7)
        #expect(table[2]?.first?.ruled.capacity == 7)
        #expect(table.keep(plan(8), at: 2)?.first?.ruled.capacity == 7, "a later plan replaced the kept one")
        #expect(table[2]?.first?.ruled.rule == "rule 7, long enough to be a string on the heap")
        #expect(table.keep(plan(9), at: 4) == nil)
        #expect(table[4] == nil && table[1] == nil)
        // A closed day plans no slots: kept as an empty plan, not as "not planned yet".
        #expect(table.keep([], at: 1)?.isEmpty == true)
        #expect(table[1]?.isEmpty == true)
    }

    @Test("threads that keep and read the same days at once all see one plan per day")
    func concurrentKeeps() {
        let table = PlanTable(days: 64)
        let seen = Mutex<[[Int]]>(Array(repeating: [], count: 64))
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            var mine: [Int] = []
            for day in 0..<64 {
                let kept = table[day] ?? table.keep(plan(worker * 1000 + day), at: day)
                mine.append(kept?.first?.ruled.capacity ?? -1)
            }
            seen.withLock { all in for day in 0..<64 { all[day].append(mine[day]) } }
        }
        let all = seen.withLock { $0 }
        for day in 0..<64 {
            let winner = table[day]?.first?.ruled.capacity
            #expect(winner.map { $0 % 1000 == day } == true, "day \(day): \(String(describing: winner))")
            #expect(all[day].count == 8 && all[day].allSatisfy { $0 == winner }, "day \(day): \(all[day])")
        }
    }
}

/// A kept configuration covers a walk from an instant by comparing instants: the first instant of
/// a local day must be exact, also on nights the zone changes its offset or skips its midnight.
@Suite("The first instant of a local day")
struct FirstInstantTests {
    @Test(
        "an instant is at or after a day's first instant exactly when its local date is that day or later",
        arguments: ["Europe/Rome", "America/Santiago", "Asia/Beirut", "Pacific/Kiritimati", "Pacific/Pago_Pago", "UTC"])
    func exact(zone: String) throws {
        let clock = ZonedClock(zone: try #require(TimeZone(identifier: zone)))
        // Days around both daylight-saving changes of 2026 and 2027, and an ordinary day.
        let days = ["2026-03-29", "2026-04-05", "2026-09-06", "2026-10-25", "2026-12-04", "2027-03-28", "2027-10-31"]
        for text in days {
            let day = try #require(LocalDate(text))
            let first = PickerConfiguration.firstInstant(of: day, clock: clock)
            #expect(clock.date(of: first) >= day, "\(zone) \(text): \(first)")
            // Every second of the hour before it is on an earlier date, every one after on `day` or later.
            for step in stride(from: 1, through: 3_600, by: 1) {
                let before = first.addingTimeInterval(-Double(step)), after = first.addingTimeInterval(Double(step))
                guard clock.date(of: before) < day, clock.date(of: after) >= day else {
                    Issue.record("\(zone) \(text): \(step) s around \(first)")
                    break
                }
            }
            #expect(clock.date(of: first.addingTimeInterval(-0.5)) < day, "\(zone) \(text): half a second before")
        }
    }
}

/// Reads analysts run often must not sort in a temporary table.
@Suite("Query plans of the documented views")
struct ViewPlanTests {
    @Test("the menu view walks the name index: no temporary b-tree for its order")
    func menuWithoutSort() throws {
        let f = try Fixture()
        try f.add("Margherita", 600)
        try f.add("marinara", 400)
        let plan = try f.pizzeria.database.read { db in
            try db.fetchAll("EXPLAIN QUERY PLAN SELECT * FROM menu") { try $0.string("detail") }
        }
        #expect(!plan.isEmpty)
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        let names = try f.pizzeria.database.read { db in
            try db.fetchAll("SELECT name FROM menu") { try $0.string("name") }
        }
        #expect(names == ["Margherita", "marinara"])
    }
}
