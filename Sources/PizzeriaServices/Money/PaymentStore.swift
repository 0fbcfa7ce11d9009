import Foundation
import PizzeriaStorage

/// The SQL of payments and refunds. Functions take the connection of an open transaction.
enum PaymentStore {
    static let paymentColumns =
        "p.id, p.order_id, p.amount_cents, p.method, p.reference, p.tendered_cents, p.at, p.actor AS by, p.party_payment_id"
    static let refundColumns = "r.id, r.payment_id, p.method, r.amount_cents, r.reason, r.at, r.actor AS by"

    /// A payment from a row of ``paymentColumns``: its record's members (see ``Record``).
    static func payment(_ row: Row) throws -> Payment { try Payment(row: row) }

    /// A refund from a row of ``refundColumns``.
    static func refund(_ row: Row) throws -> Refund { try Refund(row: row) }

    static func payments(of order: Order.ID, in db: Connection) throws -> [Payment] {
        try db.fetchAll(
            "SELECT " + paymentColumns + " FROM payments p WHERE p.order_id = ? ORDER BY p.id", [order], payment)
    }

    static func refunds(of order: Order.ID, in db: Connection) throws -> [Refund] {
        try db.fetchAll(
            "SELECT " + refundColumns
                + " FROM payments p JOIN refunds r ON r.payment_id = p.id WHERE p.order_id = ? ORDER BY r.id",
            [order], refund)
    }

    /// Orders still to hand over (placed, preparing or ready) with a pickup from `from` to `to` (UTC text).
    static func openOrders(pickupFrom from: String, to: String, in db: Connection) throws -> [Order.ID] {
        try db.fetchAll(
            """
            SELECT id FROM orders
            WHERE pickup_at >= ? AND pickup_at <= ? AND status IN ('placed', 'preparing', 'ready')
            ORDER BY pickup_at, id
            """, [from, to]
        ) { try $0.id("id") }
    }

    static func payment(method: PaymentMethod, reference: String, in db: Connection) throws -> Payment? {
        try db.fetchOne(
            "SELECT " + paymentColumns + " FROM payments p WHERE p.method = ? AND p.reference = ?",
            [method.rawValue, reference], payment)
    }

    static func insert(
        order: Order.ID, amount: Money, method: PaymentMethod, reference: String?, tendered: Money?, actor: String?,
        at: Date, in db: Connection
    ) throws -> Payment {
        try db.run(
            """
            INSERT INTO payments (order_id, amount_cents, method, reference, tendered_cents, at, actor)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [order, amount.cents, method.rawValue, reference, tendered?.cents, Timestamp.string(from: at), actor])
        return Payment(
            id: db.lastInsertRowID, orderID: order, amount: amount, method: method, reference: reference,
            tendered: tendered, at: at, actor: actor)
    }

    static func insertRefund(
        payment: Payment, amount: Money, reason: String, actor: String?, at: Date, in db: Connection
    ) throws -> Refund {
        try db.run(
            "INSERT INTO refunds (payment_id, amount_cents, reason, at, actor) VALUES (?, ?, ?, ?, ?)",
            [payment.id, amount.cents, reason, Timestamp.string(from: at), actor])
        return Refund(
            id: db.lastInsertRowID, paymentID: payment.id, method: payment.method, amount: amount, reason: reason,
            at: at, actor: actor)
    }

    /// Orders whose kept money is more than they owe (a cancelled paid order), pickup order.
    static func owingRefunds(limit: Int, in db: Connection) throws -> [Order.ID] {
        try db.fetchAll(
            "SELECT order_id FROM order_payments WHERE owes_refund_cents > 0 ORDER BY service_day, order_id LIMIT ?",
            [limit]
        ) { try $0.id("order_id") }
    }

    // MARK: - A service day

    /// Every payment of the day's orders.
    static func payments(ofDay day: LocalDate, in db: Connection) throws -> [Payment] {
        try db.fetchAll(
            "SELECT " + paymentColumns
                + " FROM orders o JOIN payments p ON p.order_id = o.id WHERE o.service_day = ? ORDER BY p.id",
            [day.description], payment)
    }

    /// Every refund of the day's orders.
    static func refunds(ofDay day: LocalDate, in db: Connection) throws -> [Refund] {
        try db.fetchAll(
            "SELECT " + refundColumns
                + """
                 FROM orders o JOIN payments p ON p.order_id = o.id JOIN refunds r ON r.payment_id = p.id
                WHERE o.service_day = ? ORDER BY r.id
                """,
            [day.description], refund)
    }

    /// Whether the order's customer was erased (their orders keep no free text of theirs).
    static func isErasedCustomer(order: Order.ID, in db: Connection) throws -> Bool {
        try db.fetchOne(
            "SELECT EXISTS (SELECT 1 FROM orders o JOIN user_erasures e ON e.user_id = o.user_id WHERE o.id = ?) AS erased",
            [order]
        ) { try $0.int("erased") == 1 } ?? false
    }

    /// Cash taken and given back between two instants (a drawer's day), whatever day their
    /// orders are: a refund is given back by its payment's method.
    static func cashMoved(from: Date, to: Date, in db: Connection) throws -> (paid: Int64, refunded: Int64) {
        let (start, end) = (Timestamp.string(from: from), Timestamp.string(from: to))
        let row = try db.fetchOne(
            """
            SELECT (SELECT coalesce(sum(amount_cents), 0) FROM payments
                    WHERE method = 'cash' AND at >= ?1 AND at < ?2) AS paid,
                   (SELECT coalesce(sum(r.amount_cents), 0) FROM refunds r JOIN payments p ON p.id = r.payment_id
                    WHERE p.method = 'cash' AND r.at >= ?1 AND r.at < ?2) AS refunded
            """, [start, end]
        ) { (try $0.int64("paid"), try $0.int64("refunded")) }
        return row ?? (0, 0)
    }

    /// Records a count of the drawer.
    static func insertCount(
        day: LocalDate, opening: Money, counted: Money, expected: Money, actor: String?, at: Date, in db: Connection
    ) throws {
        try db.run(
            """
            INSERT INTO drawer_counts (service_day, opening_cents, counted_cents, expected_cents, actor, at)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [day.description, opening.cents, counted.cents, expected.cents, actor, Timestamp.string(from: at)])
    }

    /// The day's latest count of the drawer.
    static func latestCount(of day: LocalDate, in db: Connection) throws -> DrawerCount? {
        try db.fetchOne(
            """
            SELECT service_day, opening_cents, counted_cents, expected_cents, actor, at FROM drawer_counts
            WHERE service_day = ? ORDER BY id DESC LIMIT 1
            """, [day.description]
        ) { row in
            DrawerCount(
                serviceDay: LocalDate(try row.string("service_day")) ?? day,
                opening: Money(cents: try row.int64("opening_cents")),
                counted: Money(cents: try row.int64("counted_cents")),
                expected: Money(cents: try row.int64("expected_cents")), actor: try row.optionalString("actor"),
                at: Timestamp.date(from: try row.string("at")) ?? Date(timeIntervalSince1970: 0))
        }
    }
}
