import Foundation
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

@Suite("Capacity by time: rules by weekday or date and range, precedence, the database's own check")
struct CapacityRuleTests {
    func range(_ text: String) throws -> OpeningInterval { try HoursSyntax.parseInterval(text) }
    func day(_ text: String) -> LocalDate { LocalDate(text) ?? LocalDate(days: 0) }

    /// 2026-12-04 is a Friday; the fixture's clock is 2026-12-01 10:00 in Rome.
    @Test(
        "a date rule beats a weekday rule, the narrower range the wider, else slot-capacity; slots and bookings show it"
    )
    func precedence() throws {
        let f = try OrderFixture(capacity: 12)
        try f.pizzeria.capacity.set([.weekday(.friday), .weekday(.saturday)], try range("18:30-21:00"), capacity: 20)
        try f.pizzeria.capacity.set([.weekday(.friday)], try range("19:00-20:00"), capacity: 25)
        try f.pizzeria.capacity.set([.date(day("2026-12-04"))], try range("19:30-23:00"), capacity: 30)
        let slots = Dictionary(try f.pizzeria.orders.slots(on: day("2026-12-04")).map { ($0.local, $0) }) { a, _ in a }
        #expect(slots["18:00"].map { [$0.capacity] } == [12] && slots["18:00"]?.capacityRule == nil)
        #expect(slots["18:30"]?.capacity == 20 && slots["18:30"]?.capacityRule == "fri 18:30-21:00")
        #expect(slots["19:15"]?.capacity == 25 && slots["19:15"]?.capacityRule == "fri 19:00-20:00")
        #expect(slots["19:30"]?.capacity == 30 && slots["19:30"]?.capacityRule == "2026-12-04 19:30-23:00")
        #expect(slots["20:45"]?.capacity == 30)
        #expect(try f.pizzeria.orders.slots(on: day("2026-12-05")).first { $0.local == "19:30" }?.capacity == 20)
        #expect(try f.pizzeria.orders.slots(on: day("2026-12-11")).first { $0.local == "19:30" }?.capacity == 25)
        let order = try f.place("anna", "19:15", day: "2026-12-04", ("Margherita", 20)).order
        #expect(order.slotCapacity == SlotCapacity(capacity: 25, rule: "fri 19:00-20:00"))
        #expect(try f.pizzeria.orders.order(id: order.id)?.slotCapacity?.rule == "fri 19:00-20:00")
    }

    @Test("a range past midnight covers the night's slots of its service day")
    func pastMidnight() throws {
        let f = try OrderFixture(capacity: 12)
        try f.pizzeria.schedule.setHours([.friday], [try range("18:00-02:00")], keepOrders: true)
        try f.pizzeria.capacity.set([.weekday(.friday)], try range("22:00-01:00"), capacity: 4)
        let friday = try f.pizzeria.orders.slots(on: day("2026-12-04"))
        #expect(friday.first { $0.local == "Sat 00:30" }?.capacity == 4)
        #expect(friday.first { $0.local == "Sat 01:00" }?.capacity == 12)
        #expect(friday.first { $0.local == "21:45" }?.capacity == 12)
    }

