import Foundation
import PizzeriaStorage

/// Money: payments and refunds of orders, their derived state, the shop's details and VAT
/// rates, receipts and the end-of-night cash-up.
///
/// A payment or a refund is one `BEGIN IMMEDIATE` transaction that reads the order's payments
/// and writes inside it, and the schema refuses a refund larger than what is left of its payment
/// (`refund_exceeds_payment`), so two tills refunding one order at once never give back more
/// than was paid.
///
/// ```swift
/// let paid = try pizzeria.payments.pay(PaymentRequest(order: order.id, method: .card), by: "giulia")
/// let state = try pizzeria.payments.payments(of: order.id).state  // .paid
/// ```
public final class PaymentService: Sendable {
    let database: Database
    let now: @Sendable () -> Date
    let acting: Acting

    init(database: Database, now: @escaping @Sendable () -> Date, acting: Acting) {
        (self.database, self.now, self.acting) = (database, now, acting)
    }

    /// The longest reason of a refund or a cancellation, in Unicode scalars.
    public static let maximumReasonLength = 200

    // MARK: - Payments

    /// Records a payment: the whole balance unless an amount is given. A payment with a
    /// reference already recorded for the same order and amount is returned instead
    /// (`created` false), so the app may retry an online payment safely.
    /// - Throws: ``ValidationError`` (amount, method, reference, tendered, by);
    ///   ``OrderError/notFound(_:)``; ``PaymentError`` when the order's state refuses it.
    @discardableResult
    public func pay(_ request: PaymentRequest, by actor: String? = nil) throws -> (payment: Payment, created: Bool) {
        let problems = Self.problems(of: request) + OrderService.actorProblems(actor)
        guard problems.isEmpty else { throw ValidationError(problems) }
        let now = now()
        return try database.write { db in try Self.pay(request, actor: actor, now: now, in: db) }
    }

    /// The transactional half of ``pay(_:by:)``, for a flow that pays as part of a larger write
    /// (an order collected with its payment). The request's fields must already be valid.
    static func pay(_ request: PaymentRequest, actor: String?, now: Date, in db: Connection) throws -> (
        payment: Payment, created: Bool
    ) {
        let summary = try Self.summary(of: request.order, in: db)
        if let reference = request.reference,
            let existing = try PaymentStore.payment(method: request.method, reference: reference, in: db)
        {
            guard existing.orderID == summary.orderID, request.amount.map({ $0 == existing.amount }) ?? true else {
                throw PaymentError.referenceUsed(reference: reference, order: existing.orderID)
            }
            return (existing, false)
        }
        if let reference = request.reference,
            let party = try PartyPaymentStore.payment(method: request.method, reference: reference, in: db)
        {
            throw PaymentError.referenceUsed(reference: reference, order: party.partyID)
        }
        guard summary.status != .cancelled else { throw PaymentError.orderCancelled(summary.orderID) }
        let balance = summary.balance
        guard balance.cents > 0 else { throw PaymentError.nothingDue(order: summary.orderID, state: summary.state) }
        let amount = request.amount ?? balance
        // The whole balance of a very large order may be more than one payment takes.
        guard amount <= PaymentRequest.maximumAmount else {
            throw ValidationError([
                FieldError(
                    field: "amount",
                    message:
                        "the balance \(balance.formatted) is more than one payment takes (\(PaymentRequest.maximumAmount.formatted)): pay it in parts, an amount each"
                )
            ])
        }
        guard amount <= balance else {
            throw PaymentError.overBalance(order: summary.orderID, amount: amount, balance: balance)
        }
        if let tendered = request.tendered, tendered < amount {
            throw ValidationError([
                FieldError(
                    field: "tendered",
                    message: "\(tendered.formatted) handed over is less than the \(amount.formatted) paid")
            ])
        }
        // An erased customer's order keeps no free text of theirs: its reference is not stored.
        let erased = try PaymentStore.isErasedCustomer(order: summary.orderID, in: db)
        let payment = try PaymentStore.insert(
            order: summary.orderID, amount: amount, method: request.method,
            reference: erased ? nil : request.reference, tendered: request.tendered, actor: actor, at: now, in: db)
        return (payment, true)
    }

    /// Gives money back on an order: `amount` (by default what it owes back, see
    /// ``OrderPayments/owesRefund``), taken from its newest payments first.
    /// - Throws: ``ValidationError`` (amount, reason, by); ``OrderError/notFound(_:)``;
    ///   ``PaymentError/nothingToRefund(order:)``, ``PaymentError/refundTooLarge(order:amount:refundable:)``.
    @discardableResult
    public func refund(order: Order.ID, amount: Money? = nil, reason: String, by actor: String? = nil) throws
        -> [Refund]
    {
        let reason = reason.trimmingWhitespace()
        var problems = TextLimit.problems(reason, field: "reason", maximum: Self.maximumReasonLength)
        problems += amount.map { Self.amountProblems($0, field: "amount") } ?? []
        problems += OrderService.actorProblems(actor)
        guard problems.isEmpty else { throw ValidationError(problems) }
        let now = now()
        return try database.write { db in
            let summary = try Self.summary(of: order, in: db)
            guard summary.refundable.cents > 0 else { throw PaymentError.nothingToRefund(order: summary.orderID) }
            guard let wanted = amount ?? (summary.owesRefund.cents > 0 ? summary.owesRefund : nil) else {
                throw ValidationError([
                    FieldError(
                        field: "amount",
                        message:
                            "order \(summary.orderID.short) owes no refund; say how much to give back (up to \(summary.refundable.formatted))"
                    )
                ])
            }
            guard wanted <= summary.refundable else {
                throw PaymentError.refundTooLarge(
                    order: summary.orderID, amount: wanted, refundable: summary.refundable)
            }
            var left = wanted.cents, refunds: [Refund] = []
            // An erasure took what the refunds of this customer said; a new one says nothing either.
            let reason = try PaymentStore.isErasedCustomer(order: summary.orderID, in: db) ? "[erased]" : reason
            for payment in summary.payments.reversed() where left > 0 {
                let open = payment.amount.cents - summary.refunded(of: payment)
                guard open > 0 else { continue }
                let share = min(open, left)
                refunds.append(
                    try PaymentStore.insertRefund(
                        payment: payment, amount: Money(cents: share), reason: reason, actor: actor, at: now, in: db))
                left -= share
            }
            return refunds
        }
    }

