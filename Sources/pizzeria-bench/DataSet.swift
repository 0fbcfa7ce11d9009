import Foundation
import PizzeriaServices

/// The reference data set, built once through the project's migrations and copied for each side
/// and mode, so the project and the baseline start from the same file.
struct DataSet {
    let path: String
    let pizzaIDs: PizzaIDs
    let userIDs: [User.ID]
    /// Each item's `Normale` (its default) and `Maxi`, by the item's index.
    let variants: VariantIDs
    /// The extras of group `Aggiunte`, by index (0.50 EUR first).
    let extraIDs: [Modifier.ID]
    let sqliteVersion: String

    /// The items' ids by index, worked out from the index rather than held (16 MB at a million
    /// items): a data set this bench builds has them; one built before is read into memory.
    struct PizzaIDs {
        let count: Int
        /// The ids of a data set whose ids are not the worked-out ones.
        let held: [Pizza.ID]?

        subscript(_ index: Int) -> Pizza.ID { held?[index] ?? Self.computed(index) }

        /// Item `index`'s id: 122 bits of SplitMix64 output of the index, as a version 4 UUID.
        static func computed(_ index: Int) -> Pizza.ID {
            func mix(_ value: UInt64) -> UInt64 {
                var z = value &+ 0x9E37_79B9_7F4A_7C15
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                return z ^ (z >> 31)
            }
            let high = (mix(UInt64(index) &* 2) & ~0xF000) | 0x4000  // version 4
            let low = (mix(UInt64(index) &* 2 &+ 1) & ~(0xC << 60)) | (0x8 << 60)  // RFC 4122 variant
            var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &bytes) { raw in
                raw.storeBytes(of: high.bigEndian, toByteOffset: 0, as: UInt64.self)
                raw.storeBytes(of: low.bigEndian, toByteOffset: 8, as: UInt64.self)
            }
            return Pizza.ID(uuid: UUID(uuid: bytes))
        }
    }

    /// The variants' ids by item index, worked out rather than held (a million items would hold
    /// 16 MB of them, twice over with the baseline's copy): the build inserts each kind of variant
    /// in the items' rowid order, so item `n`'s `Normale` is `normale + n` and its `Maxi` `maxi + n`.
    /// ``open(_:pizzeria:)`` checks that every variant row agrees.
    struct VariantIDs {
        let normaleBase: Int64, maxiBase: Int64
        func normale(_ pizza: Int) -> Int64 { normaleBase + Int64(pizza) }
        func maxi(_ pizza: Int) -> Int64 { maxiBase + Int64(pizza) }
    }

    static func build(_ workload: Workload, in directory: String) throws -> DataSet {
        let path = directory + "/dataset.sqlite"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        var configuration = PizzeriaConfiguration()
        configuration.durability = .fast  // building is not timed
        let pizzeria = try Pizzeria.open(path: path, configuration: configuration)
        try pizzeria.settings.update(.timeZone(TimeZone(identifier: "UTC")))
        try pizzeria.settings.update(.slotCapacity(workload.slotCapacity))
        try pizzeria.settings.update(.bookingHorizonDays(3_650))
        try pizzeria.settings.update(.leadMinutes(0))
        try addExceptions(workload, pizzeria: pizzeria)
        try addCapacityRules(workload, pizzeria: pizzeria)
        let pizzaIDs = (0..<workload.pizzas).map(PizzaIDs.computed)
        let userIDs = (0..<workload.users).map { _ in User.ID.random() }
        // Bulk rows through the schema (its triggers write the history and each item's first
        // variant, `Normale` at its price); ids as a JSON array joined to a generated sequence: one
        // statement per table, values bound. The menu's shape of BENCHMARK.md: five categories,
        // four using the oven; every 20th item a drink; one allergen set per item; a `Maxi` at
        // +3.00 EUR for every item; group `Aggiunte` of 10 extras (0.50–2.50 EUR, 0–3 per line)
        // on every item but the drinks.
        try pizzeria.database.write { db in
            try db.execute(
                """
                UPDATE categories SET name = 'Pizze rosse' WHERE id = 1;
                INSERT INTO categories (id, name, position, uses_oven) VALUES
                    (2, 'Pizze bianche', 2, 1), (3, 'Calzoni', 3, 1), (4, 'Fritti', 4, 1), (5, 'Bevande', 5, 0);
                """)
            try db.run(
                """
                INSERT INTO pizzas (id, name, name_key, price_cents, category_id, allergens)
                SELECT j.value, printf('Pizza %05d', j.key + 1), printf('pizza %05d', j.key + 1),
                       400 + j.key * 1600 / max(1, ? - 1),
                       CASE WHEN j.key % 20 = 19 THEN 5 ELSE 1 + j.key % 4 END,
                       CASE WHEN j.key % 20 = 19 THEN (j.key % 3) * 2048
                            ELSE 1 | (CASE WHEN j.key % 4 <> 1 THEN 64 ELSE 0 END) | (CASE WHEN j.key % 7 = 0 THEN 8 ELSE 0 END)
                                   | (CASE WHEN j.key % 11 = 0 THEN 128 ELSE 0 END) END
                FROM json_each(?) j
                """, [workload.pizzas, "[" + pizzaIDs.map { "\"\($0)\"" }.joined(separator: ",") + "]"])
            try db.run(
                """
                INSERT INTO pizza_variants (pizza_id, name, price_cents, position, is_default, pizza_name_key)
                SELECT id, 'Maxi', price_cents + ?, 2, 0, name_key FROM pizzas
                """,
                [Workload.maxiSurcharge])
            try db.run(
                "INSERT INTO modifier_groups (id, name, min_selected, max_selected) VALUES (1, 'Aggiunte', 0, 3)")
            for index in 0..<Workload.extras {
                try db.run(
                    "INSERT INTO modifiers (group_id, name, price_cents, allergens, position) VALUES (1, ?, ?, ?, ?)",
                    ["Extra \(index + 1)", Workload.extraCents(index), index % 3 == 0 ? 64 : 0, index + 1])
            }
            try db.run(
                """
                INSERT INTO pizza_modifier_groups (pizza_id, group_id, pizza_name_key)
                SELECT id, 1, name_key FROM pizzas WHERE category_id <> 5
                """
            )
            try db.run(
                """
                INSERT INTO users (id, handle) SELECT j.value, printf('user%04d', j.key + 1) FROM json_each(?) j
                """, ["[" + userIDs.map { "\"\($0)\"" }.joined(separator: ",") + "]"])
        }
        // Numbered copies of the ids, so bulk rows can pick "user n mod users" through a key.
        try pizzeria.database.write { db in
            try db.execute(
                """
                CREATE TEMP TABLE user_numbers (n INTEGER PRIMARY KEY, id TEXT NOT NULL);
                INSERT INTO user_numbers (n, id) SELECT row_number() OVER (ORDER BY rowid) - 1, id FROM users;
                CREATE TEMP TABLE pizza_numbers (n INTEGER PRIMARY KEY, id TEXT NOT NULL, name TEXT NOT NULL, price_cents INTEGER NOT NULL);
                INSERT INTO pizza_numbers (n, id, name, price_cents)
                    SELECT row_number() OVER (ORDER BY rowid) - 1, id, name, price_cents FROM pizzas ORDER BY rowid LIMIT 1000;
                """)
        }
        try addHistory(workload, pizzeria: pizzeria)
        try addOrders(workload, pizzeria: pizzeria)
        return try open(path, pizzeria: pizzeria)
    }

    /// A data set built earlier (by `--build-only`): its ids in the order they were made. One built
    /// by an older schema is migrated first.
    static func open(_ path: String, pizzeria opened: Pizzeria? = nil) throws -> DataSet {
        // The bench's own file (each side copies it): migrated as `pizzeria init` would.
        let pizzeria = try opened ?? Pizzeria.open(path: path, access: .migrate)
        return try pizzeria.database.readStatement { db in
            // Item n is the n-th by rowid; rowids are 1... in a data set this bench built.
            let (first, last, count) =
                try db.fetchOne("SELECT min(rowid) AS first, max(rowid) AS last, count(*) AS n FROM pizzas") {
                    (try $0.int64("first"), try $0.int64("last"), try $0.int64("n"))
                } ?? (0, 0, 0)
            func base(_ name: String) throws -> Int64 {
                let (low, high, rows) =
                    try db.fetchOne(
                        """
                        SELECT min(v.id - p.rowid) AS low, max(v.id - p.rowid) AS high, count(*) AS n
                        FROM pizzas p JOIN pizza_variants v ON v.pizza_id = p.id AND v.name = ?
                        """, [name]
                    ) { (try $0.optionalInt64("low"), try $0.optionalInt64("high"), try $0.int64("n")) }
                    ?? (nil, nil, 0)
                guard let low, low == high, rows == count, last - first + 1 == count else {
                    throw BenchError("\(path): its \(name) variants are not numbered in item order; build it again")
                }
                return low + first
            }
            // The ids checked against the worked-out ones, one row at a time (nothing held).
            func pizzaIDs() throws -> PizzaIDs {
                var count = 0, computed = true
                try db.forEach("SELECT id FROM pizzas ORDER BY rowid") { row in
                    if computed, Pizza.ID(try row.string("id")) != PizzaIDs.computed(count) { computed = false }
                    count += 1
                }
                if computed { return PizzaIDs(count: count, held: nil) }
                let held = try db.fetchAll("SELECT id FROM pizzas ORDER BY rowid") { Pizza.ID(try $0.string("id"))! }
                return PizzaIDs(count: held.count, held: held)
            }
            return DataSet(
                path: path,
                pizzaIDs: try pizzaIDs(),
                userIDs: try db.fetchAll("SELECT id FROM users ORDER BY rowid") { User.ID(try $0.string("id"))! },
                variants: VariantIDs(normaleBase: try base("Normale"), maxiBase: try base("Maxi")),
                extraIDs: try db.fetchAll("SELECT id FROM modifiers WHERE group_id = 1 ORDER BY position") {
                    Modifier.ID(try $0.int64("id"))
                },
                sqliteVersion: try db.fetchOne("SELECT sqlite_version() AS version") { try $0.string("version") } ?? "")
        }
    }

    /// Navigation events already in the file: pushes spread over the users, in chunks of a
    /// million per transaction.
    static func addHistory(_ workload: Workload, pizzeria: Pizzeria) throws {
        var done = 0
        while done < workload.existingEvents {
            let count = min(1_000_000, workload.existingEvents - done)
            try pizzeria.database.write { db in
                try db.run(
                    """
                    WITH RECURSIVE n(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                    INSERT INTO navigation_events (user_id, at, action, routes, depth_after)
                    SELECT u.id, '2026-01-01T00:00:00.000Z', 'push', '[{"pizza":{"id":"' || p.id || '"}}]', 1
                    FROM n JOIN temp.user_numbers u ON u.n = n.i % ? JOIN temp.pizza_numbers p ON p.n = n.i % ?
                    """, [done, done + count - 1, workload.users, min(workload.pizzas, 1_000)])
            }
            done += count
        }
    }

    /// Orders already booked, on past days (so they leave the timed phases' slots free), each
    /// with one line and a time-ordered id from the day before its pickup; the schema's triggers
    /// write their totals and first events. Five to a 15-minute slot, the last slot two days
    /// before today: a million orders start in early 2021.
    /// (One to a slot from 2020-01-01 would reach 2048 at a million, and every slot the timed
    /// phases book and the picker walks would already have a booking at the large size — a fully
    /// booked calendar measured as if it were the file's size.)
    static func addOrders(_ workload: Workload, pizzeria: Pizzeria) throws {
        let perSlot = 5
        let slots = (workload.existingOrders + perSlot - 1) / perSlot
        // The last slot starts (slots - 1) × 15 minutes after the first day's midnight.
        let first = try pizzeria.schedule.today().adding(days: -((slots - 1) * 15 / 1_440 + 2)).description
        var done = 0
        while done < workload.existingOrders {
            let count = min(200_000, workload.existingOrders - done)
            try pizzeria.database.write { db in
                try db.execute("CREATE TEMP TABLE IF NOT EXISTS bulk (id TEXT, n INTEGER); DELETE FROM bulk;")
                try db.run(
                    """
                    WITH RECURSIVE n(i) AS (SELECT ?1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2),
                    -- Booked the day before its pickup, a millisecond apart in a slot: the order's
                    -- time-ordered (version 7) id, as the library makes them.
                    t(i, ms) AS (SELECT i, (unixepoch(?3) + i / ?4 * 900 - 86400) * 1000 + i % ?4 FROM n)
                    INSERT INTO bulk SELECT substr(printf('%012x', ms), 1, 8) || '-' || substr(printf('%012x', ms), 9) || '-7' ||
                           substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) ||
                           substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))), i FROM t
                    """, [done, done + count - 1, first, perSlot])
                try db.run(
                    """
                    INSERT INTO orders (id, user_id, pickup_at, service_day, pickup_local)
                    SELECT b.id, u.id, strftime('%Y-%m-%dT%H:%M:00Z', ?1, '+' || (b.n / ?2 * 15) || ' minutes'),
                           date(?1, '+' || (b.n / ?2 * 15) || ' minutes'),
                           strftime('%Y-%m-%dT%H:%M', ?1, '+' || (b.n / ?2 * 15) || ' minutes') || '+00:00'
                    FROM bulk b JOIN temp.user_numbers u ON u.n = b.n % ?3
                    """, [first, perSlot, workload.users])
                try db.run(
                    """
                    INSERT INTO order_lines (order_id, line_no, pizza_id, pizza_name, unit_price_cents, quantity,
                                             uses_oven, variant_id, variant_name, base_price_cents, allergens, station_id)
                    SELECT b.id, 1, p.id, p.name, p.price_cents, 1, k.uses_oven, v.id, v.name, p.price_cents, i.allergens,
                           k.station_id
                    FROM bulk b JOIN temp.pizza_numbers p ON p.n = b.n % ?
                    JOIN pizzas i ON i.id = p.id JOIN categories k ON k.id = i.category_id
                    JOIN pizza_variants v ON v.pizza_id = p.id AND v.is_default = 1
                    """, [min(workload.pizzas, 1_000)])
            }
            done += count
        }
    }

    /// The week of BENCHMARK.md (12:00-23:00 every day, from the migration) plus 20 date
    /// exceptions — ten closed dates, ten with special hours — after the days both booking phases
    /// use, so every booking goes through the whole rule check while the bookings stay the same.
    static func addExceptions(_ workload: Workload, pizzeria: Pizzeria) throws {
        let today = try pizzeria.schedule.today()
        for index in 0..<10 {
            let closed = today.adding(days: 2 * workload.days + 10 + index * 2)
            try pizzeria.schedule.close(LocalDateRange(closed), reason: "benchmark closure")
            try pizzeria.schedule.special(
                LocalDateRange(closed.adding(days: 1)), [try HoursSyntax.parseInterval("13:00-22:00")])
        }
    }

    /// Capacity by time, so bookings and the picker resolve rules: two bakers on Friday and
    /// Saturday evenings (a weekday rule with a narrower one inside it) and ten busy dates among
    /// the booking days, each lower than the default so some bookings are refused for capacity.
    static func addCapacityRules(_ workload: Workload, pizzeria: Pizzeria) throws {
        try pizzeria.capacity.set(
            [.weekday(.friday), .weekday(.saturday)], try HoursSyntax.parseInterval("18:30-21:00"), capacity: 40)
        try pizzeria.capacity.set([.weekday(.friday)], try HoursSyntax.parseInterval("19:00-20:00"), capacity: 30)
        let today = try pizzeria.schedule.today()
        let dates = (0..<10).map { CapacityRule.Days.date(today.adding(days: 3 + $0 * max(1, workload.days / 10))) }
        try pizzeria.capacity.set(dates, try HoursSyntax.parseInterval("19:00-22:00"), capacity: 25)
    }

    /// A copy of the data set (closed and checkpointed: the file alone is the whole database).
    func copy(to destination: String) throws {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: destination + suffix) }
        try FileManager.default.copyItem(atPath: path, toPath: destination)
    }
}
