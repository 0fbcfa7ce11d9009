import Foundation
import PizzeriaStorage

/// The SQL of orders. Functions take the connection of an open transaction.
enum OrderStore {
    struct Header {
        let id: String
        let handle: String
        let pickupAt: String
        let status: OrderStatus
        let totalCents: Int64
        let key: String?
        let fingerprint: String?
        let createdAt: String
        let updatedAt: String
    }

    static func decodeHeader(_ row: Row) throws -> Header {
        let id = try row.string(0)
        return Header(id: id, handle: try row.string(1), pickupAt: try row.string(2),
               status: try status(try row.string(3), table: "orders", id: id), totalCents: try row.int64(4),
               key: try row.optionalString(5), fingerprint: try row.optionalString(6),
               createdAt: try row.string(7), updatedAt: try row.string(8))
    }

    /// A stored status; anything else is a damaged row (the schema's CHECK makes it rare).
    static func status(_ text: String, table: String, id: String) throws -> OrderStatus {
        guard let status = OrderStatus(rawValue: text) else {
            throw DataError.damagedRow(table: table, id: id, problem: "unknown status '\(text)'")
        }
        return status
    }

    static func header(id: String, in db: Connection) throws -> Header? {
        try db.fetchOne("""
            SELECT o.id, u.handle, o.pickup_at, o.status, o.total_cents, o.idempotency_key,
                   o.request_fingerprint, o.created_at, o.updated_at
            FROM orders o JOIN users u ON u.id = o.user_id WHERE o.id = ?
            """, [id], decodeHeader)
    }

    static func header(key: String, in db: Connection) throws -> Header? {
        try db.fetchOne("""
            SELECT o.id, u.handle, o.pickup_at, o.status, o.total_cents, o.idempotency_key,
                   o.request_fingerprint, o.created_at, o.updated_at
            FROM orders o JOIN users u ON u.id = o.user_id WHERE o.idempotency_key = ?
            """, [key], decodeHeader)
    }

    static func ids(withPrefix prefix: String, in db: Connection) throws -> [String] {
        try db.fetchAll("SELECT id FROM orders WHERE id >= ? AND id < ? ORDER BY id LIMIT 10",
                        [prefix, prefix + "\u{10FFFF}"]) { try $0.string(0) }
    }

    /// Orders matching every given filter, by pickup time. Each filter adds a constant SQL
    /// fragment with a `?`; values are bound.
    static func headers(userID: String?, status: OrderStatus?, from: String?, to: String?, in db: Connection) throws -> [Header] {
        var conditions: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        if let userID { conditions.append("o.user_id = ?"); arguments.append(userID) }
        if let status { conditions.append("o.status = ?"); arguments.append(status.rawValue) }
        if let from { conditions.append("o.pickup_at >= ?"); arguments.append(from) }
        if let to { conditions.append("o.pickup_at < ?"); arguments.append(to) }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return try db.fetchAll(headersSQL(filter: filter), arguments, decodeHeader)
    }

    /// The list query for a `WHERE` clause made of the constant fragments above. In pickup order,
    /// ties by id: one of the `orders_by_…` indexes gives that order, so nothing is sorted.
    static func headersSQL(filter: String) -> String {
        "SELECT o.id, u.handle, o.pickup_at, o.status, o.total_cents, o.idempotency_key, "
            + "o.request_fingerprint, o.created_at, o.updated_at FROM orders o JOIN users u ON u.id = o.user_id"
            + filter + " ORDER BY o.pickup_at, o.id"
    }

    static let linesSQL = """
        SELECT pizza_id, pizza_name, unit_price_cents, quantity FROM order_lines
        WHERE order_id = ? ORDER BY line_no
        """

    static func lines(of orderID: String, in db: Connection) throws -> [OrderLine] {
        try db.fetchAll(linesSQL, [orderID]) { row in
            OrderLine(pizzaID: try row.string(0), pizzaName: try row.string(1),
                      unitPrice: Money(cents: try row.int64(2)), quantity: try row.int(3))
        }
    }

