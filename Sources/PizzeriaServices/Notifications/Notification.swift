import Foundation

/// What an order event means to the customer: the word a notifier's templates are chosen by.
///
/// Derived from the event alone (``init(_:)``), the same for every notifier: a move marked
/// `delayed +N` by ``OrderService/delay(_:byMinutes:bestEffort:by:override:)`` is `delayed`,
/// another move `moved`; a status change is named by the status it reached.
public enum NotificationKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The order was booked.
    case placed
    /// Its pickup moved (at the customer's or the staff's request).
    case moved
    /// The kitchen pushed its pickup later (`order delay`).
    case delayed
    /// The kitchen started it.
    case preparing
    /// It is ready to collect.
    case ready
    /// It was collected.
    case collected
    /// It was ready and nobody came.
    case noShow = "no_show"
    /// It was cancelled.
    case cancelled
    /// Its lines or note changed.
    case edited
    /// A payment was recorded.
    case paid
    /// Money was given back.
    case refunded
    /// The last status change was taken back.
    case undone

    /// What a notifier delivers unless told otherwise: the events a customer is told about.
    public static let customerFacing: [NotificationKind] = [
        .placed, .moved, .delayed, .ready, .noShow, .cancelled, .refunded,
    ]

    /// The kind of an order event.
    public init(_ event: OrderEvent) {
        switch event.kind {
        case .placed: self = .placed
        case .moved: self = event.detail?.contains("delayed +") == true ? .delayed : .moved
        case .edited: self = .edited
        case .paid: self = .paid
        case .refunded: self = .refunded
        case .undone: self = .undone
        case .cancelled: self = .cancelled
        case .statusChanged:
            switch event.to {
            case .preparing: self = .preparing
            case .ready: self = .ready
            case .collected: self = .collected
            case .noShow: self = .noShow
            case .cancelled: self = .cancelled
            case .placed: self = .undone
            }
        }
    }

    /// Reads `placed,ready,no_show` (also `no-show`); every kind named must exist.
    /// - Throws: ``ValidationError`` naming `field` and the unknown word.
    public static func list(parsing text: String, field: String = "kinds") throws -> [NotificationKind] {
        var kinds: [NotificationKind] = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = word.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: "-", with: "_")
            guard let kind = NotificationKind(rawValue: name) else {
                throw ValidationError([
                    FieldError(
                        field: field,
                        message: "'\(word)' is not a kind of notification (one of "
                            + allCases.map(\.rawValue).joined(separator: ", ") + ")")
                ])
            }
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        return kinds
    }
}

/// A notifier's name: 1 to 40 of `a-z 0-9 _ -` (`sms`, `email-it`), typed in any case.
public struct NotifierName: Sendable, Hashable, TextCodable {
    /// What its JSON text must be (``TextCodable``).
    public static var textForm: String { "a notifier name: it \(rule)" }

    /// The name, lowercase.
    public let description: String

    /// The longest name.
    public static let maximumLength = 40

    /// `nil` unless `text` is 1 to 40 of `a-z 0-9 _ -` (after lowercasing).
    public init?(_ text: String) {
        let name = text.lowercased()
        guard (1...Self.maximumLength).contains(name.utf8.count),
            name.utf8.allSatisfy({
                $0.isASCIILowercaseLetterOrDigit || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
            })
        else { return nil }
        description = name
    }

    /// The rule, for refusals.
    public static let rule = "must be 1 to 40 of a-z 0-9 _ - (such as sms or email-it)"

}

extension UInt8 {
    fileprivate var isASCIILowercaseLetterOrDigit: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}

/// One order event as a notifier hands it to its command: what it means (``kind``), a token that
/// names it (``token``, the same on every delivery, so a command can ignore one it has seen) and
/// whether it may have been delivered before (``redelivery``: the notifier stopped while its
/// command ran).
///
/// JSON (the command's stdin): `{"token", "kind", "notifier", "redelivery", "attempt", "message",
/// "party", "event": {…OrderEvent…}}` (`message`: the finished text of a template, else `null`;
/// `party`: a party's totals on the event it shares, else `null`).
public struct OrderNotification: Sendable, Hashable, Encodable {
    /// The notifier delivering it.
    public let notifier: NotifierName
    /// What it means to the customer.
    public let kind: NotificationKind
    /// The event, with the order as it is now (its customer's name and phone included).
    public let event: OrderEvent
    /// Whether a delivery of it may already have happened (the notifier died while its command ran).
    public let redelivery: Bool
    /// 1 on the first try, then 2, 3, … while the command fails.
    public private(set) var attempt: Int
    /// The finished text a template made of it (``templated(_:shop:)``), for the gateway to send as it is.
    public var message: String?
    /// For the event a whole party shares (its orders booked together, its one payment): the
    /// party's orders and total as they were, on the party's first order's notification; the
    /// other members' copies of that event are passed over (one message per party event).
    public var party: PartyTotals?
    /// Whether this is another member's copy of an event the party's first order carries.
    var isPartyTwin = false

