import Foundation
import PizzeriaStorage

/// The SQL of orders. Functions take the connection of an open transaction; values are always
/// bound. Column lists are constants, spliced in with `+` (never input).
enum OrderStore {
    /// An order's own row, before its lines and history are attached.
    struct Header {
        let id: Order.ID
        let userID: User.ID
        let handle: String
        let pickupAt: Date
        let status: OrderStatus
        let totalCents: Int64
        let key: String?
        let fingerprint: String?
        let createdAt: Date
        let updatedAt: Date
    }

    /// The columns ``decodeHeader(_:)`` reads, in its order.
    static let headerColumns = """
        o.id, o.user_id, u.handle, o.pickup_at, o.status, o.total_cents, o.idempotency_key, o.request_fingerprint, \
        o.created_at, o.updated_at
        """
    static let headerFrom = " FROM orders o JOIN users u ON u.id = o.user_id"

    static func decodeHeader(_ row: Row) throws -> Header {
        let id: Order.ID = try row.id(0)
        let pickupText = try row.string(3)
        guard let pickupAt = PickupTime.fromUTC(pickupText) else {
            throw DataError.damagedRow(table: "orders", id: id.description, problem: "pickup_at '\(pickupText)' is not a real UTC time")
        }
        return Header(id: id, userID: try row.id(1), handle: try row.string(2), pickupAt: pickupAt,
                      status: try status(try row.string(4), table: "orders", id: id.description), totalCents: try row.int64(5),
                      key: try row.optionalString(6), fingerprint: try row.optionalString(7),
                      createdAt: try row.timestamp(8, table: "orders", id: id), updatedAt: try row.timestamp(9, table: "orders", id: id))
    }

    /// A stored status; anything else is a damaged row (the schema's CHECK makes it rare).
    static func status(_ text: String, table: String, id: String) throws -> OrderStatus {
        guard let status = OrderStatus(rawValue: text) else {
            throw DataError.damagedRow(table: table, id: id, problem: "unknown status '\(text)'")
        }
        return status
    }

    static func header(id: Order.ID, in db: Connection) throws -> Header? {
        try db.fetchOne("SELECT " + headerColumns + headerFrom + " WHERE o.id = ?", [id], decodeHeader)
    }

    static func header(key: String, in db: Connection) throws -> Header? {
        try db.fetchOne("SELECT " + headerColumns + headerFrom + " WHERE o.idempotency_key = ?", [key], decodeHeader)
    }

    /// Orders whose id starts with `prefix`, through the primary key index (a range, not LIKE).
    static func ids(withPrefix prefix: String, limit: Int = 10, in db: Connection) throws -> [Order.ID] {
        try db.fetchAll("SELECT id FROM orders WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
                        [prefix, prefix + "\u{10FFFF}", limit]) { try $0.id(0) }
    }

    // MARK: - Lists

    /// A page of orders matching every given filter, by pickup time then id, after the keyset
    /// `(pickupAt, id)`. Each filter adds a constant SQL fragment with a `?`; values are bound.
    static func headers(_ filter: OrderFilter, after: (String, String)?, limit: Int, in db: Connection) throws -> [Header] {
        var (conditions, arguments) = clauses(filter)
        if let (pickup, id) = after { conditions.append("(o.pickup_at, o.id) > (?, ?)"); arguments += [pickup, id] }
        return try db.fetchAll(headersSQL(filter: whereClause(conditions)) + " LIMIT ?", arguments + [limit], decodeHeader)
    }

    /// The filter's conditions (constant fragments) and their values.
    static func clauses(_ filter: OrderFilter) -> (conditions: [String], arguments: [any DatabaseValueConvertible]) {
        var conditions: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        if let user = filter.user { conditions.append("o.user_id = ?"); arguments.append(user) }
        if let status = filter.status { conditions.append("o.status = ?"); arguments.append(status.rawValue) }
        if let from = filter.pickupFrom { conditions.append("o.pickup_at >= ?"); arguments.append(PickupTime.utc(from)) }
        if let to = filter.pickupBefore { conditions.append("o.pickup_at < ?"); arguments.append(PickupTime.utc(to)) }
        return (conditions, arguments)
    }

    static func whereClause(_ conditions: [String]) -> String {
        conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    }

