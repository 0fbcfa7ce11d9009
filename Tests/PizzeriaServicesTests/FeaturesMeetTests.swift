import Foundation
import PizzeriaStorage
import PizzeriaTestSupport
import Testing

@testable import PizzeriaServices

/// Where two features meet (migration 38): money after an undo, REPLACE on records, a stale
/// override's allowance, hand edits of lines, an erasure of money records. Each test is a finding
/// of the whole-shop simulator's issue, and fails on the schema and code before it.
@Suite("Where features meet: money after undo, REPLACE, overrides, hand edits, erasure")
struct FeaturesMeetTests {
    func sql(_ f: OrderFixture, _ text: String, _ arguments: [any DatabaseValueConvertible] = []) throws {
        try f.pizzeria.database.write { _ = try $0.run(text, arguments) }
    }

    /// `sqlite3 PATH SQL`, as an analyst types it: another client, without Pizzeria's mark.
    func shell(_ f: OrderFixture, _ text: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", f.base.path, text]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test("a cancelled, refunded order placed again owes its total: it can be paid, and collected unpaid it is listed")
    func refundedOrderUndone() throws {
        let f = try OrderFixture()
        let orders = f.pizzeria.orders, payments = f.pizzeria.payments
        let order = try f.place("anna", "19:00", ("Margherita", 2)).order  // 12.00
        try payments.pay(PaymentRequest(order: order.id, method: .cash), by: "giulia")
        try orders.cancel(id: order.id, by: "giulia", reason: "changed her mind")
        try payments.refund(order: order.id, reason: "cancelled", by: "giulia")
        try orders.undo(id: order.id, by: "giulia")
        let again = try payments.payments(of: order.id)
        #expect(again.balance.cents == 1200 && again.state == .unpaid && again.kept.cents == 0)
        // The view says the same.
        let view = try f.pizzeria.database.read { db in
            try db.fetchOne("SELECT balance_cents, state FROM order_payments WHERE order_id = ?", [order.id]) {
                "\(try $0.int("balance_cents")) \(try $0.string("state"))"
            }
        }
        #expect(view == "1200 unpaid")
        // Collected without paying: the cash-up lists it.
        try orders.advance(id: order.id, by: "giulia")
        try orders.advance(id: order.id, by: "giulia")
        try orders.advance(id: order.id, by: "giulia", settling: .unpaid(reason: "paga domani"))
        let close = try payments.dailyClose(day: LocalDate("2026-12-01"))
        #expect(close.unpaidCollected.map(\.orderID) == [order.id])
        // And it can be paid.
        let (paid, _) = try payments.pay(PaymentRequest(order: order.id, method: .card), by: "giulia")
        let state = try payments.payments(of: order.id).state
        #expect(paid.amount.cents == 1200 && state == .partiallyRefunded)
    }

    @Test("a deposit refunded on cancelling: placed again, the order owes all of it")
    func depositRefundedUndone() throws {
        let f = try OrderFixture()
        let orders = f.pizzeria.orders, payments = f.pizzeria.payments
        let order = try f.place("anna", "19:00", ("Margherita", 1), ("Porcini", 1)).order  // 18.00
        try payments.pay(PaymentRequest(order: order.id, amount: Money(cents: 1000), method: .cash), by: "giulia")
        try orders.cancel(id: order.id, by: "giulia", reason: "x")
        try payments.refund(order: order.id, reason: "x", by: "giulia")
        try orders.undo(id: order.id, by: "giulia")
        #expect(try payments.payments(of: order.id).balance.cents == 1800)
    }

    @Test("REPLACE, INSERT OR REPLACE and UPSERT of a record are refused; nothing changes")
    func replaceRefused() throws {
        let f = try OrderFixture()
        let order = try f.place("anna", "19:00", ("Margherita", 2)).order
        try f.pizzeria.payments.pay(PaymentRequest(order: order.id, method: .cash), by: "giulia")
        try f.pizzeria.orders.cancel(id: order.id, by: "giulia", reason: "x")
        try f.pizzeria.payments.refund(order: order.id, reason: "cancelled", by: "giulia")
        let before = try f.base.snapshot()
        let statements = [
            "REPLACE INTO refunds (id, payment_id, amount_cents, reason, at) VALUES (1, 1, 100, 'x', '2026-12-01T10:00:00Z')",
            "INSERT OR REPLACE INTO payments (id, order_id, amount_cents, method, at) VALUES (1, ?, 50, 'cash', '2026-12-01T10:00:00Z')",
            "REPLACE INTO order_status_events (id, order_id, kind, to_status, at) VALUES (1, ?, 'placed', 'placed', '2026-12-01T10:00:00.000Z')",
            "REPLACE INTO audit_log (id, at, source, object, action) SELECT id, at, 'sql', 'x', 'x' FROM audit_log LIMIT 1",
            "INSERT INTO payments (id, order_id, amount_cents, method, at) VALUES (1, ?, 50, 'cash', '2026-12-01T10:00:00Z') ON CONFLICT DO UPDATE SET amount_cents = 50",
            "REPLACE INTO orders SELECT * FROM orders WHERE id = ?",
            "REPLACE INTO pizzas SELECT * FROM pizzas LIMIT 1",
        ]
        for statement in statements {
            let arguments: [any DatabaseValueConvertible] = statement.contains("?") ? [order.id] : []
            let token = triggerToken { try sql(f, statement, arguments) }
            #expect(token == "row_never_replaced" || token == "payments_append_only", "\(statement): \(token ?? "nil")")
        }
        #expect(try f.base.snapshot() == before)
    }

    @Test("a stale override allowance does not let a hand UPDATE of another order past the capacity")
    func staleOverride() throws {
        let f = try OrderFixture(capacity: 8)
        let orders = f.pizzeria.orders
        let eight = try f.place("anna", "20:00", ("Margherita", 8)).order
        let why = StaffOverride(reason: "squeeze in")
        for _ in 0..<2 {
            try orders.place(
                OrderRequest(
                    user: try f.user("marco"), items: [.init(pizza: try f.pizza("Porcini"))],
                    pickup: try f.at("20:00")), by: "giulia", override: why)
        }
        try orders.cancel(id: eight.id, by: "giulia")
        let six = try f.place("anna", "20:00", ("Margherita", 6)).order
        #expect(
            triggerToken { try sql(f, "UPDATE order_lines SET quantity = quantity + 2 WHERE order_id = ?", [six.id]) }
                == "slot_capacity_exceeded")
        // An override with the old allowance absorbed records its own pizzas.
        let third = try orders.place(
            OrderRequest(
                user: try f.user("marco"), items: [.init(pizza: try f.pizza("Marinara"))], pickup: try f.at("20:00")),
            by: "giulia", override: why
        ).order
        let own = try f.pizzeria.database.read { db in
            try db.fetchOne("SELECT sum(pizzas) AS n FROM capacity_overrides WHERE order_id = ?", [third.id]) {
                try $0.optionalInt64("n")
            } ?? nil
        }
        #expect(own == 1)
        #expect(try Maintenance.check(path: f.base.path, now: f.now).domainProblems.isEmpty)
    }