    /// A party's orders and total at one of its events.
    ///
    /// JSON: `{"party_id", "orders", "total_cents"}`.
    public struct PartyTotals: Sendable, Hashable, Encodable {
        /// The party (its first order).
        public let partyID: Order.ID
        /// How many of its orders the event touched.
        public let orders: Int
        /// Their total as it was then.
        public let total: Money

        private enum CodingKeys: String, CodingKey { case partyID = "party_id", orders, totalCents = "total_cents" }

        /// The documented JSON shape.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(partyID, forKey: .partyID)
            try container.encode(orders, forKey: .orders)
            try container.encode(total.cents, forKey: .totalCents)
        }
    }

    /// A notification; ``NotificationService`` makes them.
    public init(
        notifier: NotifierName, kind: NotificationKind, event: OrderEvent, redelivery: Bool, attempt: Int,
        message: String? = nil
    ) {
        (self.notifier, self.kind, self.event, self.redelivery) = (notifier, kind, event, redelivery)
        (self.attempt, self.message) = (attempt, message)
    }

    /// The idempotency token: the event's cursor (`412.9f3a2c1b`), unique in the file's history.
    public var token: String { event.cursor.description }

    /// The same notification on a later try.
    func retried() -> OrderNotification {
        var copy = self
        copy.attempt = attempt + 1
        return copy
    }

    /// The same notification with its event as read again (`event`, the same cursor).
    func with(_ event: OrderEvent) -> OrderNotification {
        var copy = OrderNotification(
            notifier: notifier, kind: kind, event: event, redelivery: redelivery, attempt: attempt, message: message)
        (copy.party, copy.isPartyTwin) = (party, isPartyTwin)
        return copy
    }

    /// The notification as environment variables (`PIZZERIA_EVENT_TOKEN`, `PIZZERIA_CUSTOMER_PHONE`,
    /// `PIZZERIA_MESSAGE`, …), for commands that read no JSON; an unknown value is an empty string.
    /// The pickup and total are the order's as they were at the event (``OrderEvent/then``).
    public var environment: [String: String] {
        let order = event.order
        return [
            "PIZZERIA_MESSAGE": message ?? "",
            "PIZZERIA_PARTY_ORDERS": party.map { String($0.orders) } ?? "",
            "PIZZERIA_PARTY_TOTAL": party?.total.plain ?? "",
            "PIZZERIA_NOTIFIER": notifier.description,
            "PIZZERIA_EVENT_TOKEN": token,
            "PIZZERIA_EVENT_KIND": kind.rawValue,
            "PIZZERIA_EVENT_AT": Timestamp.string(from: event.at),
            "PIZZERIA_EVENT_DETAIL": event.detail ?? "",
            "PIZZERIA_EVENT_BY": event.actor ?? "",
            "PIZZERIA_REDELIVERY": redelivery ? "1" : "0",
            "PIZZERIA_ATTEMPT": String(attempt),
            "PIZZERIA_ORDER_ID": order.id.description,
            "PIZZERIA_ORDER_STATUS": order.status.rawValue,
            "PIZZERIA_ORDER_TOTAL": event.total.plain,
            "PIZZERIA_PICKUP_LOCAL": event.pickupLocal,
            "PIZZERIA_PICKUP_AT": Timestamp.string(
                from: event.then.flatMap {
                    // `2026-12-04T20:30+01:00`: seconds put in for the ISO-8601 reader.
                    ISO8601DateFormatter().date(from: $0.pickupLocal.prefix(16) + ":00" + $0.pickupLocal.dropFirst(16))
                } ?? order.pickupAt),
            "PIZZERIA_CUSTOMER": order.handle,
            "PIZZERIA_CUSTOMER_NAME": order.customer.name ?? "",
            "PIZZERIA_CUSTOMER_PHONE": order.customer.phone ?? "",
        ]
    }

    private enum CodingKeys: String, CodingKey {
        case token, kind, notifier, redelivery, attempt, message, party, event
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(token, forKey: .token)
        try container.encode(kind, forKey: .kind)
        try container.encode(notifier, forKey: .notifier)
        try container.encode(redelivery, forKey: .redelivery)
        try container.encode(attempt, forKey: .attempt)
        try container.encode(message, forKey: .message)
        try container.encode(party, forKey: .party)
        try container.encode(event, forKey: .event)
    }
}

