import Foundation
import PizzeriaStorage
import PizzeriaTestSupport
import Testing

@testable import PizzeriaServices

@Suite("Discounts and comps: off each VAT rate, the total, the receipt and the cash-up following")
struct DiscountTests {
    /// An order of 2 Margherita (6.00, 10 %) and 1 Coca-Cola (3.00, 22 %): 15.00.
    func order(_ f: OrderFixture) throws -> Order {
        let drinks = try f.pizzeria.menu.addCategory(name: "Bevande", usesOven: false)
        try f.pizzeria.payments.setVATRate(try VATRate.parse("22"), of: drinks.id)
        _ = try f.pizzeria.menu.save(
            PizzaDraft(mode: .add, name: "Coca-Cola", price: Money(cents: 300), categoryID: drinks.id))
        return try f.place("anna", "19:00", ("Margherita", 2), ("Coca-Cola", 1)).order
    }

    @Test("the spread: in proportion to each rate's gross, the cents left over to the largest remainders")
    func spread() throws {
        let ten = try VATRate.parse("10"), twentyTwo = try VATRate.parse("22")
        let shares = OrderDiscount.spread(500, over: [(ten, 1200), (twentyTwo, 300)])
        #expect(shares.map(\.amount.cents) == [400, 100])
        let odd = OrderDiscount.spread(100, over: [(ten, 100), (twentyTwo, 200)])
        #expect(odd.map(\.amount.cents) == [33, 67] && odd.reduce(0) { $0 + $1.amount.cents } == 100)
    }