    @Test("lines changed or removed by hand are in the order's history; a line is added only by Pizzeria")
    func handEditsOfLines() throws {
        let f = try OrderFixture()
        let order = try f.place("anna", "19:00", ("Margherita", 2), ("Porcini", 1)).order
        // Another client: sqlite3 as an analyst uses it (no Pizzeria mark).
        #expect(try shell(f, "UPDATE order_lines SET quantity = 3 WHERE line_no = 1").status == 0)
        #expect(try shell(f, "DELETE FROM order_lines WHERE line_no = 2").status == 0)
        let insert = try shell(
            f,
            """
            INSERT INTO order_lines (order_id, line_no, pizza_id, pizza_name, unit_price_cents, quantity, uses_oven, variant_id,
                                     variant_name, base_price_cents, modifiers, allergens, vat_rate_bp)
            SELECT order_id, 9, pizza_id, pizza_name, unit_price_cents, 1, uses_oven, variant_id, variant_name,
                   base_price_cents, modifiers, allergens, vat_rate_bp
            FROM order_lines LIMIT 1
            """
        )
        #expect(insert.status != 0 && insert.output.contains("pizzeria_connection"), "\(insert)")
        let stored = try #require(try f.pizzeria.orders.order(id: order.id))
        #expect(stored.total.cents == 1800)
        let details = stored.history.filter { $0.kind == .edited }.map { $0.detail ?? "" }
        #expect(details == ["by hand: Margherita × 2 → 3", "by hand: −1 Porcini"], "\(details)")
        // The library's own edits are not "by hand".
        _ = try f.pizzeria.orders.edit(
            id: order.id, OrderEdit(add: [.init(pizza: try f.pizza("Marinara"))]), by: "giulia")
        let after = try #require(try f.pizzeria.orders.order(id: order.id))
        #expect(after.history.filter { ($0.detail ?? "").hasPrefix("by hand") }.count == 2)
    }

