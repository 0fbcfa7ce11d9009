import Foundation
import PizzeriaStorage
import PizzeriaTestSupport
import Synchronization
import Testing

@testable import PizzeriaServices

/// Bulk delays: many orders later in one transaction, preparing ones included,
/// refused whole or moved as far as they fit.
@Suite("Delays in bulk")
struct DelayTests {
    func window(_ f: OrderFixture, _ from: String, _ to: String) throws -> DelaySelection {
        .window(day: LocalDate("2026-12-01"), from: try #require(LocalTime(from)), to: try #require(LocalTime(to)))
    }

    @Test(
        "a window moves its placed and preparing orders, latest first, preparing ones keep their state; history says who"
    )
    func windowDelay() throws {
        let f = try OrderFixture(capacity: 4)
        let orders = f.pizzeria.orders
        // 20:00 and 20:15 are full (4 + 4), 20:30 empty: a +15 shift fits only because each slot empties first.
        let a = try f.place("anna", "20:00", ("Margherita", 4)).order
        let b = try f.place("marco", "20:15", ("Porcini", 4)).order
        let ready = try f.place("marco", "19:45", ("Marinara", 1)).order
        try orders.advance(id: a.id)  // preparing
        let result = try orders.delay(try window(f, "19:30", "20:30"), byMinutes: 15, by: "giulia")
        #expect(result.delayed.map(\.id) == [ready.id, a.id, b.id] && result.refused.isEmpty)
        #expect(result.delayed.map { String($0.pickupLocal.dropFirst(11).prefix(5)) } == ["20:00", "20:15", "20:30"])
        let moved = try #require(try orders.order(id: a.id))
        #expect(moved.status == .preparing)
        #expect(moved.history.last?.kind == .moved && moved.history.last?.actor == "giulia")
        #expect(
            moved.history.last?.detail?.hasSuffix("delayed +15") == true, "\(String(describing: moved.history.last))")
        #expect(try Maintenance.check(path: f.base.path, now: f.now).domainProblems.isEmpty)
    }

