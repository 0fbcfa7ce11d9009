import Foundation
import PizzeriaTestSupport
import Testing

@testable import PizzeriaServices
@testable import PizzeriaStorage

/// Every view and trigger has one definition, in the repeatable files (`Migrations/R__*.sql`):
/// a file made by a binary of any earlier schema version upgrades to exactly the schema a new
/// file gets, and a changed definition is made again everywhere.
@Suite("Repeatable definitions: every earlier version upgrades to the same schema")
struct SchemaUpgradeTests {
    func schema(_ path: String) throws -> [String] {
        let database = try Pizzeria.migrator.open(path: path, access: .inspect)
        return try database.read { db in
            try SchemaMigrator.schemaObjects(in: db).map { "\($0.type) \($0.name) \($0.table)\n\($0.sql)" }
        }
    }

    /// This binary's migrator with the definition `fileName` edited: `text` appended, as the next
    /// release's would have it.
    func edited(_ fileName: String, appending text: String) throws -> SchemaMigrator {
        var changed = Pizzeria.migrator.repeatables
        let index = try #require(changed.firstIndex { $0.fileName == fileName })
        changed[index] = Repeatable(fileName: fileName, sql: changed[index].sql + text)
        return SchemaMigrator(migrations: Pizzeria.migrator.migrations, repeatables: changed)
    }