    /// The order's payments, refunds and derived state.
    /// - Throws: ``OrderError/notFound(_:)``.
    public func payments(of order: Order.ID) throws -> OrderPayments {
        try database.read { try Self.summary(of: order, in: $0) }
    }

    /// Orders due now that still owe money: placed, preparing or ready, their pickup at most
    /// `minutes` ahead (and at most a day behind: late ones), with what each owes. What the counter
    /// must take as it hands them over (`order list` and the board mark them).
    public func unpaidDue(within minutes: Int = 30) throws -> [Order.ID: Money] {
        let now = now()
        return try database.read { db in
            var owing: [Order.ID: Money] = [:]
            let ids = try PaymentStore.openOrders(
                pickupFrom: PickupTime.utc(now.addingTimeInterval(-86_400)),
                to: PickupTime.utc(now.addingTimeInterval(Double(max(0, minutes)) * 60)), in: db)
            for id in ids {
                let balance = try Self.summary(of: id, in: db).balance
                if balance.cents > 0 { owing[id] = balance }
            }
            return owing
        }
    }

    /// Orders that keep more than they owe (cancelled after being paid), oldest service day first.
    public func owingRefunds(limit: Int = 1_000) throws -> [OrderPayments] {
        try database.read { db in
            try PaymentStore.owingRefunds(limit: min(max(limit, 1), 10_000), in: db).map {
                try Self.summary(of: $0, in: db)
            }
        }
    }

    static func summary(of order: Order.ID, in db: Connection) throws -> OrderPayments {
        guard let header = try OrderStore.header(id: order, in: db) else {
            throw OrderError.notFound(order.description)
        }
        return OrderPayments(
            orderID: header.id, status: header.status, total: Money(cents: header.totalCents),
            payments: try PaymentStore.payments(of: header.id, in: db),
            refunds: try PaymentStore.refunds(of: header.id, in: db))
    }

    static func problems(of request: PaymentRequest) -> [FieldError] {
        var problems = request.amount.map { amountProblems($0, field: "amount") } ?? []
        if !PaymentMethod.recordable.contains(request.method) {
            problems.append(
                FieldError(
                    field: "method",
                    message: "must be one of " + PaymentMethod.recordable.map(\.rawValue).joined(separator: ", ")))
        }
        if let reference = request.reference {
            problems += TextLimit.problems(
                reference, field: "reference", maximum: PaymentRequest.maximumReferenceLength)
        }
        if let tendered = request.tendered {
            if request.method != .cash {
                problems.append(FieldError(field: "tendered", message: "is for cash payments only"))
            }
            problems += amountProblems(tendered, field: "tendered")
        }
        return problems
    }

    static func amountProblems(_ amount: Money, field: String) -> [FieldError] {
        (1...PaymentRequest.maximumAmount.cents).contains(amount.cents)
            ? []
            : [FieldError(field: field, message: "must be from 0.01 to \(PaymentRequest.maximumAmount.plain) EUR")]
    }

    // MARK: - The shop and VAT

    /// The shop's details and default VAT rate.
    public func shop() throws -> ShopDetails { try database.read { try ShopStore.details(in: $0) } }

    /// Changes one of the shop's details (recorded in the audit log).
    /// - Throws: ``ValidationError`` naming the field.
    @discardableResult
    public func update(_ change: ShopChange) throws -> ShopDetails {
        let problems = change.problems()
        guard problems.isEmpty else { throw ValidationError(problems) }
        return try database.audited(acting, at: now()) { db in
            try ShopStore.apply(change, in: db)
            return try ShopStore.details(in: db)
        }
    }

    /// Sets a category's VAT rate (`nil`: the shop's). Lines already booked keep theirs.
    /// - Throws: ``MenuError/categoryNotFound(_:)``.
    @discardableResult
    public func setVATRate(_ rate: VATRate?, of category: Category.ID) throws -> Category {
        try database.audited(acting, at: now()) { db in
            guard try ShopStore.setVATRate(rate, of: category, in: db),
                let updated = try CategoryStore.category(id: category, in: db)
            else { throw MenuError.categoryNotFound(category.description) }
            return updated
        }
    }
}

extension OrderService {
    /// Records a payment of an order: ``PaymentService/pay(_:by:)`` (`pizzeria.payments`), here
    /// beside the order's other changes.
    @discardableResult
    public func pay(_ request: PaymentRequest, by actor: String? = nil) throws -> (payment: Payment, created: Bool) {
        try PaymentService(database: database, now: now, acting: .library).pay(request, by: actor)
    }

    /// Gives money back on an order: ``PaymentService/refund(order:amount:reason:by:)``.
    @discardableResult
    public func refund(order: Order.ID, amount: Money? = nil, reason: String, by actor: String? = nil) throws
        -> [Refund]
    {
        try PaymentService(database: database, now: now, acting: .library).refund(
            order: order, amount: amount, reason: reason, by: actor)
    }
}
