import CPizzeriaSQLite
import Foundation
import PizzeriaServices

/// What an analyst could type into `sqlite3`: each statement on a connection of its own, as the
/// shell opens one (no Pizzeria mark, `foreign_keys` and `recursive_triggers` off). Each is
/// refused, allowed and recorded, or (the schema itself changed) reported by `check`.
enum HandEdits {
    enum Expectation {
        /// The schema must refuse it.
        case refused
        /// It may go through; the invariants must hold after it (a change to a line is in the history).
        case allowed
        /// It changes the schema: `check` must name it, `check --repair` put it back.
        case schema
    }

    struct Edit {
        let name: String
        let sql: String
        let expectation: Expectation
        /// The model's order it touches (`{order}` in the SQL), when it needs one in these states.
        let needs: Set<OrderStatus>?
    }

    /// Every table that has a DELETE trigger: REPLACE would delete a row behind it.
    static let guardedTables = [
        "allergens", "audit_context", "audit_log", "capacity_overrides", "capacity_rules", "categories",
        "config_generation", "modifier_groups", "modifiers", "navigation_events", "order_lines", "order_status_events",
        "orders", "payments", "pizza_history", "pizza_modifier_groups", "pizza_variants", "pizzas", "refunds",
        "schedule_exceptions", "settings", "shop", "slot_loads", "staff", "user_erasures", "weekly_hours",
    ]

    static let catalogue: [Edit] =
        named
        + guardedTables.map { table in
            // The table's name is one of the constants above.
            Edit(
                name: "REPLACE a row of \(table)", sql: "REPLACE INTO \(table) SELECT * FROM \(table) LIMIT 1",
                expectation: .refused, needs: nil)
        }

    static let named: [Edit] = [
        Edit(
            name: "shrink a refund by REPLACE",
            sql:
                "REPLACE INTO refunds (id, payment_id, amount_cents, reason, at) SELECT id, payment_id, 1, reason, at FROM refunds ORDER BY id LIMIT 1",
            expectation: .refused, needs: nil),
        Edit(
            name: "rewrite a payment by INSERT OR REPLACE",
            sql:
                "INSERT OR REPLACE INTO payments (id, order_id, amount_cents, method, at) SELECT id, order_id, 1, method, at FROM payments ORDER BY id LIMIT 1",
            expectation: .refused, needs: nil),
        Edit(
            name: "UPSERT a payment",
            sql:
                "INSERT INTO payments (id, order_id, amount_cents, method, at) SELECT id, order_id, 1, method, at FROM payments ORDER BY id LIMIT 1 ON CONFLICT (id) DO UPDATE SET amount_cents = 1",
            expectation: .refused, needs: nil),
        Edit(
            name: "raise a payment", sql: "UPDATE payments SET amount_cents = amount_cents + 100",
            expectation: .refused, needs: nil),
        Edit(name: "delete the refunds", sql: "DELETE FROM refunds", expectation: .refused, needs: nil),
        Edit(
            name: "replace a history row",
            sql: "REPLACE INTO order_status_events SELECT * FROM order_status_events ORDER BY id LIMIT 1",
            expectation: .refused, needs: nil),
        Edit(
            name: "rewrite a history detail", sql: "UPDATE order_status_events SET detail = 'nothing happened'",
            expectation: .refused, needs: nil),
        Edit(
            name: "forge who acts", sql: "UPDATE audit_context SET actor = 'giulia', source = 'till' WHERE id = 1",
            expectation: .refused, needs: nil),
        Edit(
            name: "replace who acts",
            sql: "REPLACE INTO audit_context (id, actor, source) VALUES (1, 'giulia', 'till')",
            expectation: .refused, needs: nil),
        // Only loads that are not zero: setting a slot of drinks alone (booked 0) to 0 changes
        // nothing, which the schema rightly lets through (found by seed 11).
        Edit(
            name: "zero a slot's load", sql: "UPDATE slot_loads SET booked = 0 WHERE booked > 0", expectation: .refused,
            needs: nil),
        Edit(
            name: "type a total", sql: "UPDATE orders SET total_cents = 1 WHERE id = '{order}'", expectation: .refused,
            needs: [.placed, .preparing, .ready, .collected]),
        Edit(
            name: "jump to collected", sql: "UPDATE orders SET status = 'collected' WHERE id = '{order}'",
            expectation: .refused, needs: [.placed]),
        Edit(
            name: "reprice a line", sql: "UPDATE order_lines SET unit_price_cents = 1 WHERE order_id = '{order}'",
            expectation: .refused, needs: [.placed]),
        Edit(
            name: "add a line",
            sql:
                "INSERT INTO order_lines SELECT order_id, 99, pizza_id, pizza_name, unit_price_cents, 1, uses_oven, variant_id, variant_name, base_price_cents, modifiers, allergens, vat_rate_bp FROM order_lines WHERE order_id = '{order}' LIMIT 1",
            expectation: .refused, needs: [.placed]),
        Edit(
            name: "delete an order", sql: "DELETE FROM orders WHERE id = '{order}'", expectation: .refused,
            needs: [.placed, .cancelled, .collected]),
        Edit(
            name: "replace an order", sql: "REPLACE INTO orders SELECT * FROM orders WHERE id = '{order}'",
            expectation: .refused, needs: [.placed, .cancelled, .collected]),
        Edit(
            name: "one more pizza on a line",
            sql:
                "UPDATE order_lines SET quantity = quantity + 1 WHERE order_id = '{order}' AND line_no = (SELECT min(line_no) FROM order_lines WHERE order_id = '{order}') AND quantity < 20",
            expectation: .allowed, needs: [.placed]),
        Edit(
            name: "take a line off",
            sql:
                "DELETE FROM order_lines WHERE order_id = '{order}' AND line_no = (SELECT max(line_no) FROM order_lines WHERE order_id = '{order}') AND (SELECT count(*) FROM order_lines WHERE order_id = '{order}') > 1",
            expectation: .allowed, needs: [.placed]),
        Edit(
            name: "a note by hand", sql: "UPDATE orders SET note = 'citofono {token}' WHERE id = '{order}'",
            expectation: .allowed, needs: [.placed]),
        Edit(
            name: "drop the capacity guard", sql: "DROP TRIGGER slot_loads_capacity", expectation: .schema, needs: nil),
        Edit(
            name: "drop the history's guard", sql: "DROP TRIGGER order_status_events_append_only_delete",
            expectation: .schema, needs: nil),
        Edit(
            name: "drop a view", sql: "DROP VIEW order_payments", expectation: .schema, needs: nil),
    ]