    @Test("a file of each schema version 1…latest−1, as its binary made it, upgrades to the new file's schema")
    func everyVersionUpgrades() throws {
        let directory = TemporaryDirectory()
        let fresh = directory.path("fresh.sqlite")
        _ = try Pizzeria.open(path: fresh)
        let expected = try schema(fresh)
        #expect(expected.filter { $0.hasPrefix("trigger ") }.count > 200)
        for version in 1..<Pizzeria.migrator.latestVersion {
            let path = directory.path("v\(version).sqlite")
            _ = try Pizzeria.migrator.asOfVersion(version).open(path: path, access: .migrate)
            _ = try Pizzeria.open(path: path)
            let upgraded = try schema(path)
            #expect(
                upgraded == expected,
                "schema \(version) upgraded: \(Set(upgraded).symmetricDifference(expected).prefix(3))")
        }
    }

    @Test("a changed definition is pending (refused until made again); init makes every view and trigger again")
    func changedDefinition() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("shop.sqlite")
        _ = try Pizzeria.open(path: path)
        let newer = try edited("R__views.sql", appending: "\nCREATE VIEW repeatable_probe AS SELECT 1 AS one;\n")
        #expect(throws: SchemaError.definitionsPending(version: newer.latestVersion)) {
            _ = try newer.open(path: path, access: .requireCurrent)
        }
        let database = try newer.open(path: path, access: .migrate)
        let probe = try database.read { db in
            try db.fetchOne("SELECT one FROM repeatable_probe") { try $0.int("one") }
        }
        #expect(probe == 1)
        _ = try newer.open(path: path, access: .requireCurrent)
    }

    /// Marks every view and trigger of `path` as it stands (a newline after its stored SQL, by the
    /// `sqlite3` shell with `writable_schema`): one made again afterwards has its SQL as written.
    func mark(_ path: String) throws {
        let shell = try SQLiteShell(databasePath: path)
        defer { shell.close() }
        try shell.run(
            """
            PRAGMA writable_schema = ON;
            UPDATE sqlite_schema SET sql = sql || char(10) WHERE type IN ('trigger', 'view');
            PRAGMA writable_schema = OFF;
            """)
    }

    /// The views and triggers of `path` made since ``mark(_:)``.
    func remade(_ path: String) throws -> Set<String> {
        let database = try Pizzeria.migrator.open(path: path, access: .inspect)
        return Set(
            try database.read { db in
                try db.fetchAll(
                    "SELECT name FROM sqlite_schema WHERE type IN ('trigger', 'view') AND sql NOT LIKE '%' || char(10)"
                ) { try $0.string("name") }
            })
    }

    @Test("each definition names the objects it makes: together, every view and trigger, each once")
    func definitionsNameTheirObjects() throws {
        let names = Pizzeria.migrator.repeatables.flatMap(\.objectNames)
        #expect(Set(names).count == names.count, "an object in two definitions")
        #expect(Pizzeria.migrator.repeatables.allSatisfy { !$0.objectNames.isEmpty })
        let expected = try Pizzeria.migrator.expectedSchema().filter { $0.type == "trigger" || $0.type == "view" }
        #expect(Set(names) == Set(expected.map(\.name)))
        #expect(
            Repeatable.createdObjects(
                in:
                    "-- CREATE VIEW not_this AS SELECT 1;\ncreate temp view if not exists \"a\" as select 1;\nCREATE TRIGGER b\n"
            ) == ["a", "b"])
        // Comments and string literals make nothing; a bracketed or back-quoted name is a name.
        #expect(
            Repeatable.createdObjects(
                in: """
                    /* CREATE VIEW c AS SELECT 1; */ CREATE TRIGGER [d e] BEGIN SELECT RAISE(ABORT, 'it''s \
                    CREATE VIEW f -- not'); END;
                    CREATE\tVIEW\n`g`(x) AS SELECT 'CREATE TRIGGER h'; CREATE TABLE i (j); CREATE (VIEW) k;
                    """) == ["d e", "g"])
    }

    @Test("a changed definition makes its own objects again, not the others'; a missing object its file's")
    func onlyWhatChanged() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("shop.sqlite")
        _ = try Pizzeria.open(path: path)
        let fresh = try schema(path)
        let newer = try edited("R__triggers_staff.sql", appending: "\n-- edited\n")
        let staff = Set(try #require(newer.repeatables.first { $0.fileName == "R__triggers_staff.sql" }).objectNames)
        try mark(path)
        _ = try newer.open(path: path, access: .migrate)
        #expect(try remade(path) == staff)
        // A trigger dropped by hand, and the definition changed back: both files are made again.
        let dropped = "slot_loads_capacity"
        let owner = try #require(Pizzeria.migrator.repeatables.first { $0.objectNames.contains(dropped) })
        try newer.open(path: path, access: .migrate).write { try $0.execute("DROP TRIGGER \(dropped)") }
        try mark(path)
        _ = try Pizzeria.migrator.open(path: path, access: .migrate)
        #expect(try remade(path) == Set(owner.objectNames).union(staff))
        // Unmarked again by a full remake, the file's schema is a new file's.
        try Pizzeria.migrator.open(path: path, access: .migrate).write {
            _ = try $0.run("UPDATE schema_repeatables SET checksum = ?", [String(repeating: "0", count: 64)])
        }
        _ = try Pizzeria.migrator.open(path: path, access: .migrate)
        #expect(try schema(path) == fresh)
    }

    @Test("a view or trigger no definition makes: every one is made again, and it is gone")
    func strangerRemakesAll() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("shop.sqlite")
        _ = try Pizzeria.open(path: path)
        let newer = try edited("R__views.sql", appending: "\n-- edited\n")
        try Pizzeria.migrator.open(path: path, access: .migrate).write {
            try $0.execute("CREATE VIEW left_behind AS SELECT 1 AS one")
        }
        try mark(path)
        _ = try newer.open(path: path, access: .migrate)
        let all = Set(newer.repeatables.flatMap(\.objectNames))
        #expect(try remade(path) == all, "every object made again, the stranger gone")
    }

    @Test("a current file opened to migrate is not write-locked: it opens while a sqlite3 shell holds the write lock")
    func currentOpensBesideAWriter() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("shop.sqlite")
        _ = try Pizzeria.open(path: path)
        let shell = try SQLiteShell(databasePath: path)
        defer { shell.close() }
        try shell.run("BEGIN IMMEDIATE;")
        var configuration = PizzeriaConfiguration()
        configuration.busyTimeoutMilliseconds = 100
        let pizzeria = try Pizzeria.open(path: path, configuration: configuration)
        #expect(try pizzeria.settings.current().slotMinutes > 0, "a read beside the shell's write lock")
        let result = try Maintenance.initialize(path: path, configuration: configuration)
        #expect(result.applied.isEmpty && !result.definitionsRemade && !result.created)
    }

    @Test("init makes older views and triggers again and says so; migrations says what is pending")
    func initMakesThemAgain() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("shop.sqlite")
        _ = try Pizzeria.open(path: path)
        try Pizzeria.migrator.open(path: path, access: .migrate).write { db in
            _ = try db.run(
                "UPDATE schema_repeatables SET checksum = ? WHERE name = 'R__views.sql'",
                [
                    String(repeating: "0", count: 64)
                ])
        }
        let stale = try Maintenance.migrations(path: path)
        #expect(!stale.isCurrent && !stale.definitionsCurrent && stale.entries.allSatisfy(\.isApplied))
        #expect(throws: SchemaError.self) { try Pizzeria.open(path: path, access: .requireCurrent) }
        let result = try Maintenance.initialize(path: path)
        #expect(result.definitionsRemade && result.applied.isEmpty)
        #expect(try Maintenance.migrations(path: path).isCurrent)
    }
}
