import Foundation
import PizzeriaStorage
import PizzeriaTestSupport
import Testing

@testable import PizzeriaServices

/// Sold out tonight (migration 17): a limit for pickups before its end, taken by bookings and
/// given back by cancellations on every path, over by itself when the service ends.
@Suite("Sold out: a limit that counts down, gives back, and ends by itself")
struct StockTests {
    func left(_ f: OrderFixture, _ name: String) throws -> Int? {
        try f.pizzeria.menu.pizza(named: name)?.stockLeft
    }

    @Test("bookings take from the limit, cancellations and edits give back, an undo takes again")
    func countsDownAndBack() throws {
        let f = try OrderFixture()
        let porcini = try f.pizza("Porcini")
        try f.pizzeria.menu.setStock(of: porcini, left: 3)
        let first = try f.place("anna", "19:00", ("Porcini", 2)).order
        #expect(try left(f, "Porcini") == 1)
        let refused = #expect(throws: OrderError.self) { try f.place("marco", "19:15", ("Porcini", 2)) }
        guard case .soldOut(let name, 1, 2, let until?)? = refused else {
            Issue.record("expected soldOut, got \(String(describing: refused))")
            return
        }
        #expect(name == "Porcini" && until == "2026-12-01 23:00", "\(until)")
        // Tomorrow's pickups are not limited: the item is back by itself.
        try f.place("marco", "19:00", day: "2026-12-02", ("Porcini", 5))
        #expect(try left(f, "Porcini") == 1)
        _ = try f.pizzeria.orders.edit(
            id: first.id, OrderEdit(setQuantity: [.init(pizza: porcini, quantity: 1)]))
        #expect(try left(f, "Porcini") == 2)
        #expect(throws: OrderError.self) {
            try f.pizzeria.orders.edit(id: first.id, OrderEdit(setQuantity: [.init(pizza: porcini, quantity: 4)]))
        }
        _ = try f.pizzeria.orders.cancel(id: first.id)
        #expect(try left(f, "Porcini") == 3)
        try f.place("marco", "20:00", ("Porcini", 3))
        #expect(try left(f, "Porcini") == 0)
        // Taking the cancellation back would need the pizza it gave back, sold since.
        #expect(throws: (any Error).self) { try f.pizzeria.orders.undo(id: first.id) }
        #expect(try f.pizzeria.orders.order(id: first.id)?.status == .cancelled)
        try f.pizzeria.menu.makeAvailable(porcini)
        try f.place("anna", "21:00", ("Porcini", 10))
        #expect(try left(f, "Porcini") == nil)
        #expect(try Maintenance.check(path: f.base.path, now: f.now).domainProblems.isEmpty)
    }

    @Test("a sold-out modifier is refused with the item still offered; a hand-written line is refused too")
    func modifiersAndSQL() throws {
        let f = try OrderFixture()
        let menu = f.pizzeria.menu
        let (margherita, bufala) = try f.bufalaOnMargherita(left: 1)
        let user = try f.user("anna")
        let pickup = try f.at("19:00")
        try f.pizzeria.orders.place(
            OrderRequest(user: user, items: [.init(pizza: margherita, modifiers: [bufala])], pickup: pickup))
        let refused = #expect(throws: OrderError.self) {
            try f.pizzeria.orders.place(
                OrderRequest(user: user, items: [.init(pizza: margherita, modifiers: [bufala])], pickup: pickup))
        }
        #expect(refused == .soldOut(name: "bufala", left: 0, requested: 1, until: nil))
        try f.place("anna", "19:00", ("Margherita", 1))
        try menu.setStock(of: try f.pizza("Marinara"), left: 0)
        let order = try f.place("marco", "19:30", ("Margherita", 1)).order
        let sql = #expect(throws: DatabaseError.self) {
            try f.pizzeria.database.write { db in
                _ = try db.run(
                    """
                    INSERT INTO order_lines (order_id, line_no, pizza_id, pizza_name, unit_price_cents, quantity,
                                             variant_id, base_price_cents)
                    SELECT ?, 2, p.id, p.name, p.price_cents, 1, v.id, coalesce(v.price_cents, p.price_cents)
                    FROM pizzas p JOIN pizza_variants v ON v.pizza_id = p.id AND v.is_default WHERE p.name = 'Marinara'
                    """, [order.id])
            }
        }
        #expect(sql?.message.contains("sold_out") == true, "\(String(describing: sql))")
    }

    @Test("the end of the service is the end of tonight's last slot; a limit in the past or out of range is refused")
    func endAndBadInput() throws {
        let f = try OrderFixture()
        let porcini = try f.pizza("Porcini")
        let saved = try f.pizzeria.menu.setStock(of: porcini, left: 0)
        let (lastSlot, end) = (try f.at("22:45"), try f.at("23:00"))
        #expect(saved.stockUntil == end)
        #expect(saved.left(for: lastSlot) == 0 && saved.left(for: end) == nil)
        let past = #expect(throws: ValidationError.self) {
            try f.pizzeria.menu.setStock(of: porcini, left: 1, until: .at(try f.at("09:00")))
        }
        #expect(past?.errors.first?.field == "until")
        #expect(throws: ValidationError.self) { try f.pizzeria.menu.setStock(of: porcini, left: -1) }
        #expect(try left(f, "Porcini") == 0)
    }
}
