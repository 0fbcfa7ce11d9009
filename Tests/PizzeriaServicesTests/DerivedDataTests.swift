import Foundation
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

/// Derived data that cannot drift and locked columns that stay locked, whoever writes: each
/// hand-written statement of the "every path" issue, typed as an analyst would into sqlite3.
@Suite("Derived data and locks hold against hand-written SQL")
struct DerivedDataTests {
    func sql(_ f: OrderFixture, _ text: String, _ arguments: [any DatabaseValueConvertible] = []) throws {
        try f.pizzeria.database.write { try $0.run(text, arguments) }
    }

    func load(_ f: OrderFixture, _ pickup: Date) throws -> Int? {
        try f.pizzeria.database.read { db in
            try db.fetchOne("SELECT booked FROM slot_loads WHERE pickup_at = ?", [PickupTime.utc(pickup)]) {
                try $0.int("booked")
            }
        }
    }

    @Test(
        "cancel and move in one hand-written UPDATE: both slots keep the orders' real load, and a booking over it is refused"
    )
    func cancelAndMoveInOneStatement() throws {
        let f = try OrderFixture(capacity: 12)
        let (moved, _) = try f.place("anna", "19:00", ("Margherita", 5))
        try f.place("marco", "19:30", ("Porcini", 5))
        let target = try f.at("19:30")
        try sql(
            f, "UPDATE orders SET status = 'cancelled', pickup_at = ?, pickup_local = ? WHERE id = ?",
            [PickupTime.utc(target), "2026-12-01T19:30+01:00", moved.id])
        #expect(try load(f, try f.at("19:00")) == 0)
        #expect(try load(f, target) == 5)
        #expect(throws: OrderError.self) { try f.place("anna", "19:30", ("Margherita", 8)) }
        try f.place("anna", "19:30", ("Margherita", 7))
        #expect(try load(f, target) == 12)
    }

