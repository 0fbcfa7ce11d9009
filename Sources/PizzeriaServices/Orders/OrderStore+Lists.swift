import Foundation
import PizzeriaStorage

/// The SQL of order lists: keyset pages with their lines and histories in one query each.
extension OrderStore {
    /// A page of orders matching every given filter, by pickup time then id, after the keyset
    /// `(pickupAt, id)`. Each filter adds a constant SQL fragment with a `?`; values are bound.
    static func headers(_ filter: OrderFilter, after: (String, String)?, limit: Int, in db: Connection) throws
        -> [Header]
    {
        var (conditions, arguments) = clauses(filter)
        if let (pickup, id) = after { conditions.append("(o.pickup_at, o.id) > (?, ?)"); arguments += [pickup, id] }
        return try db.fetchAll(
            headersSQL(filter: whereClause(conditions)) + " LIMIT ?", arguments + [limit], HeaderDecoder.self)
    }

    /// The filter's conditions (constant fragments) and their values.
    static func clauses(_ filter: OrderFilter) -> (conditions: [String], arguments: [any DatabaseValueConvertible]) {
        var conditions: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        if let user = filter.user { conditions.append("o.user_id = ?"); arguments.append(user) }
        if let status = filter.status { conditions.append("o.status = ?"); arguments.append(status.rawValue) }
        if let day = filter.serviceDay { conditions.append("o.service_day = ?"); arguments.append(day.description) }
        if let from = filter.pickupFrom {
            conditions.append("o.pickup_at >= ?"); arguments.append(PickupTime.utc(from))
        }
        if let to = filter.pickupBefore { conditions.append("o.pickup_at < ?"); arguments.append(PickupTime.utc(to)) }
        if let item = filter.item {
            conditions.append("EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = o.id AND l.pizza_id = ?)")
            arguments.append(item)
        }
        if let modifier = filter.modifier {
            conditions.append(
                """
                EXISTS (SELECT 1 FROM order_lines l, json_each(l.modifiers) m
                        WHERE l.order_id = o.id AND l.modifiers IS NOT NULL AND m.value ->> '$.id' = ?)
                """)
            arguments.append(modifier.rawValue)
        }
        return (conditions, arguments)
    }

    static func whereClause(_ conditions: [String]) -> String {
        conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    }

    /// The lines and the status history of a page's orders — the orders matching `filter` from
    /// the page's first `(pickupAt, id)` through its last — each in one query that walks the
    /// same index as the page, so rows arrive in the page's order and are matched to their order
    /// by walking both together (no id list to build and parse, no dictionary).
    static func attach(to headers: [Header], filter: OrderFilter, in db: Connection) throws -> (
        lines: [[OrderLine]], history: [[OrderStatusChange]]
    ) {
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
            var values = [[T]](repeating: [], count: headers.count),
                keys = [[Int64]](repeating: [], count: headers.count)
            var at = 0
            try db.forEach(sql, arguments, decoder) { row in
                while at < headers.count, headers[at].id != row.orderID { at += 1 }
                guard at < headers.count else {
                    throw DataError.damagedRow(
                        table: table, id: row.orderID.description, problem: "a row of an order outside the page")
                }
                values[at].append(row.value)
                keys[at].append(row.key)
            }
            for index in values.indices { putInOrder(&values[index], by: keys[index]) }
            return values
        }
        let lines = try perOrder(pageLinesSQL(filter: filterSQL), table: "order_lines", LineDecoder.self)
        let history = try perOrder(
            pageHistorySQL(filter: filterSQL), table: "order_status_events", StatusEventDecoder.self)
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
}
