import Foundation
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

/// Migration 29 merged the rules an order INSERT and a line INSERT check into one trigger per
/// table, in the order SQLite fired the separate triggers. An insert that breaks several rules
/// names the same one as before: these expectations were run against the schema before the
/// merge (migrations 1–28) and after it, and hold on both.
@Suite("One insert trigger per table: every rule, the same rule named first")
struct InsertRulesTests {
    /// The rule a hand-written statement breaks first: its message's code (`order_status`), or
    /// the message itself for a rule without one.
    func refusal(_ f: OrderFixture, _ text: String, _ arguments: [any DatabaseValueConvertible] = []) -> String? {
        do {
            try f.pizzeria.database.write { try $0.run(text, arguments) }
            return nil
        } catch let error as DatabaseError {
            // A rule's message without a code (`pickup_at must be …`) has no token: its text.
            if case .trigger(let token?, _)? = error.constraint { return token }
            return "\(error)"
        } catch {
            return "\(error)"
        }
    }

    /// An order like the placed one, with `columns` (a select list over `orders`) changed.
    func insertOrder(_ columns: String) -> String {
        """
        INSERT INTO orders (id, user_id, pickup_at, service_day, pickup_local, status, total_cents, created_at,
                            updated_at)
        SELECT 'aaaaaaaa-0000-4000-8000-000000000000', \(columns) FROM orders LIMIT 1
        """
    }

    /// A second line of the placed order like its first, with `columns` changed.
    func insertLine(_ columns: String) -> String {
        """
        INSERT INTO order_lines (order_id, line_no, pizza_id, pizza_name, unit_price_cents, quantity, variant_id,
                                 base_price_cents, vat_rate_bp, uses_oven)
        SELECT \(columns) FROM order_lines LIMIT 1
        """
    }

    @Test("an order that breaks several rules is refused by the one that fired first before the merge")
    func orderPrecedence() throws {
        let f = try OrderFixture()
        try f.place("anna", "19:00", ("Margherita", 1))
        let copy = "user_id, pickup_at, service_day, pickup_local"
        // Each rule alone, then with the ones fired after it.
        #expect(refusal(f, insertOrder("\(copy), 'placed', 5, created_at, updated_at")) == "order_total_derived")
        #expect(refusal(f, insertOrder("\(copy), 'ready', 0, created_at, updated_at")) == "order_status")
        #expect(refusal(f, insertOrder("\(copy), 'ready', 5, created_at, updated_at")) == "order_total_derived")
        #expect(refusal(f, insertOrder("\(copy), 'ready', 0, 'yesterday', updated_at")) == "timestamp_format")
        #expect(
            refusal(
                f,
                insertOrder(
                    "user_id, pickup_at, service_day, '2026-12-01T20:00+01:00', 'ready', 0, created_at, updated_at"))
                == "order_status")
        #expect(
            refusal(
                f,
                insertOrder(
                    "user_id, pickup_at, service_day, '2026-12-01T20:00+01:00', 'placed', 0, created_at, updated_at"))
                == "order_local_time")
        let offMinute = refusal(
            f,
            insertOrder(
                "user_id, '2026-12-01T18:00:30Z', service_day, '2026-12-01T20:00+01:00', 'placed', 0, created_at, updated_at"
            ))
        #expect(
            offMinute?.contains("pickup_at must be a real UTC time on the minute") == true,
            "\(String(describing: offMinute))")
        // Nothing was written by any of them.
        let orders = try f.pizzeria.database.read { db in
            try db.fetchOne("SELECT count(*) AS n FROM orders") { try $0.int("n") }
        }
        #expect(orders == 1)
    }

    @Test("a line that breaks several rules is refused by the one that fired first before the merge")
    func linePrecedence() throws {
        let f = try OrderFixture()
        try f.place("anna", "19:00", ("Margherita", 1))
        let rest = "pizza_id, pizza_name, unit_price_cents, quantity"
        let placed = "order_id, 2, \(rest)"
        let unknownOrder = "'bbbbbbbb-0000-4000-8000-000000000000', 1, \(rest)"
        let elsewhere = "variant_id + 1000000"  // no such variant
        #expect(
            refusal(f, insertLine("\(placed), variant_id, base_price_cents, vat_rate_bp + 1, uses_oven")) == "line_vat")
        #expect(
            refusal(f, insertLine("\(placed), \(elsewhere), base_price_cents, vat_rate_bp + 1, uses_oven"))
                == "line_vat")
        #expect(
            refusal(f, insertLine("\(placed), \(elsewhere), base_price_cents, vat_rate_bp, 1 - uses_oven"))
                == "line_variant")
        #expect(
            refusal(f, insertLine("\(placed), variant_id, base_price_cents + 1, vat_rate_bp, 1 - uses_oven"))
                == "line_snapshot")
        #expect(
            refusal(f, insertLine("\(unknownOrder), variant_id, base_price_cents, vat_rate_bp, 1 - uses_oven"))
                == "order_lines_oven")
        #expect(
            refusal(f, insertLine("\(unknownOrder), variant_id, base_price_cents, vat_rate_bp, uses_oven"))
                == "order_locked")
        let lines = try f.pizzeria.database.read { db in
            try db.fetchOne("SELECT count(*) AS n FROM order_lines") { try $0.int("n") }
        }
        #expect(lines == 1)
    }

    @Test("after migration 29 an order INSERT and a line INSERT each run one BEFORE INSERT trigger")
    func oneTriggerEach() throws {
        let f = try OrderFixture()
        let triggers = try f.pizzeria.database.read { db in
            try db.fetchAll(
                """
                SELECT tbl_name, name FROM sqlite_schema
                WHERE type = 'trigger' AND tbl_name IN ('orders', 'order_lines') AND sql LIKE '%BEFORE INSERT ON%'
                ORDER BY tbl_name
                """
            ) { "\(try $0.string("tbl_name")) \(try $0.string("name"))" }
        }
        #expect(triggers == ["order_lines order_lines_insert_rules", "orders orders_insert_rules"])
    }
}
