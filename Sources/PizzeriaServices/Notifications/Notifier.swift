import Foundation

/// How a notifier retries and waits.
public struct NotifierPolicy: Sendable, Hashable {
    /// Deliver what is waiting, then return (instead of watching for new events).
    public var once: Bool
    /// The wait after the first failure; it doubles on each failure of the same event.
    public var firstRetry: TimeInterval
    /// The longest wait between two tries.
    public var maximumRetry: TimeInterval
    /// Tries of one event before giving up (``NotifyError/gaveUp(_:token:attempts:lastError:)``);
    /// `nil`: try until it succeeds or the notifier is stopped.
    public var maximumAttempts: Int?
    /// How often to look for new events when there are none.
    public var pollInterval: TimeInterval
    /// How often an idle notifier renews its lease.
    public var heartbeatInterval: TimeInterval

    /// A policy; by default it watches forever, retrying after 1 s, 2 s, 4 s … up to 5 minutes.
    public init(
        once: Bool = false, firstRetry: TimeInterval = 1, maximumRetry: TimeInterval = 300,
        maximumAttempts: Int? = nil, pollInterval: TimeInterval = 0.2, heartbeatInterval: TimeInterval = 30
    ) {
        self.once = once
        self.firstRetry = max(0.001, firstRetry)
        self.maximumRetry = max(self.firstRetry, maximumRetry)
        self.maximumAttempts = maximumAttempts.map { max(1, $0) }
        self.pollInterval = max(0.01, pollInterval)
        self.heartbeatInterval = max(1, heartbeatInterval)
    }

    /// The wait after the `attempt`-th failure of one event.
    public func wait(afterAttempt attempt: Int) -> TimeInterval {
        min(maximumRetry, firstRetry * pow(2, Double(min(max(0, attempt - 1), 30))))
    }
}

/// What a running notifier reports as it goes.
public enum NotifierProgress: Sendable {
    /// The notifier holds its lease and starts after this cursor.
    case started(NotifierState)
    /// The receiver took a notification.
    case delivered(OrderNotification)
    /// The receiver failed on a notification; it is tried again after `retryIn` seconds.
    case failed(OrderNotification, error: String, retryIn: TimeInterval)
}

/// What one run of a notifier did.
public struct NotifierSummary: Sendable, Hashable, Encodable {
    /// Notifications the receiver took.
    public var delivered = 0
    /// Failed tries (each retry counts).
    public var failures = 0
    /// Events passed over as not of the notifier's kinds.
    public var passedOver = 0
    /// Deliveries marked as possible duplicates (the previous run stopped while one ran).
    public var redeliveries = 0

    /// Nothing done yet.
    public init() {}

    private enum CodingKeys: String, CodingKey {
        case delivered, failures, passedOver = "passed_over", redeliveries
    }
}

extension NotificationService {
    /// Runs notifier `name`: claims it (see ``claim(_:kinds:from:holder:by:)``), hands every event
    /// of its kinds after its cursor to `deliver`, one at a time and in order, and keeps the cursor
    /// in the file after each. A `deliver` that throws is retried on the same event with backoff
    /// (``NotifierPolicy``); the events after it wait, none is skipped. Returns when `shouldStop`
    /// says so (checked between events and while waiting), or, with ``NotifierPolicy/once``, when
    /// nothing is waiting; the lease is given back.
    /// - Throws: ``NotifyError`` (held by another process, lost, gave up); ``FeedError``;
    ///   database errors.
    @discardableResult
    public func run(
        _ name: NotifierName, kinds: [NotificationKind]? = nil, from start: NotifierStart? = nil,
        holder: NotifierHolder = .current, by actor: String? = nil, policy: NotifierPolicy = NotifierPolicy(),
        shouldStop: () -> Bool = { false }, progress: (NotifierProgress) -> Void = { _ in },
        deliver: (OrderNotification) throws -> Void
    ) throws -> NotifierSummary {
        let state = try claim(name, kinds: kinds, from: start, holder: holder, by: actor)
        progress(.started(state))
        let summary: NotifierSummary
        do {
            summary = try deliverAll(
                name, kinds: Set(state.kinds), holder: holder, policy: policy, shouldStop: shouldStop,
                progress: progress, deliver: deliver)
        } catch {
            // The run's own error is what the caller needs; a failure to give the lease back as
            // well would only hide it (the lease is taken over once this process is gone).
            try? release(name, holder: holder)
            throw error
        }
        try release(name, holder: holder)
        return summary
    }

