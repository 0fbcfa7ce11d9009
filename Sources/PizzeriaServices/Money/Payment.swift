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
public struct Payment: Sendable, Hashable, Identifiable, Encodable {
    /// The payment's row id.
    public let id: Int64
    /// The order it pays.
    public let orderID: Order.ID
    /// What was taken.
    public let amount: Money
    /// How.
    public let method: PaymentMethod
    /// The provider's or terminal's reference, unique per method.
    public let reference: String?
    /// Cash handed over, when more than the amount.
    public let tendered: Money?
    /// When.
    public let at: Date
    /// Who took it.
    public let actor: String?
    /// The party payment it is this order's share of (``PartyPayment``), or `nil`.
    public let partyPaymentID: Int64?

    /// A value; stores use it when reading rows.
    public init(
        id: Int64, orderID: Order.ID, amount: Money, method: PaymentMethod, reference: String?, tendered: Money?,
        at: Date, actor: String?, partyPaymentID: Int64? = nil
    ) {
        (self.id, self.orderID, self.amount, self.method, self.reference) = (id, orderID, amount, method, reference)
        (self.tendered, self.at, self.actor, self.partyPaymentID) = (tendered, at, actor, partyPaymentID)
    }

    /// The change handed back: tendered − amount (0 without a tendered amount).
    public var change: Money { Money(cents: max((tendered?.cents ?? amount.cents) - amount.cents, 0)) }

    private enum CodingKeys: String, CodingKey {
        case id, orderID = "order_id", amount, amountCents = "amount_cents", method, reference
        case tenderedCents = "tendered_cents", changeCents = "change_cents", at, actor = "by"
        case partyPaymentID = "party_payment_id"
    }

    /// JSON: `{"id", "order_id", "amount": "12.00", "amount_cents", "method", "reference",
    /// "tendered_cents", "change_cents", "at", "by", "party_payment_id"}`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(orderID, forKey: .orderID)
        try container.encode(amount.plain, forKey: .amount)
        try container.encode(amount.cents, forKey: .amountCents)
        try container.encode(method, forKey: .method)
        try container.encode(reference, forKey: .reference)
        try container.encode(tendered?.cents, forKey: .tenderedCents)
        try container.encode(change.cents, forKey: .changeCents)
        try container.encode(Timestamp.string(from: at), forKey: .at)
        try container.encode(actor, forKey: .actor)
        try container.encode(partyPaymentID, forKey: .partyPaymentID)
    }
}

/// Money given back on a payment, with its reason.
public struct Refund: Sendable, Hashable, Identifiable, Encodable {
    /// The refund's row id.
    public let id: Int64
    /// The payment it gives back from.
    public let paymentID: Int64
    /// The method of that payment (cash back from the drawer, a card refund…).
    public let method: PaymentMethod
    /// How much.
    public let amount: Money
    /// Why: 1 to 200 characters.
    public let reason: String
    /// When.
    public let at: Date
    /// Who gave it.
    public let actor: String?

    private enum CodingKeys: String, CodingKey {
        case id, paymentID = "payment_id", method, amount, amountCents = "amount_cents", reason, at, actor = "by"
    }

    /// JSON: `{"id", "payment_id", "method", "amount", "amount_cents", "reason", "at", "by"}`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(paymentID, forKey: .paymentID)
        try container.encode(method, forKey: .method)
        try container.encode(amount.plain, forKey: .amount)
        try container.encode(amount.cents, forKey: .amountCents)
        try container.encode(reason, forKey: .reason)
        try container.encode(Timestamp.string(from: at), forKey: .at)
        try container.encode(actor, forKey: .actor)
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