    @Test(
        "bad rules are refused naming the rule, and nothing is written",
        arguments: [
            ("capacity", 0, "18:00-19:00"), ("capacity", 10_001, "18:00-19:00"), ("range", 10, "18:00-20:00"),
            ("range", 10, "17:00-19:00"),
        ])
    func refused(field: String, capacity: Int, rangeText: String) throws {
        let f = try OrderFixture()
        try f.pizzeria.capacity.set([.weekday(.friday)], try range("18:30-21:00"), capacity: 20)
        let before = try f.base.snapshot()
        let error = #expect(throws: ValidationError.self) {
            try f.pizzeria.capacity.set([.weekday(.friday)], try range(rangeText), capacity: capacity)
        }
        #expect(error?.errors.first?.field == field, "\(String(describing: error))")
        #expect(try f.base.snapshot() == before)
    }

    @Test(
        "lowering a capacity below what a future slot holds is refused naming the slot; nested and disjoint rules are fine"
    )
    func loweringRefused() throws {
        let f = try OrderFixture(capacity: 12)
        try f.pizzeria.capacity.set([.weekday(.tuesday)], try range("18:00-21:00"), capacity: 20)
        _ = try f.place("anna", "19:00", ("Margherita", 15))
        let before = try f.base.snapshot()
        for attempt in [
            { try f.pizzeria.capacity.set([.weekday(.tuesday)], try range("18:00-21:00"), capacity: 10) },
            { try f.pizzeria.capacity.set([.weekday(.tuesday)], try range("19:00-19:30"), capacity: 10) },
            { try f.pizzeria.capacity.set([.date(day("2026-12-01"))], try range("18:00-23:00"), capacity: 14) },
            { _ = try f.pizzeria.capacity.clear([.weekday(.tuesday)]) },
        ] as [() throws -> Any] {
            let error = #expect(throws: SettingsError.self) { _ = try attempt() }
            #expect(
                "\(String(describing: error))".contains("2026-12-01 19:00 (15 pizzas booked)"),
                "\(String(describing: error))")
        }
        #expect(try f.base.snapshot() == before)
        // Nested, with enough room.
        try f.pizzeria.capacity.set([.weekday(.tuesday)], try range("19:00-19:30"), capacity: 16)
        try f.pizzeria.capacity.set([.weekday(.tuesday)], try range("21:00-22:00"), capacity: 2)  // apart
        // The default no longer governs the booked slot: lowering it is fine.
        #expect(try f.pizzeria.settings.update(.slotCapacity(1)).slotCapacity == 1)
        #expect(try f.pizzeria.capacity.rules().count == 3)
    }

    @Test(
        "the database enforces the effective capacity: hand-written lines past a rule's capacity are refused, raised ones allowed"
    )
    func triggerFollowsRules() throws {
        let f = try OrderFixture(capacity: 4)
        let order = try f.place("anna", "19:00", ("Margherita", 4)).order
        let pizzas = [try f.pizza("Margherita"), try f.pizza("Porcini"), try f.pizza("Marinara")]
        func addLine(_ number: Int, _ quantity: Int) throws {
            try f.pizzeria.database.write { db in
                try db.run(
                    """
                    INSERT INTO order_lines (order_id, line_no, pizza_id, pizza_name, unit_price_cents, quantity,
                                             variant_id, base_price_cents)
                    SELECT ?, ?, p.id, p.name, p.price_cents, ?, v.id, coalesce(v.price_cents, p.price_cents)
                    FROM pizzas p JOIN pizza_variants v ON v.pizza_id = p.id AND v.is_default WHERE p.id = ?
                    """, [order.id, number, quantity, pizzas[number - 1]])
            }
        }
        #expect(throws: DatabaseError.self) { try addLine(2, 1) }
        try f.pizzeria.capacity.set([.weekday(.tuesday)], try range("18:00-21:00"), capacity: 6)
        try addLine(2, 2)
        #expect(throws: DatabaseError.self) { try addLine(3, 1) }
        // A date rule by hand in sqlite3 applies at once, too.
        try f.pizzeria.database.write { db in
            try db.execute(
                "INSERT INTO capacity_rules (day, starts_at, ends_at, capacity) VALUES ('2026-12-01', '19:00', '19:15', 7)"
            )
        }
        try addLine(3, 1)
        #expect(
            try f.pizzeria.orders.slots(on: day("2026-12-01")).first { $0.local == "19:00" }.map {
                [$0.booked, $0.capacity]
            } == [7, 7])
        #expect(throws: DatabaseError.self) {
            try f.pizzeria.database.write { db in
                try db.execute(
                    "INSERT INTO capacity_rules (day, starts_at, ends_at, capacity) VALUES ('2026-12-01', '19:10', '20:00', 9)"
                )
            }
        }
    }

    @Test("Swift and SQL resolve the same capacity for every slot, for random rules", arguments: [1, 2, 3, 4, 5])
    func swiftAndSQLAgree(seed: UInt64) throws {
        let f = try OrderFixture(capacity: 12)
        try f.pizzeria.schedule.setHours(Set(Weekday.allCases), [try range("11:00-01:00")], keepOrders: true)
        var generator = SeededGenerator(seed: seed)
        let first = day("2026-12-01")
        for _ in 0..<12 {
            let start =
                Int.random(in: 11...23, using: &generator) * 60 + (Int.random(in: 0...3, using: &generator) * 15)
            let length = Int.random(in: 1...8, using: &generator) * 30
            guard
                let interval = OpeningInterval(
                    opens: LocalTime(uncheckedMinutes: start % 1440),
                    closes: LocalTime(uncheckedMinutes: (start + length) % 1440))
            else { continue }
            let days: CapacityRule.Days =
                Bool.random(using: &generator)
                ? .weekday(Weekday.allCases.randomElement(using: &generator) ?? .monday)
                : .date(first.adding(days: Int.random(in: 0...6, using: &generator)))
            _ = try? f.pizzeria.capacity.set([days], interval, capacity: Int.random(in: 13...40, using: &generator))
        }
        // Book one pizza in every slot of the week, then compare the trigger's capacity with Swift's.
        var compared = 0
        for offset in 0...6 {
            for slot in try f.pizzeria.orders.slots(on: first.adding(days: offset)) where slot.state == .open {
                let order = try f.pizzeria.orders.place(
                    OrderRequest(
                        user: try f.user("anna"), items: [.init(pizza: try f.pizza("Marinara"), quantity: 1)],
                        pickup: slot.start)
                ).order
                #expect(
                    order.slotCapacity?.capacity == slot.capacity && order.slotCapacity?.rule == slot.capacityRule,
                    "\(slot.local) \(slot.serviceDay)")
                let stored = try f.pizzeria.database.read { db in
                    try db.fetchOne(
                        """
                        SELECT s.capacity, r.rule AS capacity_rule
                        FROM slot_loads s LEFT JOIN capacity_rules r ON r.id = s.capacity_rule_id WHERE s.pickup_at = ?
                        """,
                        [PickupTime.utc(slot.start)]
                    ) {
                        "\(try $0.int("capacity")) \(try $0.optionalString("capacity_rule") ?? "-")"
                    }
                }
                #expect(stored == "\(slot.capacity) \(slot.capacityRule ?? "-")", "\(slot.local) \(slot.serviceDay)")
                compared += 1
            }
        }
        #expect(compared > 300)
    }
}
