import Foundation
import PizzeriaStorage

// A party's one bill: one payment for every order of a party (one amount, one reference, one
// cash tendered), spread over the members as shares (``PartyPayment/spread(_:over:)``), and a
// refund of the party taken from its members' payments. Each is one `BEGIN IMMEDIATE`: the
// balances are read and the shares written inside it, so two tills paying one party at once
// never pay it twice (the second finds nothing due, or what the first left).
extension PaymentService {
    /// Pays the balance of the party of `request.order` (any member) as one payment — the whole
    /// party balance unless an amount is given — spread over its members' orders in pickup
    /// order. Change is on the party's amount. A reference already recorded for this party (and
    /// amount, when given) returns that payment (`created` false).
    /// - Throws: ``ValidationError`` (amount, method, reference, tendered, by, or an order in no
    ///   party); ``OrderError/notFound(_:)``; ``PaymentError`` (``PaymentError/partyNothingDue(party:)``,
    ///   over the balance, a reference used elsewhere).
    @discardableResult
    public func payParty(_ request: PaymentRequest, by actor: String? = nil) throws -> (
        payment: PartyPayment, created: Bool
    ) {
        let problems = Self.problems(of: request) + OrderService.actorProblems(actor)
        guard problems.isEmpty else { throw ValidationError(problems) }
        let now = now()
        return try database.write { db in
            let (party, members) = try Self.party(of: request.order, in: db)
            if let reference = request.reference {
                if let existing = try PartyPaymentStore.payment(method: request.method, reference: reference, in: db) {
                    guard existing.partyID == party, request.amount.map({ $0 == existing.amount }) ?? true else {
                        throw PaymentError.referenceUsed(reference: reference, order: existing.partyID)
                    }
                    return (existing, false)
                }
                if let single = try PaymentStore.payment(method: request.method, reference: reference, in: db) {
                    throw PaymentError.referenceUsed(reference: reference, order: single.orderID)
                }
            }
            let balances = members.filter { $0.status != .cancelled }.map { (order: $0.orderID, balance: $0.balance) }
            let balance = Money(cents: balances.reduce(0) { $0 + $1.balance.cents })
            guard balance.cents > 0 else { throw PaymentError.partyNothingDue(party: party) }
            let amount = request.amount ?? balance
            guard amount <= PaymentRequest.maximumAmount else {
                throw ValidationError([
                    FieldError(
                        field: "amount",
                        message:
                            "the party's balance \(balance.formatted) is more than one payment takes (\(PaymentRequest.maximumAmount.formatted)): pay it in parts, an amount each"
                    )
                ])
            }
            guard amount <= balance else {
                throw PaymentError.overBalance(order: party, amount: amount, balance: balance)
            }
            if let tendered = request.tendered, tendered < amount {
                throw ValidationError([
                    FieldError(
                        field: "tendered",
                        message: "\(tendered.formatted) handed over is less than the \(amount.formatted) paid")
                ])
            }
            // A party is one customer's: an erased customer's party keeps no reference of theirs.
            let erased = try PaymentStore.isErasedCustomer(order: party, in: db)
            let id = try PartyPaymentStore.insert(
                party: party, amount: amount, method: request.method, reference: erased ? nil : request.reference,
                tendered: request.tendered, actor: actor, at: now, in: db)
            let shares = try PartyPayment.spread(amount, over: balances).map { share in
                try PartyPaymentStore.insertShare(
                    of: id, order: share.order, amount: share.amount, method: request.method, actor: actor, at: now,
                    in: db)
            }
            let payment = PartyPayment(
                id: id, partyID: party, amount: amount, method: request.method,
                reference: erased ? nil : request.reference, tendered: request.tendered, at: now, actor: actor,
                shares: shares)
            return (payment, true)
        }
    }

