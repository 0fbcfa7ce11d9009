import Foundation
import PizzeriaStorage

/// The SQL of discounts and comps (`order_discounts`: one row per VAT rate a discount comes off).
/// Functions take the connection of an open transaction.
enum DiscountStore {
    /// Writes `discount`'s rows.
    static func insert(_ discount: OrderDiscount, order: Order.ID, in db: Connection) throws {
        for (rate, amount) in discount.byRate {
            try db.run(
                """
                INSERT INTO order_discounts (order_id, kind, line_no, percent_bp, vat_rate_bp, amount_cents, reason, actor, at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    order, discount.kind.rawValue, discount.line, discount.percentBasisPoints, rate.basisPoints,
                    amount.cents, discount.reason, discount.actor, Timestamp.string(from: discount.at),
                ])
        }
    }

    /// The discounts of each of `orders` (rows of one discount: its kind, line, time and reason
    /// together), oldest first.
    static func discounts(of orders: [Order.ID], in db: Connection) throws -> [Order.ID: [OrderDiscount]] {
        guard !orders.isEmpty else { return [:] }
        var found: [Order.ID: [OrderDiscount]] = [:]
        for chunk in stride(from: 0, to: orders.count, by: 500).map({ Array(orders[$0..<min($0 + 500, orders.count)]) })
        {
            // One `?` per order id, each bound: the statement's text holds no value.
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            var rows: [(order: Order.ID, discount: OrderDiscount)] = []
            try db.forEach(
                """
                SELECT d.id, d.order_id, d.kind, d.line_no, d.percent_bp, d.vat_rate_bp, d.amount_cents, d.reason, d.actor,
                       d.at, l.pizza_name AS line_name
                FROM order_discounts d
                LEFT JOIN order_lines l ON l.order_id = d.order_id AND l.line_no = d.line_no
                WHERE d.order_id IN (
                """ + marks + ") ORDER BY d.order_id, d.id", chunk
            ) { row in
                let id = String(try row.int64("id"))
                guard let kind = OrderDiscount.Kind(rawValue: try row.string("kind")),
                    let rate = VATRate(basisPoints: try row.int("vat_rate_bp")),
                    let at = Timestamp.date(from: try row.string("at"))
                else { throw DataError.damagedRow(table: "order_discounts", id: id, problem: "unreadable") }
                let line = try row.optionalInt64("line_no").map { Int($0) }
                let percent = try row.optionalInt64("percent_bp").map { Int($0) }
                let piece = OrderDiscount(
                    kind: kind, line: line, lineName: try row.optionalString("line_name"), percentBasisPoints: percent,
                    byRate: [(rate, Money(cents: try row.int64("amount_cents")))], reason: try row.string("reason"),
                    actor: try row.optionalString("actor"), at: at)
                let order: Order.ID = try row.id("order_id")
                // A discount's rows are consecutive, one per rate: same order, kind, line, time and
                // reason, and a rate the discount has no row for yet (two alike given at one instant
                // are two discounts: found by the simulator).
                if let last = rows.last, last.order == order, last.discount.kind == kind, last.discount.line == line,
                    last.discount.at == at, last.discount.reason == piece.reason,
                    !last.discount.byRate.contains(where: { $0.rate == rate })
                {
                    rows[rows.count - 1].discount = OrderDiscount(
                        kind: kind, line: line, lineName: piece.lineName, percentBasisPoints: percent,
                        byRate: last.discount.byRate + piece.byRate,
                        reason: piece.reason, actor: piece.actor, at: at)
                } else {
                    rows.append((order, piece))
                }
            }
            for (order, discount) in rows { found[order, default: []].append(discount) }
        }
        return found
    }

    /// Whether the order has a discount or a comp.
    static func hasDiscounts(_ order: Order.ID, in db: Connection) throws -> Bool {
        try db.fetchOne("SELECT 1 AS found FROM order_discounts WHERE order_id = ? LIMIT 1", [order]) {
            try $0.int("found") == 1
        } ?? false
    }
}
