import Foundation
import PizzeriaStorage

/// What an erasure clears of a customer's rows, declared once: the erasure applies it
/// (``UserStore/erase(_:actor:at:in:)``), `check` counts what is left of it and `check --repair`
/// applies it again — so a new free-text column of a customer's data is one line here.
///
/// The SQL is built once from these constants (table, column and owner are never input); the
/// customer's id is bound as `?1`.
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
        /// The table.
        let table: String
        /// The column of free text.
        let column: String
        /// What it becomes: `NULL`, or a constant text the schema requires (`'[erased]'`).
        let erased: String
        /// The condition that picks the customer's rows, their id bound as `?1`.
        let owner: String
        /// How it is counted.
        let kind: Kind

        /// Sets the column to its erased value on the customer's rows that still carry text.
        var update: String {
            "UPDATE \(table) SET \(column) = \(erased) WHERE \(owner) AND \(column) IS NOT \(erased)"
        }
        /// How many of the customer's rows still carry text.
        var leftover: String { "SELECT count(*) AS n FROM \(table) WHERE \(owner) AND \(column) IS NOT \(erased)" }
    }

    /// The customer's orders, as a condition on an `order_id` (or another column naming an order).
    private static func orders(_ column: String) -> String {
        "\(column) IN (SELECT o.id FROM orders o WHERE o.user_id = ?1)"
    }

    /// Every redaction, in the order the erasure applies them.
    static let redactions: [Redaction] = [
        Redaction(table: "orders", column: "note", erased: "NULL", owner: "user_id = ?1", kind: .note),
        Redaction(table: "order_lines", column: "note", erased: "NULL", owner: orders("order_id"), kind: .note),
        Redaction(table: "payments", column: "reference", erased: "NULL", owner: orders("order_id"), kind: .record),
        Redaction(
            table: "party_payments", column: "reference", erased: "NULL", owner: orders("party_id"), kind: .record),
        Redaction(
            table: "refunds", column: "reason", erased: "'[erased]'",
            owner:
                "payment_id IN (SELECT p.id FROM payments p JOIN orders o ON o.id = p.order_id WHERE o.user_id = ?1)",
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

    /// How many of a customer's rows still carry text a redaction clears.
    static func leftovers(_ user: String, in db: Connection) throws -> Int {
        try redactions.reduce(0) { sum, redaction in
            sum + (try db.fetchOne(redaction.leftover, [user]) { try $0.int("n") } ?? 0)
        }
    }
}
