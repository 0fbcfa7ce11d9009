import Foundation
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

@Suite("Orders: booking, capacity, idempotency, lifecycle")
struct OrderServiceTests {
    @Test("a booking snapshots names and prices, merges repeats and totals in cents")
    func booking() throws {
        let fixture = try OrderFixture()
        let (order, created) = try fixture.place("anna", "19:30", ("margherita", 2), ("Porcini", 1), ("MARGHERITA", 1))
        #expect(created)
        #expect(order.lines.map(\.pizzaName) == ["Margherita", "Porcini"])
        #expect(order.lines.map(\.quantity) == [3, 1])
        #expect(order.total == Money(cents: 3 * 600 + 1200))
        #expect(order.status == .placed && order.history.map(\.to) == [.placed])
        #expect(order.pickupLocal == "2026-12-01 19:30")
        #expect(PickupTime.utc(order.pickupAt) == "2026-12-01T18:30:00Z")

        // A later menu edit does not change the booked order.
        var draft = try fixture.pizzeria.menu.editDraft(for: try fixture.pizzeria.lookup.pizza("Margherita").id)
        draft.price = Money(cents: 999)
        draft.name = "Margherita Nuova"
        _ = try fixture.pizzeria.menu.save(draft)
        let again = try #require(try fixture.pizzeria.orders.order(id: order.id))
        #expect(again.lines[0].pizzaName == "Margherita" && again.lines[0].unitPrice.cents == 600)
        #expect(again.total == order.total)
    }

