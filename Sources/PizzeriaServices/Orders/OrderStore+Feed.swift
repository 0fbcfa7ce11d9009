import Foundation
import PizzeriaStorage

/// The SQL of the order feed: events after a cursor, the newest cursor.
extension OrderStore {
    /// A status event as read for the feed.
    typealias FeedRow = (orderID: Order.ID, key: Int64, value: OrderStatusChange)

    /// The cursor of a status event.
    static func cursor(of row: FeedRow) -> EventCursor {
        EventCursor(position: row.key, subject: row.orderID, at: row.value.at)
    }

    /// Status events after `cursor`, oldest first, once the cursor's own event has been found
    /// where it says (the append-only table's id).
    /// - Throws: ``FeedError/foreignCursor(_:newest:)``.
    static func events(after cursor: EventCursor, limit: Int, in db: Connection) throws -> ArraySlice<FeedRow> {
        let rows = try db.fetchAll(
            "SELECT " + eventColumns + " FROM order_status_events e WHERE e.id >= ? ORDER BY e.id LIMIT ?",
            [cursor.position, limit + 1], StatusEventDecoder.self)
        return try FeedHistory.rows(
            after: cursor, rows, limit: limit, cursorOf: cursor(of:), newest: { try latestEvent(in: db) })
    }

    /// The event at `cursor`, when this file's history has it there.
    static func event(at cursor: EventCursor, in db: Connection) throws -> FeedRow? {
        try db.fetchOne(
            "SELECT " + eventColumns + " FROM order_status_events e WHERE e.id = ?", [cursor.position],
            StatusEventDecoder.self
        ).flatMap { self.cursor(of: $0) == cursor ? $0 : nil }
    }

    /// The order's pickup and total at each of these events, where they were recorded (migration 46).
    static func snapshots(ofEvents ids: [Int64], in db: Connection) throws -> [Int64: OrderEvent.Snapshot] {
        guard !ids.isEmpty else { return [:] }
        var snapshots: [Int64: OrderEvent.Snapshot] = [:]
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        try db.forEach(
            "SELECT id, pickup_local, total_cents FROM order_status_events WHERE pickup_local IS NOT NULL AND id IN ("
                + marks + ")", ids
        ) { row in
            snapshots[try row.int64("id")] = OrderEvent.Snapshot(
                pickupLocal: try row.string("pickup_local"),
                total: try row.optionalInt64("total_cents").map(Money.init(cents:)))
        }
        return snapshots
    }

    /// The events of one kind that `party`'s orders have at one instant (the same transaction's:
    /// the orders booked together, the shares of one payment), with each order and its total then.
    static func partyEvents(party: Order.ID, kind: OrderStatusChange.Kind, at: Date, in db: Connection) throws -> [(
        orderID: Order.ID, total: Int64?
    )] {
        try db.fetchAll(
            """
            SELECT e.order_id, e.total_cents FROM orders o JOIN order_status_events e ON e.order_id = o.id
            WHERE o.party_id = ? AND e.kind = ? AND e.at = ?
            """, [party, kind.rawValue, Timestamp.string(from: at)]
        ) { (try $0.id("order_id"), try $0.optionalInt64("total_cents")) }
    }

    /// The newest event's cursor (``EventCursor/start`` when there is none).
    static func latestEvent(in db: Connection) throws -> EventCursor {
        try db.fetchOne(
            "SELECT " + eventColumns + " FROM order_status_events e ORDER BY e.id DESC LIMIT 1", [],
            StatusEventDecoder.self
        )
        .map(cursor(of:)) ?? .start
    }
}
