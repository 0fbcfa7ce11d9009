import Foundation

/// Something that happened to an order: it was placed, its status changed, it was cancelled,
/// moved, edited, paid or refunded.
/// Read from the append-only `order_status_events` table, so every process's changes appear, in
/// commit order, and a ``cursor`` resumes exactly where a reader stopped.
///
/// JSON (one line each in `pizzeria order watch --json`): `{"cursor", "kind", "from", "to",
/// "at", "then": {"pickup_local", "total_cents"} | null, "order": {…}}`.
public struct OrderEvent: Sendable, Hashable, Codable {
    /// What kind of change.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A new order.
        case placed
        /// Moved along its lifecycle (preparing, ready, collected, no-show).
        case statusChanged = "status_changed"
        /// Cancelled.
        case cancelled
        /// The last status change taken back.
        case undone
        /// Moved to another pickup.
        case moved
        /// Lines or note changed.
        case edited
        /// A payment was recorded (`detail`: `paid 12.00 card`).
        case paid
        /// Money was given back (`detail`: `refunded 5.00 card: burnt crust`).
        case refunded

        /// The kind of history entry an event of this kind comes from.
        var changeKind: OrderStatusChange.Kind {
            switch self {
            case .placed: .placed
            case .statusChanged, .cancelled: .status
            case .undone: .undo
            case .moved: .moved
            case .edited: .edited
            case .paid: .paid
            case .refunded: .refunded
            }
        }
    }

    /// The event's position in the feed, tied to this file's history; pass it as `after` to resume.
    public let cursor: EventCursor
    /// The status before (`nil` when placed).
    public let from: OrderStatus?
    /// The status after.
    public let to: OrderStatus
    /// When it happened.
    public let at: Date
    /// The order as it is now (its lines, total, current status and history).
    public let order: Order
    /// The order's pickup and total as they were at the event (what a message about it says);
    /// `nil` for an event written before migration 46, which only has the order as it is now.
    public let then: Snapshot?

    /// The order's pickup and total as they were at an event.
    public struct Snapshot: Sendable, Hashable, Codable {
        /// The pickup then: local time with its offset (`2026-12-04T20:30:00+01:00`).
        public let pickupLocal: String
        /// The total then (`nil`: not recorded).
        public let total: Money?

        /// A snapshot.
        public init(pickupLocal: String, total: Money?) { (self.pickupLocal, self.total) = (pickupLocal, total) }

        private enum CodingKeys: String, CodingKey { case pickupLocal = "pickup_local", totalCents = "total_cents" }

        /// `{"pickup_local", "total_cents"}`.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(pickupLocal, forKey: .pickupLocal)
            try container.encode(total?.cents, forKey: .totalCents)
        }

        /// Reads the JSON shape.
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            pickupLocal = try container.decode(String.self, forKey: .pickupLocal)
            total = try container.decodeIfPresent(Int64.self, forKey: .totalCents).map(Money.init(cents:))
        }
    }

    /// The pickup a message about this event names: as it was then, else as it is now.
    public var pickupLocal: String { then?.pickupLocal ?? order.pickupLocal }
    /// The total a message about this event names: as it was then, else as it is now.
    public var total: Money { then?.total ?? order.total }
    /// What changed, for people (`pickup … → …`, `+1 Diavola`).
    public let detail: String?
    /// Who made the change, when they said.
    public let actor: String?
    /// What kind of change.
    public let kind: Kind

    /// The kind of history entry an event of this kind comes from.
    var changeKind: OrderStatusChange.Kind { kind.changeKind }

    /// An event from its history entry, with the order as it was then when known.
    public init(cursor: EventCursor, change: OrderStatusChange, order: Order, then: Snapshot? = nil) {
        self.cursor = cursor
        self.then = then
        self.from = change.from
        self.to = change.to
        self.at = change.at
        self.order = order
        self.detail = change.detail
        self.actor = change.actor
        self.kind =
            switch change.kind {
            case .placed: .placed
            case .status: change.to == .cancelled ? .cancelled : .statusChanged
            case .undo: .undone
            case .moved: .moved
            case .edited: .edited
            case .paid: .paid
            case .refunded: .refunded
            }
    }

    private enum CodingKeys: String, CodingKey { case cursor, kind, from, to, at, then, order, detail, actor = "by" }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(cursor, forKey: .cursor)
        try container.encode(kind, forKey: .kind)
        try container.encode(from, forKey: .from)
        try container.encode(to, forKey: .to)
        try container.encodeTimestamp(at, forKey: .at)
        try container.encode(then, forKey: .then)
        try container.encode(order, forKey: .order)
        try container.encode(detail, forKey: .detail)
        try container.encode(actor, forKey: .actor)
    }

    /// Reads the JSON shape.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(Kind.self, forKey: .kind)
        let changeKind = kind.changeKind
        self.init(
            cursor: try container.decode(EventCursor.self, forKey: .cursor),
            change: OrderStatusChange(
                kind: changeKind, from: try container.decodeIfPresent(OrderStatus.self, forKey: .from),
                to: try container.decode(OrderStatus.self, forKey: .to), at: try container.decodeTimestamp(forKey: .at),
                detail: try container.decodeIfPresent(String.self, forKey: .detail),
                actor: try container.decodeIfPresent(String.self, forKey: .actor)),
            order: try container.decode(Order.self, forKey: .order),
            then: try container.decodeIfPresent(Snapshot.self, forKey: .then))
    }
}