    /// The lines and the status history of a page's orders — the orders matching `filter` from
    /// the page's first `(pickupAt, id)` through its last — each in one query that walks the
    /// same index as the page, so rows arrive in the page's order and are matched to their order
    /// by walking both together (no id list to build and parse, no dictionary).
    static func attach(to headers: [Header], filter: OrderFilter, in db: Connection) throws -> (lines: [[OrderLine]], history: [[OrderStatusChange]]) {
        guard let first = headers.first, let last = headers.last else { return ([], []) }
        var (conditions, arguments) = clauses(filter)
        conditions.append("(o.pickup_at, o.id) >= (?, ?) AND (o.pickup_at, o.id) <= (?, ?)")
        arguments += [PickupTime.utc(first.pickupAt), first.id, PickupTime.utc(last.pickupAt), last.id]
        let filterSQL = whereClause(conditions)

        // Within one order, rows come in the inner index's order (line number, event id) — but
        // SQL promises only the ORDER BY, and ordering by those too costs a sort per order
        // (SQLite cannot tell that the page's index has one entry per order), so the few rows
        // of each order are put in order here, by the key in column `keyColumn`.
        func perOrder<T>(_ sql: String, table: String, keyColumn: Int, _ decode: (Row) throws -> T) throws -> [[T]] {
            var values = [[T]](repeating: [], count: headers.count), keys = [[Int64]](repeating: [], count: headers.count)
            var at = 0
            try db.forEach(sql, arguments) { row in
                let id: Order.ID = try row.id(0)
                while at < headers.count, headers[at].id != id { at += 1 }
                guard at < headers.count else {
                    throw DataError.damagedRow(table: table, id: id.description, problem: "a row of an order outside the page")
                }
                values[at].append(try decode(row))
                keys[at].append(try row.int64(keyColumn))
            }
            for index in values.indices { putInOrder(&values[index], by: keys[index]) }
            return values
        }
        let lines = try perOrder(pageLinesSQL(filter: filterSQL), table: "order_lines", keyColumn: 5) { row in
            OrderLine(pizzaID: try row.id(1), pizzaName: try row.string(2), unitPrice: Money(cents: try row.int64(3)),
                      quantity: try row.int(4))
        }
        let history = try perOrder(pageHistorySQL(filter: filterSQL), table: "order_status_events", keyColumn: 4, statusChange)
        return (lines, history)
    }

    /// Sorts `rows` by `keys` (one per row) unless they already are.
    private static func putInOrder<T>(_ rows: inout [T], by keys: [Int64]) {
        guard zip(keys, keys.dropFirst()).contains(where: { $0 > $1 }) else { return }
        rows = zip(keys, rows).sorted { $0.0 < $1.0 }.map(\.1)
    }

    static func pageLinesSQL(filter: String) -> String {
        "SELECT l.order_id, l.pizza_id, l.pizza_name, l.unit_price_cents, l.quantity, l.line_no"
            + " FROM orders o JOIN order_lines l ON l.order_id = o.id" + filter + " ORDER BY o.pickup_at, o.id"
    }

    static func pageHistorySQL(filter: String) -> String {
        "SELECT e.order_id, e.from_status, e.to_status, e.at, e.id FROM orders o JOIN order_status_events e ON e.order_id = o.id"
            + filter + " ORDER BY o.pickup_at, o.id"
    }

    /// The list query for a `WHERE` clause made of the constant fragments above. In pickup order,
    /// ties by id: one of the `orders_by_…` indexes gives that order, so nothing is sorted.
    static func headersSQL(filter: String) -> String {
        "SELECT " + headerColumns + headerFrom + filter + " ORDER BY o.pickup_at, o.id"
    }

    // MARK: - Lines and history, for one order or a whole page

    static let linesSQL = """
        SELECT order_id, pizza_id, pizza_name, unit_price_cents, quantity FROM order_lines
        WHERE order_id IN (SELECT value FROM json_each(?)) ORDER BY order_id, line_no
        """

    static let historySQL = """
        SELECT order_id, from_status, to_status, at, id FROM order_status_events
        WHERE order_id IN (SELECT value FROM json_each(?)) ORDER BY order_id, id
        """

