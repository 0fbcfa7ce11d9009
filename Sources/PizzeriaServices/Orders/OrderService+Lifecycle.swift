import Foundation
import PizzeriaStorage

/// The lifecycle: advance, collect, cancel, no-show; and the feed of changes.
extension OrderService {
    /// Moves the order to its next status: placed → preparing → ready → collected.
    /// - Throws: ``OrderError/notFound(_:)``; ``OrderError/illegalTransition(orderID:from:action:)``
    ///   naming the current status.
    /// Ready → collected hands the order over: as with ``collect(id:by:settling:)``, an order that
    /// still owes money needs `settling` (paid now, or left unpaid with a reason).
    /// - Throws: ``OrderError/unpaidAtCollection(orderID:balance:)`` for an order handed over owing money.
    @discardableResult
    public func advance(id: Order.ID, by actor: String? = nil, settling: Settlement? = nil) throws -> Order {
        try Self.settlementProblems(settling, actor: actor)
        let now = now()
        return try database.write { db in
            guard let header = try OrderStore.header(id: id, in: db) else { throw OrderError.notFound(id.description) }
            guard let next = header.status.next else {
                throw OrderError.illegalTransition(orderID: header.id, from: header.status, action: .advance)
            }
            // A settlement goes with handing over: asked for on any other step, it is refused, not ignored.
            if settling != nil, next != .collected {
                throw ValidationError([
                    FieldError(
                        field: "settling",
                        message: "order \(header.id.short) goes to \(next.rawValue), not collected: "
                            + "its balance is settled as it is handed over")
                ])
            }
            let note = next == .collected ? try Self.settle(header.id, settling, actor: actor, now: now, in: db) : nil
            guard header.status.canChange(to: next),
                try OrderStore.setStatus(
                    id: header.id, from: header.status, to: next, actor: actor, note: note, at: now, in: db),
                let updated = try OrderStore.header(id: header.id, in: db)
            else {
                throw OrderError.illegalTransition(orderID: header.id, from: header.status, action: .advance)
            }
            return try OrderAssembler(now: now, in: db).order(updated)
        }
    }

    /// How an order's balance is settled as it is handed over.
    public enum Settlement: Sendable, Hashable {
        /// Paid now, in the same transaction: the request's order must be the one collected
        /// (its amount, by default, the whole balance).
        case pay(PaymentRequest)
        /// Left unpaid on purpose: why, 1 to 200 characters, recorded in the order's history
        /// (`unpaid: REASON`).
        case unpaid(reason: String)
    }