    @Test(
        "a percentage off each rate, an amount spread, a line free: VAT per rate recomputed, total and balance follow")
    func discountsAndComps() throws {
        let f = try OrderFixture()
        let placed = try order(f)
        let payments = f.pizzeria.payments
        try payments.pay(PaymentRequest(order: placed.id, method: .card), by: "giulia")
        let comp = try payments.comp(order: placed.id, line: 2, reason: "attesa lunga", by: "giulia")
        #expect(
            comp.amount.cents == 300 && comp.byRate.map(\.rate.basisPoints) == [2200] && comp.lineName == "Coca-Cola")
        let percent = try payments.discount(
            order: placed.id, .percent(basisPoints: 1000), reason: "compleanno", by: "giulia")
        #expect(percent.byRate.map(\.amount.cents) == [120], "10 % of the 12.00 left at 10 %; nothing left at 22 %")
        let money = try payments.payments(of: placed.id)
        #expect(money.total.cents == 1500 - 300 - 120 && money.owesRefund.cents == 420, "paid 15.00 before: owes back")
        let receipt = try payments.receipt(of: placed.id)
        #expect(receipt.vat.rows.map(\.gross.cents) == [1080, 0] && receipt.vat.gross.cents == 1080)
        let text = receipt.text(width: 48)
        #expect(
            text.contains("Omaggio: Coca-Cola (attesa lunga)") && text.contains("Sconto 10% (compleanno)"), "\(text)")
        #expect(text.contains("-3.00") && text.contains("-1.20") && text.contains("10.80"), "\(text)")
        // The history says so; a customer's message leaves the reason out.
        let history = try #require(try f.pizzeria.orders.order(id: placed.id)).history.map { $0.detail ?? "" }
        #expect(history.contains { $0.hasPrefix("comp: 1 × Coca-Cola −3.00, reason: attesa lunga") }, "\(history)")
        #expect(OrderNotification.customerPart(of: history.last) == "discount 10.0% −1.20")
        // Refusals: each names the field and changes nothing.
        let before = try f.base.snapshot()
        #expect(throws: ValidationError.self) { try payments.comp(order: placed.id, line: 2, reason: "again") }
        #expect(throws: ValidationError.self) { try payments.comp(order: placed.id, line: 9, reason: "x") }
        #expect(throws: ValidationError.self) {
            try payments.discount(order: placed.id, .amount(Money(cents: 5000)), reason: "x")
        }
        #expect(throws: ValidationError.self) {
            try payments.discount(order: placed.id, .percent(basisPoints: 0), reason: "x")
        }
        #expect(throws: ValidationError.self) {
            try payments.discount(order: placed.id, .percent(basisPoints: 500), reason: " ")
        }
        var removal = OrderEdit()
        removal.remove = [try f.pizza("Margherita")]
        #expect(throws: OrderError.discounted(orderID: placed.id)) {
            try f.pizzeria.orders.edit(id: placed.id, removal)
        }
        #expect(try f.base.snapshot() == before)
        // By hand the schema holds the same rules.
        let database = f.pizzeria.database
        func refusal(_ sql: String) -> String {
            do {
                try database.write { try $0.run(sql, [placed.id]) }
                return "accepted"
            } catch { return "\(error)" }
        }
        #expect(
            refusal(
                "INSERT INTO order_discounts (order_id, kind, vat_rate_bp, amount_cents, reason, at) VALUES (?, 'discount', 1000, 1081, 'x', '2026-12-01T10:00:00.000Z')"
            ).contains("discount_over_rate"))
        #expect(refusal("DELETE FROM order_discounts WHERE order_id = ?").contains("discounts_append_only"))
        #expect(
            refusal("UPDATE order_discounts SET amount_cents = 1 WHERE order_id = ?").contains("discounts_append_only"))
        #expect(refusal("DELETE FROM order_lines WHERE order_id = ? AND line_no = 1").contains("order_discounted"))
        #expect(refusal("UPDATE orders SET total_cents = 1500 WHERE id = ?").contains("order_total_derived"))
        let problems = try Maintenance.check(path: f.base.path, now: f.now).domainProblems
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("the cash-up: VAT of what is left, discounts and comps by reason; an erasure takes the reasons")
    func cashUp() throws {
        let f = try OrderFixture()
        let placed = try order(f)
        let payments = f.pizzeria.payments
        _ = try payments.discount(order: placed.id, .amount(Money(cents: 500)), reason: "attesa lunga", by: "giulia")
        try f.pizzeria.orders.collect(id: placed.id, settling: .pay(PaymentRequest(order: placed.id, method: .cash)))
        let close = try payments.dailyClose(day: LocalDate("2026-12-01"))
        #expect(close.collected.cents == 1000 && close.vat.gross.cents == 1000)
        #expect(close.vat.rows.map(\.gross.cents) == [800, 200])
        #expect(close.discounts.map(\.reason) == ["attesa lunga"] && close.discounts.first?.amount.cents == 500)
        let viewVAT = try f.pizzeria.database.read { db in
            try db.fetchAll("SELECT gross_cents FROM daily_vat ORDER BY vat_rate_bp") { try $0.int64("gross_cents") }
        }
        #expect(viewVAT == [800, 200], "the view rounds what the cash-up rounds")
        _ = try f.pizzeria.users.erase(id: f.user("anna"), by: "giulia")
        #expect(try payments.discounts(of: placed.id).map(\.reason) == ["[erased]"])
        #expect(try Maintenance.check(path: f.base.path, now: f.now).domainProblems.isEmpty)
    }

    @Test("two discounts alike at one instant are two discounts (found by the simulator, seed 602)")
    func twoAtOnce() throws {
        let f = try OrderFixture()
        let placed = try order(f)
        let payments = f.pizzeria.payments
        _ = try payments.discount(order: placed.id, .percent(basisPoints: 2000), reason: "sconto", by: "giulia")
        _ = try payments.discount(order: placed.id, .percent(basisPoints: 1000), reason: "sconto", by: "giulia")
        let given = try payments.discounts(of: placed.id)
        #expect(given.count == 2, "\(given)")
        #expect(given.map { $0.byRate.map(\.amount.cents) } == [[240, 60], [96, 24]], "\(given)")
        #expect(try payments.payments(of: placed.id).total.cents == 1500 - 300 - 120)
    }
}
