import Foundation
import PizzeriaStorage

/// The SQL of `check`'s domain checks and `check --repair`: every derived value read beside
/// what it derives from. Functions take the connection of an open transaction.
enum DomainStore {
    /// The pizzas of each slot's orders that hold capacity (a constant subquery on `slot_loads s`).
    static let slotSum = """
        (SELECT coalesce(sum(l.quantity * l.uses_oven), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id \
        WHERE o.pickup_at = s.pickup_at AND o.status <> 'cancelled')
        """

    /// Slots whose stored load is not the sum of their orders, and booked pickups with no slot row
    /// (`booked` NULL). `slotSum` is a constant, spliced in.
    static func driftedLoads(in db: Connection) throws -> [(pickupAt: String, booked: Int?, actual: Int)] {
        // `slotSum` is a constant subquery (no value in it); the statement binds nothing.
        try db.fetchAll(
            """
            SELECT s.pickup_at, s.booked, \(slotSum) AS actual FROM slot_loads s WHERE s.booked IS NOT \(slotSum)
            UNION ALL
            SELECT o.pickup_at, NULL AS booked, sum(l.quantity * l.uses_oven) AS actual FROM orders o JOIN order_lines l ON l.order_id = o.id
            WHERE o.status <> 'cancelled' AND NOT EXISTS (SELECT 1 FROM slot_loads s WHERE s.pickup_at = o.pickup_at)
            GROUP BY o.pickup_at
            ORDER BY 1
            """
        ) { (try $0.string("pickup_at"), try $0.optionalInt64("booked").map { Int($0) }, try $0.int("actual")) }
    }

    /// A slot's row as `check` reads it.
    struct SlotRow {
        let pickupAt: String
        let serviceDay: String
        let localMinute: Int
        let capacity: Int
        let rule: String?
        let booked: Int
        /// The pizzas over capacity its live staff overrides granted (`capacity_overrides`).
        let allowance: Int
        /// One of its orders (one holding capacity, if any), with its stored service day and local time.
        let orderID: String?
        let orderDay: String?
        let orderLocal: String?
    }

    /// Every slot row, with one of its orders' service day and local time.
    static func slots(in db: Connection) throws -> [SlotRow] {
        try db.fetchAll(
            """
            SELECT s.pickup_at, s.service_day, s.local_minute, s.capacity, r.rule AS capacity_rule, s.booked,
                   o.id AS order_id, o.service_day AS order_day, o.pickup_local AS order_local,
                   coalesce((SELECT a.pizzas FROM slot_override_allowance a WHERE a.pickup_at = s.pickup_at), 0) AS allowance
            FROM slot_loads s
            LEFT JOIN capacity_rules r ON r.id = s.capacity_rule_id
            LEFT JOIN orders o ON o.id = (SELECT id FROM orders x WHERE x.pickup_at = s.pickup_at ORDER BY x.status = 'cancelled', x.id LIMIT 1)
            ORDER BY s.pickup_at
            """
        ) { row in
            SlotRow(
                pickupAt: try row.string("pickup_at"), serviceDay: try row.string("service_day"),
                localMinute: try row.int("local_minute"),
                capacity: try row.int("capacity"), rule: try row.optionalString("capacity_rule"),
                booked: try row.int("booked"), allowance: try row.int("allowance"),
                orderID: try row.optionalString("order_id"), orderDay: try row.optionalString("order_day"),
                orderLocal: try row.optionalString("order_local"))
        }
    }

    /// Orders whose total is not the sum of their lines less their discounts.
    static func driftedTotals(in db: Connection) throws -> [(id: String, total: Int64, actual: Int64)] {
        try db.fetchAll(
            """
            SELECT o.id, o.total_cents,
                   (SELECT coalesce(sum(l.quantity * l.unit_price_cents), 0) FROM order_lines l WHERE l.order_id = o.id)
                   - (SELECT coalesce(sum(d.amount_cents), 0) FROM order_discounts d WHERE d.order_id = o.id) AS actual
            FROM orders o WHERE o.total_cents IS NOT actual ORDER BY o.id
            """
        ) { (try $0.string("id"), try $0.int64("total_cents"), try $0.int64("actual")) }
    }

