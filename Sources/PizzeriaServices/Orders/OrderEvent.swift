import Foundation

/// Something that happened to an order: it was placed, its status changed, it was cancelled,
/// moved, edited, paid or refunded.
/// Read from the append-only `order_status_events` table, so every process's changes appear, in
/// commit order, and a ``cursor`` resumes exactly where a reader stopped.
///
/// JSON (one line each in `pizzeria order watch --json`): `{"cursor", "kind", "from", "to",
/// "at", "then": {"pickup_local", "total_cents"} | null, "order": {…}}`.
public struct OrderEvent: Sendable, Hashable, Record {
    /// What kind of change.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
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
    public internal(set) var cursor: EventCursor = EventCursor.start
    /// The status before (`nil` when placed).
    public internal(set) var from: OrderStatus?
    /// The status after.
    public internal(set) var to: OrderStatus = .placed
    /// When it happened.
    public internal(set) var at: Date = Date(timeIntervalSince1970: 0)
    /// The order as it is now (its lines, total, current status and history).
    public internal(set) var order: Order = Order(blank: RecordBlank())
    /// The order's pickup and total as they were at the event (what a message about it says);
    /// `nil` for an event written before migration 46, which only has the order as it is now.
    public internal(set) var then: Snapshot?

    /// The order's pickup and total as they were at an event.
    public struct Snapshot: Sendable, Hashable, Record {
        /// The pickup then: local time with its offset (`2026-12-04T20:30:00+01:00`).
        public internal(set) var pickupLocal: String = ""
        /// The total then (`nil`: not recorded).
        public internal(set) var total: Money?

        /// A snapshot.
        public init(pickupLocal: String, total: Money?) { (self.pickupLocal, self.total) = (pickupLocal, total) }

        /// A value for a reader to fill (see ``Record``).
        public init(blank: RecordBlank) {}

        /// The members: `{"pickup_local", "total_cents"}`, declared once (see ``Record``).
        public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
            try visitor.member("pickup_local", &pickupLocal)
            try visitor.member("total_cents", cents: &total)
        }
    }

    /// The pickup a message about this event names: as it was then, else as it is now.
    public var pickupLocal: String { then?.pickupLocal ?? order.pickupLocal }
    /// The total a message about this event names: as it was then, else as it is now.
    public var total: Money { then?.total ?? order.total }
    /// What changed, for people (`pickup … → …`, `+1 Diavola`).
    public internal(set) var detail: String?
    /// Who made the change, when they said.
    public internal(set) var actor: String?
    /// What kind of change.
    public internal(set) var kind: Kind = .placed

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

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members: the documented JSON shape, declared once (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.member("at", timestamp: &at)
        try visitor.member("by", &actor)
        try visitor.member("cursor", text: &cursor)
        try visitor.member("detail", &detail)
        try visitor.member("from", raw: &from)
        try visitor.member("kind", raw: &kind, absent: nil)
        try visitor.member("order", object: &order)
        try visitor.member("then", object: &then)
        try visitor.member("to", raw: &to, absent: nil)
    }
}