    /// What is wrong with a settlement's fields and the actor, every field named.
    static func settlementProblems(_ settling: Settlement?, actor: String?) throws {
        var problems = actorProblems(actor)
        switch settling {
        case .pay(let request): problems += PaymentService.problems(of: request)
        case .unpaid(let reason):
            problems += TextLimit.problems(
                reason.trimmingWhitespace(), field: "unpaid", maximum: PaymentService.maximumReasonLength)
        case nil: break
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
    }

    /// The one rule of handing over: an order that owes money is paid in the same transaction or
    /// left unpaid with a reason, never collected without a word. Returns the history's note.
    static func settle(_ id: Order.ID, _ settling: Settlement?, actor: String?, now: Date, in db: Connection) throws
        -> String?
    {
        switch settling {
        case .pay(let request):
            guard request.order == id else {
                throw ValidationError([
                    FieldError(
                        field: "order", message: "the payment is for order \(request.order.short), not \(id.short)")
                ])
            }
            _ = try PaymentService.pay(request, actor: actor, now: now, in: db)
            let balance = try PaymentService.summary(of: id, in: db).balance
            guard balance.cents <= 0 else { throw OrderError.unpaidAtCollection(orderID: id, balance: balance) }
            return nil
        case .unpaid(let reason):
            // An erased customer's order keeps no free text: the reason is not stored.
            let live = try OrderStore.header(id: id, in: db).map { try UserStore.isLiveUser($0.userID, in: db) } ?? true
            return "unpaid: " + (live ? reason.trimmingWhitespace() : "[erased]")
        case nil:
            let balance = try PaymentService.summary(of: id, in: db).balance
            guard balance.cents <= 0 else { throw OrderError.unpaidAtCollection(orderID: id, balance: balance) }
            return nil
        }
    }

    /// Takes an order from any earlier status (placed, preparing or ready) to collected in one
    /// transaction; its history keeps each step (`placed → preparing`, `→ ready`, `→ collected`).
    /// - Throws: ``OrderError/notFound(_:)``; ``OrderError/illegalTransition(orderID:from:action:)``
    ///   for a collected, cancelled or no-show order.
    ///   ``OrderError/unpaidAtCollection(orderID:balance:)`` for an order that owes money and is
    ///   neither paid in the same call nor left unpaid with a reason (`settling`).
    @discardableResult
    public func collect(id: Order.ID, by actor: String? = nil, settling: Settlement? = nil) throws -> Order {
        try Self.settlementProblems(settling, actor: actor)
        let now = now()
        return try database.write { db in
            guard var header = try OrderStore.header(id: id, in: db) else { throw OrderError.notFound(id.description) }
            let start = header.status
            guard [.placed, .preparing, .ready].contains(start) else {
                throw OrderError.illegalTransition(orderID: header.id, from: start, action: .collect)
            }
            let note = try Self.settle(header.id, settling, actor: actor, now: now, in: db)
            while header.status != .collected {
                guard let next = header.status.next,
                    try OrderStore.setStatus(
                        id: header.id, from: header.status, to: next, actor: actor,
                        note: next == .collected ? note : nil, at: now, in: db),
                    let updated = try OrderStore.header(id: header.id, in: db)
                else {
                    throw OrderError.illegalTransition(orderID: header.id, from: start, action: .collect)
                }
                header = updated
            }
            return try OrderAssembler(now: now, in: db).order(header)
        }
    }

    /// Cancels a placed or preparing order, which frees its pizzas' capacity. The reason goes
    /// into the order's history (`reason: …`); a paid order needs one, and then owes a refund
    /// (``PaymentService/owingRefunds(limit:)``).
    /// - Throws: ``ValidationError`` for a reason of the wrong size; ``OrderError/notFound(_:)``;
    ///   ``OrderError/illegalTransition(orderID:from:action:)``; ``PaymentError/reasonRequired(order:kept:)``.
    @discardableResult
    public func cancel(id: Order.ID, by actor: String? = nil, reason: String? = nil) throws -> Order {
        let reason = reason?.trimmingWhitespace()
        let problems =
            reason.map { TextLimit.problems($0, field: "reason", maximum: PaymentService.maximumReasonLength) } ?? []
        guard problems.isEmpty else { throw ValidationError(problems) }
        return try change(id, action: .cancel, actor: actor, note: reason.map { "reason: " + $0 }) { header, db in
            guard reason == nil else { return }
            let kept = try PaymentService.summary(of: header.id, in: db).kept
            if kept.cents > 0 { throw PaymentError.reasonRequired(order: header.id, kept: kept) }
        } target: {
            $0.isCancellable ? .cancelled : nil
        }
    }

    /// Closes a ready order whose customer never came: counted apart from revenue.
    /// - Throws: ``OrderError/notFound(_:)``; ``OrderError/illegalTransition(orderID:from:action:)``.
    @discardableResult
    public func markNoShow(id: Order.ID, by actor: String? = nil) throws -> Order {
        try change(id, action: .noShow, actor: actor) { $0 == .ready ? .noShow : nil }
    }

    private func change(
        _ id: Order.ID, action: OrderAction, actor: String?, note: String? = nil,
        check: (OrderStore.Header, Connection) throws -> Void = { _, _ in },
        target: (OrderStatus) -> OrderStatus?
    ) throws -> Order {
        let problems = Self.actorProblems(actor)
        guard problems.isEmpty else { throw ValidationError(problems) }
        let now = now()
        return try database.write { db in
            guard let header = try OrderStore.header(id: id, in: db) else { throw OrderError.notFound(id.description) }
            if target(header.status) != nil { try check(header, db) }
            // An erased customer's order keeps no free text: a reason given now is not stored.
            var note = note
            if let text = note, let colon = text.range(of: ": "), !(try UserStore.isLiveUser(header.userID, in: db)) {
                note = text[..<colon.upperBound] + "[erased]"
            }
            guard let next = target(header.status), header.status.canChange(to: next),
                try OrderStore.setStatus(
                    id: header.id, from: header.status, to: next, actor: actor, note: note, at: now, in: db),
                let updated = try OrderStore.header(id: header.id, in: db)
            else {
                throw OrderError.illegalTransition(orderID: header.id, from: header.status, action: action)
            }
            return try OrderAssembler(now: now, in: db).order(updated)
        }
    }

    // MARK: - The feed of changes

    /// The order events after `cursor`, oldest first: each booking, status change and
    /// cancellation, with the order as it is now and its pickup and total as they were then. The cursor of the last event resumes the feed.
    /// - Throws: ``FeedError/foreignCursor(_:newest:)`` when this file's history does not have
    ///   the cursor's event (a file restored from an earlier backup, or another file).
    public func events(after cursor: EventCursor, limit: Int = 100) throws -> [OrderEvent] {
        try database.read { db in
            let rows = try OrderStore.events(after: cursor, limit: min(max(1, limit), 1_000), in: db)
            guard !rows.isEmpty else { return [] }
            let assembler = try OrderAssembler(now: now(), in: db)
            let snapshots = try OrderStore.snapshots(ofEvents: rows.map(\.key), in: db)
            var orders: [Order.ID: Order] = [:]
            return try rows.map { row in
                let order: Order
                if let known = orders[row.orderID] {
                    order = known
                } else {
                    guard let header = try OrderStore.header(id: row.orderID, in: db) else {
                        throw DataError.damagedRow(
                            table: "order_status_events", id: String(row.key), problem: "its order is missing")
                    }
                    order = try assembler.order(header)
                    orders[row.orderID] = order
                }
                return OrderEvent(
                    cursor: OrderStore.cursor(of: row), change: row.value, order: order, then: snapshots[row.key])
            }
        }
    }

    /// The event at `cursor`, read again now (its order as it is now: after an erasure, the
    /// erased one); `nil` when this file's history has no such event.
    public func event(at cursor: EventCursor) throws -> OrderEvent? {
        try database.read { db in try Self.event(at: cursor, now: now(), in: db) }
    }

    /// ``event(at:)`` in the caller's transaction.
    static func event(at cursor: EventCursor, now: Date, in db: Connection) throws -> OrderEvent? {
        guard let row = try OrderStore.event(at: cursor, in: db),
            let header = try OrderStore.header(id: row.orderID, in: db)
        else { return nil }
        let order = try OrderAssembler(now: now, in: db).order(header)
        return OrderEvent(
            cursor: OrderStore.cursor(of: row), change: row.value, order: order,
            then: try OrderStore.snapshots(ofEvents: [row.key], in: db)[row.key])
    }

    /// The cursor of the newest event: a feed started from it sees only what happens next.
    public func latestEventCursor() throws -> EventCursor {
        try database.read { try OrderStore.latestEvent(in: $0) }
    }
}
