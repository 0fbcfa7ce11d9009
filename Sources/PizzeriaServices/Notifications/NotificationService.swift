import Foundation
import PizzeriaStorage

/// Notifiers: named cursors over the order feed, kept in the file, that hand each event to
/// something that tells the customer (an SMS gateway, a mailer) at least once and in order.
///
/// A notifier is one process at a time (a lease in `notify_cursors`, taken over once its process
/// is gone). For each event after its cursor it writes the event as *pending*, delivers it, and
/// only then moves the cursor, so a notifier killed at any instant resumes at the event in flight
/// and hands it over again marked ``OrderNotification/redelivery``; the event's
/// ``OrderNotification/token`` lets the receiver drop a copy it already has. Events of kinds the
/// notifier does not deliver are passed over (the cursor moves past them in one write).
///
/// ```swift
/// let summary = try pizzeria.notifications.run(NotifierName("sms")!, policy: .init(once: true)) { note in
///     try gateway.send(to: note.event.order.customer.phone, text: render(note))  // throw to retry
/// }
/// ```
public final class NotificationService: Sendable {
    let database: Database
    let now: @Sendable () -> Date
    let orders: OrderService
    /// Who acts: a notifier set up, reset or removed is in the audit log under this name.
    let acting: Acting

    init(database: Database, now: @escaping @Sendable () -> Date, orders: OrderService, acting: Acting = .library) {
        (self.database, self.now, self.orders, self.acting) = (database, now, orders, acting)
    }

    /// A lease whose heartbeat is older than this is taken over even from another machine.
    public static let staleAfter: TimeInterval = 120

    // MARK: - Reading

    /// Every notifier, by name.
    public func notifiers() throws -> [NotifierState] {
        try database.read { db in try NotifierStore.all(in: db).map { try Self.state($0, in: db) } }
    }

    /// One notifier, or `nil`.
    public func notifier(_ name: NotifierName) throws -> NotifierState? {
        try database.read { db in try NotifierStore.notifier(name, in: db).map { try Self.state($0, in: db) } }
    }

    static func state(_ stored: NotifierStore.Stored, in db: Connection) throws -> NotifierState {
        NotifierState(
            name: stored.name, after: stored.after, pending: stored.pending, kinds: stored.kinds,
            delivered: stored.delivered, waiting: try NotifierStore.waiting(after: stored.after.position, in: db),
            failures: stored.failures, lastError: stored.lastError, lastErrorAt: stored.lastErrorAt,
            holder: stored.holder, heartbeatAt: stored.heartbeatAt, createdBy: stored.createdBy,
            createdAt: stored.createdAt, updatedAt: stored.updatedAt)
    }

    // MARK: - The lease

    /// Sets up the notifier if it is new (starting `from`, by default ``NotifierStart/now``) and
    /// takes its lease for `holder`; `kinds` replaces what it delivers, `from` on an existing
    /// notifier moves its cursor (what `--from` asks for explicitly).
    /// - Throws: ``NotifyError/held(_:by:)`` while another live process holds it;
    ///   ``FeedError/foreignCursor(_:newest:)`` for a cursor this file's history does not have.
    @discardableResult
    public func claim(
        _ name: NotifierName, kinds: [NotificationKind]? = nil, from start: NotifierStart? = nil,
        holder: NotifierHolder = .current, by actor: String? = nil
    ) throws -> NotifierState {
        let problems = OrderService.actorProblems(actor)
        guard problems.isEmpty else { throw ValidationError(problems) }
        if let kinds, kinds.isEmpty {
            throw ValidationError([FieldError(field: "kinds", message: "must name at least one kind")])
        }
        let now = now()
        // Audited: setting a notifier up, or changing its kinds or cursor, says who did it.
        return try database.audited(acting.named(actor), at: now) { db in
            let cursor = try start.map { try Self.cursor(for: $0, in: db) }
            if let stored = try NotifierStore.notifier(name, in: db) {
                if let other = stored.holder, other != holder, other.mayBeAlive,
                    now.timeIntervalSince(stored.heartbeatAt ?? .distantPast) < Self.staleAfter
                {
                    throw NotifyError.held(name, by: other)
                }
                try NotifierStore.claim(name, holder: holder, kinds: kinds, after: cursor, at: now, in: db)
            } else {
                try NotifierStore.insert(
                    name, after: cursor ?? (try OrderStore.latestEvent(in: db)),
                    kinds: kinds ?? NotificationKind.customerFacing, holder: holder, by: actor, at: now, in: db)
            }
            guard let stored = try NotifierStore.notifier(name, in: db) else { throw NotifyError.notFound(name) }
            return try Self.state(stored, in: db)
        }
    }

    /// Gives the lease back (a clean stop); nothing when `holder` no longer has it.
    public func release(_ name: NotifierName, holder: NotifierHolder = .current) throws {
        try database.write { db in try NotifierStore.release(name, holder: holder, in: db) }
    }

    /// Moves a stopped notifier's cursor: `start` delivers the whole history again, `now` skips
    /// to the newest event (what was not delivered is then never delivered: the caller asked).
    /// - Throws: ``NotifyError/notFound(_:)``, ``NotifyError/held(_:by:)``, ``FeedError``.
    public func reset(_ name: NotifierName, to start: NotifierStart) throws -> NotifierState {
        let now = now()
        return try database.audited(acting, at: now) { db in
            guard let stored = try NotifierStore.notifier(name, in: db) else { throw NotifyError.notFound(name) }
            if let holder = stored.holder, holder.mayBeAlive { throw NotifyError.held(name, by: holder) }
            _ = try NotifierStore.reset(name, after: try Self.cursor(for: start, in: db), at: now, in: db)
            guard let changed = try NotifierStore.notifier(name, in: db) else { throw NotifyError.notFound(name) }
            return try Self.state(changed, in: db)
        }
    }