    /// An order's times as stored.
    struct OrderTimes {
        let id: String
        let pickupAt: String
        let serviceDay: String
        let pickupLocal: String
        let status: String
        let kept: Bool
    }

    /// Every order's pickup, service day, local time, status and whether it was kept outside the hours.
    static func orderTimes(in db: Connection, _ body: (OrderTimes) throws -> Void) throws {
        try db.forEach(
            "SELECT id, pickup_at, service_day, pickup_local, status, kept_outside_hours_at FROM orders ORDER BY pickup_at, id"
        ) { row in
            try body(
                OrderTimes(
                    id: try row.string("id"), pickupAt: try row.string("pickup_at"),
                    serviceDay: try row.string("service_day"),
                    pickupLocal: try row.string("pickup_local"), status: try row.string("status"),
                    kept: try row.optionalString("kept_outside_hours_at") != nil))
        }
    }

    // MARK: - Repairs

    /// The slot's load again from its orders, a missing row created first. The capacity trigger is
    /// set aside for the statement (its own text, read back from the schema, recreates it): a
    /// drifted slot may really hold more than its capacity, and that is reported, not refused.
    static func recomputeLoads(_ pickups: [String], in db: Connection) throws {
        guard !pickups.isEmpty else { return }
        let saved = try db.fetchOne(
            "SELECT sql FROM sqlite_schema WHERE type = 'trigger' AND name = 'slot_loads_capacity'"
        ) { try $0.string("sql") }
        if saved != nil { try db.run("DROP TRIGGER slot_loads_capacity") }
        for pickup in pickups {
            // A missing row is opened as an order opens one (the trigger slot_loads_open): its
            // service day and local minute from its orders (already repaired: repairs of the
            // orders' times run first), its capacity and rule from the capacity rules.
            try db.run(
                """
                INSERT INTO slot_loads (pickup_at, service_day, local_minute, capacity, capacity_rule_id)
                SELECT m.pickup_at, m.service_day, m.minute, c.capacity, c.rule_id
                FROM (SELECT o.pickup_at, o.service_day,
                             CAST(round((julianday(substr(o.pickup_local, 1, 16)) - julianday(o.service_day)) * 1440) AS INTEGER) AS minute,
                             (CAST(strftime('%w', o.service_day) AS INTEGER) + 6) % 7 + 1 AS weekday
                      FROM orders o WHERE o.pickup_at = ?1 AND NOT EXISTS (SELECT 1 FROM slot_loads s WHERE s.pickup_at = o.pickup_at)
                      ORDER BY o.status = 'cancelled', o.id LIMIT 1) m
                JOIN capacity_candidates c
                  ON (c.day = m.service_day OR c.weekday = m.weekday OR c.rank = 2)
                 AND c.start_minute <= m.minute AND m.minute < c.end_minute
                ORDER BY c.rank, c.width LIMIT 1
                """, [pickup])
            try db.run("UPDATE slot_loads AS s SET booked = " + slotSum + " WHERE s.pickup_at = ?", [pickup])
        }
        // The trigger's text as the schema holds it (a migration wrote it): not input.
        if let saved { try db.run(saved) }
    }

    static func setSlotTimes(_ pickupAt: String, serviceDay: String, localMinute: Int, in db: Connection) throws {
        try db.run(
            "UPDATE slot_loads SET service_day = ?, local_minute = ? WHERE pickup_at = ?",
            [serviceDay, localMinute, pickupAt])
    }

