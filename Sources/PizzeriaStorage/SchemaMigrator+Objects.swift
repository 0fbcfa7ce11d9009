import Synchronization

/// One object of a schema: a table, an index, a trigger or a view, and the SQL that made it.
public struct SchemaObject: Sendable, Hashable {
    /// `table`, `index`, `trigger` or `view`.
    public let type: String
    /// Its name.
    public let name: String
    /// The table it belongs to (itself for a table or a view).
    public let table: String
    /// The `CREATE` statement SQLite keeps for it.
    public let sql: String
}

/// How a file's schema differs from the one its migrations make.
public struct SchemaDrift: Sendable, Hashable {
    /// What is wrong with the object.
    public enum Kind: String, Sendable, Hashable {
        /// The migrations make it; the file does not have it (`DROP TRIGGER`).
        case missing
        /// The file has it with other SQL than the migrations'.
        case changed
        /// A trigger no migration makes: it runs on every write to its table.
        case extraTrigger = "extra"
    }

    /// What is wrong.
    public let kind: Kind
    /// The object as the migrations make it (for ``Kind/extraTrigger``, as the file has it).
    public let object: SchemaObject

    /// Whether the object can be made again from the migrations' SQL without touching a row: a
    /// trigger, a view or an index (a table cannot).
    public var isRepairable: Bool { object.type != "table" }

    /// `missing trigger slot_loads_capacity (on slot_loads)`.
    public var description: String { "\(kind.rawValue) \(object.type) \(object.name) (on \(object.table))" }
}

extension SchemaMigrator {
    /// The objects of `db`'s schema (SQLite's own `sqlite_*` objects, automatic indexes and the
    /// migrator's own `schema_migrations`, which ``status(of:)`` checks, left out), by type and name.
    public static func schemaObjects(in db: Connection) throws -> [SchemaObject] {
        try db.fetchAll(
            """
            SELECT type, name, tbl_name, sql FROM sqlite_schema
            WHERE name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations' AND name <> 'schema_repeatables' AND sql IS NOT NULL
              ORDER BY type, name
            """
        ) { row in
            SchemaObject(
                type: try row.string("type"), name: try row.string("name"), table: try row.string("tbl_name"),
                sql: try row.string("sql"))
        }
    }

    /// The schema every migration makes, applied in order to an empty database in memory (with
    /// their data steps, which find nothing to do there); computed once per process.
    public func expectedSchema() throws -> [SchemaObject] {
        let key = migrations.map(\.checksum).joined(separator: ",")
        if let kept = Self.expected.withLock({ $0[key] }) { return kept }
        let db = try Connection(path: ":memory:", mode: .readWriteCreate)
        try db.execute("PRAGMA foreign_keys = OFF")
        let objects = try db.transaction(.immediate) {
            _ = try applyPending(in: db)
            return try Self.schemaObjects(in: db)
        }
        Self.expected.withLock { $0[key] = objects }
        return objects
    }

    /// The expected schemas computed so far, by their migrations' checksums.
    private static let expected = Mutex<[String: [SchemaObject]]>([:])

    /// How `db`'s schema differs from ``expectedSchema()``: what the migrations make and the file
    /// lacks or has otherwise, and triggers of the file's own. An analyst's own tables, views and
    /// indexes are theirs to keep and are not reported.
    public func schemaDrift(of db: Connection) throws -> [SchemaDrift] {
        let live = Dictionary(try Self.schemaObjects(in: db).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let expected = try expectedSchema()
        var drift: [SchemaDrift] = []
        for object in expected {
            guard let found = live[object.name], found.type == object.type else {
                drift.append(SchemaDrift(kind: .missing, object: object))
                continue
            }
            if found.sql != object.sql { drift.append(SchemaDrift(kind: .changed, object: object)) }
        }
        let names = Set(expected.map(\.name))
        for object in live.values.sorted(by: { $0.name < $1.name })
        where object.type == "trigger" && !names.contains(object.name) {
            drift.append(SchemaDrift(kind: .extraTrigger, object: object))
        }
        return drift
    }

    /// Makes the repairable drifts right in the caller's transaction: a missing or changed
    /// trigger, view or index is created again from the migrations' SQL (the changed one dropped
    /// first); an extra trigger is dropped. Tables are left for a person.
    public func repair(_ drift: [SchemaDrift], in db: Connection) throws {
        for item in drift where item.isRepairable {
            let object = item.object
            // The type and the name come from sqlite_schema (the file's or the migrations'), quoted
            // as identifiers; the SQL is the migrations' own text: neither is input.
            let quoted = "\"" + object.name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            switch item.kind {
            case .missing:
                try db.execute(object.sql)
            case .changed:
                try db.execute("DROP \(object.type.uppercased()) \(quoted)")
                try db.execute(object.sql)
            case .extraTrigger:
                try db.execute("DROP TRIGGER \(quoted)")
            }
        }
    }
}
