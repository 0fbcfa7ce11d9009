import Foundation
import PizzeriaStorage
import PizzeriaTestSupport
import Testing

@testable import PizzeriaServices

/// Staff over a slot's capacity, by at most its margin, and parties over consecutive slots.
@Suite("Overrides over capacity and parties")
struct OverrideAndPartyTests {
    func request(_ f: OrderFixture, _ user: String, _ time: String, key: String? = nil, _ items: (String, Int)...)
        throws -> OrderRequest
    {
        OrderRequest(
            user: try f.user(user), items: try items.map { .init(pizza: try f.pizza($0.0), quantity: $0.1) },
            pickup: try f.at(time), idempotencyKey: key)
    }

    /// The rows of `capacity_overrides`: order, slot, pizzas, reason, actor.
    func overrides(_ f: OrderFixture) throws -> [String] {
        try f.pizzeria.database.read { db in
            try db.fetchAll("SELECT order_id, pickup_at, pizzas, reason, actor FROM capacity_overrides ORDER BY id") {
                "\(shortID(try $0.string("order_id"))) \(try $0.string("pickup_at")) \(try $0.int("pizzas")) "
                    + "\(try $0.string("reason")) \(try $0.string("actor"))"
            }
        }
    }

    @Test("the margin is a quarter of the capacity, rounded up")
    func margin() {
        #expect([1, 4, 8, 10, 12, 20].map(SlotCapacity.overrideMargin(of:)) == [1, 1, 2, 3, 3, 5])
    }