    /// The slot's capacity again from the rules (the trigger on `local_minute` recomputes it).
    static func recomputeCapacity(_ pickupAt: String, in db: Connection) throws {
        try db.run("UPDATE slot_loads SET local_minute = local_minute WHERE pickup_at = ?", [pickupAt])
    }

    /// Each pizza's view counters recomputed from the navigation history, as migration 13 and
    /// its triggers count them: one per (event, route) pair showing the pizza.
    static let actualViewCountsSQL = """
        SELECT p.id AS pizza_id, count(*) AS views, sum(e.action = 'push') AS pushed, sum(e.action = 'random') AS random,
               sum(e.action = 'open_url') AS deep_links, sum(e.action = 'import') AS imported
        FROM navigation_events e, json_each(e.routes) j
        JOIN pizzas p ON p.id = json_extract(j.value, '$.pizza.id')
        WHERE e.action IN ('push', 'random', 'open_url', 'import', 'replace')
        GROUP BY p.id
        """

    /// Pizzas whose kept view counters (`pizza_view_counts`) disagree with the history, with both
    /// as `views/pushed/random/deep_links/imported`.
    static func driftedViewCounts(in db: Connection) throws -> [(id: String, stored: String, actual: String)] {
        try db.fetchAll(
            "WITH actual AS (" + actualViewCountsSQL
                + """
                ), stored AS (
                    SELECT pizza_id, views, pushed, random, deep_links, imported FROM pizza_view_counts WHERE views > 0
                ), drifted AS (
                    SELECT pizza_id FROM (SELECT * FROM actual EXCEPT SELECT * FROM stored)
                    UNION SELECT pizza_id FROM (SELECT * FROM stored EXCEPT SELECT * FROM actual)
                )
                SELECT d.pizza_id,
                       coalesce((SELECT printf('%d/%d/%d/%d/%d', views, pushed, random, deep_links, imported)
                                 FROM pizza_view_counts c WHERE c.pizza_id = d.pizza_id), 'no row') AS stored,
                       coalesce((SELECT printf('%d/%d/%d/%d/%d', views, pushed, random, deep_links, imported)
                                 FROM actual a WHERE a.pizza_id = d.pizza_id), '0/0/0/0/0') AS actual
                FROM drifted d ORDER BY d.pizza_id
                """
        ) { (try $0.string("pizza_id"), try $0.string("stored"), try $0.string("actual")) }
    }

    /// Rewrites every pizza's view counters from the history.
    static func recomputeViewCounts(in db: Connection) throws {
        try db.run("DELETE FROM pizza_view_counts")
        try db.run(
            "INSERT INTO pizza_view_counts (pizza_id, views, pushed, random, deep_links, imported) "
                + actualViewCountsSQL
        )
    }

    static func recomputeTotal(_ id: String, in db: Connection) throws {
        try db.run(
            """
            UPDATE orders SET total_cents = (SELECT coalesce(sum(quantity * unit_price_cents), 0) FROM order_lines WHERE order_id = orders.id)
                                            - (SELECT coalesce(sum(amount_cents), 0) FROM order_discounts WHERE order_id = orders.id)
            WHERE id = ?
            """, [id])
    }

    static func setOrderTimes(_ id: String, serviceDay: String, pickupLocal: String, in db: Connection) throws {
        try db.run("UPDATE orders SET service_day = ?, pickup_local = ? WHERE id = ?", [serviceDay, pickupLocal, id])
    }

    /// Items without exactly one default variant, or whose default stores a price of its own (it
    /// costs its item's: migration 36; a row differs only if the triggers were bypassed).
    static func variantDrift(in db: Connection) throws -> [(pizzaID: String, problem: String, price: Int64)] {
        try db.fetchAll(
            """
            SELECT p.id, p.price_cents,
                   (SELECT count(*) FROM pizza_variants v WHERE v.pizza_id = p.id AND v.is_default = 1) AS defaults,
                   (SELECT v.price_cents FROM pizza_variants v WHERE v.pizza_id = p.id AND v.is_default = 1) AS default_price
            FROM pizzas p
            WHERE defaults <> 1 OR default_price IS NOT NULL
            """
        ) { row in
            let defaults = try row.int("defaults")
            let price = try row.int64("price_cents")
            let problem =
                defaults == 1
                ? "the default variant stores a price of its own (\(try row.optionalInt64("default_price") ?? 0) cents)"
                : "\(defaults) default variants"
            return (try row.string("id"), problem, price)
        }
    }

