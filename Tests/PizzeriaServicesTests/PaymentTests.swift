import Foundation
import PizzeriaStorage
import PizzeriaTestSupport
import Testing

@testable import PizzeriaServices

/// Payments, refunds and the derived payment state; VAT per rate on the order; receipts and the
/// cash-up (migration 21).
@Suite("Money: payments, refunds, VAT, receipts, cash-up")
struct PaymentTests {
    func collect(_ f: OrderFixture, _ order: Order) throws {
        f.clock.advance(minutes: 9 * 60)  // 19:00, pickup time
        try f.pizzeria.orders.collect(id: order.id, by: "giulia")
    }

    @Test(
        "the state follows the payments and refunds: unpaid, partially paid, paid, partially refunded, refunded, overpaid"
    )
    func states() throws {
        let f = try OrderFixture()
        let payments = f.pizzeria.payments
        let order = try f.place("anna", "19:00", ("Margherita", 2), ("Porcini", 1)).order  // 24.00
        #expect(try payments.payments(of: order.id).state == .unpaid)
        try payments.pay(
            PaymentRequest(order: order.id, amount: Money(cents: 1000), method: .online, reference: "psp_1"))
        #expect(try payments.payments(of: order.id).state == .partiallyPaid)
        #expect(try payments.payments(of: order.id).balance.cents == 1400)
        let (card, created) = try payments.pay(PaymentRequest(order: order.id, method: .card), by: "giulia")
        #expect(created && card.amount.cents == 1400 && card.actor == "giulia")
        #expect(try payments.payments(of: order.id).state == .paid)
        // Nothing more is due; overpaying is refused, naming the balance.
        #expect(throws: PaymentError.nothingDue(order: order.id, state: .paid)) {
            try payments.pay(PaymentRequest(order: order.id, method: .cash))
        }
        try payments.refund(order: order.id, amount: Money(cents: 500), reason: "burnt crust", by: "giulia")
        // A refund on a live order is money the shop no longer keeps: the order owes it again (a
        // goodwill gesture is a discount, not a refund).
        let partly = try payments.payments(of: order.id)
        #expect(partly.state == .partiallyPaid && partly.kept.cents == 1900 && partly.balance.cents == 500)
        // Cancelled while paid: a reason is required, then the order owes back what it keeps.
        #expect(throws: PaymentError.reasonRequired(order: order.id, kept: Money(cents: 1900))) {
            try f.pizzeria.orders.cancel(id: order.id, by: "giulia")
        }
        let cancelled = try f.pizzeria.orders.cancel(id: order.id, by: "giulia", reason: "oven down")
        #expect(cancelled.history.last?.detail == "reason: oven down")
        #expect(try payments.payments(of: order.id).state == .overpaid)
        #expect(try payments.owingRefunds().map(\.orderID) == [order.id])
        let back = try payments.refund(order: order.id, reason: "cancelled: oven down")
        // Newest payment first: the card's 14.00 less the 5.00 given back, then the online 10.00.
        #expect(back.map(\.amount.cents) == [900, 1000] && back.map(\.method) == [.card, .online])
        #expect(try payments.payments(of: order.id).state == .refunded)
        #expect(try payments.owingRefunds().isEmpty)
        #expect(throws: PaymentError.nothingToRefund(order: order.id)) {
            try payments.refund(order: order.id, amount: Money(cents: 1), reason: "again")
        }
        // The schema's view says the same as the library.
        let viewState = try f.pizzeria.database.read { db in
            try db.fetchOne("SELECT state FROM order_payments WHERE order_id = ?", [order.id]) {
                try $0.string("state")
            }
        }
        #expect(viewState == "refunded")
    }

    @Test("an online payment recorded again with its reference is the first one; another order's reference is refused")
    func idempotentReference() throws {
        let f = try OrderFixture()
        let payments = f.pizzeria.payments
        let first = try f.place("anna", "19:00", ("Margherita", 1)).order
        let second = try f.place("marco", "19:00", ("Porcini", 1)).order
        let request = PaymentRequest(order: first.id, method: .online, reference: "psp_3MtwBwLkdIwHu7ix")
        let (payment, created) = try payments.pay(request)
        let (again, createdAgain) = try payments.pay(request)
        #expect(created && !createdAgain && again == payment)
        #expect(try payments.payments(of: first.id).payments.count == 1)
        #expect(throws: PaymentError.referenceUsed(reference: "psp_3MtwBwLkdIwHu7ix", order: first.id)) {
            try payments.pay(PaymentRequest(order: second.id, method: .online, reference: "psp_3MtwBwLkdIwHu7ix"))
        }
    }

    @Test(
        "bad input is refused naming the rule, and nothing is written",
        arguments: [
            ("amount", PaymentRequest(order: .random(), amount: Money(cents: 0), method: .cash)),
            ("amount", PaymentRequest(order: .random(), amount: Money(cents: -100), method: .cash)),
            ("amount", PaymentRequest(order: .random(), amount: Money(cents: 10_000_001), method: .card)),
            ("method", PaymentRequest(order: .random(), method: .unknown)),
            (
                "reference",
                PaymentRequest(order: .random(), method: .online, reference: String(repeating: "x", count: 10_000_000))
            ),
            ("reference", PaymentRequest(order: .random(), method: .online, reference: "psp\u{0}1")),
            ("tendered", PaymentRequest(order: .random(), method: .card, tendered: Money(cents: 5000))),
        ])
    func badInput(field: String, request: PaymentRequest) throws {
        let f = try OrderFixture()
        let order = try f.place("anna", "19:00", ("Margherita", 1)).order
        var request = request
        request.order = order.id
        let error = #expect(throws: ValidationError.self) { try f.pizzeria.payments.pay(request) }
        #expect(error?.errors.map(\.field).contains(field) == true, "\(String(describing: error))")
        #expect(try f.pizzeria.payments.payments(of: order.id).payments.isEmpty)
        #expect(throws: ValidationError.self) {
            try f.pizzeria.payments.refund(order: order.id, amount: Money(cents: -1), reason: "x")
        }
        #expect(throws: ValidationError.self) { try f.pizzeria.payments.refund(order: order.id, reason: "") }
        #expect(throws: ValidationError.self) { try VATRate.parse("100.01") }
        #expect(throws: ValidationError.self) { try VATRate.parse("-5") }
        #expect(throws: ValidationError.self) { try VATRate.parse("ten") }
    }

    @Test(
        "the schema refuses what the library refuses: a refund over its payment, a changed payment, a cancelled order's payment"
    )
    func schemaRules() throws {
        let f = try OrderFixture()
        let order = try f.place("anna", "19:00", ("Margherita", 1)).order
        let (payment, _) = try f.pizzeria.payments.pay(PaymentRequest(order: order.id, method: .card))
        let db = f.pizzeria.database
        func refused(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) -> String {
            do {
                try db.write { _ = try $0.run(sql, arguments) }
                return "accepted"
            } catch { return "\(error)" }
        }
        let at = "2026-12-01T18:00:00.000Z"
        #expect(
            refused(
                "INSERT INTO refunds (payment_id, amount_cents, reason, at) VALUES (?, 601, 'x', ?)", [payment.id, at]
            )
            .contains("refund_exceeds_payment"))
        #expect(
            refused(
                "INSERT INTO refunds (payment_id, amount_cents, reason, at) VALUES (?, 600, 'x', ?)", [payment.id, at])
                == "accepted")
        #expect(
            refused(
                "INSERT INTO refunds (payment_id, amount_cents, reason, at) VALUES (?, 1, 'x', ?)", [payment.id, at]
            )
            .contains("refund_exceeds_payment"))
        #expect(refused("UPDATE payments SET amount_cents = 1").contains("payments_append_only"))
        #expect(refused("DELETE FROM refunds").contains("refunds_append_only"))
        #expect(
            refused(
                "INSERT INTO payments (order_id, amount_cents, method, at) VALUES (?, 100, 'bitcoin', ?)",
                [order.id, at]
            )
            .contains("CHECK"))
        try f.pizzeria.orders.cancel(id: order.id, reason: "test")
        #expect(
            refused(
                "INSERT INTO payments (order_id, amount_cents, method, at) VALUES (?, 100, 'cash', ?)", [order.id, at]
            )
            .contains("payment_cancelled"))
        #expect(refused("UPDATE shop SET vat_rate_bp = 10001").contains("CHECK"))
    }

    @Test("VAT per rate on the order, half up to the cent: the cent cases")
    func vatCents() throws {
        let ten = try VATRate.parse("10"), food = VATRate.standardFood
        let (commaHalf, twentyTwo, pointHalf) = (
            try VATRate.parse("5,5"), try VATRate.parse("22 %"), try VATRate.parse("5.5")
        )
        #expect(ten == food && ten.description == "10%" && commaHalf.basisPoints == 550)
        #expect(twentyTwo.description == "22%" && pointHalf.description == "5.5%")
        // 1.00 at 10 %: 0.0909… → 0.09; 0.05 at 22 %: 0.009 → 0.01; 1 cent at 100 %: 0.005 → half up, 0.01.
        #expect(ten.vat(ofGross: Money(cents: 100)).cents == 9)
        #expect((try VATRate.parse("22")).vat(ofGross: Money(cents: 5)).cents == 1)
        #expect((try VATRate.parse("100")).vat(ofGross: Money(cents: 1)).cents == 1)
        #expect((try VATRate.parse("0")).vat(ofGross: Money(cents: 999)).cents == 0)
        // Per rate on the order, not per line: three lines of 0.10 at 10 % are 0.30 → 0.03 VAT
        // (per line each would round to 0.01 too; 0.15 ×3 shows the difference: 0.45 → 0.04, not 3 × 0.01).
        let line = OrderLine(pizzaID: .random(), pizzaName: "x", unitPrice: Money(cents: 15), quantity: 1)
        let breakdown = VATBreakdown(lines: [line, line, line])
        #expect(breakdown.rows.count == 1 && breakdown.vat.cents == 4 && breakdown.net.cents == 41)
        #expect(breakdown.gross.cents == breakdown.net.cents + breakdown.vat.cents)
    }

    @Test("a line snapshots its category's VAT rate; the receipt splits it; the cash-up adds up to the rows")
    func receiptAndClose() throws {
        let f = try OrderFixture()
        let menu = f.pizzeria.menu, payments = f.pizzeria.payments
        let drinks = try menu.addCategory(name: "Bevande", usesOven: false)
        try payments.setVATRate(try VATRate.parse("22"), of: drinks.id)
        _ = try menu.save(PizzaDraft(mode: .add, name: "Coca-Cola", price: Money(cents: 300), categoryID: drinks.id))
        try payments.update(.name("Pizzeria da Michele"))
        try payments.update(.vatNumber("IT01234567890"))
        let paid = try f.place("anna", "19:00", ("Margherita", 2), ("Coca-Cola", 1)).order  // 12.00 + 3.00
        let unpaid = try f.place("marco", "19:00", ("Porcini", 1)).order  // 12.00
        let noShow = try f.place("marco", "19:30", ("Marinara", 1)).order  // 4.00
        #expect(paid.lines.map(\.vatRate.basisPoints).sorted() == [1000, 2200])
        try payments.pay(PaymentRequest(order: paid.id, method: .cash, tendered: Money(cents: 2000)), by: "giulia")
        // A later rate change does not touch what was booked.
        try payments.update(.vatRate(try VATRate.parse("4")))
        try collect(f, paid)
        try f.pizzeria.orders.collect(id: unpaid.id, settling: .unpaid(reason: "walked out"))
        for _ in 0..<2 { try f.pizzeria.orders.advance(id: noShow.id) }
        try f.pizzeria.orders.markNoShow(id: noShow.id)

        let receipt = try payments.receipt(of: paid.id)
        #expect(receipt.vat.rows.map(\.rate.basisPoints) == [1000, 2200])
        #expect(receipt.vat.rows.map(\.vat.cents) == [109, 54] && receipt.vat.gross.cents == 1500)
        #expect(receipt.change.cents == 500)
        for width in Receipt.widths {
            let text = receipt.text(width: width)
            #expect(text.split(separator: "\n").allSatisfy { $0.count <= width }, "\(width)\n\(text)")
            #expect(
                text.contains("Pizzeria da Michele") && text.contains("Documento non fiscale")
                    && text.contains("Resto"))
        }

        let close = try payments.dailyClose(day: LocalDate("2026-12-01"), openingCash: Money(cents: 10_000))
        #expect(close.collected.cents == 2700 && close.row(.collected)?.orders == 2)
        #expect(close.noShows.orders == 1 && close.noShows.value.cents == 400)
        #expect(close.paid.cents == 1500 && close.expectedCash.cents == 11_500)
        #expect(close.unpaidCollected.map(\.orderID) == [unpaid.id])
        #expect(close.vat.gross.cents == close.collected.cents)
        #expect(close.vat.gross.cents == close.vat.net.cents + close.vat.vat.cents)
        // Against the rows: the collected orders' totals, and payments − refunds of paid orders.
        let sums = try f.pizzeria.database.read { db in
            try db.fetchOne(
                """
                SELECT (SELECT sum(total_cents) FROM orders WHERE status = 'collected') AS collected,
                       (SELECT sum(kept_cents) FROM order_payments WHERE state = 'paid') AS kept,
                       (SELECT sum(total_cents) FROM order_payments WHERE state = 'paid' AND status = 'collected') AS paid_collected
                """
            ) { (try $0.int("collected"), try $0.int("kept"), try $0.int("paid_collected")) }
        }
        #expect(sums?.0 == 2700 && sums?.1 == sums?.2 && sums?.1 == 1500)
        // The views for sqlite3 say the same as the cash-up.
        let views = try f.pizzeria.database.read { db in
            (
                try db.fetchOne(
                    "SELECT collected_cents, paid_cents, cash_net_cents, unpaid_collected_orders FROM daily_close WHERE service_day = '2026-12-01'"
                ) {
                    [
                        try $0.int("collected_cents"), try $0.int("paid_cents"), try $0.int("cash_net_cents"),
                        try $0.int("unpaid_collected_orders"),
                    ]
                },
                try db.fetchAll(
                    "SELECT vat_rate_bp, vat_cents, gross_cents FROM daily_vat WHERE service_day = '2026-12-01' ORDER BY vat_rate_bp"
                ) {
                    [try $0.int("vat_rate_bp"), try $0.int("vat_cents"), try $0.int("gross_cents")]
                }
            )
        }
        #expect(views.0 == [2700, 1500, 1500, 1])
        #expect(views.1 == close.vat.rows.map { [$0.rate.basisPoints, Int($0.vat.cents), Int($0.gross.cents)] })
    }

    @Test(
        "an older file upgrades: collected orders are paid (method unknown), the rest unpaid; history and totals stay")
    func upgrade() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("old.sqlite")
        let old = try SchemaMigrator(migrations: Array(Migration.embedded.prefix(20))).open(
            path: path, access: .migrate)
        let ids = ["00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"]
        try old.write { db in
            _ = try db.run("UPDATE settings SET time_zone = 'UTC'")
            _ = try db.run("INSERT INTO pizzas (name, price_cents) VALUES ('Margherita', 600)")
            _ = try db.run("INSERT INTO users (handle) VALUES ('anna')")
            for id in ids {
                _ = try db.run(
                    """
                    INSERT INTO orders (id, user_id, pickup_at, service_day, pickup_local)
                    SELECT ?, id, '2026-12-01T18:00:00Z', '2026-12-01', '2026-12-01T18:00+00:00' FROM users
                    """, [id])
                _ = try db.run(
                    """
                    INSERT INTO order_lines (order_id, line_no, pizza_id, pizza_name, unit_price_cents, quantity, uses_oven,
                                             variant_id, base_price_cents, allergens)
                    SELECT ?, 1, p.id, p.name, 600, 2, 1, v.id, 600, 0 FROM pizzas p JOIN pizza_variants v ON v.pizza_id = p.id
                    """, [id])
            }
            for status in ["preparing", "ready", "collected"] {
                _ = try db.run("UPDATE orders SET status = ? WHERE id = ?", [status, ids[0]])
            }
        }
        let events = try old.read { db in
            try db.fetchOne("SELECT count(*) AS n FROM order_status_events") { try $0.int("n") }
        }
        let pizzeria = try Pizzeria.open(path: path)
        let collected = try #require(Order.ID(ids[0])), placed = try #require(Order.ID(ids[1]))
        let paid = try pizzeria.payments.payments(of: collected)
        #expect(paid.state == .paid && paid.payments.map(\.method) == [.unknown] && paid.paid.cents == 1200)
        #expect(try pizzeria.payments.payments(of: placed).state == .unpaid)
        #expect(try pizzeria.orders.sales().revenue.cents == 1200)
        #expect(try pizzeria.orders.order(id: collected)?.lines.map(\.vatRate) == [.standardFood])
        let after = try pizzeria.database.read { db in
            try db.fetchOne("SELECT count(*) AS n FROM order_status_events") { try $0.int("n") }
        }
        #expect(after == events)
        let problems = try Maintenance.check(path: path).domainProblems
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("the feed carries payments and refunds, in order with the other changes")
    func feed() throws {
        let f = try OrderFixture()
        let start = try f.pizzeria.orders.latestEventCursor()
        let order = try f.place("anna", "19:00", ("Margherita", 1)).order
        try f.pizzeria.payments.pay(PaymentRequest(order: order.id, method: .card), by: "giulia")
        try f.pizzeria.payments.refund(order: order.id, amount: Money(cents: 100), reason: "cold", by: "giulia")
        let events = try f.pizzeria.orders.events(after: start)
        #expect(events.map(\.kind) == [.placed, .paid, .refunded])
        #expect(events.map(\.detail) == [nil, "paid 6.00 card", "refunded 1.00 card: cold"])
        #expect(events.dropFirst().allSatisfy { $0.actor == "giulia" && $0.from == .placed && $0.to == .placed })
        // The order's history shows them; undo still takes back status changes only.
        #expect(try f.pizzeria.orders.order(id: order.id)?.history.map(\.kind) == [.placed, .paid, .refunded])
    }

    @Test("each line's share of the order's VAT adds up to the order's, per rate, to the cent")
    func lineShares() throws {
        let lines = [15, 15, 15, 700].map {
            OrderLine(pizzaID: .random(), pizzaName: "x", unitPrice: Money(cents: Int64($0)), quantity: 1)
        }
        let shares = VATBreakdown.lineShares(of: lines)
        #expect(shares.reduce(0) { $0 + $1.cents } == VATBreakdown(lines: lines).vat.cents)
        // 7.45 at 10 %: VAT 0.68; 0.68 × 15/745 = 0.0137 (three times), × 700/745 = 0.6389: 66 cents given,
        // the two left go to the largest remainders (the 7.00 line, then the first 0.15 line).
        #expect(shares.map(\.cents) == [2, 1, 1, 64])
    }
}
