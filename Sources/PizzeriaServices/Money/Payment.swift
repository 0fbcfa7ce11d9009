import Foundation

/// How a payment was made.
public enum PaymentMethod: String, Sendable, Hashable, Codable, CaseIterable {
    /// Notes and coins at the counter (the cash-up counts them in the drawer).
    case cash
    /// A card terminal.
    case card
    /// Paid in the app before pickup, through the payment provider (`--reference psp_…`).
    case online
    /// A voucher or gift card.
    case voucher
    /// A collected order of a file older than payments: taken as paid, how is not known.
    case unknown

    /// The methods staff may record (``unknown`` is only the upgrade's).
    public static let recordable: [PaymentMethod] = [.cash, .card, .online, .voucher]
}

/// Money taken for an order: a record of its own, never changed (a mistake is a ``Refund``).
public struct Payment: Sendable, Hashable, Identifiable, Record {
    /// The payment's row id.
    public internal(set) var id: Int64 = 0
    /// The order it pays.
    public internal(set) var orderID: Order.ID = .blank
    /// What was taken.
    public internal(set) var amount: Money = Money(cents: 0)
    /// How.
    public internal(set) var method: PaymentMethod = .unknown
    /// The provider's or terminal's reference, unique per method.
    public internal(set) var reference: String?
    /// Cash handed over, when more than the amount.
    public internal(set) var tendered: Money?
    /// When.
    public internal(set) var at: Date = Date(timeIntervalSince1970: 0)
    /// Who took it.
    public internal(set) var actor: String?
    /// The party payment it is this order's share of (``PartyPayment``), or `nil`.
    public internal(set) var partyPaymentID: Int64?

    /// A value from its parts (rows are read through its members, see ``Record``).
    public init(
        id: Int64, orderID: Order.ID, amount: Money, method: PaymentMethod, reference: String?, tendered: Money?,
        at: Date, actor: String?, partyPaymentID: Int64? = nil
    ) {
        (self.id, self.orderID, self.amount, self.method, self.reference) = (id, orderID, amount, method, reference)
        (self.tendered, self.at, self.actor, self.partyPaymentID) = (tendered, at, actor, partyPaymentID)
    }

    /// The change handed back: tendered − amount (0 without a tendered amount).
    public var change: Money { Money(cents: max((tendered?.cents ?? amount.cents) - amount.cents, 0)) }

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members: `{"amount": "12.00", "amount_cents", "at", "by", "change_cents", "id",
    /// "method", "order_id", "party_payment_id", "reference", "tendered_cents"}`, declared once (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.derived("amount", plain: amount)
        try visitor.member("amount_cents", cents: &amount)
        try visitor.member("at", timestamp: &at)
        try visitor.member("by", &actor)
        try visitor.derived("change_cents", change.cents)
        try visitor.member("id", &id)
        try visitor.member("method", raw: &method, absent: nil)
        try visitor.member("order_id", &orderID)
        try visitor.member("party_payment_id", &partyPaymentID)
        try visitor.member("reference", &reference)
        try visitor.member("tendered_cents", cents: &tendered)
    }
}

/// Money given back on a payment, with its reason.
public struct Refund: Sendable, Hashable, Identifiable, Record {
    /// The refund's row id.
    public internal(set) var id: Int64 = 0
    /// The payment it gives back from.
    public internal(set) var paymentID: Int64 = 0
    /// The method of that payment (cash back from the drawer, a card refund…).
    public internal(set) var method: PaymentMethod = .unknown
    /// How much.
    public internal(set) var amount: Money = Money(cents: 0)
    /// Why: 1 to 200 characters.
    public internal(set) var reason: String = ""
    /// When.
    public internal(set) var at: Date = Date(timeIntervalSince1970: 0)
    /// Who gave it.
    public internal(set) var actor: String?

    /// The members: `{"amount", "amount_cents", "at", "by", "id", "method", "payment_id",
    /// "reason"}`, declared once (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.derived("amount", plain: amount)
        try visitor.member("amount_cents", cents: &amount)
        try visitor.member("at", timestamp: &at)
        try visitor.member("by", &actor)
        try visitor.member("id", &id)
        try visitor.member("method", raw: &method, absent: nil)
        try visitor.member("payment_id", &paymentID)
        try visitor.member("reason", &reason)
    }
}