    /// Variant and group rows whose `pizza_name_key` is not their item's `name_key` (triggers keep
    /// it; a row differs only if they were bypassed): one entry per table and item.
    static func menuKeyDrift(
        in db: Connection
    ) throws -> [(table: String, pizzaID: String, stored: String?, actual: String?)] {
        try db.fetchAll(
            """
            SELECT 'pizza_variants' AS source, v.pizza_id AS pizza_id, min(v.pizza_name_key) AS stored,
                   p.name_key AS actual
            FROM pizza_variants v JOIN pizzas p ON p.id = v.pizza_id
            WHERE v.pizza_name_key IS NOT p.name_key GROUP BY v.pizza_id
            UNION ALL
            SELECT 'pizza_modifier_groups', a.pizza_id, min(a.pizza_name_key), p.name_key
            FROM pizza_modifier_groups a JOIN pizzas p ON p.id = a.pizza_id
            WHERE a.pizza_name_key IS NOT p.name_key GROUP BY a.pizza_id
            ORDER BY source, pizza_id
            """
        ) { row in
            (
                try row.string("source"), try row.string("pizza_id"), try row.optionalString("stored"),
                try row.optionalString("actual")
            )
        }
    }

    /// The latest stack-changing navigation event of a user, found by walking the user's events
    /// back from the newest (what `users.last_stack_change` holds): a constant subquery on
    /// `users u`, spliced into the two statements below (no value in it; theirs are bound).
    private static let latestStackChange = """
        (SELECT e.id FROM navigation_events e WHERE e.user_id = u.id AND e.action NOT GLOB 'sheet_*'
         ORDER BY e.id DESC LIMIT 1)
        """

    /// Users whose `last_stack_change` is not their latest stack-changing event (triggers keep it;
    /// it differs only if they were bypassed). `latestStackChange` is a constant, spliced in.
    static func lastStackChangeDrift(in db: Connection) throws -> [(userID: String, stored: Int64?, actual: Int64?)] {
        // `latestStackChange` is a constant subquery (no value in it); the statement binds nothing.
        try db.fetchAll(
            """
            SELECT id, stored, actual FROM (
                SELECT u.id AS id, u.last_stack_change AS stored, \(latestStackChange) AS actual FROM users u)
            WHERE stored IS NOT actual ORDER BY id
            """
        ) { (try $0.string("id"), try $0.optionalInt64("stored"), try $0.optionalInt64("actual")) }
    }

    /// Writes the user's latest stack change again (`latestStackChange` spliced in, a constant;
    /// the user's id bound).
    static func rewriteLastStackChange(_ userID: String, in db: Connection) throws {
        // `latestStackChange` is a constant subquery; the user's id is bound.
        try db.run("UPDATE users AS u SET last_stack_change = \(latestStackChange) WHERE u.id = ?", [userID])
    }

    /// Audit rows whose `history_id` names no history row, or one of another item (migration 34):
    /// such a row would be listed under the other item. Through `audit_log_by_history`.
    static func misfiledAuditEntries(in db: Connection) throws -> [(
        id: Int64, object: String, history: Int64,
        historyObject: String?
    )] {
        try db.fetchAll(
            """
            SELECT a.id AS id, a.object AS object, a.history_id AS history_id, 'pizza:' || h.pizza_id AS history_object
            FROM audit_log a LEFT JOIN pizza_history h ON h.id = a.history_id
            WHERE a.history_id IS NOT NULL AND (h.id IS NULL OR 'pizza:' || h.pizza_id IS NOT a.object)
            ORDER BY a.id
            """
        ) {
            (
                try $0.int64("id"), try $0.string("object"), try $0.int64("history_id"),
                try $0.optionalString("history_object")
            )
        }
    }

