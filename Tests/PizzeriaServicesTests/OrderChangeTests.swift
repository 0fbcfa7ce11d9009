import Foundation
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

@Suite("The counter: moving and editing orders, no-shows, undo")
struct OrderChangeTests {
    @Test(
        "move: the new slot is checked like a booking and the old one freed in the same transaction; history and feed record it"
    )
    func move() throws {
        let f = try OrderFixture(capacity: 4)
        let order = try f.place("anna", "19:00", ("Margherita", 3)).order
        let moved = try f.pizzeria.orders.move(id: order.id, to: try f.at("19:30"), by: "giulia")
        #expect(moved.pickupAt == (try f.at("19:30")) && moved.version == order.version + 1 && moved.id == order.id)
        let slots = try f.pizzeria.orders.slots(on: LocalDate("2026-12-01")!)
        #expect(slots.first { $0.local == "19:00" }?.booked == 0 && slots.first { $0.local == "19:30" }?.booked == 3)
        let last = try #require(moved.history.last)
        #expect(
            last.kind == .moved && last.actor == "giulia" && last.detail?.contains("19:00") == true
                && last.detail?.contains("19:30") == true, "\(last)")
        #expect(
            try f.pizzeria.orders.events(after: .start).last.map { [$0.kind == .moved, $0.actor == "giulia"] } == [
                true, true,
            ])

        // Refusals write nothing: closed time, off the grid, too soon, a full slot, a version that moved on.
        _ = try f.place("marco", "20:00", ("Porcini", 2))
        let before = try f.base.snapshot()
        let refusals: [(String, () throws -> Void)] = [
            ("outside", { try f.pizzeria.orders.move(id: order.id, to: try f.at("23:30")) }),
            (
                "not the start of a 15-minute slot; nearest slots: 19:00, 19:15",
                { try f.pizzeria.orders.move(id: order.id, to: try f.at("19:07")) }
            ),
            ("in the past", { try f.pizzeria.orders.move(id: order.id, to: try f.at("09:00")) }),
            (
                "20:00 slot has only 2 pizzas left (asked for 3)",
                { try f.pizzeria.orders.move(id: order.id, to: try f.at("20:00")) }
            ),
            ("version 1", { try f.pizzeria.orders.move(id: order.id, to: try f.at("21:00"), expectedVersion: 1) }),
        ]
        for (message, attempt) in refusals {
            do { try attempt(); Issue.record("accepted; expected \(message)") } catch {
                #expect("\(error)".contains(message), "\(error)")
            }
        }
        #expect(try f.base.snapshot() == before)
    }

    @Test("a move into the order's own slot's neighbour counts the order once; moving to where it is changes nothing")
    func moveWithinFullSlot() throws {
        let f = try OrderFixture(capacity: 3)
        let order = try f.place("anna", "19:00", ("Margherita", 3)).order
        #expect(try f.pizzeria.orders.move(id: order.id, to: try f.at("19:00")).version == order.version)
        #expect(try f.pizzeria.orders.move(id: order.id, to: try f.at("19:15")).version == order.version + 1)
        #expect(try f.pizzeria.orders.move(id: order.id, to: try f.at("19:00")).version == order.version + 2)
    }

    @Test(
        "edit: added lines priced now, kept lines keep their price, total recomputed, a note; at least one line stays")
    func edit() throws {
        let f = try OrderFixture(capacity: 6)
        let order = try f.place("anna", "19:00", ("Margherita", 2), ("Porcini", 1)).order
        // The menu's price changes after booking: the booked Margherita keeps €6.00, a new Marinara line gets today's price.
        var draft = try f.pizzeria.menu.editDraft(for: try f.pizza("Margherita"))
        draft.price = Money(cents: 700)
        _ = try f.pizzeria.menu.save(draft)
        var change = OrderEdit(
            add: [.init(pizza: try f.pizza("Marinara"), quantity: 1)], remove: [try f.pizza("Porcini")],
            setQuantity: [.init(pizza: try f.pizza("Margherita"), quantity: 3)])
        change.note = .set("no basil")
        let edited = try f.pizzeria.orders.edit(id: order.id, change, expectedVersion: order.version, by: "giulia")
        #expect(
            edited.lines.map { "\($0.quantity) \($0.pizzaName) \($0.unitPrice.cents)" } == [
                "3 Margherita 600", "1 Marinara 400",
            ])
        #expect(
            edited.total == Money(cents: 3 * 600 + 400) && edited.note == "no basil"
                && edited.version == order.version + 1)
        let last = try #require(edited.history.last)
        #expect(last.kind == .edited && last.actor == "giulia" && last.detail?.contains("Porcini") == true, "\(last)")
        #expect(try f.pizzeria.orders.slots(on: LocalDate("2026-12-01")!).first { $0.local == "19:00" }?.booked == 4)

        let before = try f.base.snapshot()
        let refusals: [(String, () throws -> Void)] = [
            (
                "without a line",
                {
                    try f.pizzeria.orders.edit(
                        id: order.id, OrderEdit(remove: [try f.pizza("Margherita"), try f.pizza("Marinara")]))
                }
            ),
            ("must change something", { try f.pizzeria.orders.edit(id: order.id, OrderEdit()) }),
            (
                "has only 2 pizzas left (asked for 3)",
                {
                    try f.pizzeria.orders.edit(
                        id: order.id, OrderEdit(add: [.init(pizza: try f.pizza("Porcini"), quantity: 3)]))
                }
            ),
            ("note", { try f.pizzeria.orders.edit(id: order.id, OrderEdit(note: .set("ring\nthe bell"))) }),
            (
                "note",
                { try f.pizzeria.orders.edit(id: order.id, OrderEdit(note: .set(String(repeating: "x", count: 201)))) }
            ),
            ("version 1", { try f.pizzeria.orders.edit(id: order.id, OrderEdit(note: .clear), expectedVersion: 1) }),
        ]
        for (message, attempt) in refusals {
            do { try attempt(); Issue.record("accepted; expected \(message)") } catch {
                #expect("\(error)".contains(message), "\(error)")
            }
        }
        #expect(try f.base.snapshot() == before)
        #expect(try f.pizzeria.orders.edit(id: order.id, OrderEdit(note: .clear)).note == nil)
    }

    @Test("once preparing, an order cannot be moved or edited, and its lines are immutable for sqlite3 users too")
    func lockedOncePreparing() throws {
        let f = try OrderFixture()
        let order = try f.place("anna", "19:00", ("Margherita", 2)).order
        try f.pizzeria.orders.advance(id: order.id)
        #expect(throws: OrderError.illegalTransition(orderID: order.id, from: .preparing, action: .move)) {
            try f.pizzeria.orders.move(id: order.id, to: try f.at("20:00"))
        }
        #expect(throws: OrderError.illegalTransition(orderID: order.id, from: .preparing, action: .edit)) {
            try f.pizzeria.orders.edit(id: order.id, OrderEdit(note: .set("late")))
        }
        for sql in [
            "UPDATE order_lines SET quantity = 1", "DELETE FROM order_lines",
            "UPDATE orders SET pickup_at = '2026-12-01T19:00:00Z'", "UPDATE orders SET note = 'x'",
        ] {
            #expect(throws: DatabaseError.self, "\(sql)") {
                try f.pizzeria.database.write { db in try db.execute(sql) }
            }
        }
    }

    @Test("no-show: only from ready, counted apart from revenue")
    func noShow() throws {
        let f = try OrderFixture()
        let order = try f.place("anna", "19:00", ("Margherita", 2)).order
        #expect(throws: OrderError.illegalTransition(orderID: order.id, from: .placed, action: .noShow)) {
            try f.pizzeria.orders.markNoShow(id: order.id)
        }
        try f.pizzeria.orders.advance(id: order.id)
        try f.pizzeria.orders.advance(id: order.id)
        #expect(throws: OrderError.self) { try f.pizzeria.orders.cancel(id: order.id) }
        let closed = try f.pizzeria.orders.markNoShow(id: order.id, by: "giulia")
        #expect(closed.status == .noShow && closed.history.last?.actor == "giulia")
        let sales = try f.pizzeria.orders.sales()
        #expect(
            sales.revenue == Money(cents: 0) && sales.days.first?.noShows == 1
                && sales.days.first?.noShowValue == Money(cents: 1200))
    }

    @Test(
        "undo takes back the last status change within 10 minutes, as a new history entry; never the booking, never twice"
    )
    func undo() throws {
        let f = try OrderFixture(capacity: 2)
        let order = try f.place("anna", "19:00", ("Margherita", 2)).order
        #expect(throws: OrderError.illegalTransition(orderID: order.id, from: .placed, action: .undo)) {
            try f.pizzeria.orders.undo(id: order.id)
        }
        try f.pizzeria.orders.advance(id: order.id)
        f.clock.advance(minutes: 9)
        let undone = try f.pizzeria.orders.undo(id: order.id, by: "giulia")
        #expect(undone.status == .placed)
        #expect(
            undone.history.map(\.kind) == [.placed, .status, .undo]
                && undone.history.map(\.to) == [.placed, .preparing, .placed])
        #expect(throws: OrderError.illegalTransition(orderID: order.id, from: .placed, action: .undo)) {
            try f.pizzeria.orders.undo(id: order.id)
        }

        // Too late: eleven minutes after the change.
        try f.pizzeria.orders.advance(id: order.id)
        f.clock.advance(minutes: 11)
        #expect(throws: OrderError.undoTooLate(orderID: order.id, minutes: 10)) {
            try f.pizzeria.orders.undo(id: order.id)
        }

        // An undone cancellation takes the room again, and is refused when the slot filled meanwhile.
        let other = try f.place("marco", "20:00", ("Porcini", 2)).order
        try f.pizzeria.orders.cancel(id: other.id)
        _ = try f.place("anna", "20:00", ("Marinara", 1))
        let before = try f.base.snapshot()
        #expect(
            throws: OrderError.slotFull(
                slot: "2026-12-01 20:00", remaining: 1, requested: 2, firstAvailable: "2026-12-01 20:15")
        ) { try f.pizzeria.orders.undo(id: other.id) }
        #expect(try f.base.snapshot() == before)
    }

    @Test("the schema refuses backwards status changes unless an undo is recorded first")
    func backwardsNeedsUndo() throws {
        let f = try OrderFixture()
        let order = try f.place("anna", "19:00", ("Margherita", 1)).order
        try f.pizzeria.orders.advance(id: order.id)
        #expect(throws: DatabaseError.self) {
            try f.pizzeria.database.write { db in
                try db.run("UPDATE orders SET status = 'placed' WHERE id = ?", [order.id])
            }
        }
        #expect(throws: DatabaseError.self) {
            try f.pizzeria.database.write { db in
                try db.run("DELETE FROM order_status_events WHERE order_id = ?", [order.id])
            }
        }
        #expect(try f.pizzeria.orders.order(id: order.id)?.status == .preparing)
    }

    @Test("two movers racing for a slot's last room: exactly one wins, the other is refused and changes nothing")
    func concurrentMoves() async throws {
        let f = try OrderFixture(capacity: 2)
        let first = try f.place("anna", "19:00", ("Margherita", 2)).order
        let second = try f.place("marco", "19:15", ("Porcini", 2)).order
        let target = try f.at("20:00")
        let pizzeria = f.pizzeria
        let results = await withTaskGroup(of: Bool.self) { group in
            for id in [first.id, second.id] {
                group.addTask { (try? await pizzeria.write { try $0.orders.move(id: id, to: target) }) != nil }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 1, "\(results)")
        #expect(
            try await f.pizzeria.read { try $0.orders.slots(on: LocalDate("2026-12-01")!) }.first {
                $0.local == "20:00"
            }?.booked == 2)
    }
}