    private func deliverAll(
        _ name: NotifierName, kinds: Set<NotificationKind>, holder: NotifierHolder, policy: NotifierPolicy,
        shouldStop: () -> Bool, progress: (NotifierProgress) -> Void, deliver: (OrderNotification) throws -> Void
    ) throws -> NotifierSummary {
        var summary = NotifierSummary()
        var lastBeat = Date()
        while !shouldStop() {
            let (after, batch) = try upcoming(name)
            guard !batch.isEmpty else {
                if policy.once { break }
                if Date().timeIntervalSince(lastBeat) >= policy.heartbeatInterval {
                    try heartbeat(name, holder: holder)
                    lastBeat = Date()
                }
                _ = Self.pause(policy.pollInterval, shouldStop: shouldStop)
                continue
            }
            var cursor = after
            var passed: (to: EventCursor, count: Int)?
            for notification in batch {
                if shouldStop() { break }
                guard kinds.contains(notification.kind), !notification.isPartyTwin else {
                    passed = (notification.event.cursor, (passed?.count ?? 0) + 1)
                    continue
                }
                if let (to, count) = passed {
                    try advance(name, from: cursor, to: to, delivered: false, holder: holder)
                    (cursor, passed) = (to, nil)
                    summary.passedOver += count
                }
                let current = try willDeliver(notification, holder: holder)
                guard
                    try deliverOne(
                        current, holder: holder, policy: policy, summary: &summary, shouldStop: shouldStop,
                        progress: progress, deliver: deliver)
                else { return summary }  // stopped while waiting to retry: the event stays pending
                try advance(name, from: cursor, to: notification.event.cursor, delivered: true, holder: holder)
                cursor = notification.event.cursor
                summary.delivered += 1
                if notification.redelivery { summary.redeliveries += 1 }
                progress(.delivered(notification))
                lastBeat = Date()
            }
            if let (to, count) = passed {
                try advance(name, from: cursor, to: to, delivered: false, holder: holder)
                summary.passedOver += count
            }
        }
        return summary
    }

    /// Tries `notification` until `deliver` takes it (`true`) or the notifier is stopped while
    /// waiting to try again (`false`).
    private func deliverOne(
        _ notification: OrderNotification, holder: NotifierHolder, policy: NotifierPolicy,
        summary: inout NotifierSummary, shouldStop: () -> Bool, progress: (NotifierProgress) -> Void,
        deliver: (OrderNotification) throws -> Void
    ) throws -> Bool {
        var attempt = notification
        while true {
            do {
                try deliver(attempt)
                return true
            } catch {
                let text = String(describing: error)
                summary.failures += 1
                try recordFailure(notification.notifier, error: text, holder: holder)
                if let maximum = policy.maximumAttempts, attempt.attempt >= maximum {
                    throw NotifyError.gaveUp(
                        notification.notifier, token: notification.token, attempts: attempt.attempt, lastError: text)
                }
                let wait = policy.wait(afterAttempt: attempt.attempt)
                progress(.failed(attempt, error: text, retryIn: wait))
                guard Self.pause(wait, shouldStop: shouldStop) else { return false }
                attempt = try reread(attempt.retried())
            }
        }
    }

    /// Waits `seconds` in short steps; `false` when `shouldStop` said so first.
    static func pause(_ seconds: TimeInterval, shouldStop: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if shouldStop() { return false }
            usleep(useconds_t(max(1_000, min(50_000, deadline.timeIntervalSinceNow * 1_000_000))))
        }
        return !shouldStop()
    }
}
