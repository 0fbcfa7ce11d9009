import Foundation
import PizzeriaStorage
import PizzeriaTestSupport
import Testing

@testable import PizzeriaServices

@Suite("A party's one bill: one payment spread over its orders, one refund taken back from them")
struct PartyPaymentTests {
    /// A party of three orders: 8 + 5 + 4 Margherita (€6.00 each) at 20:00, 20:15 and 20:30.
    func party(_ f: OrderFixture) throws -> [Order] {
        try f.place("anna", "20:15", ("Margherita", 3))
        let request = OrderRequest(
            user: try f.user("marco"), items: [.init(pizza: try f.pizza("Margherita"), quantity: 17)],
            pickup: try f.at("20:00"))
        return try f.pizzeria.orders.placeParty(request, by: "giulia").party.orders
    }

    @Test("the spread: each member's balance whole, in pickup order, until the amount is spent")
    func spread() throws {
        let ids = (0..<3).map { _ in Order.ID.timeOrdered(at: Date()) }
        let balances = zip(ids, [4800, 0, 2400]).map { (order: $0, balance: Money(cents: Int64($1))) }
        let shares = PartyPayment.spread(Money(cents: 5000), over: balances)
        #expect(shares.map(\.order) == [ids[0], ids[2]] && shares.map(\.amount.cents) == [4800, 200])
        #expect(PartyPayment.spread(Money(cents: 7200), over: balances).map(\.amount.cents) == [4800, 2400])
    }

    @Test("pay --party: one payment, one reference, change on the whole; a retry returns it; refunds from the last")
    func payAndRefund() throws {
        let f = try OrderFixture(capacity: 8)
        let members = try party(f)
        let payments = f.pizzeria.payments
        #expect(members.map(\.total.cents) == [4800, 3000, 2400])
        _ = try payments.pay(PaymentRequest(order: members[1].id, amount: Money(cents: 1000), method: .cash))
        let (paid, created) = try payments.payParty(
            PaymentRequest(order: members[2].id, method: .card, reference: "T-0042"), by: "giulia")
        #expect(created && paid.amount.cents == 9200 && paid.partyID == members[0].id)
        #expect(paid.shares.map(\.amount.cents) == [4800, 2000, 2400])
        #expect(paid.shares.allSatisfy { $0.reference == nil && $0.partyPaymentID == paid.id })
        #expect(try members.allSatisfy { try payments.payments(of: $0.id).state == .paid })
        // The terminal's retry: the same payment, nothing new.
        let again = try payments.payParty(PaymentRequest(order: members[0].id, method: .card, reference: "T-0042"))
        #expect(!again.created && again.payment == paid)
        // The reference is the party's: another order cannot take it, nor can a second party payment.
        let other = try f.place("anna", "21:00", ("Margherita", 1)).order
        #expect(throws: PaymentError.referenceUsed(reference: "T-0042", order: members[0].id)) {
            try payments.pay(PaymentRequest(order: other.id, method: .card, reference: "T-0042"))
        }
        #expect(throws: PaymentError.partyNothingDue(party: members[0].id)) {
            try payments.payParty(PaymentRequest(order: members[1].id, method: .cash))
        }
        #expect(throws: ValidationError.self) { try payments.payParty(PaymentRequest(order: other.id, method: .cash)) }
        // Refunded on the party: from the last member's newest payment back.
        let refunds = try payments.refundParty(
            order: members[0].id, amount: Money(cents: 3000), reason: "late 20 minutes", by: "giulia")
        #expect(refunds.map(\.amount.cents) == [2400, 600], "\(refunds)")
        #expect(try payments.payments(of: members[2].id).kept.cents == 0)
        #expect(try payments.payments(of: members[1].id).kept.cents == 2400)
        // A cancelled member's refund is owed first, and is the default amount.
        _ = try f.pizzeria.orders.cancel(id: members[0].id, by: "giulia", reason: "one table left")
        let owed = try payments.refundParty(order: members[1].id, reason: "cancelled", by: "giulia")
        #expect(owed.map(\.amount.cents) == [4800] && owed.allSatisfy { $0.paymentID == paid.shares[0].id })
        let close = try payments.dailyClose(day: LocalDate("2026-12-01"))
        #expect(close.byMethod.first { $0.method == .card }?.paid.cents == 9200, "\(close.byMethod)")
        let problems = try Maintenance.check(path: f.base.path, now: f.now).domainProblems
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("cash for the party: tendered on the whole, the receipt lists the payment once with its change")
    func cashReceipt() throws {
        let f = try OrderFixture(capacity: 8)
        let members = try party(f)
        let (paid, _) = try f.pizzeria.payments.payParty(
            PaymentRequest(order: members[0].id, method: .cash, tendered: Money(cents: 15_000)), by: "giulia")
        #expect(paid.amount.cents == 10_200 && paid.change.cents == 4_800)
        let receipt = try f.pizzeria.payments.receipt(of: members[1].id)
        let text = receipt.text(width: 32)
        #expect(text.components(separatedBy: "Pagato contanti (gruppo)").count == 2, "\(text)")
        #expect(!text.contains("Pagato contanti  ") && receipt.change.cents == paid.change.cents, "\(text)")
    }

    @Test("two tills paying one party at once (two connections) never pay it twice")
    func concurrentPartyPayments() async throws {
        let f = try OrderFixture(capacity: 8)
        let members = try party(f)
        let now = f.now
        let tills = try (0..<2).map { _ in try Pizzeria.open(path: f.base.path, now: { now }) }
        let results = await withTaskGroup(of: Bool.self) { group in
            for till in tills {
                group.addTask {
                    (try? await till.write {
                        try $0.payments.payParty(PaymentRequest(order: members[1].id, method: .card))
                    })
                        != nil
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 1, "\(results)")
        let kept = try members.reduce(Int64(0)) { $0 + (try f.pizzeria.payments.payments(of: $1.id).kept.cents) }
        #expect(kept == 10_200)
    }
}