    /// Items whose `last_change` is not their latest history row (migration 35): one pass over
    /// the history, grouped by item.
    static func lastChangeDrift(in db: Connection) throws -> [(pizzaID: String, stored: Int64?, actual: Int64?)] {
        try db.fetchAll(
            """
            SELECT p.id AS id, p.last_change AS stored, l.latest AS actual
            FROM pizzas p LEFT JOIN (SELECT pizza_id, max(id) AS latest FROM pizza_history GROUP BY pizza_id) l
                 ON l.pizza_id = p.id
            WHERE p.last_change IS NOT l.latest ORDER BY p.id
            """
        ) { (try $0.string("id"), try $0.optionalInt64("stored"), try $0.optionalInt64("actual")) }
    }

    /// History rows whose `previous_change` is not their item's change before them (migration 35).
    static func historyChainDrift(in db: Connection) throws -> [(id: Int64, stored: Int64?, actual: Int64?)] {
        try db.fetchAll(
            """
            SELECT id, stored, actual FROM (
                SELECT id, previous_change AS stored, lag(id) OVER (PARTITION BY pizza_id ORDER BY id) AS actual
                FROM pizza_history)
            WHERE stored IS NOT actual ORDER BY id
            """
        ) { (try $0.int64("id"), try $0.optionalInt64("stored"), try $0.optionalInt64("actual")) }
    }

    /// Writes the item's `name_key` on its variants and groups again.
    static func rewriteMenuKeys(_ pizzaID: String, in db: Connection) throws {
        try db.run(
            """
            UPDATE pizza_variants SET pizza_name_key = (SELECT name_key FROM pizzas WHERE id = ?1)
            WHERE pizza_id = ?1 AND pizza_name_key IS NOT (SELECT name_key FROM pizzas WHERE id = ?1)
            """, [pizzaID])
        try db.run(
            """
            UPDATE pizza_modifier_groups SET pizza_name_key = (SELECT name_key FROM pizzas WHERE id = ?1)
            WHERE pizza_id = ?1 AND pizza_name_key IS NOT (SELECT name_key FROM pizzas WHERE id = ?1)
            """, [pizzaID])
    }

    /// Makes the item's first variant (by position) its only default, at the item's price (it
    /// stores none); an item without a variant gets `Normale` again.
    static func repairDefaultVariant(_ pizzaID: String, in db: Connection) throws {
        let first = try db.fetchOne(
            "SELECT id FROM pizza_variants WHERE pizza_id = ? ORDER BY is_default DESC, position, id LIMIT 1", [pizzaID]
        ) { try $0.int64("id") }
        guard let first else {
            try db.run(
                """
                INSERT INTO pizza_variants (pizza_id, name, price_cents, position, is_default, pizza_name_key)
                SELECT id, ?, NULL, 1, 1, name_key FROM pizzas WHERE id = ?
                """, [Variant.defaultName, pizzaID])
            return
        }
        // The default first, so demoting the others never leaves the item without one (a trigger
        // refuses that). The default stores no price (it costs the item's); the others keep theirs,
        // or take the item's if they had none.
        try db.run("UPDATE pizza_variants SET is_default = 1, price_cents = NULL WHERE id = ?", [first])
        try db.run(
            """
            UPDATE pizza_variants SET is_default = 0,
                   price_cents = coalesce(price_cents, (SELECT price_cents FROM pizzas WHERE id = ?1))
            WHERE pizza_id = ?1 AND id <> ?2 AND is_default = 1
            """, [pizzaID, first])
    }
}