    /// Gives money back on a party (`order`: any member): `amount` (by default what its members
    /// owe back), taken from the members' payments, the last member's newest first.
    /// - Throws: ``ValidationError`` (amount, reason, by, an order in no party);
    ///   ``OrderError/notFound(_:)``; ``PaymentError/nothingToRefund(order:)``,
    ///   ``PaymentError/refundTooLarge(order:amount:refundable:)``.
    @discardableResult
    public func refundParty(order: Order.ID, amount: Money? = nil, reason: String, by actor: String? = nil) throws
        -> [Refund]
    {
        let reason = reason.trimmingWhitespace()
        var problems = TextLimit.problems(reason, field: "reason", maximum: Self.maximumReasonLength)
        problems += amount.map { Self.amountProblems($0, field: "amount") } ?? []
        problems += OrderService.actorProblems(actor)
        guard problems.isEmpty else { throw ValidationError(problems) }
        let now = now()
        return try database.write { db in
            let (party, members) = try Self.party(of: order, in: db)
            let refundable = Money(cents: members.reduce(0) { $0 + $1.refundable.cents })
            guard refundable.cents > 0 else { throw PaymentError.nothingToRefund(order: party) }
            let owed = Money(cents: members.reduce(0) { $0 + $1.owesRefund.cents })
            guard let wanted = amount ?? (owed.cents > 0 ? owed : nil) else {
                throw ValidationError([
                    FieldError(
                        field: "amount",
                        message:
                            "the party of order \(party.short) owes no refund; say how much to give back (up to \(refundable.formatted))"
                    )
                ])
            }
            guard wanted <= refundable else {
                throw PaymentError.refundTooLarge(order: party, amount: wanted, refundable: refundable)
            }
            let reason = try PaymentStore.isErasedCustomer(order: party, in: db) ? "[erased]" : reason
            var left = wanted.cents, refunds: [Refund] = [], taken: [Int64: Int64] = [:]
            // Up to `cap` from `member`'s payments, newest first, none past what is left of it.
            func take(from member: OrderPayments, upTo cap: Int64) throws {
                var memberLeft = min(left, cap)
                for payment in member.payments.reversed() where memberLeft > 0 {
                    let open = payment.amount.cents - member.refunded(of: payment) - (taken[payment.id] ?? 0)
                    guard open > 0 else { continue }
                    let share = min(open, memberLeft)
                    refunds.append(
                        try PaymentStore.insertRefund(
                            payment: payment, amount: Money(cents: share), reason: reason, actor: actor, at: now,
                            in: db))
                    taken[payment.id, default: 0] += share
                    (memberLeft, left) = (memberLeft - share, left - share)
                }
            }
            // What a member owes back (cancelled after paying) first; then from the last member back.
            for member in members where member.owesRefund.cents > 0 {
                try take(from: member, upTo: member.owesRefund.cents)
            }
            for member in members.reversed() where left > 0 { try take(from: member, upTo: Int64.max) }
            return refunds
        }
    }

    /// The party payments of the party of `order` (any member), oldest first; empty for an order
    /// in no party.
    /// - Throws: ``OrderError/notFound(_:)``.
    public func partyPayments(of order: Order.ID) throws -> [PartyPayment] {
        try database.read { db in
            guard let header = try OrderStore.header(id: order, in: db) else {
                throw OrderError.notFound(order.description)
            }
            guard let party = header.partyID else { return [] }
            return try PartyPaymentStore.payments(ofParty: party, in: db)
        }
    }

    /// What the party of `order` (any member) still owes: its members' balances.
    /// - Throws: ``ValidationError`` for an order in no party; ``OrderError/notFound(_:)``.
    public func partyBalance(of order: Order.ID) throws -> Money {
        try database.read { db in
            Money(cents: try Self.party(of: order, in: db).members.reduce(0) { $0 + $1.balance.cents })
        }
    }

    /// The party of `order` and each member's payments, in pickup order.
    static func party(of order: Order.ID, in db: Connection) throws -> (party: Order.ID, members: [OrderPayments]) {
        guard let header = try OrderStore.header(id: order, in: db) else {
            throw OrderError.notFound(order.description)
        }
        guard let party = header.partyID else {
            throw ValidationError([
                FieldError(
                    field: "party",
                    message: "order \(header.id.short) was booked on its own, in no party; pay it without --party")
            ])
        }
        let members = try OrderStore.partyHeaders(party, in: db).map { try summary(of: $0.id, in: db) }
        return (party, members)
    }
}
