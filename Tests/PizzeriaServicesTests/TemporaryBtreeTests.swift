import Foundation
import Testing
import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

/// Migration 30: a booking's statements build no temporary b-tree where none is needed. SQLite
/// builds one (`OpenEphemeral`) for an `IN` list of more than two values each time a CHECK with
/// one runs, and for an `UPDATE` whose rows it gathers first; `EXPLAIN` of an INSERT lists the
/// statement's program and then every trigger program it may run, each opening with
/// `-- TRIGGER name`. These expectations fail on the schema before migration 30 (the order's
/// status CHECK, its `placed` event's kind and status CHECKs, the line's stock-take trigger).
@Suite("A booking builds no temporary b-trees but for a new slot or a line with modifiers; a navigation step none")
struct TemporaryBtreeTests {
    /// The programs of `EXPLAIN sql` that open a temporary b-tree: `main` for the statement's own,
    /// else the trigger's name.
    /// On the writer: a read-only connection compiles an INSERT without its constraint checks.
    func programsOpeningTemporaryBtrees(_ f: OrderFixture, _ sql: String) throws -> Set<String> {
        try f.pizzeria.database.withWriter { db in
            var program = "main"
            var opening: Set<String> = []
            // EXPLAIN compiles the statement without running it; its parameters only need values.
            let nulls = [any DatabaseValueConvertible](
                repeating: DatabaseValue.null, count: sql.filter { $0 == "?" }.count)
            try db.forEach("EXPLAIN " + sql, nulls) { row in
                let opcode = try row.string("opcode")
                let p4 = try? row.optionalString("p4")
                if opcode == "Init", let p4, p4.hasPrefix("-- TRIGGER ") {
                    program = String(p4.dropFirst("-- TRIGGER ".count))
                }
                if opcode == "OpenEphemeral" { opening.insert(program) }
            }
            return opening
        }
    }

    @Test("an order: only the triggers that open a new slot build one")
    func order() throws {
        let f = try OrderFixture()
        let opening = try programsOpeningTemporaryBtrees(
            f,
            """
            INSERT INTO orders (id, user_id, pickup_at, service_day, pickup_local, idempotency_key, request_fingerprint,
                                changed_by, change_note, party_id, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        // slot_loads_open runs (and slot_loads_ruled checks its row) only for the first order of a slot.
        #expect(opening.isSubset(of: ["slot_loads_open", "slot_loads_ruled"]), "\(opening.sorted())")
        #expect(!opening.contains("main"))
        #expect(!opening.contains("orders_placed_event"))
    }

    @Test("a line: only the rules and stock of its modifiers build one, and only for a line that has some")
    func line() throws {
        let f = try OrderFixture()
        let opening = try programsOpeningTemporaryBtrees(
            f,
            """
            INSERT INTO order_lines (order_id, line_no, pizza_id, pizza_name, unit_price_cents, quantity, uses_oven,
                                     variant_id, variant_name, base_price_cents, modifiers, allergens, vat_rate_bp)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        // order_lines_insert_rules counts the line's distinct modifiers (a DISTINCT aggregate) only
        // when it has modifiers; order_lines_modifier_stock_take runs only then (its WHEN), and the
        // audit entry of a modifier's change (audit_modifiers_update) only when an admin changes one;
        // station_loads_line_insert (opening a station's slot row) only for a line prepared at a
        // station other than the oven (its WHEN: never a pizza's), and with it station_loads_capacity
        // (ranking the station's capacity rules for the slot: a sorter of a handful of rows).
        #expect(
            opening.isSubset(of: [
                "order_lines_insert_rules", "order_lines_modifier_stock_take", "audit_modifiers_update",
                "station_loads_line_insert", "station_loads_capacity",
            ]),
            "\(opening.sorted())")
        #expect(!opening.contains("order_lines_stock_take"))
    }

    @Test(
        "an audit trigger's INSERT … SELECT builds one, of its one row: audit_log's only trigger on insert refuses a replaced row (migration 38)"
    )
    func auditInsert() throws {
        let f = try OrderFixture()
        let opening = try programsOpeningTemporaryBtrees(
            f,
            """
            INSERT INTO audit_log (at, actor, source, object, action, old, new, history_id)
            SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), ?, ?, ?, ?, ?
            FROM audit_context c WHERE c.id = 1
            """)
        // SQLite gathers an INSERT … SELECT's rows first when the table has an insert trigger:
        // one row here. The trigger (audit_log_never_replaced) is the one that closes REPLACE.
        #expect(opening == ["main"], "\(opening.sorted())")
    }

    @Test(
        "a navigation step builds none: its event, with the partial index and the view counter, and a pushed route (migration 32)",
        arguments: [
            "INSERT INTO navigation_events (user_id, action, routes, depth_after, top_before, detail, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            "INSERT INTO navigation_stack (user_id, depth, kind, pizza_id) VALUES (?, ?, 'pizza', ?)",
            "INSERT INTO navigation_stack (user_id, depth, kind, order_id) VALUES (?, ?, 'order', ?)",
            "INSERT INTO navigation_stack (user_id, depth, kind, category_id) VALUES (?, ?, 'category', ?)",
            "INSERT INTO navigation_stack (user_id, depth, kind, opaque_type, opaque_json) VALUES (?, ?, 'opaque', ?, ?)",
        ])
    func navigation(sql: String) throws {
        // The router's statements (NavigationStore), compiled against the schema: before migration
        // 32 the event built three (its action CHECK, the partial index's WHERE, the view counter's
        // WHEN) and each route one (its kind CHECK).
        let f = try OrderFixture()
        #expect(try programsOpeningTemporaryBtrees(f, sql).isEmpty)
    }

    @Test("a line with modifiers takes their stock (its own trigger now); a line without leaves it alone")
    func modifierStock() throws {
        let f = try OrderFixture()
        let (margherita, bufala) = try f.bufalaOnMargherita(left: 5)
        func left() throws -> Int? {
            try f.pizzeria.database.read { db in
                try db.fetchOne("SELECT stock_left FROM modifiers WHERE id = ?", [bufala]) {
                    try $0.optionalInt64("stock_left").map { Int($0) }
                } ?? nil
            }
        }
        let user = try f.user("anna")
        try f.pizzeria.orders.place(
            OrderRequest(
                user: user, items: [.init(pizza: margherita, quantity: 2, modifiers: [bufala])],
                pickup: try f.at("19:00")))
        #expect(try left() == 3)
        try f.place("anna", "19:30", ("Margherita", 2))
        #expect(try left() == 3)
    }
}
