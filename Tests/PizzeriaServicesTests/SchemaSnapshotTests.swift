import Foundation
import Testing
import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

/// `docs/schema.sql` is the current schema as a new file has it (every table, index, trigger and
/// view, from `sqlite_schema`): generated, committed, and held to the migrations by this test.
/// Regenerate with `PIZZERIA_WRITE_SCHEMA=1 swift test --filter SchemaSnapshotTests`.
@Suite("The committed schema snapshot is the migrations' schema")
struct SchemaSnapshotTests {
    static func current() throws -> String {
        let directory = TemporaryDirectory()
        let pizzeria = try Pizzeria.open(path: directory.path("schema.sqlite"))
        let statements = try pizzeria.database.read { db in
            try db.fetchAll(
                """
                SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL
                ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 WHEN 'view' THEN 2 ELSE 3 END, name
                """
            ) { try $0.string("sql") }
        }
        return "-- The schema of a new Pizzeria file, generated from Migrations/ (do not edit: see\n"
            + "-- Tests/PizzeriaServicesTests/SchemaSnapshotTests.swift). Tables, indexes, views, triggers by name.\n\n"
            + statements.map { $0 + ";\n" }.joined(separator: "\n")
    }

    @Test("docs/schema.sql matches a new file's schema")
    func snapshot() throws {
        let url = packageRoot.appendingPathComponent("docs/schema.sql")
        let current = try Self.current()
        if ProcessInfo.processInfo.environment["PIZZERIA_WRITE_SCHEMA"] == "1" {
            try current.write(to: url, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOf: url, encoding: .utf8)
        #expect(
            committed == current,
            "docs/schema.sql is stale: run PIZZERIA_WRITE_SCHEMA=1 swift test --filter SchemaSnapshotTests")
    }

    /// A new file made by every migration, as before baselines (its connection open).
    static func migrated(_ directory: TemporaryDirectory, _ name: String) throws -> Database {
        try SchemaMigrator().withoutBaseline().open(path: directory.path(name), access: .migrate)
    }

    @Test("Migrations/B__baseline.sql is what every migration makes, and new files are made from it")
    func baseline() throws {
        let directory = TemporaryDirectory()
        let migrated = try Self.migrated(directory, "migrated.sqlite")
        let latest = SchemaMigrator().latestVersion
        let generated = try migrated.read { db in try SchemaBaseline.script(of: db, version: latest) }
        let url = packageRoot.appendingPathComponent("Migrations/" + SchemaBaseline.fileName)
        if ProcessInfo.processInfo.environment["PIZZERIA_WRITE_SCHEMA"] == "1" {
            try generated.write(to: url, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOf: url, encoding: .utf8)
        #expect(
            committed == generated,
            "Migrations/B__baseline.sql is stale: run PIZZERIA_WRITE_SCHEMA=1 swift test --filter SchemaSnapshotTests")
        // The binary's baseline is that file, and a new file is made from it.
        #expect(SchemaBaseline.embedded?.sql == committed)
        #expect(SchemaMigrator().baseline?.version == latest)
        let made = try SchemaMigrator().open(path: directory.path("baseline.sqlite"), access: .migrate)
        // Object by object in creation order (SQLite fires a table's triggers last made first),
        // and row by row in every table, the time each was made aside.
        func objects(_ database: Database) throws -> [String] {
            try database.read { db in
                try db.fetchAll("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY rowid") {
                    [
                        try $0.string("type"), try $0.string("name"), try $0.string("tbl_name"),
                        try $0.optionalString("sql") ?? "-",
                    ].joined(separator: " | ")
                }
            }
        }
        #expect(try objects(made) == objects(migrated))
        func rows(_ database: Database) throws -> [String] {
            try database.read { db in
                let tables = try db.fetchAll(
                    "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
                ) { try $0.string("name") }
                return try tables.flatMap { table in
                    // The table names come from sqlite_schema: not input.
                    try db.fetchAll("SELECT * FROM \"\(table)\"") { row in
                        table + ": "
                            + row.columns.filter { !["applied_at", "updated_at"].contains(row.name(of: $0)) }
                            .map { "\(row.name(of: $0))=\(row[$0])" }.joined(separator: ", ")
                    }
                }
            }
        }
        let madeRows = try rows(made)
        #expect(madeRows == (try rows(migrated)))
        #expect(madeRows.contains { $0.hasPrefix("stations: ") && $0.contains("Forno") }, "\(madeRows.prefix(5))")
        let versions = try made.read { db in
            (
                try db.fetchOne("PRAGMA user_version") { try $0.int("user_version") },
                try db.fetchOne("SELECT count(*) AS n FROM schema_migrations") { try $0.int("n") }
            )
        }
        #expect(versions.0 == latest && versions.1 == SchemaMigrator().migrations.count)
    }
}
