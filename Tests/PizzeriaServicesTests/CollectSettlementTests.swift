import Foundation
import PizzeriaStorage
import PizzeriaTestSupport
import Testing

@testable import PizzeriaServices

/// No silent unpaid: an order is handed over paid, paid in the same step, or left unpaid with a
/// reason — one rule (``OrderService/settle(_:_:actor:now:in:)``) for `collect` and `advance`.
@Suite("Handing over: no order is collected owing money without a word")
struct CollectSettlementTests {
    @Test("collect refuses an order that owes money and changes nothing; paid in the same step it is collected")
    func paidAsItIsHandedOver() throws {
        let f = try OrderFixture()
        let order = try f.place("anna", "19:00", ("Margherita", 2)).order  // 12.00
        let before = try f.base.snapshot()
        let refused = #expect(throws: OrderError.self) { try f.pizzeria.orders.collect(id: order.id, by: "giulia") }
        #expect(refused == .unpaidAtCollection(orderID: order.id, balance: Money(cents: 1200)))
        #expect(refused?.category == .refused)
        #expect(try f.base.snapshot() == before)
        // A part payment that leaves a balance is refused whole: the payment is not kept either.
        let part = #expect(throws: OrderError.self) {
            try f.pizzeria.orders.collect(
                id: order.id, by: "giulia",
                settling: .pay(PaymentRequest(order: order.id, amount: Money(cents: 500), method: .cash)))
        }
        #expect(part == .unpaidAtCollection(orderID: order.id, balance: Money(cents: 700)))
        #expect(try f.base.snapshot() == before)
        let collected = try f.pizzeria.orders.collect(
            id: order.id, by: "giulia",
            settling: .pay(PaymentRequest(order: order.id, method: .cash, tendered: Money(cents: 2000))))
        #expect(collected.status == .collected)
        let money = try f.pizzeria.payments.payments(of: order.id)
        #expect(money.state == .paid && money.payments.first?.change.cents == 800 && money.balance.cents == 0)
        // A paid order is handed over without a settlement.
        let prepaid = try f.place("marco", "19:30", ("Porcini", 1)).order
        try f.pizzeria.payments.pay(PaymentRequest(order: prepaid.id, method: .online, reference: "psp_1"))
        #expect(try f.pizzeria.orders.collect(id: prepaid.id).status == .collected)
    }

    @Test(
        "left unpaid on purpose: the reason is in the history; advance holds the same rule and refuses a settlement too early"
    )
    func unpaidOnPurpose() throws {
        let f = try OrderFixture()
        let order = try f.place("anna", "19:00", ("Marinara", 1)).order
        let early = #expect(throws: ValidationError.self) {
            try f.pizzeria.orders.advance(id: order.id, settling: .unpaid(reason: "tab"))
        }
        #expect(early?.errors.first?.field == "settling", "a settlement on placed → preparing is refused, not ignored")
        #expect(try f.pizzeria.orders.order(id: order.id)?.status == .placed)
        try f.pizzeria.orders.advance(id: order.id)
        try f.pizzeria.orders.advance(id: order.id)
        #expect(throws: OrderError.unpaidAtCollection(orderID: order.id, balance: Money(cents: 400))) {
            try f.pizzeria.orders.advance(id: order.id, by: "giulia")
        }
        let blank = #expect(throws: ValidationError.self) {
            try f.pizzeria.orders.advance(id: order.id, by: "giulia", settling: .unpaid(reason: "  "))
        }
        #expect(blank?.errors.first?.field == "unpaid")
        let collected = try f.pizzeria.orders.advance(
            id: order.id, by: "giulia", settling: .unpaid(reason: "regular: pays Friday"))
        #expect(collected.status == .collected)
        #expect(
            collected.history.last?.detail == "unpaid: regular: pays Friday"
                && collected.history.last?.actor == "giulia")
        #expect(try f.pizzeria.payments.payments(of: order.id).balance.cents == 400)
    }

    @Test("an erasure takes the unpaid reason's text (it may name the customer): found by the simulator, seeds 3 and 6")
    func erasureTakesTheReason() throws {
        let f = try OrderFixture()
        let order = try f.place("anna", "19:00", ("Marinara", 1)).order
        try f.pizzeria.orders.collect(id: order.id, by: "giulia", settling: .unpaid(reason: "Anna Rossi pays Friday"))
        try f.pizzeria.users.erase(id: try f.user("anna"), by: "giulia")
        let last = try f.pizzeria.orders.order(id: order.id)?.history.last
        #expect(last?.detail == "[erased]", "\(String(describing: last))")
    }

    @Test("the board carries what each open order still owes; the screen marks a ready one TO PAY")
    func boardShowsTheBalance() throws {
        let f = try OrderFixture()
        let owing = try f.place("anna", "19:00", ("Margherita", 2)).order
        let paid = try f.place("marco", "19:00", ("Porcini", 1)).order
        try f.pizzeria.payments.pay(PaymentRequest(order: paid.id, method: .card))
        try f.pizzeria.payments.pay(PaymentRequest(order: owing.id, amount: Money(cents: 500), method: .cash))
        let board = try f.pizzeria.orders.board(day: LocalDate("2026-12-01"))
        let entries = board.slots.flatMap(\.orders)
        #expect(entries.first { $0.id == owing.id }?.balance.cents == 700)
        #expect(entries.first { $0.id == paid.id }?.balance.cents == 0)
    }

    @Test(
        "a cancelled order's receipt says so and is no sale: lines without amounts, no total, no VAT; money kept listed"
    )
    func cancelledReceipt() throws {
        let f = try OrderFixture()
        let order = try f.place("anna", "19:00", ("Margherita", 2)).order
        try f.pizzeria.payments.pay(PaymentRequest(order: order.id, method: .card))
        try f.pizzeria.orders.cancel(id: order.id, reason: "changed mind")
        try f.pizzeria.payments.refund(order: order.id, reason: "cancelled")
        for width in Receipt.widths {
            let text = try f.pizzeria.payments.receipt(of: order.id).text(width: width)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(
                text.contains("CANCELLED - ANNULLATO") && !text.contains("TOTAL") && !text.contains("GROSS"), "\(text)")
            #expect(
                lines.contains { $0 == "2 x Margherita" || $0.hasPrefix("2 x Margherita") && !$0.contains("12.00") })
            #expect(text.contains("Pagato carta") && text.contains("-12.00"), "\(text)")
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= width && !$0.hasSuffix(" ") }, "\(text)")
        }
    }
}