    @Test("who acts cannot be written by another client: audit_context is Pizzeria's")
    func auditContextForged() throws {
        let f = try OrderFixture()
        let forged = try shell(f, "UPDATE audit_context SET actor = 'giulia' WHERE id = 1")
        #expect(forged.status != 0 && forged.output.contains("pizzeria_connection"), "\(forged)")
        let replaced = try shell(f, "REPLACE INTO audit_context (id, actor, source) VALUES (1, 'giulia', 'x')")
        #expect(replaced.status != 0 && replaced.output.contains("row_never_replaced"), "\(replaced)")
        #expect(try shell(f, "UPDATE pizzas SET price_cents = 700 WHERE name = 'Margherita'").status == 0)
        let entry = try f.pizzeria.database.read { db in
            try db.fetchOne("SELECT actor, source FROM audit_log WHERE action = 'price' ORDER BY id DESC LIMIT 1") {
                "\(try $0.optionalString("actor") ?? "-") \(try $0.string("source"))"
            }
        }
        #expect(entry == "- sql")
    }

    @Test("an erasure redacts the customer's payment references and refund reasons, in the records and the history")
    func erasureOfMoney() throws {
        let f = try OrderFixture()
        let order = try f.place("anna", "19:00", ("Margherita", 2)).order
        let payments = f.pizzeria.payments
        try payments.pay(PaymentRequest(order: order.id, method: .card, reference: "ANNA-REF-77"), by: "giulia")
        try f.pizzeria.orders.cancel(id: order.id, by: "giulia", reason: "anna rang: her son is ill")
        try payments.refund(order: order.id, reason: "anna's son is ill", by: "giulia")
        try f.pizzeria.users.erase(id: try f.user("anna"), by: "giulia")
        let texts = try f.base.snapshot().joined(separator: "\n")
        #expect(!texts.contains("ANNA-REF-77") && !texts.contains("son is ill"))
        let details = try #require(try f.pizzeria.orders.order(id: order.id)).history.compactMap(\.detail)
        #expect(details.contains("paid 12.00 card [erased]") && details.contains("refunded 12.00 card: [erased]"))
        #expect(details.contains("[erased]") && !details.contains { $0.contains("son") })
        #expect(try Maintenance.check(path: f.base.path, now: f.now).domainProblems.isEmpty)
    }