/// The process delivering a notifier's events: a host name and a process id.
public struct NotifierHolder: Sendable, Hashable, CustomStringConvertible {
    /// The machine, as `gethostname` names it.
    public let host: String
    /// The process.
    public let pid: Int32

    /// A holder.
    public init(host: String, pid: Int32) {
        (self.host, self.pid) = (host, pid)
    }

    /// This process on this machine.
    public static var current: NotifierHolder {
        var buffer = [CChar](repeating: 0, count: 256)
        let named = gethostname(&buffer, buffer.count - 1) == 0
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let host = named ? String(decoding: bytes, as: UTF8.self) : "localhost"
        return NotifierHolder(host: host.isEmpty ? "localhost" : String(host.prefix(255)), pid: getpid())
    }

    /// `pid 4242 on host`.
    public var description: String { "pid \(pid) on \(host)" }

    /// Whether this holder's process may still be running: not when it is on this machine and
    /// no process has its id.
    var mayBeAlive: Bool {
        guard host == NotifierHolder.current.host else { return true }
        return kill(pid, 0) == 0 || errno != ESRCH
    }
}

/// Where a notifier is: its cursor, the event in flight, what it delivered and how it last failed.
///
/// JSON (`pizzeria notify list --json`): `{"name", "after", "pending", "kinds" (comma-separated), "delivered",
/// "waiting", "failures", "last_error", "last_error_at", "holder", "heartbeat_at", "created_by",
/// "created_at", "updated_at"}`.
public struct NotifierState: Sendable, Hashable, JSONMembers {
    /// Its name.
    public let name: NotifierName
    /// The last event delivered or passed over.
    public let after: EventCursor
    /// The event whose command is running, or was when the notifier stopped.
    public let pending: EventCursor?
    /// The kinds it delivers.
    public let kinds: [NotificationKind]
    /// Events delivered so far.
    public let delivered: Int
    /// Order events after its cursor, of any kind: how far behind it is.
    public let waiting: Int
    /// Failed deliveries so far (each retry counts).
    public let failures: Int
    /// How the last failure happened (`exit 3`), if any.
    public let lastError: String?
    /// When.
    public let lastErrorAt: Date?
    /// The process delivering it, if one holds it.
    public let holder: NotifierHolder?
    /// When that process last said it was alive.
    public let heartbeatAt: Date?
    /// Who set it up.
    public let createdBy: String?
    /// When it was set up.
    public let createdAt: Date
    /// When its cursor or state last changed.
    public let updatedAt: Date

    /// The documented JSON shape, defined once (see ``JSONMembers``; `holder`: `pid 4242 on host`).
    public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        try writer.member("after", after.description)
        try writer.member("created_at", timestamp: createdAt)
        try writer.member("created_by", createdBy)
        try writer.member("delivered", delivered)
        try writer.member("failures", failures)
        try writer.member("heartbeat_at", timestamp: heartbeatAt)
        try writer.member("holder", holder?.description)
        try writer.member("kinds", kinds.map(\.rawValue).joined(separator: ","))
        try writer.member("last_error", lastError)
        try writer.member("last_error_at", timestamp: lastErrorAt)
        try writer.member("name", name.description)
        try writer.member("pending", pending?.description)
        try writer.member("updated_at", timestamp: updatedAt)
        try writer.member("waiting", waiting)
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }
}

/// Where a new notifier starts, or where `reset` puts one.
public enum NotifierStart: Sendable, Hashable {
    /// After the newest event: only what happens from now on is delivered.
    case now
    /// Before the first event: the whole history is delivered.
    case start
    /// After this event.
    case after(EventCursor)
}

/// Why a notifier could not run or change.
public enum NotifyError: PizzeriaFailure, Equatable {
    /// Another process is delivering this notifier's events.
    case held(NotifierName, by: NotifierHolder)
    /// No notifier has this name.
    case notFound(NotifierName)
    /// Another process took the notifier over while this one ran (its lease was taken as stale).
    case lostLease(NotifierName)
    /// The command failed on one event as many times as allowed; the cursor stays before it.
    case gaveUp(NotifierName, token: String, attempts: Int, lastError: String)

    /// Not found, or refused by the current state.
    public var category: FailureCategory {
        switch self {
        case .notFound: .notFound
        case .held, .lostLease, .gaveUp: .refused
        }
    }

    /// A sentence for people.
    public var description: String {
        switch self {
        case .held(let name, let holder): "notifier \(name) is running (\(holder)): one process per notifier"
        case .notFound(let name): "no notifier named '\(name)'"
        case .lostLease(let name): "notifier \(name) was taken over by another process; this one stops"
        case .gaveUp(let name, let token, let attempts, let error):
            "notifier \(name): event \(token) failed \(attempts) times (last: \(error)); it stays undelivered, nothing after it was sent"
        }
    }
}
