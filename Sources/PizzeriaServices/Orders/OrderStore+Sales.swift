import Foundation
import PizzeriaStorage

/// The SQL of the sales report: per pizza and per service day, by outcome.
extension OrderStore {
    /// Sales per pizza over the service days `from` through `to` (inclusive; `YYYY-MM-DD` text),
    /// by outcome: collected (the revenue), still booked, no-shows, cancelled.
    static func sales(from: String, to: String, in db: Connection) throws -> [SalesReport.Row] {
        try db.fetchAll(
            """
            SELECT l.pizza_id, l.pizza_name, l.variant_name,
                   (SELECT k.name FROM pizzas p JOIN categories k ON k.id = p.category_id WHERE p.id = l.pizza_id) AS category,
                   sum(CASE WHEN o.status = 'collected' THEN l.quantity ELSE 0 END) AS quantity,
                   sum(CASE WHEN o.status = 'collected' THEN l.quantity * l.unit_price_cents ELSE 0 END) AS revenue_cents,
                   sum(CASE WHEN o.status IN ('placed', 'preparing', 'ready') THEN l.quantity ELSE 0 END) AS booked_quantity,
                   sum(CASE WHEN o.status IN ('placed', 'preparing', 'ready') THEN l.quantity * l.unit_price_cents ELSE 0 END) AS booked_cents,
                   sum(CASE WHEN o.status = 'no_show' THEN l.quantity ELSE 0 END) AS no_show_quantity,
                   sum(CASE WHEN o.status = 'cancelled' THEN l.quantity ELSE 0 END) AS cancelled_quantity
            FROM orders o JOIN order_lines l ON l.order_id = o.id
            WHERE o.service_day >= ? AND o.service_day <= ?
            GROUP BY l.pizza_id, l.pizza_name, l.variant_name
            ORDER BY revenue_cents DESC, booked_cents DESC, l.pizza_name, l.variant_name
            """, [from, to]
        ) { row in
            SalesReport.Row(
                pizzaID: try row.id("pizza_id"), name: try row.string("pizza_name"),
                variant: try row.optionalString("variant_name"), category: try row.optionalString("category"),
                quantity: try row.int("quantity"),
                revenue: Money(cents: try row.int64("revenue_cents")), bookedQuantity: try row.int("booked_quantity"),
                bookedValue: Money(cents: try row.int64("booked_cents")),
                noShowQuantity: try row.int("no_show_quantity"),
                cancelledQuantity: try row.int("cancelled_quantity"))
        }
    }

    /// The same period by service day: orders and their value by outcome.
    static func salesByDay(from: String, to: String, in db: Connection) throws -> [SalesReport.Day] {
        try db.fetchAll(
            """
            SELECT service_day,
                   sum(status = 'collected') AS collected_orders,
                   sum(CASE WHEN status = 'collected' THEN total_cents ELSE 0 END) AS revenue_cents,
                   sum(status IN ('placed', 'preparing', 'ready')) AS booked_orders,
                   sum(CASE WHEN status IN ('placed', 'preparing', 'ready') THEN total_cents ELSE 0 END) AS booked_cents,
                   sum(status = 'no_show') AS no_shows,
                   sum(CASE WHEN status = 'no_show' THEN total_cents ELSE 0 END) AS no_show_cents,
                   sum(status = 'cancelled') AS cancelled
            FROM orders WHERE service_day >= ? AND service_day <= ?
            GROUP BY service_day ORDER BY service_day
            """, [from, to]
        ) { row in
            let text = try row.string("service_day")
            guard let day = LocalDate(text) else {
                throw DataError.damagedRow(table: "orders", id: text, problem: "service_day '\(text)' is not a date")
            }
            return SalesReport.Day(
                serviceDay: day, collectedOrders: try row.int("collected_orders"),
                revenue: Money(cents: try row.int64("revenue_cents")),
                bookedOrders: try row.int("booked_orders"), bookedValue: Money(cents: try row.int64("booked_cents")),
                noShows: try row.int("no_shows"), noShowValue: Money(cents: try row.int64("no_show_cents")),
                cancelled: try row.int("cancelled"))
        }
    }
}

/// The sales of collected orders by hour of pickup and by staff.
extension OrderStore {
    static func salesGroupDecoder(_ row: Row) throws -> SalesGroup {
        SalesGroup(
            key: try row.optionalString("key"), orders: try row.int("orders"), items: try row.int("items"),
            revenue: Money(cents: try row.int64("revenue_cents")), payments: try row.int("payments"),
            paid: Money(cents: try row.int64("paid_cents")))
    }

    /// Collected orders by the local hour of their pickup (`19:00`), the night's hours after
    /// midnight last; their payments whoever took them.
    static func salesByHour(from: String, to: String, in db: Connection) throws -> [SalesGroup] {
        try db.fetchAll(
            """
            SELECT substr(o.pickup_local, 12, 2) || ':00' AS key, count(*) AS orders,
                   coalesce(sum((SELECT sum(l.quantity) FROM order_lines l WHERE l.order_id = o.id)), 0) AS items,
                   coalesce(sum(o.total_cents), 0) AS revenue_cents,
                   coalesce(sum((SELECT count(*) FROM payments p WHERE p.order_id = o.id)), 0) AS payments,
                   coalesce(sum((SELECT sum(p.amount_cents) FROM payments p WHERE p.order_id = o.id)), 0) AS paid_cents
            FROM orders o WHERE o.status = 'collected' AND o.service_day >= ? AND o.service_day <= ?
            GROUP BY key ORDER BY key < '06', key
            """, [from, to], salesGroupDecoder)
    }

    /// Collected orders by who handed them over (the `collected` step's actor), and the payments
    /// each took of the period's orders; `NULL`: nobody said.
    static func salesByStaff(from: String, to: String, in db: Connection) throws -> [SalesGroup] {
        try db.fetchAll(
            """
            WITH handed AS (
                SELECT (SELECT e.actor FROM order_status_events e WHERE e.order_id = o.id AND e.to_status = 'collected'
                        ORDER BY e.id DESC LIMIT 1) AS key,
                       count(*) AS orders,
                       coalesce(sum((SELECT sum(l.quantity) FROM order_lines l WHERE l.order_id = o.id)), 0) AS items,
                       coalesce(sum(o.total_cents), 0) AS revenue_cents
                FROM orders o WHERE o.status = 'collected' AND o.service_day >= ?1 AND o.service_day <= ?2
                GROUP BY key),
            taken AS (
                SELECT p.actor AS key, count(*) AS payments, sum(p.amount_cents) AS paid_cents
                FROM payments p JOIN orders o ON o.id = p.order_id
                WHERE o.service_day >= ?1 AND o.service_day <= ?2 GROUP BY p.actor),
            names AS (SELECT key FROM handed UNION SELECT key FROM taken)
            SELECT n.key, coalesce(h.orders, 0) AS orders, coalesce(h.items, 0) AS items,
                   coalesce(h.revenue_cents, 0) AS revenue_cents, coalesce(t.payments, 0) AS payments,
                   coalesce(t.paid_cents, 0) AS paid_cents
            FROM names n LEFT JOIN handed h ON h.key IS n.key LEFT JOIN taken t ON t.key IS n.key
            ORDER BY n.key IS NULL, n.key
            """, [from, to], salesGroupDecoder)
    }
}