    @Test("one order that does not fit refuses the whole delay, naming it; --best-effort moves the rest")
    func refusedWhole() throws {
        let f = try OrderFixture(capacity: 4)
        let orders = f.pizzeria.orders
        let a = try f.place("anna", "20:00", ("Margherita", 2)).order
        let b = try f.place("marco", "20:15", ("Porcini", 1)).order
        _ = try f.place("marco", "20:30", ("Marinara", 4)).order  // 20:30 is full and outside the window
        let before = try f.base.snapshot()
        let error = #expect(throws: DelayError.self) {
            try orders.delay(try window(f, "20:00", "20:30"), byMinutes: 15, by: "giulia")
        }
        #expect(error?.refusals.map(\.orderID) == [b.id] && error?.selected == 2)
        #expect(error?.description.contains("none was moved") == true)
        #expect(try f.base.snapshot() == before)
        let partial = try orders.delay(try window(f, "20:00", "20:30"), byMinutes: 15, bestEffort: true, by: "giulia")
        #expect(partial.refused.map(\.orderID) == [b.id])
        // a's 2 pizzas go to 20:15 beside b's 1 (b stayed): 3 of 4.
        #expect(partial.delayed.map(\.id) == [a.id])
    }

    @Test("a delay checks the hours and whole slots, not the lead time or a pause; ready orders are not moved")
    func rules() throws {
        let f = try OrderFixture(capacity: 12)
        let orders = f.pizzeria.orders
        let late = try f.place("anna", "22:45", ("Margherita", 1)).order
        let early = try f.place("marco", "12:30", ("Margherita", 1)).order
        try f.pizzeria.settings.update(.leadMinutes(180))
        try f.pizzeria.capacity.pause(until: nil, reason: "oven repair")
        // 12:45 is inside the lead time now (180 minutes: 13:00 is the earliest booking) and the shop is
        // paused: neither is a delay's business.
        #expect(try orders.delay(.orders([early.id]), byMinutes: 15).delayed.count == 1)
        let closing = #expect(throws: DelayError.self) { try orders.delay(.orders([late.id]), byMinutes: 30) }
        #expect(closing?.refusals.first?.reason.contains("outside the hours") == true, "\(String(describing: closing))")
        #expect(throws: ValidationError.self) { try orders.delay(.orders([late.id]), byMinutes: 10) }
        #expect(throws: ValidationError.self) { try orders.delay(.orders([]), byMinutes: 15) }
        #expect(throws: ValidationError.self) { try orders.delay(.orders([late.id]), byMinutes: 300) }
    }

    @Test("the schema lets a preparing order's pickup move only later, marked as a delay")
    func schema() throws {
        let f = try OrderFixture()
        let order = try f.place("anna", "20:00", ("Margherita", 1)).order
        try f.pizzeria.orders.advance(id: order.id)
        let db = f.pizzeria.database
        func attempt(_ at: String, _ local: String, note: String?) -> String {
            do {
                try db.write {
                    _ = try $0.run(
                        "UPDATE orders SET pickup_at = ?, pickup_local = ?, change_note = ? WHERE id = ?",
                        [at, local, note, order.id])
                }
                return "accepted"
            } catch { return "\(error)" }
        }
        #expect(attempt("2026-12-01T19:15:00Z", "2026-12-01T20:15+01:00", note: nil).contains("order_locked"))
        #expect(attempt("2026-12-01T18:45:00Z", "2026-12-01T19:45+01:00", note: "delayed +15").contains("order_locked"))
        #expect(attempt("2026-12-01T19:15:00Z", "2026-12-01T20:15+01:00", note: "delayed +15") == "accepted")
    }

    @Test("200 orders over 10 slots: one transaction moves them all, or none")
    func twoHundred() throws {
        let f = try OrderFixture(capacity: 20)
        let orders = f.pizzeria.orders
        var ids: [Order.ID] = []
        for slot in 0..<10 {
            let time = String(format: "%02d:%02d", 18 + (slot * 15) / 60, (slot * 15) % 60)
            for _ in 0..<20 { ids.append(try f.place("anna", time, ("Margherita", 1)).order.id) }
        }
        let result = try orders.delay(try window(f, "18:00", "20:30"), byMinutes: 15, by: "giulia")
        #expect(result.delayed.count == 200 && Set(result.delayed.map(\.id)) == Set(ids))
        // Full slots and one more order in 20:30: the next +15 of the whole window cannot fit, so none moves.
        _ = try f.place("marco", "20:45", ("Porcini", 1)).order
        let before = try f.base.snapshot()
        #expect(throws: DelayError.self) { try orders.delay(try window(f, "18:15", "20:45"), byMinutes: 15) }
        #expect(try f.base.snapshot() == before)
    }
    @Test("a delay racing bookings from another connection never overbooks the slots it fills")
    func raceWithBookings() throws {
        for round in 0..<5 {
            let f = try OrderFixture(capacity: 10)
            for _ in 0..<10 { try f.place("anna", "20:00", ("Margherita", 1)) }
            let other = try Pizzeria.open(path: f.base.path, now: { f.now })
            let booking = OrderRequest(
                user: try f.user("marco"), items: [.init(pizza: try f.pizza("Porcini"), quantity: 1)],
                pickup: try f.at("20:15"))
            let selection = try window(f, "20:00", "20:15")
            let (delayer, booker) = (f.pizzeria.orders, other.orders)
            let outcome = Mutex<(delayed: Int, booked: Int, errors: [String])>((0, 0, []))
            DispatchQueue.concurrentPerform(iterations: 2) { worker in
                do {
                    if worker == 0 {
                        let result = try delayer.delay(selection, byMinutes: 15, bestEffort: true, by: "giulia")
                        outcome.withLock { $0.delayed = result.delayed.count }
                    } else {
                        for _ in 0..<12 {
                            do {
                                _ = try booker.place(booking)
                                outcome.withLock { $0.booked += 1 }
                            } catch OrderError.slotFull, OrderError.orderTooLarge {}
                        }
                    }
                } catch {
                    outcome.withLock { $0.errors.append("\(error)") }
                }
            }
            let (delayed, booked, errors) = outcome.withLock { $0 }
            #expect(errors.isEmpty, "round \(round): \(errors)")
            // Whoever came first, 20:15 holds at most its capacity: what moved plus what was booked.
            #expect(delayed + booked == 10, "round \(round): \(delayed) delayed, \(booked) booked")
            let loads = try f.pizzeria.database.read { db in
                try db.fetchAll(
                    "SELECT booked FROM slot_loads WHERE pickup_at = ?", [PickupTime.utc(try f.at("20:15"))]
                ) {
                    try $0.int("booked")
                }
            }
            #expect(loads == [10], "round \(round)")
            #expect(try Maintenance.check(path: f.base.path, now: f.now).domainProblems.isEmpty)
        }
    }
}