    /// Removes a stopped notifier.
    /// - Throws: ``NotifyError/notFound(_:)``, ``NotifyError/held(_:by:)``.
    public func remove(_ name: NotifierName) throws {
        try database.audited(acting, at: now()) { db in
            guard let stored = try NotifierStore.notifier(name, in: db) else { throw NotifyError.notFound(name) }
            if let holder = stored.holder, holder.mayBeAlive { throw NotifyError.held(name, by: holder) }
            _ = try NotifierStore.delete(name, in: db)
        }
    }

    static func cursor(for start: NotifierStart, in db: Connection) throws -> EventCursor {
        switch start {
        case .now: return try OrderStore.latestEvent(in: db)
        case .start: return .start
        case .after(let cursor):
            // Checks that this file's history has the cursor's event (else FeedError).
            _ = try OrderStore.events(after: cursor, limit: 1, in: db)
            return cursor
        }
    }

    // MARK: - Delivering, step by step

    /// The next events after the notifier's cursor (up to `limit`), each with its kind; the first
    /// is a ``OrderNotification/redelivery`` when it was in flight when the notifier stopped.
    /// - Throws: ``NotifyError/notFound(_:)``; ``FeedError/foreignCursor(_:newest:)`` when the
    ///   file was restored from an earlier backup (``reset(_:to:)`` says where to go on).
    public func upcoming(_ name: NotifierName, limit: Int = 100) throws -> (after: EventCursor, [OrderNotification]) {
        guard let stored = try database.read({ try NotifierStore.notifier(name, in: $0) }) else {
            throw NotifyError.notFound(name)
        }
        let events = try orders.events(after: stored.after, limit: limit)
        let notifications = try database.read { db in
            try events.map { event in
                var notification = OrderNotification(
                    notifier: name, kind: NotificationKind(event), event: event,
                    redelivery: stored.pending == event.cursor, attempt: 1)
                try Self.markParty(&notification, in: db)
                return notification
            }
        }
        return (stored.after, notifications)
    }

    /// One message per party event: an event every order of a party has at one instant (booked
    /// together, paid as one) goes out once, on the party's first order, with the party's totals
    /// as they were; the other members' copies are passed over.
    static func markParty(_ notification: inout OrderNotification, in db: Connection) throws {
        let event = notification.event
        guard let party = event.order.partyID else { return }
        let twins = try OrderStore.partyEvents(party: party, kind: event.changeKind, at: event.at, in: db)
        guard twins.count > 1, twins.contains(where: { $0.orderID == party }) else { return }
        if event.order.id == party {
            notification.party = OrderNotification.PartyTotals(
                partyID: party, orders: twins.count, total: Money(cents: twins.reduce(0) { $0 + ($1.total ?? 0) }))
        } else {
            notification.isPartyTwin = true
        }
    }

    /// Records that `notification` is being handed over now (before the command runs), and
    /// returns it with its event read again in the same transaction: what is handed over is the
    /// order as it is at the moment of delivery, never as a batch read earlier had it (a customer
    /// erased since is erased in it).
    /// - Throws: ``NotifyError/lostLease(_:)``.
    @discardableResult
    public func willDeliver(_ notification: OrderNotification, holder: NotifierHolder = .current) throws
        -> OrderNotification
    {
        let now = now()
        return try database.write { db in
            guard
                try NotifierStore.markPending(
                    notification.notifier, notification.event.cursor, holder: holder, at: now, in: db)
            else { throw NotifyError.lostLease(notification.notifier) }
            return try OrderService.event(at: notification.event.cursor, now: now, in: db).map(notification.with)
                ?? notification
        }
    }

    /// `notification` with its event read again now (before a retry: the wait may have been long).
    func reread(_ notification: OrderNotification) throws -> OrderNotification {
        try orders.event(at: notification.event.cursor).map(notification.with) ?? notification
    }

    /// Moves the cursor from `previous` past `cursor`: after a delivery (`delivered`), or past
    /// events of kinds the notifier does not deliver.
    /// - Throws: ``NotifyError/lostLease(_:)`` when another process moved it or holds it.
    public func advance(
        _ name: NotifierName, from previous: EventCursor, to cursor: EventCursor, delivered: Bool,
        holder: NotifierHolder = .current
    ) throws {
        let now = now()
        try database.write { db in
            guard
                try NotifierStore.advance(
                    name, from: previous, to: cursor, delivered: delivered, holder: holder, at: now, in: db)
            else { throw NotifyError.lostLease(name) }
        }
    }

    /// Records a failed delivery (how it failed: `exit 3`; never the command's output).
    public func recordFailure(_ name: NotifierName, error: String, holder: NotifierHolder = .current) throws {
        let now = now()
        try database.write { db in
            guard try NotifierStore.recordFailure(name, error: error, holder: holder, at: now, in: db) else {
                throw NotifyError.lostLease(name)
            }
        }
    }

    /// Says the holder is alive (while idle); ``NotifyError/lostLease(_:)`` if it is not the holder.
    public func heartbeat(_ name: NotifierName, holder: NotifierHolder = .current) throws {
        let now = now()
        try database.write { db in
            guard try NotifierStore.heartbeat(name, holder: holder, at: now, in: db) else {
                throw NotifyError.lostLease(name)
            }
        }
    }
}