    @Test("slot_loads.booked typed by hand is refused; a slot's row cannot be deleted or re-keyed while booked")
    func loadsByHand() throws {
        let f = try OrderFixture(capacity: 12)
        try f.place("anna", "19:00", ("Margherita", 5))
        let before = try f.base.snapshot()
        #expect(triggerToken { try sql(f, "UPDATE slot_loads SET booked = 0") } == "slot_loads_derived")
        #expect(triggerToken { try sql(f, "DELETE FROM slot_loads") } == "slot_loads_derived")
        #expect(
            triggerToken { try sql(f, "UPDATE slot_loads SET pickup_at = '2026-12-01T19:15:00Z'") }
                == "slot_loads_derived")
        #expect(
            triggerToken {
                try sql(
                    f,
                    "INSERT INTO slot_loads (pickup_at, service_day, capacity, booked) VALUES ('2026-12-02T18:00:00Z', '2026-12-02', 12, 3)"
                )
            }
                == "slot_loads_derived")
        // A capacity typed by hand is put back to what the rules say.
        try sql(f, "UPDATE slot_loads SET capacity = 100")
        #expect(try f.base.snapshot() == before)
    }

    @Test("an order's user, total and created_at are locked; timestamps are real ones")
    func orderColumns() throws {
        let f = try OrderFixture()
        let (order, _) = try f.place("anna", "19:00", ("Margherita", 2))
        let before = try f.base.snapshot()
        #expect(
            triggerToken { try sql(f, "UPDATE orders SET user_id = ? WHERE id = ?", [try f.user("marco"), order.id]) }
                == "order_user_fixed")
        #expect(
            triggerToken { try sql(f, "UPDATE orders SET total_cents = 1 WHERE id = ?", [order.id]) }
                == "order_total_derived")
        #expect(
            triggerToken { try sql(f, "UPDATE orders SET created_at = 'yesterday' WHERE id = ?", [order.id]) } != nil)
        #expect(
            triggerToken { try sql(f, "UPDATE orders SET updated_at = 'yesterday' WHERE id = ?", [order.id]) }
                == "timestamp_format")
        try f.pizzeria.orders.advance(id: order.id)
        #expect(
            triggerToken { try sql(f, "UPDATE orders SET total_cents = 1 WHERE id = ?", [order.id]) }
                == "order_total_derived")
        #expect(try f.base.snapshot().count == before.count + 1)  // the advance's event
        #expect(try f.pizzeria.orders.list().count == 1)
    }

    @Test("a 19:00 pickup cannot be filed under the previous service day; a night's 00:30 can")
    func serviceDayByHand() throws {
        let f = try OrderFixture()
        try f.pizzeria.schedule.setWeek(try HoursSyntax.osm("Mo-Su 12:00-14:30,18:30-01:00"))
        let (evening, _) = try f.place("anna", "19:00", day: "2026-12-02", ("Margherita", 1))
        #expect(
            triggerToken { try sql(f, "UPDATE orders SET service_day = '2026-12-01' WHERE id = ?", [evening.id]) }
                == "order_service_day")
        let (night, _) = try f.place("anna", "00:30", day: "2026-12-03", ("Margherita", 1))
        #expect(night.serviceDay == LocalDate("2026-12-02"))
    }

    @Test("routes of another's order and an erased customer's identity stay refused for UPDATE too")
    func ownershipAndErasure() throws {
        let f = try OrderFixture()
        let (annas, _) = try f.place("anna", "19:00", ("Margherita", 1))
        let (marcos, _) = try f.place("marco", "19:30", ("Margherita", 1))
        try sql(
            f, "INSERT INTO navigation_stack (user_id, depth, kind, order_id) VALUES (?, 1, 'order', ?)",
            [try f.user("anna"), annas.id])
        #expect(
            triggerToken { try sql(f, "UPDATE navigation_stack SET order_id = ?", [marcos.id]) } == "route_not_owned")
        let marco = try f.user("marco")
        try f.pizzeria.users.erase(id: marco)
        #expect(
            triggerToken { try sql(f, "UPDATE users SET display_name = 'Marco Rossi' WHERE id = ?", [marco]) }
                == "user_erased"
        )
        #expect(
            triggerToken { try sql(f, "UPDATE users SET phone = '+393331234567' WHERE id = ?", [marco]) }
                == "user_erased")
        #expect(triggerToken { try sql(f, "DELETE FROM user_erasures") } == "history_append_only")
        #expect(
            triggerToken {
                try sql(f, "INSERT INTO navigation_events (user_id, action, depth_after) VALUES (?, 'pop', 0)", [marco])
            } == "user_erased")
        #expect(
            triggerToken {
                try sql(
                    f, "INSERT INTO navigation_stack (user_id, depth, kind, order_id) VALUES (?, 1, 'order', ?)",
                    [marco, marcos.id])
            }
                == "user_erased")
    }

    @Test("a weekday holds at most 8 intervals, as the application allows: ten by hand are refused")
    func intervalsPerDay() throws {
        let f = try OrderFixture()
        try sql(f, "DELETE FROM weekly_hours WHERE weekday = 1")
        var refused: String?
        for hour in 0..<10 {
            if let token = triggerToken({
                try sql(
                    f, "INSERT INTO weekly_hours (weekday, opens_at, closes_at) VALUES (1, ?, ?)",
                    [String(format: "%02d:00", hour), String(format: "%02d:30", hour)])
            }) {
                refused = token
                #expect(hour == 8)
                break
            }
        }
        #expect(refused == "hours_limit")
        try f.pizzeria.schedule.setHours(
            [.tuesday], [OpeningInterval(opens: LocalTime("12:00")!, closes: LocalTime("14:00")!)!])
    }

    @Test(
        "the status machine in SQL (orders_status_transition) is the one in Swift (OrderStatus.canChange): every pair")
    func statusMachineAgrees() throws {
        let f = try OrderFixture(capacity: 100)
        // A legal path to each status, from placed.
        let paths: [OrderStatus: [OrderStatus]] = [
            .placed: [], .preparing: [.preparing], .ready: [.preparing, .ready],
            .collected: [.preparing, .ready, .collected], .noShow: [.preparing, .ready, .noShow],
            .cancelled: [.cancelled],
        ]
        var minute = 0
        for from in OrderStatus.allCases {
            for to in OrderStatus.allCases where to != from {
                minute += 15
                let (order, _) = try f.place(
                    "anna", String(format: "%02d:%02d", 12 + minute / 60, minute % 60), ("Margherita", 1))
                for step in paths[from] ?? [] {
                    try sql(f, "UPDATE orders SET status = ? WHERE id = ?", [step.rawValue, order.id])
                }
                let accepted =
                    (try? sql(f, "UPDATE orders SET status = ? WHERE id = ?", [to.rawValue, order.id])) != nil
                #expect(
                    accepted == from.canChange(to: to),
                    "\(from) → \(to): SQL \(accepted ? "accepts" : "refuses"), Swift \(from.canChange(to: to) ? "accepts" : "refuses")"
                )
            }
        }
    }
}