    @Test("check names a dropped, an edited and a foreign trigger; --repair makes the schema's own again")
    func schemaDrift() throws {
        let f = try OrderFixture()
        try f.place("anna", "19:00", ("Margherita", 2))
        let dropped = try shell(
            f,
            """
            DROP TRIGGER slot_loads_capacity; DROP TRIGGER audit_log_append_only_delete;
            DROP VIEW daily_vat; CREATE VIEW daily_vat AS SELECT 1 AS empty;
            CREATE TRIGGER mine AFTER INSERT ON orders BEGIN SELECT 1; END;
            CREATE INDEX analysts_own ON orders (note);
            """)
        #expect(dropped.status == 0, "\(dropped)")
        let check = try Maintenance.check(path: f.base.path, now: f.now)
        #expect(
            Set(check.schemaDrift) == [
                "missing trigger slot_loads_capacity (on slot_loads)",
                "missing trigger audit_log_append_only_delete (on audit_log)", "changed view daily_vat (on daily_vat)",
                "extra trigger mine (on orders)",
            ], "\(check.schemaDrift)")
        #expect(!check.isHealthy)
        let repair = try Maintenance.repair(path: f.base.path, now: f.now)
        #expect(repair.repaired.filter { $0.table == "sqlite_schema" }.count == 4)
        let after = try Maintenance.check(path: f.base.path, now: f.now)
        #expect(after.schemaDrift.isEmpty && after.isHealthy && after.isDomainSound)
        // The analyst's own index is theirs.
        #expect(try shell(f, "SELECT name FROM sqlite_schema WHERE name = 'analysts_own'").output == "analysts_own\n")
    }

    @Test("check --repair derives from the source: a slot follows its orders' true service day, not a drifted order's")
    func repairFromSource() throws {
        let f = try OrderFixture(capacity: 10)
        // Friday 2026-12-04 open 18:00-02:00: a 00:30 pickup is Friday's night.
        try f.pizzeria.schedule.setHours([.friday], [try HoursSyntax.parseInterval("18:00-02:00")], keepOrders: true)
        _ = try f.pizzeria.capacity.set([.weekday(.friday)], try HoursSyntax.parseInterval("18:00-02:00"), capacity: 9)
        let night = try f.place("anna", "00:30", day: "2026-12-05", ("Margherita", 2)).order
        let other = try f.place("marco", "20:00", day: "2026-12-04", ("Porcini", 1)).order
        #expect(night.serviceDay.description == "2026-12-04")
        // By hand, with the triggers that would refuse it dropped: the slot zeroed, the night order
        // on the calendar day (its slot follows it), the other's total changed.
        let damaged = try shell(
            f,
            """
            DROP TRIGGER slot_loads_booked_derived; DROP TRIGGER orders_total_derived;
            UPDATE orders SET service_day = '2026-12-05' WHERE id = '\(night.id)';
            UPDATE slot_loads SET booked = 0 WHERE pickup_at = '\(PickupTime.utc(night.pickupAt))';
            DELETE FROM slot_loads WHERE pickup_at = '\(PickupTime.utc(night.pickupAt))';
            UPDATE orders SET total_cents = 1 WHERE id = '\(other.id)';
            """)
        #expect(damaged.status == 0, "\(damaged)")
        let before = try Maintenance.check(path: f.base.path, now: f.now)
        #expect(!before.domainProblems.isEmpty && !before.schemaDrift.isEmpty)
        _ = try Maintenance.repair(path: f.base.path, now: f.now)
        let after = try Maintenance.check(path: f.base.path, now: f.now)
        #expect(after.domainProblems.isEmpty && after.schemaDrift.isEmpty, "\(after.domainProblems)")
        let slot = try f.pizzeria.database.read { db in
            try db.fetchOne(
                "SELECT service_day, booked FROM slot_loads WHERE pickup_at = ?", [PickupTime.utc(night.pickupAt)]
            ) { "\(try $0.string("service_day")) \(try $0.int("booked"))" }
        }
        #expect(slot == "2026-12-04 2")
        let capacity = try f.pizzeria.orders.slots(on: LocalDate("2026-12-04")).first { $0.start == night.pickupAt }
        #expect(capacity?.capacity == 9)
        #expect(try f.pizzeria.orders.order(id: other.id)?.total.cents == 1200)
    }

    @Test("a party's receipt: VAT per order summed (as the cash-up rounds), a cancelled member marked and not counted")
    func partyReceipt() throws {
        let f = try OrderFixture(capacity: 1)
        var draft = PizzaDraft.blank
        draft.name = "Pane"
        draft.price = Money(cents: 105)  // 10 %: 0.0954… of VAT each, 0.1909… for two together
        let pane = try f.pizzeria.menu.save(draft)
        let (party, _) = try f.pizzeria.orders.placeParty(
            OrderRequest(
                user: try f.user("anna"), items: [.init(pizza: pane.id, quantity: 3)], pickup: try f.at("19:00")))
        #expect(party.orders.count == 3 && party.pizzaCount == 3 && party.otherItemCount == 0)
        let receipt = try f.pizzeria.payments.receipt(of: party.id)
        #expect(receipt.vat.vat.cents == 30 && receipt.total.cents == 315)
        try f.pizzeria.orders.cancel(id: party.orders[2].id, by: "giulia")
        let after = try f.pizzeria.payments.receipt(of: party.orders[1].id)
        #expect(after.vat.vat.cents == 20 && after.total.cents == 210 && after.balance.cents == 210)
        let text = after.text(width: 32)
        #expect(text.contains("ANNULLATO") && text.contains("2.10"), "\(text)")
        #expect(try f.pizzeria.orders.party(of: party.orders[2].id)?.total.cents == 210)
    }

    @Test("a running notifier delivers nothing of a customer erased after it read its batch")
    func notifierAfterErasure() throws {
        let f = try OrderFixture()
        try f.pizzeria.users.edit(id: try f.user("anna"), phone: .set("+39 333 111 2222"))
        for time in ["19:00", "19:15", "19:30"] {
            let order = try f.place("anna", time, ("Margherita", 1)).order
            _ = try f.pizzeria.orders.edit(id: order.id, OrderEdit(note: .set("ring Anna-Secret")), by: "giulia")
        }
        let name = try #require(NotifierName("sms"))
        var delivered: [String] = []
        var erased = false
        try f.pizzeria.notifications.run(
            name, from: .start, policy: NotifierPolicy(once: true)
        ) { notification in
            let json = String(decoding: try JSONEncoder().encode(notification), as: UTF8.self)
            if erased { delivered.append(json) }
            if !erased {
                // The batch after this event was read already; the customer is erased now.
                try f.pizzeria.users.erase(id: try f.user("anna"), by: "giulia")
                erased = true
            }
        }
        #expect(!delivered.isEmpty)
        for json in delivered {
            // The phone as stored and as typed: "333" alone also turns up by chance in an id's hex.
            #expect(
                !json.contains("Anna") && !json.contains("Secret") && !json.contains("3331112222")
                    && !json.contains("333 111"), "\(json)")
        }
    }

    @Test("a delay whose window cascades names the order that does not fit, and the one only behind it")
    func delayCascade() throws {
        let f = try OrderFixture(capacity: 4)
        let first = try f.place("anna", "19:00", ("Margherita", 4)).order
        let second = try f.place("anna", "19:15", ("Margherita", 4)).order
        try f.place("marco", "19:30", ("Porcini", 4))  // outside the window: 19:30 stays full
        let window = DelaySelection.window(
            day: LocalDate("2026-12-01"), from: try #require(LocalTime("19:00")), to: try #require(LocalTime("19:30")))
        let refusal = #expect(throws: DelayError.self) {
            try f.pizzeria.orders.delay(window, byMinutes: 15, by: "giulia")
        }
        let refusals = refusal?.refusals ?? []
        #expect(refusals.first { $0.orderID == second.id }?.waitingOn == [])
        #expect(refusals.first { $0.orderID == first.id }?.waitingOn == [second.id])
        let text = refusal?.description ?? ""
        #expect(text.hasPrefix("delay +15: 1 of 2 orders would not fit (and 1 more behind it)"), "\(text)")
        #expect(text.contains("19:15 slot it moves to stays full: \(second.id.short) there could not move"), "\(text)")
    }

    @Test("a slot that starts now is not in the past: a walk-in at 19:00 books the 19:00 slot")
    func slotStartingNow() throws {
        let f = try OrderFixture()
        f.clock.advance(minutes: 9 * 60)  // 19:00 in Rome
        let walkIn = try f.pizzeria.orders.place(
            OrderRequest(
                user: try f.user("anna"), items: [.init(pizza: try f.pizza("Margherita"))], pickup: try f.at("19:00")),
            by: "giulia", override: StaffOverride(reason: "walk-in"))
        #expect(walkIn.order.pickupAt == (try f.at("19:00")))
        #expect(throws: OrderError.self) {
            try f.pizzeria.orders.place(
                OrderRequest(
                    user: try f.user("anna"), items: [.init(pizza: try f.pizza("Margherita"))],
                    pickup: try f.at("18:45")), by: "giulia", override: StaffOverride(reason: "walk-in"))
        }
    }

    @Test(
        "an erased customer's order: moves, delays and an undone cancellation refused by name; text recorded later is not kept"
    )
    func erasedCustomersOrder() throws {
        let f = try OrderFixture()
        let orders = f.pizzeria.orders, payments = f.pizzeria.payments
        let order = try f.place("anna", "19:00", ("Margherita", 2)).order
        try payments.pay(PaymentRequest(order: order.id, method: .card), by: "giulia")
        try orders.advance(id: order.id, by: "giulia")
        f.clock.advance(minutes: 9 * 60 + 5)  // 19:05: preparing, due: not cancelled by the erasure
        try f.pizzeria.users.erase(id: try f.user("anna"), by: "giulia")
        let delay = #expect(throws: DelayError.self) {
            try orders.delay(.orders([order.id]), byMinutes: 15, by: "giulia")
        }
        #expect(delay?.refusals.first?.reason.contains("customer was erased") == true, "\(String(describing: delay))")
        try orders.cancel(id: order.id, by: "giulia", reason: "Anna-Secret rang")
        #expect(throws: OrderError.customerErased(orderID: order.id, action: .undo)) {
            try orders.undo(id: order.id, by: "giulia")
        }
        try payments.refund(order: order.id, reason: "Anna-Secret's refund", by: "giulia")
        let texts = try f.base.snapshot().joined(separator: "\n")
        #expect(!texts.contains("Anna-Secret"))
        #expect(try Maintenance.check(path: f.base.path, now: f.now).domainProblems.isEmpty)
    }

    @Test("a balance larger than one payment takes is refused by name (65), not by the schema")
    func largeBalance() throws {
        let f = try OrderFixture(capacity: 100)
        var items: [OrderRequest.Item] = []
        for number in 1...6 {  // 6 × 20 × €1,000: €120,000
            var draft = PizzaDraft.blank
            draft.name = "Oro \(number)"
            draft.price = Money(cents: 100_000)
            items.append(.init(pizza: try f.pizzeria.menu.save(draft).id, quantity: 20))
        }
        let order = try f.pizzeria.orders.place(
            OrderRequest(user: try f.user("anna"), items: items, pickup: try f.at("19:00")), by: "giulia",
            override: StaffOverride(reason: "a banquet")
        ).order
        let refusal = #expect(throws: ValidationError.self) {
            try f.pizzeria.payments.pay(PaymentRequest(order: order.id, method: .card), by: "giulia")
        }
        #expect(refusal?.errors.first?.field == "amount")
        try f.pizzeria.payments.pay(
            PaymentRequest(order: order.id, amount: Money(cents: 10_000_000), method: .card), by: "giulia")
    }

    @Test(
        "an order collected by mistake, its hours closed since, comes back by undo kept outside the hours (simulator seed 129)"
    )
    func undoneCollectionOutsideTheHours() throws {
        let f = try OrderFixture()
        let order = try f.place("anna", "22:30", ("Margherita", 1)).order
        try f.pizzeria.orders.collect(id: order.id, by: "giulia", settling: .unpaid(reason: "a mistake"))
        try f.pizzeria.schedule.setHours(Set(Weekday.allCases), [try HoursSyntax.parseInterval("18:00-22:30")])
        let back = try f.pizzeria.orders.undo(id: order.id, by: "giulia")
        #expect(back.status == .ready && back.history.last?.detail?.hasSuffix("kept outside the hours") == true)
        #expect(try Maintenance.check(path: f.base.path, now: f.now).domainProblems.isEmpty)
    }

    @Test("an edit that puts pizzas on a slot over its capacity is refused by name, even taking as many off (seed 220)")
    func editOnAnOverfullSlot() throws {
        let f = try OrderFixture(capacity: 6)
        let order = try f.place("anna", "19:00", ("Margherita", 3), ("Porcini", 3)).order
        f.clock.advance(minutes: 9 * 60 + 30)  // 19:30: the slot is past, still placed
        try f.pizzeria.settings.update(.slotCapacity(3))
        let before = try f.base.snapshot()
        var swap = OrderEdit()
        swap.setQuantity = [.init(pizza: try f.pizza("Margherita"), quantity: 2)]
        swap.add = [.init(pizza: try f.pizza("Marinara"))]
        #expect(throws: OrderError.self) { try f.pizzeria.orders.edit(id: order.id, swap, by: "giulia") }
        #expect(try f.base.snapshot() == before)
        // Taking pizzas off alone is fine.
        var less = OrderEdit()
        less.setQuantity = [.init(pizza: try f.pizza("Margherita"), quantity: 1)]
        #expect(try f.pizzeria.orders.edit(id: order.id, less, by: "giulia").pizzaCount == 4)
        #expect(try Maintenance.check(path: f.base.path, now: f.clock.now).domainProblems.isEmpty)
    }

    @Test("an edit growing a line and adding a noted line of one item shares what is left of it (seed 415)")
    func editSharesTheStock() throws {
        let f = try OrderFixture()
        let margherita = try f.pizza("Margherita")
        _ = try f.pizzeria.menu.setStock(of: margherita, left: 5, until: .untilAvailable)
        let order = try f.place("anna", "19:00", ("Margherita", 2)).order
        let before = try f.base.snapshot()
        var change = OrderEdit()
        change.add = [.init(pizza: margherita, quantity: 3, note: "ben cotta")]
        change.setQuantity = [.init(pizza: margherita, quantity: 3)]
        // 3 left: 1 more on the line and 3 on a new one are 4.
        let refused = #expect(throws: OrderError.self) {
            try f.pizzeria.orders.edit(id: order.id, change, by: "giulia")
        }
        #expect(refused?.description.contains("only 3 left, 4 asked for") == true, "\(String(describing: refused))")
        #expect(try f.base.snapshot() == before)
        change.add = [.init(pizza: margherita, quantity: 2, note: "ben cotta")]
        #expect(try f.pizzeria.orders.edit(id: order.id, change, by: "giulia").pizzaCount == 5)
        #expect(try f.pizzeria.menu.pizza(id: margherita)?.stockLeft == 0)
    }

    @Test("what an erasure clears is one list: check finds any of it written back, and --repair clears it again")
    func erasureOneList() throws {
        let f = try OrderFixture()
        let anna = try f.user("anna")
        let order = try f.pizzeria.orders.place(
            OrderRequest(
                user: anna, items: [.init(pizza: try f.pizza("Margherita"), note: "per Anna-Secret")],
                pickup: try f.at("19:00"))
        ).order
        _ = try f.pizzeria.orders.edit(id: order.id, OrderEdit(note: .set("ring Anna-Secret")), by: "giulia")
        try f.pizzeria.users.erase(id: anna, by: "giulia")
        #expect(try Maintenance.check(path: f.base.path, now: f.now).domainProblems.isEmpty)
        // By hand, with the triggers that lock an erased customer's orders dropped: both notes back.
        try f.pizzeria.database.write { db in
            let locks = try db.fetchAll(
                "SELECT name FROM sqlite_schema WHERE type = 'trigger' AND tbl_name IN ('orders', 'order_lines')"
            ) { try $0.string("name") }
            for name in locks { try db.execute("DROP TRIGGER \"\(name)\"") }
            _ = try db.run("UPDATE orders SET note = 'Anna-Secret' WHERE id = ?", [order.id])
            _ = try db.run("UPDATE order_lines SET note = 'Anna-Secret' WHERE order_id = ?", [order.id])
        }
        let found = try Maintenance.check(path: f.base.path, now: f.now).domainProblems.map(\.problem)
        #expect(found.contains { $0.contains("erased, but 2 notes, references or reasons of theirs") }, "\(found)")
        _ = try Maintenance.repair(path: f.base.path, now: f.now)
        let after = try Maintenance.check(path: f.base.path, now: f.now)
        #expect(after.domainProblems.isEmpty && after.schemaDrift.isEmpty, "\(after.domainProblems)")
        #expect(!(try f.base.snapshot().joined().contains("Anna-Secret")))
    }
}