    @Test("an override books over capacity up to the margin, recorded; beyond it, or without one, it is refused")
    func overCapacity() throws {
        let f = try OrderFixture(capacity: 8)
        let orders = f.pizzeria.orders
        try f.place("anna", "20:00", ("Margherita", 8))
        #expect(throws: OrderError.self) { try orders.place(try request(f, "marco", "20:00", ("Porcini", 1))) }
        let walkIn = StaffOverride(reason: "walk-in party")
        let over = try orders.place(try request(f, "marco", "20:00", ("Porcini", 2)), by: "giulia", override: walkIn)
        #expect(over.order.history.first?.detail == "override: walk-in party")
        #expect(
            try overrides(f) == ["\(over.order.id.short) \(PickupTime.utc(try f.at("20:00"))) 2 walk-in party giulia"])
        let before = try f.base.snapshot()
        let beyond = #expect(throws: OrderError.self) {
            try orders.place(try request(f, "marco", "20:00", ("Porcini", 1)), by: "giulia", override: walkIn)
        }
        guard case .overMargin(_, 8, 10, 1, 2)? = beyond else {
            Issue.record("expected overMargin, got \(String(describing: beyond))")
            return
        }
        #expect(try f.base.snapshot() == before)
        // An override needs who gives it.
        #expect(throws: ValidationError.self) {
            try orders.place(try request(f, "marco", "20:15", ("Porcini", 1)), override: walkIn)
        }
        #expect(try Maintenance.check(path: f.base.path, now: f.now).domainProblems.isEmpty)
        // An erasure keeps the row (the slot's allowance) and takes the reason, which may name the customer.
        try f.pizzeria.users.erase(id: try f.user("marco"), by: "giulia")
        #expect(try overrides(f) == ["\(over.order.id.short) \(PickupTime.utc(try f.at("20:00"))) 2 [erased] giulia"])
    }

    @Test("a move, an addition and a delay with an override go over capacity too; cancelling frees the allowance")
    func everyPath() throws {
        let f = try OrderFixture(capacity: 4)  // margin 1
        let orders = f.pizzeria.orders
        let why = StaffOverride(reason: "regular, squeeze in")
        try f.place("anna", "20:00", ("Margherita", 4))
        let moving = try f.place("marco", "20:15", ("Porcini", 1)).order
        #expect(throws: OrderError.self) { try orders.move(id: moving.id, to: try f.at("20:00")) }
        let moved = try orders.move(id: moving.id, to: try f.at("20:00"), by: "giulia", override: why)
        #expect(moved.pickupAt == (try f.at("20:00")))
        // 5 of 4 booked: the margin is used up; another override is refused.
        let other = try f.place("marco", "20:30", ("Marinara", 1)).order
        #expect(throws: OrderError.self) {
            try orders.move(id: other.id, to: try f.at("20:00"), by: "giulia", override: why)
        }
        // Cancelling the moved order takes its allowance away: the slot is at capacity again.
        try orders.cancel(id: moving.id, by: "giulia")
        let db = f.pizzeria.database
        #expect(throws: (any Error).self) {
            try db.write { db in
                try db.run(
                    "INSERT INTO order_lines (order_id, line_no, pizza_id, pizza_name, unit_price_cents, quantity, variant_id, base_price_cents) "
                        + "SELECT order_id, 9, pizza_id, pizza_name, unit_price_cents, 1, variant_id, base_price_cents "
                        + "FROM order_lines WHERE order_id = (SELECT id FROM orders WHERE pickup_at = ? AND status = 'placed')",
                    [PickupTime.utc(try f.at("20:00"))])
            }
        }
        // An addition with an override.
        let full = try #require(
            try orders.list(OrderFilter(pickupFrom: try f.at("20:00"), pickupBefore: try f.at("20:15"))).first {
                $0.status == .placed
            })
        #expect(throws: OrderError.self) {
            try orders.edit(id: full.id, OrderEdit(add: [.init(pizza: try f.pizza("Porcini"), quantity: 1)]))
        }
        let edited = try orders.edit(
            id: full.id, OrderEdit(add: [.init(pizza: try f.pizza("Porcini"), quantity: 1)]), by: "giulia",
            override: why)
        #expect(edited.pizzaCount == 5)
        // A delay into a full slot with an override.
        try f.place("anna", "21:00", ("Margherita", 4))
        let delayed = try f.place("marco", "20:45", ("Porcini", 1)).order
        #expect(throws: DelayError.self) { try orders.delay(.orders([delayed.id]), byMinutes: 15) }
        let result = try orders.delay(.orders([delayed.id]), byMinutes: 15, by: "giulia", override: why)
        #expect(result.delayed.map(\.id) == [delayed.id])
        let rows = try overrides(f)
        #expect(rows.count == 3, "\(rows)")
        #expect(try Maintenance.check(path: f.base.path, now: f.now).domainProblems.isEmpty)
    }

    @Test("the schema lets a slot past its capacity only by its live overrides, at most the margin")
    func schemaHoldsTheMargin() throws {
        let f = try OrderFixture(capacity: 4)
        let order = try f.place("anna", "20:00", ("Margherita", 4)).order
        let db = f.pizzeria.database
        func addPizza(_ line: Int) -> String {
            do {
                try db.write { db in
                    try db.run(
                        "INSERT INTO order_lines (order_id, line_no, pizza_id, pizza_name, unit_price_cents, quantity, variant_id, base_price_cents) "
                            + "SELECT order_id, ?, pizza_id, pizza_name, unit_price_cents, 1, variant_id, base_price_cents FROM order_lines WHERE order_id = ? AND line_no = 1",
                        [line, order.id])
                }
                return "accepted"
            } catch { return "\(error)" }
        }
        func grant(_ pizzas: Int) throws {
            try db.write { db in
                try db.run(
                    "INSERT INTO capacity_overrides (order_id, pickup_at, pizzas, reason, actor, at) VALUES (?, ?, ?, 'sql', 'owner', '2026-12-01T09:00:00.000Z')",
                    [order.id, PickupTime.utc(order.pickupAt), pizzas])
            }
        }
        #expect(addPizza(2).contains("slot_capacity_exceeded"))
        try grant(5)  // more than the margin (1): only the margin counts
        #expect(addPizza(2) == "accepted")
        #expect(addPizza(3).contains("slot_capacity_exceeded"))
        #expect(throws: (any Error).self) { try db.write { try $0.run("DELETE FROM capacity_overrides") } }
        #expect(throws: (any Error).self) { try db.write { try $0.run("UPDATE capacity_overrides SET pizzas = 1") } }
    }

    @Test("a party fills consecutive slots as linked orders with one total and one receipt")
    func party() throws {
        let f = try OrderFixture(capacity: 8)
        let orders = f.pizzeria.orders
        try f.place("anna", "20:15", ("Margherita", 3))  // 5 left at 20:15
        let (party, created) = try orders.placeParty(
            try request(f, "marco", "20:00", key: "party-1", ("Margherita", 15), ("Porcini", 2)), by: "giulia")
        #expect(created && party.orders.count == 3)
        #expect(party.orders.map { String($0.pickupLocal.dropFirst(11).prefix(5)) } == ["20:00", "20:15", "20:30"])
        #expect(party.orders.map(\.pizzaCount) == [8, 5, 4])
        #expect(party.orders.allSatisfy { $0.partyID == party.id } && party.id == party.orders[0].id)
        #expect(party.total.cents == 15 * 600 + 2 * 1200)
        #expect(party.orders[0].idempotencyKey == "party-1" && party.orders[1].idempotencyKey == nil)
        // A retry under the key returns the party; other content under it is refused.
        let again = try orders.placeParty(
            try request(f, "marco", "20:00", key: "party-1", ("Margherita", 15), ("Porcini", 2)), by: "giulia")
        #expect(!again.created && again.party == party)
        #expect(throws: OrderError.self) {
            try orders.placeParty(try request(f, "marco", "20:00", key: "party-1", ("Margherita", 14)))
        }
        // One receipt for the party, from any of its orders.
        let receipt = try f.pizzeria.payments.receipt(of: party.orders[1].id)
        #expect(receipt.party.count == 2 && receipt.total == party.total && receipt.balance == party.total)
        #expect(receipt.text(width: 32).contains("Gruppo " + party.id.short))
        #expect(try Maintenance.check(path: f.base.path, now: f.now).domainProblems.isEmpty)
    }

    @Test("a party that does not fit its run of slots is refused whole; one that fits one slot is one order")
    func partyRefused() throws {
        let f = try OrderFixture(capacity: 8)
        let orders = f.pizzeria.orders
        try f.place("anna", "22:30", ("Margherita", 1))
        let before = try f.base.snapshot()
        // 22:30 and 22:45 are the day's last slots: 7 + 8 = 15 places for 20 pizzas.
        let error = #expect(throws: OrderError.self) {
            try orders.placeParty(try request(f, "marco", "22:30", ("Margherita", 20)))
        }
        guard case .partyDoesNotFit(20, 15, _, 2)? = error else {
            Issue.record("expected partyDoesNotFit, got \(String(describing: error))")
            return
        }
        #expect(try f.base.snapshot() == before)
        let single = try orders.placeParty(try request(f, "marco", "19:00", ("Margherita", 3)))
        #expect(single.party.orders.count == 1 && single.party.orders[0].partyID == nil)
        // The schema keeps a party to one customer and its first order.
        let db = f.pizzeria.database
        #expect(throws: (any Error).self) {
            try db.write { try $0.run("UPDATE orders SET party_id = id WHERE id = ?", [single.party.id]) }
        }
    }
}
