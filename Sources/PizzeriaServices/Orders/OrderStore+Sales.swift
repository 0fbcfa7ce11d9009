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
