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
        let customerName: String?
        let customerPhone: String?
        let pickupAt: Date
        let serviceDay: LocalDate
        let status: OrderStatus
        let totalCents: Int64
        let key: String?
        let fingerprint: String?
        let note: String?
        let version: Int
        let createdAt: Date
        let updatedAt: Date
        /// The slot's effective capacity and the rule it came from (`slot_loads`).
        let slotCapacity: SlotCapacity?
        /// The party's first order, for an order booked in a party.
        let partyID: Order.ID?
    }

    /// The columns ``HeaderDecoder`` reads (a constant, never input).
    static let headerColumns = """
        o.id, o.user_id, u.handle, u.display_name AS customer_name, u.phone AS customer_phone, o.pickup_at, o.service_day, o.status, o.total_cents, o.idempotency_key, \
        o.request_fingerprint, o.note, o.version, o.created_at, o.updated_at, s.capacity AS slot_capacity, sr.rule AS capacity_rule, o.party_id
        """
    static let headerFrom =
        " FROM orders o JOIN users u ON u.id = o.user_id LEFT JOIN slot_loads s ON s.pickup_at = o.pickup_at"
        + " LEFT JOIN capacity_rules sr ON sr.id = s.capacity_rule_id"

    /// An order's header from a row of ``headerColumns``.
    struct HeaderDecoder: RowDecoder {
        let id, userID, handle, pickupAt, serviceDay, status, totalCents, key, fingerprint, note, version, createdAt,
            updatedAt: Column
        let slotCapacity, capacityRule, customerName, customerPhone, partyID: Column

        init(columns: ColumnResolver) throws {
            (id, userID, handle, pickupAt) = (
                try columns("id"), try columns("user_id"), try columns("handle"), try columns("pickup_at")
            )
            (serviceDay, note, version) = (try columns("service_day"), try columns("note"), try columns("version"))
            (status, totalCents, key) = (
                try columns("status"), try columns("total_cents"), try columns("idempotency_key")
            )
            (fingerprint, createdAt, updatedAt) = (
                try columns("request_fingerprint"), try columns("created_at"), try columns("updated_at")
            )
            (slotCapacity, capacityRule) = (try columns("slot_capacity"), try columns("capacity_rule"))
            (customerName, customerPhone) = (try columns("customer_name"), try columns("customer_phone"))
            partyID = try columns("party_id")
        }

        func decode(_ row: Row) throws -> Header {
            let id: Order.ID = try row.id(self.id)
            let pickupText = try row.string(pickupAt)
            guard let pickup = PickupTime.fromUTC(pickupText) else {
                throw DataError.damagedRow(
                    table: "orders", id: id.description, problem: "pickup_at '\(pickupText)' is not a real UTC time")
            }
            let dayText = try row.string(serviceDay)
            guard let day = LocalDate(dayText) else {
                throw DataError.damagedRow(
                    table: "orders", id: id.description, problem: "service_day '\(dayText)' is not a date")
            }
            return Header(
                id: id, userID: try row.id(userID), handle: try row.string(handle),
                customerName: try row.optionalString(customerName),
                customerPhone: try row.optionalString(customerPhone),
                pickupAt: pickup, serviceDay: day,
                status: try OrderStore.status(try row.string(status), table: "orders", id: id.description),
                totalCents: try row.int64(totalCents), key: try row.optionalString(key),
                fingerprint: try row.optionalString(fingerprint),
                note: try row.optionalString(note), version: try row.int(version),
                createdAt: try row.timestamp(createdAt, table: "orders", id: id),
                updatedAt: try row.timestamp(updatedAt, table: "orders", id: id),
                slotCapacity: try row.optionalInt(slotCapacity).map {
                    SlotCapacity(capacity: $0, rule: try row.optionalString(capacityRule))
                },
                partyID: row.isNull(partyID) ? nil : try row.id(partyID))
        }
    }

    /// An order line with its order and line number (``lineColumns``: order_id, line_no and
    /// ``OrderLine``'s stored members).
    struct LineDecoder: RowDecoder {
        let orderID, lineNo: Column
        let line: StoredDecoder<OrderLine>

        init(columns: ColumnResolver) throws {
            (orderID, lineNo) = (try columns("order_id"), try columns("line_no"))
            line = try StoredDecoder(columns: columns)
        }

        func decode(_ row: Row) throws -> (orderID: Order.ID, key: Int64, value: OrderLine) {
            (try row.id(orderID), try row.int64(lineNo), try line.decode(row))
        }
    }

    /// A history event with its order and id (columns id, order_id, kind, from_status, to_status,
    /// detail, actor, at): for an order's history and for the feed alike.
    struct StatusEventDecoder: RowDecoder {
        let id, orderID, kind, from, to, detail, actor, at: Column

        init(columns: ColumnResolver) throws {
            (id, orderID, kind, from, to) = (
                try columns("id"), try columns("order_id"), try columns("kind"), try columns("from_status"),
                try columns("to_status")
            )
            (detail, actor, at) = (try columns("detail"), try columns("actor"), try columns("at"))
        }

        func decode(_ row: Row) throws -> (orderID: Order.ID, key: Int64, value: OrderStatusChange) {
            let eventID = try row.int64(id)
            let table = "order_status_events", idText = String(eventID)
            return (
                try row.id(orderID), eventID,
                OrderStatusChange(
                    kind: try OrderStore.kind(try row.string(kind), id: idText),
                    from: try row.optionalString(from).map { try OrderStore.status($0, table: table, id: idText) },
                    to: try OrderStore.status(try row.string(to), table: table, id: idText),
                    at: try row.timestamp(at, table: table, id: eventID),
                    detail: try row.optionalString(detail), actor: try row.optionalString(actor))
            )
        }
    }

    /// A stored history kind; anything else is a damaged row.
    static func kind(_ text: String, id: String) throws -> OrderStatusChange.Kind {
        guard let kind = OrderStatusChange.Kind(rawValue: text) else {
            throw DataError.damagedRow(table: "order_status_events", id: id, problem: "unknown kind '\(text)'")
        }
        return kind
    }

    /// A stored status; anything else is a damaged row (the schema's CHECK makes it rare).
    static func status(_ text: String, table: String, id: String) throws -> OrderStatus {
        guard let status = OrderStatus(rawValue: text) else {
            throw DataError.damagedRow(table: table, id: id, problem: "unknown status '\(text)'")
        }
        return status
    }

    /// The orders of a party (by its first order's id), in pickup order.
    static func partyHeaders(_ party: Order.ID, in db: Connection) throws -> [Header] {
        try db.fetchAll(
            "SELECT " + headerColumns + headerFrom + " WHERE o.party_id = ? ORDER BY o.pickup_at, o.id", [party],
            HeaderDecoder.self)
    }

    static func header(id: Order.ID, in db: Connection) throws -> Header? {
        try db.fetchOne("SELECT " + headerColumns + headerFrom + " WHERE o.id = ?", [id], HeaderDecoder.self)
    }

    static func header(key: String, in db: Connection) throws -> Header? {
        try db.fetchOne(
            "SELECT " + headerColumns + headerFrom + " WHERE o.idempotency_key = ?", [key], HeaderDecoder.self)
    }

    /// Orders whose id starts with `prefix`, through the primary key index (a range, not LIKE).
    static func ids(withPrefix prefix: String, of user: User.ID? = nil, limit: Int = 10, in db: Connection) throws
        -> [Order.ID]
    {
        if let user {
            return try db.fetchAll(
                "SELECT id FROM orders WHERE id >= ? AND id < ? AND user_id = ? ORDER BY id LIMIT ?",
                [prefix, prefix + "\u{10FFFF}", user, limit]
            ) { try $0.id("id") }
        }
        return try db.fetchAll(
            "SELECT id FROM orders WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
            [prefix, prefix + "\u{10FFFF}", limit]
        ) { try $0.id("id") }
    }

    /// Up to `limit` time-ordered orders whose short id (``Identifier/short``: a version 7 id's
    /// last 8 characters, from the 29th) starts with `start` (1 to 8 lowercase characters), newest
    /// first. `user`'s orders through their index; otherwise those made between the two times —
    /// a range of the primary key, since a version 7 id starts with its time — or any order when
    /// `made` is nil (a scan of the smallest index: the fallback for an old order).
    static func ids(
        withShortStart start: String, of user: User.ID? = nil, made: ClosedRange<Date>? = nil, limit: Int = 10,
        in db: Connection
    ) throws -> [Order.ID] {
        guard (1...8).contains(start.utf8.count) else { return [] }
        // A constant (the short-id rule; `start` is bound as ?1), spliced into each statement below.
        let short = "substr(id, 15, 1) = '7' AND substr(id, 29, length(?1)) = ?1"
        if let user {
            return try db.fetchAll(
                "SELECT id FROM orders WHERE user_id = ?2 AND " + short + " LIMIT ?3", [start, user, limit]
            ) { try $0.id("id") }.sorted(by: >)
        }
        if let made {
            return try db.fetchAll(
                "SELECT id FROM orders WHERE id >= ?2 AND id < ?3 AND " + short + " ORDER BY id DESC LIMIT ?4",
                [
                    start, Order.ID.timePrefix(made.lowerBound), Order.ID.timePrefix(made.upperBound) + "\u{10FFFF}",
                    limit,
                ]
            ) { try $0.id("id") }
        }
        // No ORDER BY: SQLite then scans the smallest index holding the id, not the table.
        return try db.fetchAll("SELECT id FROM orders WHERE " + short + " LIMIT ?2", [start, limit]) {
            try $0.id("id")
        }.sorted(by: >)
    }

    // MARK: - Lines and history

    /// The columns ``LineDecoder`` reads, from `order_lines l` (a constant: the annotations'
    /// columns are ``LineAnnotations/columns``).
    static let lineColumns =
        """
        l.order_id, l.line_no, l.pizza_id, l.pizza_name AS name, l.unit_price_cents, l.quantity, l.uses_oven, l.variant_id,
        l.variant_name AS variant, l.base_price_cents, l.modifiers, l.allergens, l.vat_rate_bp, l.station_id
        """ + LineAnnotations.columns.map { ", l." + $0.description }.joined()
    /// The columns ``StatusEventDecoder`` reads, from `order_status_events e` (a constant).
    static let eventColumns = "e.id, e.order_id, e.kind, e.from_status, e.to_status, e.detail, e.actor, e.at"

    static let orderLinesSQL = "SELECT " + lineColumns + " FROM order_lines l WHERE l.order_id = ? ORDER BY l.line_no"
    static let orderHistorySQL =
        "SELECT " + eventColumns + " FROM order_status_events e WHERE e.order_id = ? ORDER BY e.id"

    /// One order's lines and status history, through the primary key and the `(order_id, id)`
    /// index: what a single order, a booking's replay and the feed need.
    static func details(of id: Order.ID, in db: Connection) throws -> (lines: [OrderLine], history: [OrderStatusChange])
    {
        (
            try db.fetchAll(orderLinesSQL, [id], LineDecoder.self).map(\.value),
            try db.fetchAll(orderHistorySQL, [id], StatusEventDecoder.self).map(\.value)
        )
    }

    // MARK: - Writing

    /// Inserts the order and its lines (the schema's triggers check the capacity, keep the total
    /// and record the first status event); `beforeLines` runs between the two (a staff override
    /// over capacity is recorded there, once the order exists and before its pizzas fill the slot).
    static func insert(
        id: Order.ID, userID: User.ID, pickupAt: String, serviceDay: LocalDate, pickupLocal: String, key: String?,
        fingerprint: String?, lines: [OrderLine], actor: String?, historyNote: String? = nil, party: Order.ID? = nil,
        at: Date, in db: Connection, beforeLines: () throws -> Void = {}
    ) throws {
        let stamp = Timestamp.string(from: at)
        try db.run(
            """
            INSERT INTO orders (id, user_id, pickup_at, service_day, pickup_local, idempotency_key, request_fingerprint, changed_by,
                                change_note, party_id, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                id, userID, pickupAt, serviceDay.description, pickupLocal, key, fingerprint, actor, historyNote, party,
                stamp, stamp,
            ])
        try beforeLines()
        for (number, line) in lines.enumerated() { try insertLine(line, number: number + 1, order: id, in: db) }
        // The placed event's total is the lines' (the event was written with the order, before them).
        try db.run(
            "UPDATE order_status_events SET total_cents = ? WHERE order_id = ? AND kind = 'placed' AND total_cents IS NULL",
            [lines.reduce(Int64(0)) { $0 + $1.total.cents }, id])
    }

    /// Compare-and-set status change; the trigger records the event with `actor` and `at`.
    static func setStatus(
        id: Order.ID, from: OrderStatus, to: OrderStatus, actor: String?, note: String? = nil, at: Date,
        in db: Connection
    ) throws -> Bool {
        try db.run(
            "UPDATE orders SET status = ?, changed_by = ?, changed_at = ?, change_note = ? WHERE id = ? AND status = ?",
            [to.rawValue, actor, Timestamp.string(from: at), note, id, from.rawValue]) == 1
    }

    /// Compare-and-set move: the triggers record it, bump the version and carry the pizzas to the new slot.
    static func move(
        id: Order.ID, version: Int, pickupAt: String, serviceDay: LocalDate, pickupLocal: String, actor: String?,
        historyNote: String? = nil, at: Date, in db: Connection
    ) throws -> Bool {
        try db.run(
            """
            UPDATE orders SET pickup_at = ?, service_day = ?, pickup_local = ?, changed_by = ?, changed_at = ?, change_note = ?
            WHERE id = ? AND version = ? AND status = 'placed'
            """,
            [
                pickupAt, serviceDay.description, pickupLocal, actor, Timestamp.string(from: at), historyNote, id,
                version,
            ]) == 1
    }

    /// Compare-and-set delay of a placed or preparing order (the schema lets a preparing order's
    /// pickup move only later, with `note` starting `delayed +N`).
    static func delay(
        id: Order.ID, version: Int, pickupAt: String, serviceDay: LocalDate, pickupLocal: String, actor: String?,
        note: String, at: Date, in db: Connection
    ) throws -> Bool {
        try db.run(
            """
            UPDATE orders SET pickup_at = ?, service_day = ?, pickup_local = ?, changed_by = ?, changed_at = ?, change_note = ?
            WHERE id = ? AND version = ? AND status IN ('placed', 'preparing')
            """,
            [pickupAt, serviceDay.description, pickupLocal, actor, Timestamp.string(from: at), note, id, version]) == 1
    }

    /// An order's lines with their numbers, in line order.
    static func numberedLines(of id: Order.ID, in db: Connection) throws -> [(number: Int64, line: OrderLine)] {
        try db.fetchAll(orderLinesSQL, [id], LineDecoder.self).map { ($0.key, $0.value) }
    }

    static func setQuantity(_ quantity: Int, line number: Int64, order id: Order.ID, in db: Connection) throws {
        try db.run("UPDATE order_lines SET quantity = ? WHERE order_id = ? AND line_no = ?", [quantity, id, number])
    }

    static func deleteLine(_ number: Int64, order id: Order.ID, in db: Connection) throws {
        try db.run("DELETE FROM order_lines WHERE order_id = ? AND line_no = ?", [id, number])
    }

    /// Compare-and-set end of an edit: the new note, the version bumped, the time stamped.
    static func finishEdit(id: Order.ID, version: Int, note: String?, at: Date, in db: Connection) throws -> Bool {
        try db.run(
            "UPDATE orders SET note = ?, version = version + 1, updated_at = ? WHERE id = ? AND version = ? AND status = 'placed'",
            [note, Timestamp.string(from: at), id, version]) == 1
    }

    /// A new version of an order whose lines changed at the counter (any open status).
    static func bumpVersion(id: Order.ID, version: Int, at: Date, in db: Connection) throws -> Bool {
        try db.run(
            "UPDATE orders SET version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
            [Timestamp.string(from: at), id, version]) == 1
    }

    /// Appends a history event the triggers do not write (an edit, an undo).
    static func appendEvent(
        order id: Order.ID, kind: OrderStatusChange.Kind, from: OrderStatus, to: OrderStatus, detail: String?,
        actor: String?, at: Date, in db: Connection
    ) throws {
        try db.run(
            """
            INSERT INTO order_status_events (order_id, kind, from_status, to_status, detail, actor, at, pickup_local, total_cents)
            SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, o.pickup_local, o.total_cents FROM orders o WHERE o.id = ?1
            """, [id, kind.rawValue, from.rawValue, to.rawValue, detail, actor, Timestamp.string(from: at)])
    }

    /// The order's latest event that changed its status (booked, a status change or an undo).
    static func lastStatusEvent(of id: Order.ID, in db: Connection) throws -> (key: Int64, value: OrderStatusChange)? {
        try db.fetchOne(
            "SELECT " + eventColumns + """
                 FROM order_status_events e WHERE e.order_id = ? AND e.kind IN ('placed', 'status', 'undo') ORDER BY e.id DESC LIMIT 1
                """, [id], StatusEventDecoder.self
        ).map { ($0.key, $0.value) }
    }
}