    static let historySQL = "SELECT from_status, to_status, at FROM order_status_events WHERE order_id = ? ORDER BY id"

    static func history(of orderID: String, in db: Connection) throws -> [OrderStatusChange] {
        try db.fetchAll(historySQL, [orderID]) { row in
            OrderStatusChange(from: try row.optionalString(0).map { try status($0, table: "order_status_events", id: orderID) },
                              to: try status(try row.string(1), table: "order_status_events", id: orderID), at: try row.string(2))
        }
    }

    /// Pizzas booked in the slot starting at `pickupAt` by orders that are not cancelled.
    static let slotLoadSQL = """
        SELECT coalesce(sum(l.quantity), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
        WHERE o.pickup_at = ? AND o.status <> 'cancelled'
        """

    static func slotLoad(pickupAt: String, in db: Connection) throws -> Int {
        try db.fetchOne(slotLoadSQL, [pickupAt]) { try $0.int(0) } ?? 0
    }

    /// Booked pizzas per future slot (pickup after `after`), by pickup time.
    static func futureLoads(after: String, in db: Connection) throws -> [(String, Int)] {
        try db.fetchAll("""
            SELECT o.pickup_at, sum(l.quantity) FROM orders o JOIN order_lines l ON l.order_id = o.id
            WHERE o.pickup_at > ? AND o.status <> 'cancelled' GROUP BY o.pickup_at ORDER BY o.pickup_at
            """, [after]) { (try $0.string(0), try $0.int(1)) }
    }

    /// Booked pizzas per slot start in `[from, to)`.
    static func slotLoads(from: String, to: String, in db: Connection) throws -> [String: Int] {
        var loads: [String: Int] = [:]
        try db.forEach("""
            SELECT o.pickup_at, sum(l.quantity) FROM orders o JOIN order_lines l ON l.order_id = o.id
            WHERE o.pickup_at >= ? AND o.pickup_at < ? AND o.status <> 'cancelled'
            GROUP BY o.pickup_at
            """, [from, to]) { row in loads[try row.string(0)] = try row.int(1) }
        return loads
    }

    static func insert(id: String, userID: String, pickupAt: String, key: String?, fingerprint: String?,
                       lines: [OrderLine], in db: Connection) throws {
        try db.run("INSERT INTO orders (id, user_id, pickup_at, idempotency_key, request_fingerprint) VALUES (?, ?, ?, ?, ?)",
                   [id, userID, pickupAt, key, fingerprint])
        for (number, line) in lines.enumerated() {
            try db.run("""
                INSERT INTO order_lines (order_id, line_no, pizza_id, pizza_name, unit_price_cents, quantity)
                VALUES (?, ?, ?, ?, ?, ?)
                """, [id, number + 1, line.pizzaID, line.pizzaName, line.unitPrice.cents, line.quantity])
        }
    }

    /// Compare-and-set status change; the trigger records the event.
    static func setStatus(id: String, from: OrderStatus, to: OrderStatus, in db: Connection) throws -> Bool {
        try db.run("UPDATE orders SET status = ? WHERE id = ? AND status = ?", [to.rawValue, id, from.rawValue]) == 1
    }

    static func sales(from: String, to: String, in db: Connection) throws -> [SalesReport.Row] {
        try db.fetchAll("""
            SELECT l.pizza_id, l.pizza_name, sum(l.quantity), sum(l.quantity * l.unit_price_cents)
            FROM orders o JOIN order_lines l ON l.order_id = o.id
            WHERE o.status <> 'cancelled' AND o.pickup_at >= ? AND o.pickup_at < ?
            GROUP BY l.pizza_id, l.pizza_name
            ORDER BY 4 DESC, 2
            """, [from, to]) { row in
            SalesReport.Row(pizzaID: try row.string(0), name: try row.string(1), quantity: try row.int(2),
                            revenue: Money(cents: try row.int64(3)))
        }
    }
}
