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
        let serviceDay: LocalDate
        let status: OrderStatus
        let totalCents: Int64
        let key: String?
        let fingerprint: String?
        let createdAt: Date
        let updatedAt: Date
    }

    /// The columns ``HeaderDecoder`` reads (a constant, never input).
    static let headerColumns = """
        o.id, o.user_id, u.handle, o.pickup_at, o.service_day, o.status, o.total_cents, o.idempotency_key, \
        o.request_fingerprint, o.created_at, o.updated_at
        """
    static let headerFrom = " FROM orders o JOIN users u ON u.id = o.user_id"

    /// An order's header from a row of ``headerColumns``.
    struct HeaderDecoder: RowDecoder {
        let id, userID, handle, pickupAt, serviceDay, status, totalCents, key, fingerprint, createdAt, updatedAt: Column

        init(columns: ColumnResolver) throws {
            (id, userID, handle, pickupAt) = (try columns("id"), try columns("user_id"), try columns("handle"), try columns("pickup_at"))
            serviceDay = try columns("service_day")
            (status, totalCents, key) = (try columns("status"), try columns("total_cents"), try columns("idempotency_key"))
            (fingerprint, createdAt, updatedAt) = (try columns("request_fingerprint"), try columns("created_at"), try columns("updated_at"))
        }

        func decode(_ row: Row) throws -> Header {
            let id: Order.ID = try row.id(self.id)
            let pickupText = try row.string(pickupAt)
            guard let pickup = PickupTime.fromUTC(pickupText) else {
                throw DataError.damagedRow(table: "orders", id: id.description, problem: "pickup_at '\(pickupText)' is not a real UTC time")
            }
            let dayText = try row.string(serviceDay)
            guard let day = LocalDate(dayText) else {
                throw DataError.damagedRow(table: "orders", id: id.description, problem: "service_day '\(dayText)' is not a date")
            }
            return Header(id: id, userID: try row.id(userID), handle: try row.string(handle), pickupAt: pickup, serviceDay: day,
                          status: try OrderStore.status(try row.string(status), table: "orders", id: id.description),
                          totalCents: try row.int64(totalCents), key: try row.optionalString(key), fingerprint: try row.optionalString(fingerprint),
                          createdAt: try row.timestamp(createdAt, table: "orders", id: id),
                          updatedAt: try row.timestamp(updatedAt, table: "orders", id: id))
        }
    }

    /// An order line with its order and line number (columns order_id, line_no, pizza_id,
    /// pizza_name, unit_price_cents, quantity).
    struct LineDecoder: RowDecoder {
        let orderID, lineNo, pizzaID, pizzaName, unitPriceCents, quantity: Column

        init(columns: ColumnResolver) throws {
            (orderID, lineNo, pizzaID) = (try columns("order_id"), try columns("line_no"), try columns("pizza_id"))
            (pizzaName, unitPriceCents, quantity) = (try columns("pizza_name"), try columns("unit_price_cents"), try columns("quantity"))
        }

        func decode(_ row: Row) throws -> (orderID: Order.ID, key: Int64, value: OrderLine) {
            (try row.id(orderID), try row.int64(lineNo),
             OrderLine(pizzaID: try row.id(pizzaID), pizzaName: try row.string(pizzaName),
                       unitPrice: Money(cents: try row.int64(unitPriceCents)), quantity: try row.int(quantity)))
        }
    }

    /// A status event with its order and id (columns id, order_id, from_status, to_status, at):
    /// for an order's history and for the feed alike.
    struct StatusEventDecoder: RowDecoder {
        let id, orderID, from, to, at: Column

        init(columns: ColumnResolver) throws {
            (id, orderID, from, to, at) = (try columns("id"), try columns("order_id"), try columns("from_status"), try columns("to_status"), try columns("at"))
        }

        func decode(_ row: Row) throws -> (orderID: Order.ID, key: Int64, value: OrderStatusChange) {
            let eventID = try row.int64(id)
            let table = "order_status_events", idText = String(eventID)
            return (try row.id(orderID), eventID,
                    OrderStatusChange(from: try row.optionalString(from).map { try OrderStore.status($0, table: table, id: idText) },
                                      to: try OrderStore.status(try row.string(to), table: table, id: idText),
                                      at: try row.timestamp(at, table: table, id: eventID)))
        }
    }

    /// A stored status; anything else is a damaged row (the schema's CHECK makes it rare).
    static func status(_ text: String, table: String, id: String) throws -> OrderStatus {
        guard let status = OrderStatus(rawValue: text) else {
            throw DataError.damagedRow(table: table, id: id, problem: "unknown status '\(text)'")
        }
        return status
    }

    static func header(id: Order.ID, in db: Connection) throws -> Header? {
        try db.fetchOne("SELECT " + headerColumns + headerFrom + " WHERE o.id = ?", [id], HeaderDecoder.self)
    }

    static func header(key: String, in db: Connection) throws -> Header? {
        try db.fetchOne("SELECT " + headerColumns + headerFrom + " WHERE o.idempotency_key = ?", [key], HeaderDecoder.self)
    }

    /// Orders whose id starts with `prefix`, through the primary key index (a range, not LIKE).
    static func ids(withPrefix prefix: String, limit: Int = 10, in db: Connection) throws -> [Order.ID] {
        try db.fetchAll("SELECT id FROM orders WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
                        [prefix, prefix + "\u{10FFFF}", limit]) { try $0.id("id") }
    }

    // MARK: - Lists

    /// A page of orders matching every given filter, by pickup time then id, after the keyset
    /// `(pickupAt, id)`. Each filter adds a constant SQL fragment with a `?`; values are bound.
    static func headers(_ filter: OrderFilter, after: (String, String)?, limit: Int, in db: Connection) throws -> [Header] {
        var (conditions, arguments) = clauses(filter)
        if let (pickup, id) = after { conditions.append("(o.pickup_at, o.id) > (?, ?)"); arguments += [pickup, id] }
        return try db.fetchAll(headersSQL(filter: whereClause(conditions)) + " LIMIT ?", arguments + [limit], HeaderDecoder.self)
    }

    /// The filter's conditions (constant fragments) and their values.
    static func clauses(_ filter: OrderFilter) -> (conditions: [String], arguments: [any DatabaseValueConvertible]) {
        var conditions: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        if let user = filter.user { conditions.append("o.user_id = ?"); arguments.append(user) }
        if let status = filter.status { conditions.append("o.status = ?"); arguments.append(status.rawValue) }
        if let day = filter.serviceDay { conditions.append("o.service_day = ?"); arguments.append(day.description) }
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
        // of each order are put in order here, by their key.
        func perOrder<D: RowDecoder, T>(_ sql: String, table: String, _ decoder: D.Type) throws -> [[T]]
            where D.Value == (orderID: Order.ID, key: Int64, value: T) {
            var values = [[T]](repeating: [], count: headers.count), keys = [[Int64]](repeating: [], count: headers.count)
            var at = 0
            try db.forEach(sql, arguments, decoder) { row in
                while at < headers.count, headers[at].id != row.orderID { at += 1 }
                guard at < headers.count else {
                    throw DataError.damagedRow(table: table, id: row.orderID.description, problem: "a row of an order outside the page")
                }
                values[at].append(row.value)
                keys[at].append(row.key)
            }
            for index in values.indices { putInOrder(&values[index], by: keys[index]) }
            return values
        }
        let lines = try perOrder(pageLinesSQL(filter: filterSQL), table: "order_lines", LineDecoder.self)
        let history = try perOrder(pageHistorySQL(filter: filterSQL), table: "order_status_events", StatusEventDecoder.self)
        return (lines, history)
    }

    /// Sorts `rows` by `keys` (one per row) unless they already are.
    private static func putInOrder<T>(_ rows: inout [T], by keys: [Int64]) {
        guard zip(keys, keys.dropFirst()).contains(where: { $0 > $1 }) else { return }
        rows = zip(keys, rows).sorted { $0.0 < $1.0 }.map(\.1)
    }

    static func pageLinesSQL(filter: String) -> String {
        "SELECT " + lineColumns
            + " FROM orders o JOIN order_lines l ON l.order_id = o.id" + filter + " ORDER BY o.pickup_at, o.id"
    }

    static func pageHistorySQL(filter: String) -> String {
        "SELECT " + eventColumns + " FROM orders o JOIN order_status_events e ON e.order_id = o.id"
            + filter + " ORDER BY o.pickup_at, o.id"
    }

    /// The list query for a `WHERE` clause made of the constant fragments above. In pickup order,
    /// ties by id: one of the `orders_by_…` indexes gives that order, so nothing is sorted.
    static func headersSQL(filter: String) -> String {
        "SELECT " + headerColumns + headerFrom + filter + " ORDER BY o.pickup_at, o.id"
    }

    // MARK: - Lines and history

    /// The columns ``LineDecoder`` reads, from `order_lines l` (a constant).
    static let lineColumns = "l.order_id, l.line_no, l.pizza_id, l.pizza_name, l.unit_price_cents, l.quantity"
    /// The columns ``StatusEventDecoder`` reads, from `order_status_events e` (a constant).
    static let eventColumns = "e.id, e.order_id, e.from_status, e.to_status, e.at"

    static let orderLinesSQL = "SELECT " + lineColumns + " FROM order_lines l WHERE l.order_id = ? ORDER BY l.line_no"
    static let orderHistorySQL = "SELECT " + eventColumns + " FROM order_status_events e WHERE e.order_id = ? ORDER BY e.id"

    /// One order's lines and status history, through the primary key and the `(order_id, id)`
    /// index: what a single order, a booking's replay and the feed need.
    static func details(of id: Order.ID, in db: Connection) throws -> (lines: [OrderLine], history: [OrderStatusChange]) {
        (try db.fetchAll(orderLinesSQL, [id], LineDecoder.self).map(\.value),
         try db.fetchAll(orderHistorySQL, [id], StatusEventDecoder.self).map(\.value))
    }

    // MARK: - Slots

    static let slotLoadSQL = """
        SELECT coalesce(sum(l.quantity), 0) AS pizzas FROM orders o JOIN order_lines l ON l.order_id = o.id
        WHERE o.pickup_at = ? AND
        """ + holdsCapacity

    /// The orders whose pizzas count against their slot's capacity: all but cancelled ones (a
    /// constant SQL condition on `orders o`).
    static let holdsCapacity = " o.status <> 'cancelled'"

    static func slotLoad(pickupAt: String, in db: Connection) throws -> Int {
        try db.fetchOne(slotLoadSQL, [pickupAt]) { try $0.int("pizzas") } ?? 0
    }

    /// Booked pizzas per future slot (pickup after `after`), by pickup time.
    static func futureLoads(after: String, in db: Connection) throws -> [(String, Int)] {
        try db.fetchAll("""
            SELECT o.pickup_at, sum(l.quantity) AS pizzas FROM orders o JOIN order_lines l ON l.order_id = o.id
            WHERE o.pickup_at > ? AND
            """ + holdsCapacity + " GROUP BY o.pickup_at ORDER BY o.pickup_at", [after]) {
            (try $0.string("pickup_at"), try $0.int("pizzas"))
        }
    }

    /// Booked pizzas per slot start in `[from, to)`.
    static func slotLoads(from: String, to: String, in db: Connection) throws -> [String: Int] {
        var loads: [String: Int] = [:]
        try db.forEach("""
            SELECT o.pickup_at, sum(l.quantity) AS pizzas FROM orders o JOIN order_lines l ON l.order_id = o.id
            WHERE o.pickup_at >= ? AND o.pickup_at < ? AND
            """ + holdsCapacity + " GROUP BY o.pickup_at", [from, to]) { row in loads[try row.string("pickup_at")] = try row.int("pizzas") }
        return loads
    }

    // MARK: - Writing

    /// Inserts the order and its lines (the schema's triggers check the capacity, keep the total
    /// and record the first status event).
    /// - Returns: the creation time the database gave it.
    static func insert(id: Order.ID, userID: User.ID, pickupAt: String, serviceDay: LocalDate, pickupLocal: String, key: String?,
                       fingerprint: String?, lines: [OrderLine], in db: Connection) throws -> Date {
        guard let created = try db.fetchOne("""
            INSERT INTO orders (id, user_id, pickup_at, service_day, pickup_local, idempotency_key, request_fingerprint)
            VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING created_at
            """, [id, userID, pickupAt, serviceDay.description, pickupLocal, key, fingerprint], { try $0.timestamp(try $0.column("created_at"), table: "orders", id: id) }) else {
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

    /// Sales per pizza over the service days `from` through `to` (inclusive; `YYYY-MM-DD` text).
    static func sales(from: String, to: String, in db: Connection) throws -> [SalesReport.Row] {
        try db.fetchAll("""
            SELECT l.pizza_id, l.pizza_name, sum(l.quantity) AS quantity, sum(l.quantity * l.unit_price_cents) AS revenue_cents
            FROM orders o JOIN order_lines l ON l.order_id = o.id
            WHERE o.service_day >= ? AND o.service_day <= ? AND
            """ + holdsCapacity + " GROUP BY l.pizza_id, l.pizza_name ORDER BY revenue_cents DESC, l.pizza_name", [from, to]) { row in
            SalesReport.Row(pizzaID: try row.id("pizza_id"), name: try row.string("pizza_name"), quantity: try row.int("quantity"),
                            revenue: Money(cents: try row.int64("revenue_cents")))
        }
    }

    // MARK: - Local times

    /// After a change of time zone: every order's local pickup time and service day again, in
    /// `schedule`'s zone (a pickup that is a slot of the new schedule takes that slot's service
    /// day; any other, its local date).
    static func relocalize(under schedule: Schedule, in db: Connection) throws {
        let orders = try db.fetchAll("SELECT id, pickup_at FROM orders") { (try $0.string("id"), try $0.string("pickup_at")) }
        for (id, text) in orders {
            guard let pickup = PickupTime.fromUTC(text) else {
                throw DataError.damagedRow(table: "orders", id: id, problem: "pickup_at '\(text)' is not a UTC time")
            }
            var day = schedule.clock.local(pickup).date
            if case .slot(let slot) = try schedule.locate(pickup) { day = slot.serviceDay }
            try db.run("UPDATE orders SET service_day = ?, pickup_local = ? WHERE id = ?",
                       [day.description, schedule.clock.localText(pickup), id])
        }
    }

    // MARK: - Migration 6

    /// Migration 6's data step: each existing order gets its service day and its local pickup
    /// time with offset, in the pizzeria's zone (SQL cannot convert zones). The hours before
    /// migration 6 never passed midnight, so the service day is the local date.
    @Sendable static func fillLocalTimes(_ db: Connection) throws {
        let stored = try db.fetchOne("SELECT time_zone FROM settings WHERE id = 1") { try $0.optionalString("time_zone") } ?? nil
        guard let zone = stored.map({ TimeZone(identifier: $0) }) ?? TimeZone.current else {
            throw DataError.damagedRow(table: "settings", id: "1", problem: "time_zone '\(stored ?? "")' is not a known time zone")
        }
        let clock = ZonedClock(zone: zone)
        let pending = try db.fetchAll("SELECT id, pickup_at FROM orders WHERE service_day IS NULL") {
            (try $0.string("id"), try $0.string("pickup_at"))
        }
        for (id, text) in pending {
            guard let pickup = PickupTime.fromUTC(text) else {
                throw DataError.damagedRow(table: "orders", id: id, problem: "pickup_at '\(text)' is not a UTC time")
            }
            try db.run("UPDATE orders SET service_day = ?, pickup_local = ? WHERE id = ?",
                       [clock.local(pickup).date.description, clock.localText(pickup), id])
        }
    }

    // MARK: - Events

    /// Status events after `cursor` (the append-only table's id), oldest first.
    static func events(after cursor: Int64, limit: Int, in db: Connection) throws -> [(orderID: Order.ID, key: Int64, value: OrderStatusChange)] {
        try db.fetchAll("SELECT " + eventColumns + " FROM order_status_events e WHERE e.id > ? ORDER BY e.id LIMIT ?",
                        [cursor, limit], StatusEventDecoder.self)
    }

    /// The newest event's cursor (0 when there is none).
    static func latestEvent(in db: Connection) throws -> Int64 {
        try db.fetchOne("SELECT coalesce(max(id), 0) AS latest FROM order_status_events") { try $0.int64("latest") } ?? 0
    }
}
