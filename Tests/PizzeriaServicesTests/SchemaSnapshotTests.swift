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
}