/// An order's payment state, derived from its payments and refunds (never stored): the same
/// rule as the schema's view `order_payments`.
public enum PaymentState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Nothing paid.
    case unpaid
    /// Less paid than is due (a deposit).
    case partiallyPaid = "partially_paid"
    /// Paid what is due.
    case paid
    /// Some paid back, the rest kept.
    case partiallyRefunded = "partially_refunded"
    /// All of it paid back.
    case refunded
    /// More kept than is due (a cancelled paid order, until refunded): the shop owes a refund.
    case overpaid

    /// The state of an order that owes `due`, was paid `paid` and refunded `refunded` of it: what
    /// the shop keeps (paid − refunded) against what is due. Less kept than due is `unpaid` (none
    /// kept) or `partiallyPaid`; more is `overpaid`; exactly what is due is `paid`, `refunded` (all
    /// of it paid back, nothing due) or `partiallyRefunded`. Nothing paid at all is `unpaid`.
    public static func of(due: Money, paid: Money, refunded: Money) -> PaymentState {
        let kept = paid.cents - refunded.cents
        if paid.cents == 0 { return .unpaid }
        if kept > due.cents { return .overpaid }
        if kept < due.cents { return kept == 0 ? .unpaid : .partiallyPaid }
        if refunded.cents == 0 { return .paid }
        return kept == 0 ? .refunded : .partiallyRefunded
    }
}

/// What an order owes and has paid: its payments, refunds and state.
public struct OrderPayments: Sendable, Hashable, Encodable {
    /// The order.
    public let orderID: Order.ID
    /// Its status, which decides what is due.
    public let status: OrderStatus
    /// Its total.
    public let total: Money
    /// Its payments, oldest first.
    public let payments: [Payment]
    /// Its refunds, oldest first.
    public let refunds: [Refund]

    /// What it owes: its total, nothing once cancelled.
    public var due: Money { status == .cancelled ? Money(cents: 0) : total }
    /// Σ payments.
    public var paid: Money { Money(cents: payments.reduce(0) { $0 + $1.amount.cents }) }
    /// Σ refunds.
    public var refunded: Money { Money(cents: refunds.reduce(0) { $0 + $1.amount.cents }) }
    /// paid − refunded.
    public var kept: Money { Money(cents: paid.cents - refunded.cents) }
    /// What the customer still owes: due − kept, when positive (money given back on an order
    /// that is due again — a cancellation undone after its refund — is owed again).
    public var balance: Money { Money(cents: max(due.cents - kept.cents, 0)) }
    /// What the shop must pay back: kept − due, when positive.
    public var owesRefund: Money { Money(cents: max(kept.cents - due.cents, 0)) }
    /// What may still be refunded: kept.
    public var refundable: Money { kept }
    /// The derived state.
    public var state: PaymentState { .of(due: due, paid: paid, refunded: refunded) }

    /// The payment's refunds so far.
    func refunded(of payment: Payment) -> Int64 {
        refunds.filter { $0.paymentID == payment.id }.reduce(0) { $0 + $1.amount.cents }
    }

    private enum CodingKeys: String, CodingKey {
        case orderID = "order_id", status, state, totalCents = "total_cents", dueCents = "due_cents"
        case paidCents = "paid_cents", refundedCents = "refunded_cents", balanceCents = "balance_cents"
        case owesRefundCents = "owes_refund_cents", payments, refunds
    }

    /// JSON: `{"order_id", "status", "state", "total_cents", "due_cents", "paid_cents",
    /// "refunded_cents", "balance_cents", "owes_refund_cents", "payments", "refunds"}`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(orderID, forKey: .orderID)
        try container.encode(status, forKey: .status)
        try container.encode(state, forKey: .state)
        try container.encode(total.cents, forKey: .totalCents)
        try container.encode(due.cents, forKey: .dueCents)
        try container.encode(paid.cents, forKey: .paidCents)
        try container.encode(refunded.cents, forKey: .refundedCents)
        try container.encode(balance.cents, forKey: .balanceCents)
        try container.encode(owesRefund.cents, forKey: .owesRefundCents)
        try container.encode(payments, forKey: .payments)
        try container.encode(refunds, forKey: .refunds)
    }
}

/// A payment to record: ``PaymentService/pay(_:)``.
public struct PaymentRequest: Sendable, Hashable {
    /// The order.
    public var order: Order.ID
    /// How much; `nil` for the whole balance.
    public var amount: Money?
    /// How (not ``PaymentMethod/unknown``).
    public var method: PaymentMethod
    /// The provider's or terminal's reference: recording one again is harmless (the first
    /// payment is returned).
    public var reference: String?
    /// Cash handed over (cash only; at least the amount).
    public var tendered: Money?

    /// A payment request.
    public init(
        order: Order.ID, amount: Money? = nil, method: PaymentMethod, reference: String? = nil, tendered: Money? = nil
    ) {
        (self.order, self.amount, self.method, self.reference, self.tendered) = (
            order, amount, method, reference, tendered
        )
    }

    /// The longest reference, in Unicode scalars.
    public static let maximumReferenceLength = 200
    /// The largest amount of one payment or refund: 100,000.00 EUR.
    public static let maximumAmount = Money(cents: 10_000_000)
}

extension Payment: StoredMembers {
    static let table = "payments"
}

extension Refund: StoredMembers {
    static let table = "refunds"

    /// A value for a reader to fill (see ``Record``; declared here so the memberwise init stays).
    public init(blank: RecordBlank) {}
}
