import Foundation

/// Something that happened to an order: it was placed, its status changed, or it was cancelled.
/// Read from the append-only `order_status_events` table, so every process's changes appear, in
/// commit order, and a ``cursor`` resumes exactly where a reader stopped.
///
/// JSON (one line each in `pizzeria order watch --json`): `{"cursor", "kind", "from", "to",
/// "at", "order": {…}}`.
public struct OrderEvent: Sendable, Hashable, Codable {
    /// What kind of change.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A new order.
        case placed
        /// Moved along its lifecycle (preparing, ready, collected).
        case statusChanged = "status_changed"
        /// Cancelled.
        case cancelled
    }

    /// The event's position in the feed; pass it as `after` to resume.
    public let cursor: Int64
    /// The status before (`nil` when placed).
    public let from: OrderStatus?
    /// The status after.
    public let to: OrderStatus
    /// When it happened.
    public let at: Date
    /// The order as it is now (its lines, total, current status and history).
    public let order: Order

    /// An event.
    public init(cursor: Int64, from: OrderStatus?, to: OrderStatus, at: Date, order: Order) {
        self.cursor = cursor
        self.from = from
        self.to = to
        self.at = at
        self.order = order
    }

    /// What kind of change.
    public var kind: Kind {
        switch (from, to) {
        case (nil, _): .placed
        case (_, .cancelled): .cancelled
        default: .statusChanged
        }
    }

    private enum CodingKeys: String, CodingKey { case cursor, kind, from, to, at, order }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(cursor, forKey: .cursor)
        try container.encode(kind, forKey: .kind)
        try container.encode(from, forKey: .from)
        try container.encode(to, forKey: .to)
        try container.encodeTimestamp(at, forKey: .at)
        try container.encode(order, forKey: .order)
    }

    /// Reads the JSON shape.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(cursor: try container.decode(Int64.self, forKey: .cursor),
                  from: try container.decodeIfPresent(OrderStatus.self, forKey: .from),
                  to: try container.decode(OrderStatus.self, forKey: .to), at: try container.decodeTimestamp(forKey: .at),
                  order: try container.decode(Order.self, forKey: .order))
    }
}
