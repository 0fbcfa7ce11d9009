import Foundation

/// The current schema's tables, indexes and first rows as one script (`Migrations/B__baseline.sql`):
/// a new file is made from it in one step instead of running every migration, then the repeatable
/// definitions make its views and triggers (Flyway's baseline). It is generated from a file every
/// migration made (``SchemaBaseline/script(of:version:)``; `PIZZERIA_WRITE_SCHEMA=1 swift test
/// --filter SchemaSnapshotTests` writes it) and a test requires a file made from it to equal one
/// made by the migrations, object by object and row by row, so it is never a second definition.
public struct SchemaBaseline: Sendable, Hashable {
    /// The schema version the script is the state of; it is used only when it is the latest.
    public let version: Int
    /// The script.
    public let sql: String

    /// The first line of every baseline, followed by its version.
    static let versionLine = "-- baseline of schema version "

    /// A baseline from its text, or `nil` when it does not start with its version line.
    public init?(sql: String) {
        guard sql.hasPrefix(Self.versionLine),
            let line = sql.split(separator: "\n", maxSplits: 1).first,
            let version = Int(line.dropFirst(Self.versionLine.count).trimmingCharacters(in: .whitespaces))
        else { return nil }
        (self.version, self.sql) = (version, sql)
    }

    /// The file name of the embedded baseline.
    public static let fileName = "B__baseline.sql"

    /// The baseline compiled into this binary, if any.
    public static let embedded: SchemaBaseline? = EmbeddedMigrations.files
        .first { $0.fileName == fileName }
        .flatMap { SchemaBaseline(sql: $0.sql) }

    /// A value written as the time a row was made (`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')` in a
    /// migration): the script writes it as the same expression, so a new file has its own time.
    static func isMadeNow(_ literal: String) -> Bool {
        // 'YYYY-MM-DDTHH:MM:SS.sssZ' with its quotes: 26 characters, digits where digits go.
        let shape = Array("'0000-00-00T00:00:00.000Z'")
        let characters = Array(literal)
        guard characters.count == shape.count else { return false }
        return zip(characters, shape).allSatisfy { found, expected in
            expected == "0" ? found.isASCII && found.isNumber : found == expected
        }
    }

    /// The script that makes `db`'s tables, indexes and rows (not the migrator's own tables, nor
    /// views and triggers): every `CREATE` in the order `sqlite_schema` holds them, then each
    /// table's rows as `INSERT`s of SQL literals (`quote()`), generated columns left out.
    public static func script(of db: Connection, version: Int) throws -> String {
        var lines = [
            versionLine + String(version),
            "-- Generated from a file every migration made (PIZZERIA_WRITE_SCHEMA=1 swift test --filter",
            "-- SchemaSnapshotTests); do not edit. A new file is made from it in one step; the repeatable",
            "-- definitions (R__*.sql) then make the views and triggers. Tables change in migrations only.",
            "",
        ]
        let objects = try db.fetchAll(
            """
            SELECT type, name, sql FROM sqlite_schema
            WHERE type IN ('table', 'index') AND sql IS NOT NULL AND name NOT LIKE 'sqlite_%'
              AND name NOT IN ('schema_migrations', 'schema_repeatables')
            ORDER BY rowid
            """
        ) { (type: try $0.string("type"), name: try $0.string("name"), sql: try $0.string("sql")) }
        for object in objects { lines.append(object.sql + ";") }
        lines.append("")
        for table in objects where table.type == "table" {
            let columns = try db.fetchAll("SELECT name, hidden FROM pragma_table_xinfo(?)", [table.name]) {
                (name: try $0.string("name"), hidden: try $0.int("hidden"))
            }.filter { $0.hidden == 0 }.map(\.name)
            let quotedTable = quoted(table.name)
            let names = columns.map(quoted).joined(separator: ", ")
            // The names come from sqlite_schema and pragma_table_xinfo, quoted as identifiers: not input.
            let select =
                "SELECT " + columns.map { "quote(\(quoted($0))) AS \(quoted($0))" }.joined(separator: ", ")
                + " FROM " + quotedTable
            try db.forEach(select, []) { row in
                let values = try columns.map { column -> String in
                    let literal = try row.string(column)
                    if isMadeNow(literal) {
                        return "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
                    }
                    return literal
                }
                // Text of the script, not a statement run here: quoted identifiers, and values as
                // SQLite's own quote() wrote them (or the made-now expression).
                lines.append("INSERT INTO \(quotedTable) (\(names)) VALUES (\(values.joined(separator: ", ")));")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `name` as an SQL identifier.
    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
