import Foundation
import Testing
@testable import PizzeriaStorage
import PizzeriaTestSupport

@Suite("Schema migrations")
struct SchemaMigratorTests {
    let directory = TemporaryDirectory()

    func tables(_ database: Database) throws -> [String] {
        try database.read { db in
            try db.fetchAll("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") {
                try $0.string("name")
            }
        }
    }

    @Test("the embedded migrations are exactly the files in Migrations/, numbered 1...n")
    func embeddedMatchesSources() throws {
        let folder = packageRoot.appendingPathComponent("Migrations")
        let all = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }
        let files = all.filter { !$0.hasPrefix("R__") && $0 != SchemaBaseline.fileName }.sorted()
        #expect(Migration.embeddedFileCount == all.count)
        #expect(Repeatable.embedded.map(\.fileName) == all.filter { $0.hasPrefix("R__") }.sorted())
        #expect(all.contains(SchemaBaseline.fileName) && SchemaBaseline.embedded != nil)
        #expect(Migration.embedded.map(\.version) == Array(1...files.count))
        for (file, migration) in zip(files, Migration.embedded) {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            #expect(migration.sql == text, "embedded \(file) is stale")
            // The checksum computed when the binary was built is the text's own.
            #expect(migration.checksum == SHA256.hex(text.utf8), "\(file)")
            #expect(file == String(format: "%04d_%@.sql", migration.version, migration.name))
        }
    }

    @Test("a new database gets every migration, recorded with checksum and user_version, mode 0600")
    func freshDatabase() throws {
        let path = directory.path("fresh.sqlite")
        let migrator = SchemaMigrator()
        let database = try migrator.open(path: path, access: .migrate)
        let status = try database.read { try migrator.status(of: $0) }
        #expect(status.isCurrent)
        #expect(status.applied.map(\.version) == Migration.embedded.map(\.version))
        #expect(status.applied.map(\.checksum) == Migration.embedded.map(\.checksum))
        #expect(
            try database.read { db in try db.fetchOne("PRAGMA user_version") { try $0.int("user_version") } }
                == migrator.latestVersion)
        #expect(try tables(database).contains("pizzas"))
        #expect(try database.journalMode() == "wal")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("re-running the migrator applies nothing and changes nothing")
    func rerunIsNoOp() throws {
        let path = directory.path("again.sqlite")
        let migrator = SchemaMigrator()
        let first = try migrator.open(path: path, access: .migrate)
        let before = try first.read { try migrator.status(of: $0) }
        #expect(try migrator.migrate(first).isEmpty)
        let second = try migrator.open(path: path, access: .migrate)
        #expect(try second.read { try migrator.status(of: $0) } == before)
    }

    @Test("an older database is upgraded in order and keeps its data")
    func upgrade() throws {
        let path = directory.path("old.sqlite")
        let old = SchemaMigrator(migrations: Array(Migration.embedded.prefix(1)))
        do {
            let database = try old.open(path: path, access: .migrate)
            try database.write { db in
                try db.run("INSERT INTO pizzas (name, price_cents) VALUES (?, ?)", ["Margherita", 600])
            }
        }
        let current = SchemaMigrator()
        // Domain code refuses the old schema until it is migrated…
        let refusal = #expect(throws: SchemaError.self) { try current.open(path: path, access: .requireCurrent) }
        #expect(refusal == .migrationsPending(databaseVersion: 1, knownVersion: current.latestVersion))
        // …and inspection shows what is pending.
        let inspected = try current.open(path: path, access: .inspect)
        #expect(
            try inspected.read { try current.status(of: $0) }.pending.map(\.version) == Array(2...current.latestVersion)
        )

        let database = try current.open(path: path, access: .migrate)
        #expect(try database.read { try current.status(of: $0) }.isCurrent)
        // 0002 back-filled the history of the pizza that existed before it.
        let history = try database.read { db in
            try db.fetchAll("SELECT change, new_name FROM pizza_history") {
                "\(try $0.string("change")) \(try $0.string("new_name"))"
            }
        }
        #expect(history == ["created Margherita"])
    }

    @Test("migration 27 rebuilds orders keyed by id: rows, keys, parties, triggers and foreign keys kept")
    func ordersRebuiltByID() throws {
        let path = directory.path("orders26.sqlite")
        let user = "11111111-1111-4111-8111-111111111111"
        let (keyed, first, member) = (
            "aaaaaaaa-1111-4111-8111-111111111111", "bbbbbbbb-1111-4111-8111-111111111111",
            "cccccccc-1111-4111-8111-111111111111"
        )
        let insert = """
            INSERT INTO orders (id, user_id, pickup_at, service_day, pickup_local, idempotency_key, request_fingerprint,
                                party_id)
            VALUES (?, ?, ?, '2030-01-04', ?, ?, ?, ?)
            """
        func trigger(_ db: Connection) throws -> [String] {
            try db.fetchAll(
                "SELECT name FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'orders' ORDER BY name"
            ) {
                try $0.string("name")
            }
        }
        var triggersBefore: [String] = []
        do {
            let old = SchemaMigrator(migrations: Array(Migration.embedded.prefix(26)))
            let database = try old.open(path: path, access: .migrate)
            try database.write { db in
                try db.run("UPDATE settings SET time_zone = 'UTC'")
                try db.run("INSERT INTO users (id, handle) VALUES (?, 'anna')", [user])
                try db.run(
                    insert,
                    [keyed, user, "2030-01-04T19:00:00Z", "2030-01-04T19:00+00:00", "key-1", "fp", nil as String?])
                try db.run(
                    insert,
                    [
                        first, user, "2030-01-04T19:15:00Z", "2030-01-04T19:15+00:00", nil as String?, nil as String?,
                        first,
                    ])
                try db.run(
                    insert,
                    [
                        member, user, "2030-01-04T19:30:00Z", "2030-01-04T19:30+00:00", nil as String?, nil as String?,
                        first,
                    ])
                triggersBefore = try trigger(db)
            }
        }
        // Migration 27 itself (29 merges the insert triggers: the trigger names move on there).
        let database = try SchemaMigrator(migrations: Array(Migration.embedded.prefix(27))).open(
            path: path, access: .migrate)
        try database.write { db in
            let rows = try db.fetchAll("SELECT id, idempotency_key, party_id FROM orders ORDER BY id") {
                "\(try $0.string("id")) \(try $0.optionalString("idempotency_key") ?? "-") \(try $0.optionalString("party_id") ?? "-")"
            }
            #expect(rows == ["\(keyed) key-1 -", "\(first) - \(first)", "\(member) - \(first)"])
            #expect(try db.fetchAll("SELECT count(*) AS n FROM order_status_events") { try $0.int("n") } == [3])
            // Keyed by its id: no rowid, no automatic index for the id or the key.
            #expect(throws: (any Error).self) { try db.fetchAll("SELECT rowid FROM orders") { try $0.int("rowid") } }
            let indexes = try db.fetchAll(
                "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'orders' ORDER BY name"
            ) {
                try $0.string("name")
            }
            #expect(indexes.contains("orders_by_idempotency_key"))
            #expect(!indexes.contains { $0.hasPrefix("sqlite_autoindex_orders") })
            let partial = try db.fetchAll("PRAGMA index_list(orders)") { row in
                (try row.string("name"), try row.int("unique"), try row.int("partial"))
            }.first { $0.0 == "orders_by_idempotency_key" }
            #expect(partial?.1 == 1 && partial?.2 == 1)
            #expect(try trigger(db) == triggersBefore)
            // One order per key still; the triggers still hold (a party member joins a first order).
            let duplicate = #expect(throws: DatabaseError.self) {
                try db.run(
                    insert,
                    [
                        "dddddddd-1111-4111-8111-111111111111", user, "2030-01-04T20:00:00Z", "2030-01-04T20:00+00:00",
                        "key-1",
                        "fp", nil as String?,
                    ])
            }
            #expect(duplicate?.description.contains("orders.idempotency_key") == true)
            #expect(throws: DatabaseError.self) {
                try db.run(
                    insert,
                    [
                        "eeeeeeee-1111-4111-8111-111111111111", user, "2030-01-04T20:00:00Z", "2030-01-04T20:00+00:00",
                        nil as String?,
                        nil as String?, member,
                    ])
            }
            #expect(try db.fetchAll("PRAGMA foreign_key_check") { try $0.string("table") }.isEmpty)
            #expect(try db.fetchAll("PRAGMA integrity_check") { try $0.string("integrity_check") } == ["ok"])
        }
    }

    @Test("migration 28: slots name their capacity rule by id, and a new slot is opened in one write")
    func slotRulesByID() throws {
        let path = directory.path("slots27.sqlite")
        let user = "11111111-1111-4111-8111-111111111111"
        let insert = """
            INSERT INTO orders (id, user_id, pickup_at, service_day, pickup_local) VALUES (?, ?, ?, '2030-01-04', ?)
            """
        func order(_ db: Connection, _ letter: Character, _ time: String) throws {
            let id = String(repeating: letter, count: 8) + "-1111-4111-8111-111111111111"
            try db.run(insert, [id, user, "2030-01-04T\(time):00Z", "2030-01-04T\(time)+00:00"])
        }
        // Friday 2030-01-04: a weekday rule 19:00-20:00 of 20, a date rule 19:00-19:30 of 15.
        do {
            let old = SchemaMigrator(migrations: Array(Migration.embedded.prefix(27)))
            let database = try old.open(path: path, access: .migrate)
            try database.write { db in
                try db.run("UPDATE settings SET time_zone = 'UTC', slot_capacity = 12")
                try db.run("INSERT INTO users (id, handle) VALUES (?, 'anna')", [user])
                try db.run(
                    "INSERT INTO capacity_rules (weekday, starts_at, ends_at, capacity) VALUES (5, '19:00', '20:00', 20)"
                )
                try db.run(
                    "INSERT INTO capacity_rules (day, starts_at, ends_at, capacity) VALUES ('2030-01-04', '19:00', '19:30', 15)"
                )
                try order(db, "a", "19:00")
                try order(db, "b", "19:30")
                try order(db, "c", "20:30")
            }
        }
        let database = try SchemaMigrator().open(path: path, access: .migrate)
        try database.write { db in
            func slots() throws -> [String] {
                try db.fetchAll(
                    "SELECT local_time, capacity, capacity_from FROM slot_capacity ORDER BY pickup_at"
                ) { "\(try $0.string("local_time")) \(try $0.int("capacity")) \(try $0.string("capacity_from"))" }
            }
            // Each slot kept its capacity, now with its rule's id (the text through the view).
            #expect(
                try slots() == [
                    "19:00 15 2030-01-04 19:00-19:30", "19:30 20 fri 19:00-20:00", "20:30 12 slot-capacity",
                ])
            let ids = try db.fetchAll("SELECT capacity_rule_id FROM slot_loads ORDER BY pickup_at") {
                try $0.optionalInt64("capacity_rule_id")
            }
            #expect(ids == [2, 1, nil])
            #expect(throws: (any Error).self) { try db.run("SELECT capacity_rule FROM slot_loads") }
            // A new slot is one write: an order opening a slot changes one row more than an order
            // joining an open one (before this migration: three more — insert, self-update, update).
            func writes(_ body: () throws -> Void) throws -> Int {
                let before = try db.fetchOne("SELECT total_changes() AS n") { try $0.int("n") } ?? 0
                try body()
                return (try db.fetchOne("SELECT total_changes() AS n") { try $0.int("n") } ?? 0) - before
            }
            let joining = try writes { try order(db, "d", "19:30") }
            let opening = try writes { try order(db, "e", "19:15") }
            #expect(opening - joining == 1, "opening \(opening), joining \(joining)")
            #expect(try slots().contains("19:15 15 2030-01-04 19:00-19:30"))
            // A rule's change reaches its slots by id; a deleted rule's slots fall back.
            try db.run("UPDATE capacity_rules SET capacity = 25 WHERE id = 1")
            try db.run("DELETE FROM capacity_rules WHERE id = 2")
            try db.run("UPDATE settings SET slot_capacity = 9")
            #expect(
                try slots() == [
                    "19:00 25 fri 19:00-20:00", "19:15 25 fri 19:00-20:00", "19:30 25 fri 19:00-20:00",
                    "20:30 9 slot-capacity",
                ])
            // A hand-written slot row must carry the capacity the rules give.
            let refused = #expect(throws: DatabaseError.self) {
                try db.run(
                    """
                    INSERT INTO slot_loads (pickup_at, service_day, local_minute, capacity, capacity_rule_id)
                    VALUES ('2030-01-11T19:00:00Z', '2030-01-11', 1140, 12, NULL)
                    """)
            }
            #expect(refused?.description.contains("slot_loads_derived") == true)
            try db.run(
                """
                INSERT INTO slot_loads (pickup_at, service_day, local_minute, capacity, capacity_rule_id)
                VALUES ('2030-01-11T19:00:00Z', '2030-01-11', 1140, 25, 1)
                """)
            #expect(try db.fetchAll("PRAGMA integrity_check") { try $0.string("integrity_check") } == ["ok"])
        }
    }

    @Test("two migrators racing on one new file: each migration is applied exactly once")
    func concurrentMigrations() async throws {
        let path = directory.path("race.sqlite")
        let migrator = SchemaMigrator()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { _ = try migrator.open(path: path, access: .migrate) } }
            try await group.waitForAll()
        }
        let database = try migrator.open(path: path, access: .inspect)
        let versions = try database.read { db in
            try db.fetchAll("SELECT version FROM schema_migrations") { try $0.int("version") }
        }
        #expect(versions == Migration.embedded.map(\.version))
    }

    // MARK: - Refusals, each leaving the file byte-for-byte unchanged

    @Test("a file that is not SQLite is refused and untouched")
    func notSQLite() throws {
        let path = directory.path("notes.sqlite")
        try Data("these are my notes, not a database\n".utf8).write(to: URL(fileURLWithPath: path))
        let before = fileBytes(path)
        for access in [SchemaMigrator.Access.migrate, .requireCurrent, .inspect] {
            let error = #expect(throws: DatabaseError.self) { try SchemaMigrator().open(path: path, access: access) }
            #expect(error?.kind == .notADatabase)
        }
        #expect(fileBytes(path) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test("an unrelated SQLite database is refused and untouched")
    func foreignDatabase() throws {
        let path = directory.path("other.sqlite")
        do {
            let other = try Connection(path: path, mode: .readWriteCreate)
            try other.execute(
                "CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount REAL); INSERT INTO invoices VALUES (1, 9.5)")
        }
        let before = fileBytes(path)
        let error = #expect(throws: SchemaError.self) { try SchemaMigrator().open(path: path, access: .migrate) }
        guard case .foreignDatabase(_, let objects) = error else {
            Issue.record("expected foreignDatabase, got \(String(describing: error))"); return
        }
        #expect(objects == ["invoices"])
        #expect(fileBytes(path) == before)
    }

    @Test("migration 31 gives every existing variant and group row its item's name_key, ASCII or not")
    func menuOrderKeysFilled() throws {
        let path = directory.path("menu30.sqlite")
        do {
            let old = SchemaMigrator(migrations: Array(Migration.embedded.prefix(30)))
            let database = try old.open(path: path, access: .migrate)
            try database.write { db in
                try db.execute(
                    """
                    INSERT INTO pizzas (name, price_cents) VALUES ('Margherita', 600);
                    INSERT INTO pizzas (name, name_key, price_cents) VALUES ('Straße', 'strasse', 800);
                    INSERT INTO pizza_variants (pizza_id, name, price_cents, position)
                        SELECT id, 'Maxi', price_cents + 300, 2 FROM pizzas;
                    INSERT INTO modifier_groups (id, name, min_selected, max_selected) VALUES (1, 'Aggiunte', 0, 3);
                    INSERT INTO pizza_modifier_groups (pizza_id, group_id) SELECT id, 1 FROM pizzas;
                    """)
            }
        }
        let database = try SchemaMigrator(migrations: Array(Migration.embedded.prefix(31))).open(
            path: path, access: .migrate)
        let rows = try database.read { db in
            try db.fetchAll(
                """
                SELECT p.name AS item, v.name AS row, v.pizza_name_key AS key
                FROM pizza_variants v JOIN pizzas p ON p.id = v.pizza_id
                UNION ALL
                SELECT p.name, 'group ' || a.group_id, a.pizza_name_key
                FROM pizza_modifier_groups a JOIN pizzas p ON p.id = a.pizza_id
                ORDER BY item, row -- the variants' NOCASE name: 'group 1' before 'Maxi'
                """
            ) { "\(try $0.string("item")) \(try $0.string("row")): \(try $0.optionalString("key") ?? "NULL")" }
        }
        #expect(
            rows == [
                "Margherita group 1: margherita", "Margherita Maxi: margherita", "Margherita Normale: margherita",
                "Straße group 1: strasse", "Straße Maxi: strasse", "Straße Normale: strasse",
            ])
    }

    @Test(
        "migration 32 rebuilds the navigation tables: every event and stack row kept, ids included; the rules still hold"
    )
    func navigationRebuilt() throws {
        let path = directory.path("navigation31.sqlite")
        let user = "11111111-1111-4111-8111-111111111111"
        func rows(_ db: Connection) throws -> [String] {
            try db.fetchAll(
                """
                SELECT 'event ' || id || ' ' || action || ' ' || routes || ' ' || depth_after AS line FROM navigation_events
                UNION ALL
                SELECT 'stack ' || depth || ' ' || kind || ' ' || coalesce(pizza_id, category_id, opaque_type)
                FROM navigation_stack
                ORDER BY line
                """
            ) { try $0.string("line") }
        }
        var before: [String] = []
        do {
            let old = SchemaMigrator(migrations: Array(Migration.embedded.prefix(31)))
            let database = try old.open(path: path, access: .migrate)
            try database.write { db in
                try db.run("INSERT INTO users (id, handle) VALUES (?, 'anna')", [user])
                try db.execute("INSERT INTO pizzas (name, price_cents) VALUES ('Margherita', 600)")
                let pizza = try db.fetchOne("SELECT id FROM pizzas") { try $0.string("id") } ?? ""
                let route = "[{\"pizza\":{\"id\":\"\(pizza)\"}}]"
                for (id, action, depth) in [(7, "push", 1), (9, "sheet_open", 1), (12, "push", 2)] {
                    try db.run(
                        "INSERT INTO navigation_events (id, user_id, action, routes, depth_after) VALUES (?, ?, ?, ?, ?)",
                        [id, user, action, action == "push" ? route : "[]", depth])
                }
                try db.run(
                    "INSERT INTO navigation_stack (user_id, depth, kind, pizza_id) VALUES (?, 1, 'pizza', ?)",
                    [user, pizza])
                try db.run(
                    "INSERT INTO navigation_stack (user_id, depth, kind, category_id) VALUES (?, 2, 'category', 1)",
                    [user])
                before = try rows(db)
            }
        }
        let database = try SchemaMigrator(migrations: Array(Migration.embedded.prefix(32))).open(
            path: path, access: .migrate)
        try database.write { db in
            #expect(try rows(db) == before)
            #expect(before.count == 5)
            // The view counter kept its two pushes and counts a third; the append-only rule and the
            // CHECKs still refuse.
            #expect(try db.fetchOne("SELECT views FROM pizza_view_counts") { try $0.int("views") } == 2)
            try db.run(
                """
                INSERT INTO navigation_events (user_id, action, routes, depth_after)
                SELECT ?, 'push', routes, 3 FROM navigation_events WHERE id = 7
                """, [user])
            #expect(try db.fetchOne("SELECT views FROM pizza_view_counts") { try $0.int("views") } == 3)
            #expect(throws: DatabaseError.self) { try db.run("UPDATE navigation_events SET depth_after = 0") }
            #expect(throws: DatabaseError.self) {
                try db.run(
                    "INSERT INTO navigation_events (user_id, action, routes, depth_after) VALUES (?, 'jump', '[]', 0)",
                    [user])
            }
            #expect(throws: DatabaseError.self) {
                try db.run("INSERT INTO navigation_stack (user_id, depth, kind) VALUES (?, 3, 'page')", [user])
            }
            let indexes = try db.fetchAll(
                """
                SELECT name FROM sqlite_schema
                WHERE type = 'index' AND tbl_name IN ('navigation_events', 'navigation_stack') ORDER BY name
                """
            ) { try $0.string("name") }
            #expect(
                indexes == [
                    "navigation_events_by_user", "navigation_events_stack_changes", "navigation_stack_by_category",
                    "navigation_stack_by_order", "navigation_stack_by_pizza",
                ])
        }
    }

    @Test("migration 33 gives every user their latest stack change and drops the partial index it was found by")
    func lastStackChange() throws {
        let path = directory.path("navigation32.sqlite")
        let users = ["anna", "marco", "nina"].enumerated().map {
            ("\($0.offset + 1)1111111-1111-4111-8111-111111111111", $0.element)
        }
        do {
            let database = try SchemaMigrator(migrations: Array(Migration.embedded.prefix(32))).open(
                path: path, access: .migrate)
            try database.write { db in
                for (id, handle) in users { try db.run("INSERT INTO users (id, handle) VALUES (?, ?)", [id, handle]) }
                // anna: a push, sheet events after it; marco: only sheet events; nina: nothing.
                for (id, user, action) in [
                    (3, users[0].0, "push"), (5, users[0].0, "pop"), (8, users[1].0, "sheet_open"),
                    (9, users[0].0, "sheet_open"), (11, users[0].0, "sheet_dismiss"),
                ] {
                    try db.run(
                        "INSERT INTO navigation_events (id, user_id, action, depth_after) VALUES (?, ?, ?, 0)",
                        [id, user, action])
                }
            }
        }
        let database = try SchemaMigrator(migrations: Array(Migration.embedded.prefix(33))).open(
            path: path, access: .migrate)
        try database.write { db in
            let stored = try db.fetchAll("SELECT handle, last_stack_change FROM users ORDER BY handle") {
                "\(try $0.string("handle")) \(try $0.optionalInt64("last_stack_change").map(String.init) ?? "NULL")"
            }
            #expect(stored == ["anna 5", "marco NULL", "nina NULL"])
            let index = try db.fetchOne(
                "SELECT count(*) AS n FROM sqlite_schema WHERE name = 'navigation_events_stack_changes'"
            ) { try $0.int("n") }
            #expect(index == 0)
            // From now on the triggers keep it.
            try db.run(
                "INSERT INTO navigation_events (user_id, action, depth_after) VALUES (?, 'pop_to_root', 0)",
                [users[1].0])
            #expect(
                try db.fetchOne("SELECT last_stack_change FROM users WHERE handle = 'marco'") {
                    try $0.optionalInt64("last_stack_change")
                } == 12)
        }
    }

    @Test(
        "migration 34: an item's entries written before it stay found by their object, later ones through the history; nothing moves"
    )
    func menuAuditThroughHistory() throws {
        let path = directory.path("audit33.sqlite")
        let pizza = "abcdef12-3456-4000-8000-000000000034"
        do {
            let database = try SchemaMigrator(migrations: Array(Migration.embedded.prefix(33))).open(
                path: path, access: .migrate)
            try database.write { db in
                try db.run("INSERT INTO pizzas (id, name, price_cents) VALUES (?, 'Margherita', 600)", [pizza])
                try db.run("UPDATE pizzas SET price_cents = 650 WHERE id = ?", [pizza])
            }
        }
        let database = try SchemaMigrator(migrations: Array(Migration.embedded.prefix(34))).open(
            path: path, access: .migrate)
        try database.write { db in
            func actions(_ sql: String) throws -> [String] {
                try db.fetchAll(sql, [pizza]) { try $0.string("action") }
            }
            #expect(
                try actions("SELECT action FROM audit_log WHERE history_id IS NULL AND object = 'pizza:' || ?") == [
                    "add", "price",
                ])
            try db.run("UPDATE pizzas SET price_cents = 700 WHERE id = ?", [pizza])
            #expect(
                try actions("SELECT action FROM audit_log_entries WHERE object = 'pizza:' || ? ORDER BY seq") == [
                    "add", "price",
                ])
            #expect(try actions("SELECT action FROM audit_pizza_entries WHERE pizza_id = ? ORDER BY seq") == ["price"])
            #expect(
                try actions("SELECT action FROM audit_trail WHERE object = 'pizza:' || ? ORDER BY at, kind, seq")
                    == ["add", "price", "price"])
            let linked = try db.fetchOne(
                "SELECT h.change || ' ' || h.new_price_cents AS linked FROM audit_log a JOIN pizza_history h ON h.id = a.history_id"
            ) { try $0.string("linked") }
            #expect(linked == "edited 700")
        }
    }

    @Test(
        "migration 35: each item's history becomes its chain (ids, rows and audit links kept), the per-item index goes, the next change continues it"
    )
    func historyChain() throws {
        let path = directory.path("history34.sqlite")
        let margherita = "abcdef12-3456-4000-8000-000000000035", marinara = "abcdef12-3456-4000-8000-000000000036"
        do {
            let database = try SchemaMigrator(migrations: Array(Migration.embedded.prefix(34))).open(
                path: path, access: .migrate)
            try database.write { db in
                try db.run("INSERT INTO pizzas (id, name, price_cents) VALUES (?, 'Margherita', 600)", [margherita])
                try db.run("INSERT INTO pizzas (id, name, price_cents) VALUES (?, 'Marinara', 400)", [marinara])
                for (id, cents) in [(margherita, 650), (marinara, 450), (margherita, 700)] {
                    try db.run("UPDATE pizzas SET price_cents = ? WHERE id = ?", [cents, id])
                }
            }
        }
        let database = try SchemaMigrator(migrations: Array(Migration.embedded.prefix(35))).open(
            path: path, access: .migrate)
        try database.write { db in
            func rows() throws -> [String] {
                try db.fetchAll(
                    "SELECT id, pizza_id, new_price_cents, previous_change FROM pizza_history ORDER BY id"
                ) {
                    "\(try $0.int64("id")) \(try $0.string("pizza_id").suffix(2)) \(try $0.int64("new_price_cents")) "
                        + (try $0.optionalInt64("previous_change").map(String.init) ?? "-")
                }
            }
            #expect(try rows() == ["1 35 600 -", "2 36 400 -", "3 35 650 1", "4 36 450 2", "5 35 700 3"])
            let heads = try db.fetchAll("SELECT last_change FROM pizzas ORDER BY id") { try $0.int64("last_change") }
            #expect(heads == [5, 4])
            let indexes = try db.fetchOne(
                "SELECT count(*) AS n FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'pizza_history'"
            ) { try $0.int("n") }
            #expect(indexes == 0)
            // The audit entries still name their history rows; the next change continues the chain.
            let linked = try db.fetchAll("SELECT history_id FROM audit_pizza_entries ORDER BY seq") {
                try $0.int64("history_id")
            }
            #expect(linked == [1, 2, 3, 4, 5])
            try db.run("UPDATE pizzas SET name = 'Marinara Bianca' WHERE id = ?", [marinara])
            #expect(try rows().last == "6 36 450 4")
            #expect(
                try db.fetchOne("SELECT last_change FROM pizzas WHERE id = ?", [marinara]) {
                    try $0.int64("last_change")
                } == 6)
        }
    }

    @Test(
        "migration 36: a default variant's price goes (it is its item's), the others keep theirs, a booked line's variant is kept, an item's price edit no longer writes its variant"
    )
    func defaultVariantPrice() throws {
        let path = directory.path("variants35.sqlite")
        let pizza = "abcdef12-3456-4000-8000-000000000036"
        do {
            let database = try SchemaMigrator(migrations: Array(Migration.embedded.prefix(35))).open(
                path: path, access: .migrate)
            try database.write { db in
                try db.run("INSERT INTO pizzas (id, name, price_cents) VALUES (?, 'Margherita', 600)", [pizza])
                try db.run(
                    "INSERT INTO pizza_variants (pizza_id, name, price_cents, position) VALUES (?, 'Maxi', 900, 2)",
                    [pizza])
                try db.run("UPDATE pizzas SET price_cents = 650 WHERE id = ?", [pizza])
            }
        }
        let database = try SchemaMigrator(migrations: Array(Migration.embedded.prefix(36))).open(
            path: path, access: .migrate)
        try database.write { db in
            func variants() throws -> [String] {
                try db.fetchAll("SELECT id, name, price_cents, is_default FROM pizza_variants ORDER BY id") {
                    "\(try $0.int64("id")) \(try $0.string("name")) "
                        + (try $0.optionalInt64("price_cents").map(String.init) ?? "-") + " \(try $0.int("is_default"))"
                }
            }
            #expect(try variants() == ["1 Normale - 1", "2 Maxi 900 0"])
            #expect(
                try db.fetchAll("SELECT variant, price_eur FROM menu_items ORDER BY variant") {
                    "\(try $0.string("variant")) \(try $0.string("price_eur"))"
                } == ["Maxi 9.00", "Normale 6.50"])
            // The index of the menu's order and the table's unique key came back with the table.
            let indexes = try db.fetchAll(
                "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'pizza_variants' ORDER BY name"
            ) { try $0.string("name") }
            #expect(indexes == ["pizza_variants_in_menu_order", "sqlite_autoindex_pizza_variants_1"])
            // A price edit changes the item's row and writes no variant; the default still costs it.
            try db.execute(
                """
                CREATE TEMP TRIGGER variant_written AFTER UPDATE ON main.pizza_variants
                BEGIN SELECT RAISE(ABORT, 'a variant was written'); END
                """)
            try db.run("UPDATE pizzas SET price_cents = 700 WHERE id = ?", [pizza])
            try db.execute("DROP TRIGGER temp.variant_written")
            #expect(try variants() == ["1 Normale - 1", "2 Maxi 900 0"])
            #expect(
                try db.fetchOne("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'pizzas_price_to_variant'") {
                    try $0.int("n")
                } == 0)
        }
    }

    @Test("a database from a newer binary is refused and untouched")
    func newerSchema() throws {
        let path = directory.path("newer.sqlite")
        do {
            let database = try SchemaMigrator().open(path: path, access: .migrate)
            try database.write { db in
                try db.run(
                    "INSERT INTO schema_migrations (version, name, checksum) VALUES (?, 'from_the_future', ?)",
                    [999, String(repeating: "0", count: 64)])
                try db.execute("PRAGMA user_version = 999")
            }
        }
        let before = fileBytes(path)
        for access in [SchemaMigrator.Access.migrate, .requireCurrent, .inspect] {
            let error = #expect(throws: SchemaError.self) { try SchemaMigrator().open(path: path, access: access) }
            #expect(error == .newerSchema(databaseVersion: 999, knownVersion: SchemaMigrator().latestVersion))
        }
        #expect(fileBytes(path) == before)
    }

    @Test("an applied migration whose text changed is refused and the file untouched")
    func checksumMismatch() throws {
        let path = directory.path("edited.sqlite")
        let shipped = Migration.embedded
        _ = try SchemaMigrator(migrations: Array(shipped.prefix(2))).open(path: path, access: .migrate)
        let before = fileBytes(path)
        // A binary whose 0002 was edited after it shipped.
        guard let edited = Migration(fileName: "0002_\(shipped[1].name).sql", sql: shipped[1].sql + "\n-- edited\n")
        else {
            Issue.record("could not build the edited migration"); return
        }
        let tampered = SchemaMigrator(migrations: [shipped[0], edited] + shipped.dropFirst(2))
        let error = #expect(throws: SchemaError.self) { try tampered.open(path: path, access: .migrate) }
        guard case .checksumMismatch(let version, _, let recorded, let embedded) = error else {
            Issue.record("expected checksumMismatch, got \(String(describing: error))"); return
        }
        #expect(version == 2 && recorded == shipped[1].checksum && embedded == edited.checksum)
        #expect(fileBytes(path) == before)
    }

    @Test("a missing file is an error for every access but migrate, and nothing is created")
    func missingFile() throws {
        let path = directory.path("missing.sqlite")
        for access in [SchemaMigrator.Access.requireCurrent, .inspect] {
            #expect(throws: DatabaseError.self) { try SchemaMigrator().open(path: path, access: access) }
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test(
        "migrations of a file sort in temporary files, not in memory; the connection keeps temporary storage in memory after"
    )
    func migrationsSpillToFiles() throws {
        let path = directory.path("temp-store.sqlite")
        // A migration that records the setting it runs under (0 default, 1 file, 2 memory).
        guard
            let recording = Migration(
                fileName: "0002_recording.sql",
                sql:
                    "CREATE TABLE recorded (temp_store INTEGER) STRICT; INSERT INTO recorded SELECT temp_store FROM pragma_temp_store;"
            )
        else {
            Issue.record("could not build the migration"); return
        }
        // A file with a migration applied (a new file's baseline sorts nothing: it stays in memory).
        _ = try SchemaMigrator(migrations: [Migration.embedded[0]]).open(path: path, access: .migrate)
        let database = try SchemaMigrator(migrations: [Migration.embedded[0], recording]).open(
            path: path, access: .migrate)
        let (during, after) = try database.withWriter { db in
            (
                try db.fetchOne("SELECT temp_store FROM recorded") { try $0.int("temp_store") },
                try db.fetchOne("PRAGMA temp_store") { try $0.int("temp_store") }
            )
        }
        #expect(during == 1)
        #expect(after == 2)
    }

    @Test("a migration that fails leaves no trace of itself, nor of the pending migrations before it: all or nothing")
    func failingMigrationRollsBack() throws {
        let path = directory.path("broken.sqlite")
        _ = try SchemaMigrator(migrations: [Migration.embedded[0]]).open(path: path, access: .migrate)
        let before = try tables(
            try SchemaMigrator(migrations: [Migration.embedded[0]]).open(path: path, access: .inspect))
        guard
            let broken = Migration(
                fileName: "0003_broken.sql",
                sql: "CREATE TABLE half_done (x INTEGER) STRICT; INSERT INTO no_such_table VALUES (1);")
        else {
            Issue.record("could not build the migration"); return
        }
        let migrator = SchemaMigrator(migrations: [Migration.embedded[0], Migration.embedded[1], broken])
        let error = #expect(throws: SchemaError.self) { try migrator.open(path: path, access: .migrate) }
        #expect(error == .migrationFailed(version: 3, name: "broken", reason: "no such table: no_such_table"))
        #expect(error?.description.contains("INSERT") == false)  // no SQL for the user
        let database = try SchemaMigrator(migrations: [Migration.embedded[0]]).open(path: path, access: .inspect)
        #expect(try tables(database) == before)
        #expect(try !tables(database).contains("half_done"))
        #expect(try database.read { db in try db.fetchOne("PRAGMA user_version") { try $0.int("user_version") } } == 1)
    }
}