    @Test("every refusal says why and leaves the database unchanged")
    func refusals() throws {
        let fixture = try OrderFixture(capacity: 5)
        try fixture.place("marco", "19:00", ("Marinara", 3))
        try fixture.pizzeria.menu.archive(id: try fixture.pizzeria.lookup.pizza("Porcini").id)
        let before = try fixture.base.snapshot()
        func refused(_ expected: String, file: String = #fileID, line: Int = #line, _ body: () throws -> Void) {
            do {
                try body()
                Issue.record(
                    "accepted, expected: \(expected)",
                    sourceLocation: SourceLocation(fileID: file, filePath: file, line: line, column: 1))
            } catch {
                #expect(
                    "\(error)".contains(expected), "\(error)",
                    sourceLocation: SourceLocation(fileID: file, filePath: file, line: line, column: 1))
            }
        }
        refused("no user with handle or id 'nobody'") { try fixture.place("nobody", "19:00", ("Margherita", 1)) }
        refused("no pizza with id, id prefix or name 'Hawaii'") { try fixture.place("anna", "19:00", ("Hawaii", 1)) }
        refused("'Porcini' is archived") { try fixture.place("anna", "19:00", ("Porcini", 1)) }
        refused("is in the past") { try fixture.place("anna", "09:45", ("Margherita", 1)) }
        refused("is outside the hours of Tuesday 2026-12-01 (12:00-23:00") {
            try fixture.place("anna", "11:45", ("Margherita", 1))
        }
        refused("is outside the hours of") { try fixture.place("anna", "23:00", ("Margherita", 1)) }
        refused("not the start of a 15-minute slot; nearest slots: 19:00, 19:15") {
            try fixture.place("anna", "19:07", ("Margherita", 1))
        }
        refused("nearest slots: 22:45") { try fixture.place("anna", "22:50", ("Margherita", 1)) }
        refused("not the start of a 15-minute slot") {
            _ = try fixture.pizzeria.orders.place(
                OrderRequest(
                    user: try fixture.user("anna"), items: [.init(pizza: try fixture.pizza("Margherita"))],
                    pickup: try fixture.at("19:00").addingTimeInterval(30)))
        }
        refused("has only 2 pizzas left (asked for 3)") { try fixture.place("anna", "19:00", ("Margherita", 3)) }
        refused("items: must name at least one pizza") { try fixture.place("anna", "19:00") }
        refused("quantity: must be from 1 to 20 (item 1: 21)") {
            try fixture.place("anna", "19:00", ("Margherita", 21))
        }
        refused("quantity: must be from 1 to 20 (item 1: 0)") { try fixture.place("anna", "19:00", ("Margherita", 0)) }
        refused("Margherita: 22 after merging") {
            try fixture.place("anna", "19:00", ("Margherita", 11), ("margherita", 11))
        }
        #expect(try fixture.base.snapshot() == before)
    }

    @Test(
        "the categories of refusals",
        arguments: [
            (OrderError.pickupInPast(local: ""), FailureCategory.refused),
            (OrderError.slotFull(slot: "", remaining: 0, requested: 1), .refused),
            (OrderError.keyReused(key: "", orderID: NavigationFixture.unknownID()), .refused),
            (OrderError.notFound(""), .notFound),
            (OrderError.tooMany(name: "", quantity: 21), .invalidInput),
        ])
    func categories(error: OrderError, category: FailureCategory) {
        #expect(error.category == category)
    }

    @Test("capacity: a slot takes exactly its capacity; a cancellation frees it")
    func capacity() throws {
        let fixture = try OrderFixture(capacity: 4)
        let first = try fixture.place("anna", "19:00", ("Margherita", 3)).order
        #expect(
            throws: OrderError.slotFull(
                slot: "2026-12-01 19:00", remaining: 1, requested: 2, firstAvailable: "2026-12-01 19:15")
        ) {
            try fixture.place("marco", "19:00", ("Marinara", 2))
        }
        try fixture.place("marco", "19:00", ("Marinara", 1))
        #expect(
            throws: OrderError.slotFull(
                slot: "2026-12-01 19:00", remaining: 0, requested: 1, firstAvailable: "2026-12-01 19:15")
        ) {
            try fixture.place("marco", "19:00", ("Marinara", 1))
        }
        // Another slot is unaffected.
        try fixture.place("marco", "19:15", ("Marinara", 4))
        _ = try fixture.pizzeria.orders.cancel(id: first.id)
        try fixture.place("marco", "19:00", ("Porcini", 3))
        let slot = try fixture.pizzeria.orders.slots(on: LocalDate("2026-12-01")!).first { $0.local == "19:00" }
        #expect(slot?.booked == 4 && slot?.remaining == 0)
    }

    @Test("the database refuses an overbooking line whoever writes it")
    func capacityTrigger() throws {
        let fixture = try OrderFixture(capacity: 2)
        let order = try fixture.place("anna", "19:00", ("Margherita", 2)).order
        let error = #expect(throws: DatabaseError.self) {
            try fixture.pizzeria.database.write { db in
                try db.execute(
                    """
                    INSERT INTO orders (id, user_id, pickup_at, service_day, pickup_local)
                    SELECT 'aaaaaaaa-0000-4000-8000-000000000000', user_id, pickup_at, service_day, pickup_local FROM orders
                    """)
                try db.run(
                    "INSERT INTO order_lines (order_id, line_no, pizza_id, pizza_name, unit_price_cents, quantity, variant_id, base_price_cents) SELECT 'aaaaaaaa-0000-4000-8000-000000000000', 1, pizza_id, pizza_name, unit_price_cents, 1, variant_id, base_price_cents FROM order_lines WHERE order_id = ?",
                    [order.id])
            }
        }
        #expect(error?.message.contains("slot_capacity_exceeded") == true, "\(String(describing: error))")
    }

    @Test("idempotency: same key and content returns the first order; other content is refused")
    func idempotency() throws {
        let fixture = try OrderFixture()
        let first = try fixture.place("anna", "19:00", key: "k1", ("Margherita", 2))
        let before = try fixture.base.snapshot()
        let retry = try fixture.place("anna", "19:00", key: "k1", ("margherita", 1), ("Margherita", 1))
        #expect(!retry.created && retry.order.id == first.order.id)
        #expect(try fixture.base.snapshot() == before)
        for attempt in [
            { try fixture.place("anna", "19:15", key: "k1", ("Margherita", 2)) },
            { try fixture.place("marco", "19:00", key: "k1", ("Margherita", 2)) },
            { try fixture.place("anna", "19:00", key: "k1", ("Margherita", 3)) },
        ] {
            let error = #expect(throws: OrderError.self) { try attempt() }
            guard case .keyReused = error else { Issue.record("\(String(describing: error))"); continue }
        }
        #expect(try fixture.base.snapshot() == before)
        // A retry still returns the order after the pizza was archived and the slot filled.
        try fixture.pizzeria.menu.archive(id: try fixture.pizzeria.lookup.pizza("Margherita").id)
        #expect(try fixture.place("anna", "19:00", key: "k1", ("Margherita", 2)).order.id == first.order.id)
    }

    @Test("the status machine, exhaustively: only the lifecycle's transitions are allowed")
    func statusMachine() throws {
        let allowed: Set<[OrderStatus]> = [
            [.placed, .preparing], [.preparing, .ready], [.ready, .collected], [.ready, .noShow],
            [.placed, .cancelled], [.preparing, .cancelled],
        ]
        for from in OrderStatus.allCases {
            for to in OrderStatus.allCases where to != from {
                #expect(from.canChange(to: to) == allowed.contains([from, to]), "\(from) → \(to)")
            }
        }
        // The schema's trigger holds the same table (orders that cannot be cancelled keep their room: a big slot).
        let fixture = try OrderFixture(capacity: 100)
        for from in OrderStatus.allCases {
            for to in OrderStatus.allCases where to != from {
                let order = try fixture.place("anna", "19:00", ("Margherita", 1)).order
                for step in path(to: from) {
                    try fixture.pizzeria.database.write { db in
                        try db.run("UPDATE orders SET status = ? WHERE id = ?", [step.rawValue, order.id])
                    }
                }
                let accepted =
                    (try? fixture.pizzeria.database.write { db in
                        try db.run("UPDATE orders SET status = ? WHERE id = ?", [to.rawValue, order.id])
                    }) != nil
                #expect(accepted == allowed.contains([from, to]), "trigger: \(from) → \(to)")
                if from != .cancelled, to != .cancelled,
                    (try? fixture.pizzeria.orders.order(id: order.id))??.status != .cancelled
                {
                    _ = try? fixture.pizzeria.orders.cancel(id: order.id)
                }
            }
        }
    }

    /// The statuses to walk through, from placed, to reach `status`.
    func path(to status: OrderStatus) -> [OrderStatus] {
        switch status {
        case .placed: []
        case .preparing: [.preparing]
        case .ready: [.preparing, .ready]
        case .collected: [.preparing, .ready, .collected]
        case .noShow: [.preparing, .ready, .noShow]
        case .cancelled: [.cancelled]
        }
    }

    @Test("advance and cancel through the service, recording each change; refusals name the status")
    func lifecycle() throws {
        let fixture = try OrderFixture()
        let order = try fixture.place("anna", "19:00", ("Margherita", 1)).order
        #expect(try fixture.pizzeria.orders.advance(id: order.id).status == .preparing)
        #expect(
            try fixture.pizzeria.orders.advance(
                id: try fixture.pizzeria.lookup.order(order.id.short).id
            ).status == .ready)
        #expect(throws: OrderError.illegalTransition(orderID: order.id, from: .ready, action: .cancel)) {
            try fixture.pizzeria.orders.cancel(id: order.id)
        }
        let owing = #expect(throws: OrderError.self) { try fixture.pizzeria.orders.advance(id: order.id) }
        #expect(owing == .unpaidAtCollection(orderID: order.id, balance: order.total), "no silent unpaid")
        #expect(try fixture.pizzeria.orders.order(id: order.id)?.status == .ready)
        let collected = try fixture.pizzeria.orders.advance(id: order.id, settling: .unpaid(reason: "account"))
        #expect(collected.history.map(\.to) == [.placed, .preparing, .ready, .collected])
        #expect(collected.history.map(\.from) == [nil, .placed, .preparing, .ready])
        let error = #expect(throws: OrderError.self) { try fixture.pizzeria.orders.advance(id: order.id) }
        #expect(error?.description.contains("is collected") == true)

        let other = try fixture.place("marco", "19:15", ("Marinara", 1)).order
        #expect(try fixture.pizzeria.orders.cancel(id: other.id).status == .cancelled)
        #expect(throws: OrderError.illegalTransition(orderID: other.id, from: .cancelled, action: .advance)) {
            try fixture.pizzeria.orders.advance(id: other.id)
        }
    }

    @Test(
        "lists by user, status and day; slots; sales: revenue from collected orders only, booked, no-shows and cancellations apart"
    )
    func reports() throws {
        let fixture = try OrderFixture()
        let annas = try fixture.place("anna", "19:00", ("Margherita", 2)).order
        let cancelled = try fixture.place("anna", "19:00", ("Porcini", 5)).order
        _ = try fixture.pizzeria.orders.cancel(id: cancelled.id)
        try fixture.place("marco", "20:00", ("Porcini", 1), ("Margherita", 1))
        try fixture.place("marco", "12:00", day: "2026-12-02", ("Marinara", 4))

        #expect(try fixture.pizzeria.orders.list(OrderFilter(user: try fixture.user("anna"))).count == 2)
        #expect(try fixture.pizzeria.orders.list(OrderFilter(status: .cancelled)).map(\.id) == [cancelled.id])
        #expect(
            try fixture.pizzeria.orders.list(OrderFilter(serviceDay: LocalDate("2026-12-02")!)).map(\.handle) == [
                "marco"
            ])
        #expect(throws: UserError.notFound("nobody")) { try fixture.pizzeria.lookup.user("nobody") }
        // Pages: keyset cursors, each page's lines in one query.
        let first = try fixture.pizzeria.orders.page(limit: 2)
        #expect(first.items.count == 2 && first.next != nil)
        let second = try fixture.pizzeria.orders.page(limit: 2, after: first.next)
        let all = try fixture.pizzeria.orders.list()
        #expect(all.count == 4 && second.items.count == 2)
        #expect((first.items + second.items).map(\.id) == all.map(\.id))
        #expect(all.map(\.pickupAt) == all.map(\.pickupAt).sorted())
        #expect(all.allSatisfy { !$0.lines.isEmpty })

        let slots = try fixture.pizzeria.orders.slots(on: LocalDate("2026-12-01")!)
        #expect(slots.count == 44 && slots.first?.local == "12:00" && slots.last?.local == "22:45")
        #expect(slots.first { $0.local == "19:00" }?.booked == 2)
        #expect(slots.first { $0.local == "20:00" }?.booked == 2)

        // Nothing collected yet: no revenue, everything still booked (the cancelled order apart).
        let booked = try fixture.pizzeria.orders.sales(from: LocalDate("2026-12-01")!, to: LocalDate("2026-12-01")!)
        #expect(booked.quantity == 0 && booked.revenue == Money(cents: 0), "\(booked)")
        #expect(booked.bookedValue == Money(cents: 3 * 600 + 1200))
        #expect(
            booked.rows.first { $0.name == "Porcini" }.map { [$0.bookedQuantity, $0.cancelledQuantity] } == [1, 5])
        #expect(booked.days.map(\.bookedOrders) == [2] && booked.days.map(\.cancelled) == [1])

        // Anna collects; marco's 20:00 order is ready and never fetched.
        for _ in 0..<2 { try fixture.pizzeria.orders.advance(id: annas.id) }
        try fixture.pizzeria.orders.advance(
            id: annas.id, settling: .pay(PaymentRequest(order: annas.id, method: .cash)))
        let marcos = try fixture.pizzeria.orders.list(
            OrderFilter(user: try fixture.user("marco"), serviceDay: LocalDate("2026-12-01")!))[0]
        for _ in 0..<2 { try fixture.pizzeria.orders.advance(id: marcos.id) }
        try fixture.pizzeria.orders.markNoShow(id: marcos.id)
        let sales = try fixture.pizzeria.orders.sales(from: LocalDate("2026-12-01")!, to: LocalDate("2026-12-01")!)
        #expect(sales.rows.map(\.name) == ["Margherita", "Porcini"])
        #expect(
            sales.quantity == 2 && sales.revenue == Money(cents: 2 * 600) && sales.bookedValue == Money(cents: 0),
            "\(sales)")
        #expect(sales.days.map { [$0.collectedOrders, $0.bookedOrders, $0.noShows, $0.cancelled] } == [[1, 0, 1, 1]])
        #expect(sales.days.first?.noShowValue == Money(cents: 600 + 1200))
        #expect(sales.rows.first { $0.name == "Porcini" }?.noShowQuantity == 1)
        // The whole period: the next day's order is booked, not revenue.
        let whole = try fixture.pizzeria.orders.sales()
        #expect(
            whole.revenue == Money(cents: 2 * 600) && whole.bookedValue == Money(cents: 4 * 400)
                && whole.days.count == 2)
    }

    @Test(
        "the statements the stores run use indexes, with no scan and no temporary sort",
        arguments: [
            (OrderStore.headersSQL(filter: ""), 0, "orders_by_pickup_id"),
            (OrderStore.headersSQL(filter: " WHERE o.user_id = ?"), 1, "orders_by_user_pickup"),
            (OrderStore.headersSQL(filter: " WHERE o.status = ?"), 1, "orders_by_status_pickup"),
            (OrderStore.headersSQL(filter: " WHERE o.pickup_at >= ? AND o.pickup_at < ?"), 2, "orders_by_pickup_id"),
            (
                OrderStore.headersSQL(filter: " WHERE o.user_id = ? AND o.pickup_at >= ? AND o.pickup_at < ?"), 3,
                "orders_by_user_pickup"
            ),
            (OrderStore.slotLoadSQL, 1, "USING PRIMARY KEY"),
            (OrderStore.orderLinesSQL, 1, "PRIMARY KEY"),
            (OrderStore.orderHistorySQL, 1, "order_status_events_by_order"),
            (
                OrderStore.pageLinesSQL(
                    filter: " WHERE (o.pickup_at, o.id) >= (?, ?) AND (o.pickup_at, o.id) <= (?, ?)"), 4,
                "orders_by_pickup_id"
            ),
            (
                OrderStore.pageLinesSQL(
                    filter: " WHERE o.user_id = ? AND (o.pickup_at, o.id) >= (?, ?) AND (o.pickup_at, o.id) <= (?, ?)"),
                5,
                "orders_by_user_pickup"
            ),
            (
                OrderStore.pageHistorySQL(
                    filter: " WHERE (o.pickup_at, o.id) >= (?, ?) AND (o.pickup_at, o.id) <= (?, ?)"), 4,
                "order_status_events_by_order"
            ),
            (
                OrderStore.pageHistorySQL(
                    filter: " WHERE o.status = ? AND (o.pickup_at, o.id) >= (?, ?) AND (o.pickup_at, o.id) <= (?, ?)"),
                5,
                "orders_by_status_pickup"
            ),
        ])
    func queryPlans(sql: String, parameters: Int, index: String) throws {
        let fixture = try OrderFixture()
        let plan = try fixture.pizzeria.database.read { db in
            try db.fetchAll("EXPLAIN QUERY PLAN " + sql, Array(repeating: "x", count: parameters)) {
                try $0.string("detail")
            }
        }
        #expect(plan.contains { $0.contains(index) }, "\(plan)")
        // Scanning the bound JSON list of a page's ids is expected; scanning a table is not.
        #expect(
            !plan.contains { $0.hasPrefix("SCAN") && !$0.contains("USING") && !$0.contains("json_each") }, "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }

    @Test(
        "settings are validated, naming the key and the rule",
        arguments: [
            (SettingKey.slotMinutes, "7"), (.slotMinutes, "0"), (.slotMinutes, "abc"), (.slotCapacity, "0"),
            (.slotCapacity, "10001"), (.openingHours, "23:00-23:00"), (.openingHours, "12-23"),
            (.openingHours, "12:00-48:30"), (.openingHours, "25:00-26:00"),
            (.timeZone, "Mars/Olympus"), (.timeZone, ""),
        ])
    func invalidSettings(key: SettingKey, value: String) throws {
        let fixture = try Fixture()
        let before = try fixture.pizzeria.settings.current()
        let error = #expect(throws: SettingsError.self) { try fixture.pizzeria.settings.update(key, parsing: value) }
        #expect(error?.category == .invalidInput)
        if case .invalidValue(let refused, _) = error {
            #expect(refused == key)
        } else {
            Issue.record("\(String(describing: error))")
        }
        #expect(try fixture.pizzeria.settings.current() == before)
    }

    @Test("settings change and shape the slots")
    func settingsShapeSlots() throws {
        let fixture = try OrderFixture()
        try fixture.pizzeria.settings.update(.slotMinutes(30))
        try fixture.pizzeria.settings.update(.openingHours, parsing: "18:00-20:00")
        try fixture.pizzeria.settings.update(.slotCapacity(3))
        #expect(
            try fixture.pizzeria.orders.slots(on: LocalDate("2026-12-01")!).map(\.local) == [
                "18:00", "18:30", "19:00", "19:30",
            ])
        #expect(throws: OrderError.self) { try fixture.place("anna", "19:15", ("Margherita", 1)) }
        #expect(try fixture.place("anna", "19:30", ("Margherita", 3)).created)
        let settings = try fixture.pizzeria.settings.update(.timeZone, parsing: "system")
        #expect(settings.storedTimeZone == nil)
    }
}
