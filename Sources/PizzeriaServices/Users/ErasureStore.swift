import Foundation
import PizzeriaStorage

/// What an erasure clears of a customer's rows, declared once: the erasure applies it
/// (``UserStore/erase(_:actor:at:in:)``), `check` counts what is left of it and `check --repair`
/// applies it again — so a new free-text column of a customer's data is one line here.
///
/// The SQL is built once from these constants (table, column and owner are never input); the
/// erasure binds the customer's id as `?1`, and `check` counts for every erased customer at once.
enum ErasureStore {
    /// What a redaction's count is reported as.
    enum Kind {
        /// The kitchen's notes on their orders and lines.
        case note
        /// The free text of the records kept about their orders (references, reasons).
        case record
    }

    /// One column of a customer's rows that the erasure clears.
    struct Redaction {
        /// How it is counted.
        let kind: Kind
        /// Sets the column to its erased value on the customer's rows (their id bound as `?1`)
        /// that still carry text.
        let update: String
        /// How many rows of the erased customer `u.id` (of `check`'s query) still carry text.
        let leftover: String

        /// `table`'s `column` on the rows `owner` picks of a customer (given an SQL expression for them)
        /// becomes `erased`: `NULL`, or a constant text the schema requires (`'[erased]'`).
        init(table: String, column: String, erased: String, owner: (String) -> String, kind: Kind) {
            self.kind = kind
            // Identifiers and the erased value are the constants of `redactions`, never input;
            // the customer's id is bound.
            update = "UPDATE \(table) SET \(column) = \(erased) WHERE \(owner("?1")) AND \(column) IS NOT \(erased)"
            // The same constants, for the erased customer of `check`'s query.
            leftover = "(SELECT count(*) FROM \(table) WHERE \(owner("u.id")) AND \(column) IS NOT \(erased))"
        }
    }

    /// The customer's orders, as a condition on an `order_id` (or another column naming an order).
    private static func orders(_ column: String) -> (String) -> String {
        // A constant column and the caller's expression for the customer.
        { "\(column) IN (SELECT o.id FROM orders o WHERE o.user_id = \($0))" }
    }

    /// Every redaction, in the order the erasure applies them.
    static let redactions: [Redaction] = [
        Redaction(table: "orders", column: "note", erased: "NULL", owner: { "user_id = \($0)" }, kind: .note),
        Redaction(table: "order_lines", column: "note", erased: "NULL", owner: orders("order_id"), kind: .note),
        Redaction(table: "payments", column: "reference", erased: "NULL", owner: orders("order_id"), kind: .record),
        Redaction(
            table: "party_payments", column: "reference", erased: "NULL", owner: orders("party_id"), kind: .record),
        Redaction(
            table: "refunds", column: "reason", erased: "'[erased]'",
            owner: {
                "payment_id IN (SELECT p.id FROM payments p JOIN orders o ON o.id = p.order_id WHERE o.user_id = \($0))"
            },
            kind: .record),
        Redaction(
            table: "order_discounts", column: "reason", erased: "'[erased]'", owner: orders("order_id"), kind: .record),
        Redaction(
            table: "capacity_overrides", column: "reason", erased: "'[erased]'", owner: orders("order_id"),
            kind: .record),
    ]

    /// Applies every redaction to a customer's rows (their id as stored); how many rows each kind
    /// changed.
    static func redact(_ user: String, in db: Connection) throws -> [Kind: Int] {
        var changed: [Kind: Int] = [:]
        for redaction in redactions {
            changed[redaction.kind, default: 0] += try db.run(redaction.update, [user])
        }
        return changed
    }

    /// How many rows of the erased customer `u.id` still carry text a redaction clears: one SQL
    /// expression, for `check`'s query over every erased customer.
    static let leftovers = redactions.map(\.leftover).joined(separator: "\n + ")
}