    /// Applies the catalogue's edit `step.edit` to the order `step.order` (if it needs one).
    static func apply(_ step: Step, shop: Shop) throws -> Outcome {
        guard let index = step.edit, let edit = catalogue[safe: index] else { return .skipped }
        var sql = edit.sql
        var touched: Int?
        if let needs = edit.needs {
            guard let label = step.order, let booked = shop.model.orders[label], needs.contains(booked.status) else {
                return .skipped
            }
            touched = label
            sql = sql.replacingOccurrences(of: "{order}", with: booked.id.description)
                .replacingOccurrences(of: "{token}", with: shop.tokenOf(booked))
        }
        let before = try touched.map { label in
            try shop.count(lineCountSQL, [shop.model.orders[label]?.id.description ?? ""])
        }
        let historyBefore = try touched.map { label in
            try shop.count(historySQL, [shop.model.orders[label]?.id.description ?? ""])
        }
        let result = try execute(sql, on: shop.path)
        switch edit.expectation {
        case .refused:
            if result.error == nil, result.changes > 0 {
                throw Finding(
                    invariant: "hand-edits", detail: "'\(edit.name)' was accepted (\(result.changes) rows): \(sql)")
            }
            return .refused(result.error ?? "changed nothing")
        case .allowed:
            guard result.error == nil else { return .refused(result.error ?? "") }
            if let label = touched, result.changes > 0 {
                let id = shop.model.orders[label]?.id.description ?? ""
                let lineChanges = try shop.count(lineCountSQL, [id]) != before || sql.contains("quantity")
                try shop.refresh(label)
                if lineChanges, !sql.contains("note") {
                    shop.model.orders[label]?.events["edited", default: 0] += 1
                    if try shop.count(historySQL, [id]) != (historyBefore ?? 0) + 1 {
                        throw Finding(
                            invariant: "history", detail: "'\(edit.name)' changed a line with nothing in the history")
                    }
                }
            }
            return .done
        case .schema:
            guard result.error == nil else { return .refused(result.error ?? "") }
            let check = try Maintenance.check(path: shop.path, now: shop.clock.now)
            if check.schemaDrift.isEmpty {
                throw Finding(invariant: "check-schema", detail: "'\(edit.name)' left check silent: \(sql)")
            }
            _ = try Maintenance.repair(path: shop.path, now: shop.clock.now)
            let after = try Maintenance.check(path: shop.path, now: shop.clock.now)
            if !after.schemaDrift.isEmpty {
                throw Finding(invariant: "check-schema", detail: "check --repair left \(after.schemaDrift)")
            }
            return .done
        }
    }

    static let lineCountSQL = "SELECT count(*) AS n FROM order_lines WHERE order_id = ?"
    static let historySQL = "SELECT count(*) AS n FROM order_status_events WHERE order_id = ?"

    /// What a statement typed into a plain SQLite connection did.
    struct Result {
        let error: String?
        let changes: Int
    }

    /// Runs `sql` on a connection of its own, opened as the `sqlite3` shell opens one.
    static func execute(_ sql: String, on path: String) throws -> Result {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let db = handle else {
            sqlite3_close_v2(handle)
            throw Finding(invariant: "setup", detail: "cannot open \(path) as sqlite3 would")
        }
        defer { sqlite3_close_v2(db) }
        sqlite3_busy_timeout(db, 5_000)
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(db, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        if code != SQLITE_OK { return Result(error: message.map { String(cString: $0) } ?? "code \(code)", changes: 0) }
        return Result(error: nil, changes: Int(sqlite3_changes(db)))
    }
}