    /// The lines of every order in `ids`, in one query (the ids travel as one JSON array).
    static func lines(of ids: [Order.ID], in db: Connection) throws -> [Order.ID: [OrderLine]] {
        var lines: [Order.ID: [OrderLine]] = [:]
        try db.forEach(linesSQL, [jsonArray(ids)]) { row in
            lines[try row.id(0), default: []].append(
                OrderLine(pizzaID: try row.id(1), pizzaName: try row.string(2), unitPrice: Money(cents: try row.int64(3)),
                          quantity: try row.int(4)))
        }
        return lines
    }

    /// The status history of every order in `ids`, in one query.
    static func history(of ids: [Order.ID], in db: Connection) throws -> [Order.ID: [OrderStatusChange]] {
        var history: [Order.ID: [OrderStatusChange]] = [:]
        try db.forEach(historySQL, [jsonArray(ids)]) { row in history[try row.id(0), default: []].append(try statusChange(row)) }
        return history
    }

    /// A status change from columns order_id, from_status, to_status, at, id.
    static func statusChange(_ row: Row) throws -> OrderStatusChange {
        let eventID = try row.int64(4)
        return OrderStatusChange(
            from: try row.optionalString(1).map { try status($0, table: "order_status_events", id: String(eventID)) },
            to: try status(try row.string(2), table: "order_status_events", id: String(eventID)),
            at: try row.timestamp(3, table: "order_status_events", id: eventID))
    }

    /// `["id1","id2"]`: ids are UUID text, so no escaping is needed.
    static func jsonArray(_ ids: [Order.ID]) -> String {
        "[" + ids.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }

    // MARK: - Slots

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

    // MARK: - Writing

    /// Inserts the order and its lines (the schema's triggers check the capacity, keep the total
    /// and record the first status event).
    /// - Returns: the creation time the database gave it.
    static func insert(id: Order.ID, userID: User.ID, pickupAt: String, key: String?, fingerprint: String?,
                       lines: [OrderLine], in db: Connection) throws -> Date {
        guard let created = try db.fetchOne("""
            INSERT INTO orders (id, user_id, pickup_at, idempotency_key, request_fingerprint) VALUES (?, ?, ?, ?, ?)
            RETURNING created_at
            """, [id, userID, pickupAt, key, fingerprint], { try $0.timestamp(0, table: "orders", id: id) }) else {
            throw DataError.damagedRow(table: "orders", id: id.description, problem: "the inserted row did not come back")
        }
        for (number, line) in lines.enumerated() {
            try db.run("""
                INSERT INTO order_lines (order_id, line_no, pizza_id, pizza_name, unit_price_cents, quantity)
                VALUES (?, ?, ?, ?, ?, ?)
                """, [id, number + 1, line.pizzaID, line.pizzaName, line.unitPrice.cents, line.quantity])
        }
        return created
    }

    /// Compare-and-set status change; the trigger records the event.
    static func setStatus(id: Order.ID, from: OrderStatus, to: OrderStatus, in db: Connection) throws -> Bool {
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
            SalesReport.Row(pizzaID: try row.id(0), name: try row.string(1), quantity: try row.int(2),
                            revenue: Money(cents: try row.int64(3)))
        }
    }

    // MARK: - Events

    /// Status events after `cursor` (the append-only table's id), oldest first.
    static func events(after cursor: Int64, limit: Int, in db: Connection) throws -> [(id: Int64, orderID: Order.ID, from: OrderStatus?, to: OrderStatus, at: Date)] {
        try db.fetchAll("""
            SELECT id, order_id, from_status, to_status, at FROM order_status_events WHERE id > ? ORDER BY id LIMIT ?
            """, [cursor, limit]) { row in
            let id = try row.int64(0)
            return (id, try row.id(1), try row.optionalString(2).map { try status($0, table: "order_status_events", id: String(id)) },
                    try status(try row.string(3), table: "order_status_events", id: String(id)),
                    try row.timestamp(4, table: "order_status_events", id: id))
        }
    }

    /// The newest event's cursor (0 when there is none).
    static func latestEvent(in db: Connection) throws -> Int64 {
        try db.fetchOne("SELECT coalesce(max(id), 0) FROM order_status_events") { try $0.int64(0) } ?? 0
    }
}
