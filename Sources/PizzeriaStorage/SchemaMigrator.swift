/// Applies the embedded migrations and refuses databases it must not touch.
///
/// The pending migrations run in one `BEGIN IMMEDIATE` transaction together with their rows in
/// `schema_migrations` and `PRAGMA user_version`, and commit only when `foreign_key_check` finds
/// nothing after each. Two processes migrating at once queue on the write lock; the second finds the work
/// done and does nothing.
public struct SchemaMigrator: Sendable {
    /// What a caller needs from the schema when opening a file.
    public enum Access: Sendable {
        /// Create the file if missing and apply pending migrations (`pizzeria init`).
        case migrate
        /// The file must exist and be fully migrated (every domain command).
        case requireCurrent
        /// The file must exist and be a Pizzeria database of any known version; it is opened
        /// read-only and every byte of it, its `-wal` and its `-shm` stays as it was
        /// (`migrations`, `check`, `backup`).
        case inspect
    }

    /// The migrations this migrator knows, in version order.
    public let migrations: [Migration]
    /// The repeatable definitions of the views and triggers, applied after the migrations.
    public let repeatables: [Repeatable]

    /// Work in Swift that runs right after a migration's SQL, in its transaction, for what SQL
    /// cannot compute (such as full Unicode case folding). Keyed by the migration's file name
    /// (`0005_edges.sql`); a key that names no migration is refused before anything runs.
    public typealias DataStep = @Sendable (Connection) throws -> Void
    private let dataSteps: [String: DataStep]
    /// The current schema in one script, for a new file (``SchemaBaseline``): used when it is of
    /// the latest version; `nil` makes every new file by running every migration.
    public let baseline: SchemaBaseline?

    /// A migrator for `migrations`, by default the ones compiled into the binary, with the data
    /// steps that complete some of them, by migration file name. The repeatable definitions are by
    /// default the compiled ones when the migrations are, and none for other migrations (the
    /// definitions are of the latest schema: a migrator of earlier migrations is an earlier binary).
    /// The baseline is the compiled one when the migrations are (and `useBaseline`), else none.
    public init(
        migrations: [Migration] = Migration.embedded, repeatables: [Repeatable]? = nil,
        dataSteps: [String: DataStep] = [:], useBaseline: Bool = true
    ) {
        self.migrations = migrations
        self.repeatables = repeatables ?? (migrations == Migration.embedded ? Repeatable.embedded : [])
        self.dataSteps = dataSteps
        let baseline = useBaseline && migrations == Migration.embedded ? SchemaBaseline.embedded : nil
        self.baseline = baseline?.version == migrations.last?.version ? baseline : nil
    }

    /// This migrator making new files by running every migration, as it did before baselines:
    /// what the baseline is generated from and compared with.
    public func withoutBaseline() -> SchemaMigrator {
        SchemaMigrator(migrations: migrations, repeatables: repeatables, dataSteps: dataSteps, useBaseline: false)
    }

    /// The highest version this migrator knows.
    public var latestVersion: Int { migrations.last?.version ?? 0 }

    /// This migrator as a binary of schema `version` was: its migrations up to that version, with
    /// their data steps, and no repeatable definitions (a file such a binary made has the views and
    /// triggers those migrations made). What a test upgrades every earlier version from.
    public func asOfVersion(_ version: Int) -> SchemaMigrator {
        let kept = migrations.filter { $0.version <= version }
        let names = Set(kept.map(\.fileName))
        return SchemaMigrator(
            migrations: kept, repeatables: [], dataSteps: dataSteps.filter { names.contains($0.key) },
            useBaseline: false)
    }

    // MARK: - Opening

    /// Opens the file at `path` for the given access.
    ///
    /// Refusals happen before the file is switched to WAL or written in any way, so a refused file
    /// stays byte-for-byte as it was.
    /// - Throws: ``SchemaError`` or ``DatabaseError``.
    public func open(path: String, access: Access, configuration: DatabaseConfiguration = .init()) throws -> Database {
        try openReporting(path: path, access: access, configuration: configuration).database
    }

    /// ``open(path:access:configuration:)``, with the file's schema status as the open found it,
    /// before any migration ran: one read of the schema for a caller that reports what it did
    /// (`pizzeria init`, migrating every shop). A current file opened to migrate is not written
    /// and takes no write lock.
    /// - Throws: ``SchemaError`` or ``DatabaseError``.
    public func openReporting(path: String, access: Access, configuration: DatabaseConfiguration = .init()) throws
        -> (database: Database, found: SchemaStatus)
    {
        var found: SchemaStatus?
        let database = try Database(
            path: path, configuration: configuration, create: access == .migrate,
            readOnly: access == .inspect
        ) { db in
            let status = try self.status(of: db)
            if access == .requireCurrent, !status.pending.isEmpty {
                throw SchemaError.migrationsPending(databaseVersion: status.version, knownVersion: latestVersion)
            }
            if access == .requireCurrent, !status.repeatablesCurrent {
                throw SchemaError.definitionsPending(version: status.version)
            }
            found = status
        }
        let status = try found ?? database.read { try self.status(of: $0) }
        if access == .migrate, !status.isCurrent {
            try migrate(database, found: status)
        }
        return (database, status)
    }

    // MARK: - Status

    /// Reads the schema state of `db` and validates it against the known migrations.
    /// - Throws: ``SchemaError`` for a foreign database, a newer schema or a checksum mismatch.
    public func status(of db: Connection) throws -> SchemaStatus {
        // Whether the bookkeeping tables exist, asked of the connection's parsed schema
        // (`pragma_table_info` of one table: no scan). Every open reads this: it used to count
        // the objects in `sqlite_schema`, a walk of its 400 rows each time; with four reads a
        // shop, the status was a tenth of migrating one whose definitions changed (callgrind).
        let (hasMigrations, hasRepeatables) =
            try db.fetchOne(
                """
                SELECT EXISTS (SELECT 1 FROM pragma_table_info('schema_migrations', 'main')) AS migrations,
                       EXISTS (SELECT 1 FROM pragma_table_info('schema_repeatables', 'main')) AS repeatables
                """
            ) { (try $0.int("migrations") != 0, try $0.int("repeatables") != 0) } ?? (false, false)
        guard hasMigrations else {
            // A new file holds nothing; anything else is not Pizzeria's.
            let names = try db.fetchAll(
                "SELECT name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name"
            ) { try $0.string("name") }
            guard names.isEmpty else { throw SchemaError.foreignDatabase(path: db.path, objects: names) }
            return SchemaStatus(applied: [], pending: migrations, repeatablesCurrent: repeatables.isEmpty)
        }
        let applied = try db.fetchAll(
            "SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version"
        ) { row in
            AppliedMigration(
                version: try row.int("version"), name: try row.string("name"),
                checksum: try row.string("checksum"), appliedAt: try row.string("applied_at"))
        }
        let userVersion = try db.fetchOne("PRAGMA user_version") { try $0.int("user_version") } ?? 0
        let databaseVersion = max(userVersion, applied.last?.version ?? 0)
        guard databaseVersion <= latestVersion else {
            throw SchemaError.newerSchema(databaseVersion: databaseVersion, knownVersion: latestVersion)
        }
        let known = Dictionary(uniqueKeysWithValues: migrations.map { ($0.version, $0) })
        for record in applied {
            guard let migration = known[record.version] else {
                throw SchemaError.newerSchema(databaseVersion: record.version, knownVersion: latestVersion)
            }
            guard migration.checksum == record.checksum else {
                throw SchemaError.checksumMismatch(
                    version: record.version, name: migration.name,
                    recorded: record.checksum, embedded: migration.checksum)
            }
        }
        let done = Set(applied.map(\.version))
        return SchemaStatus(
            applied: applied, pending: migrations.filter { !done.contains($0.version) },
            repeatablesCurrent: try repeatablesCurrent(in: db, recorded: hasRepeatables))
    }

    /// Whether the file's views and triggers were made from exactly this binary's repeatable
    /// definitions (`schema_repeatables` holds each file's checksum as applied).
    private func repeatablesCurrent(in db: Connection, recorded: Bool) throws -> Bool {
        guard recorded else { return repeatables.isEmpty }
        let recorded = try db.fetchAll("SELECT name, checksum FROM schema_repeatables ORDER BY name") {
            "\(try $0.string("name")) \(try $0.string("checksum"))"
        }
        return recorded == repeatables.map { "\($0.fileName) \($0.checksum)" }
    }

    // MARK: - Migrating

    /// Applies every pending migration, all in one transaction: a file is at the latest version
    /// or untouched, never in between (a full disk halfway leaves it as it was).
    ///
    /// Foreign keys are off while migrations run, so one can rebuild a table the way SQLite
    /// documents (<https://sqlite.org/lang_altertable.html#otheralter>: create the new table, copy,
    /// drop the old, rename); `foreign_key_check` must then find nothing before each migration is
    /// recorded, and the transaction commits only when every one passed.
    ///
    /// Temporary storage goes to files while versioned migrations run (`temp_store = FILE`, set
    /// back to `MEMORY` after): a migration that rebuilds a table or builds an index sorts every row, and
    /// in memory that sort of ten million navigation events took 2.4 GB; on disk, SQLite's sorter
    /// keeps its cache-sized share in memory and spills the rest (https://sqlite.org/tempfiles.html).
    /// - Returns: the migrations this call applied (empty when the schema was current).
    /// - Throws: ``SchemaError`` or ``DatabaseError``; nothing is applied when it throws.
    @discardableResult
    public func migrate(_ database: Database) throws -> [Migration] { try migrate(database, found: nil) }

    /// ``migrate(_:)`` for a caller that read the file's status on this connection already
    /// (``openReporting(path:access:configuration:)``): that status decides where temporary
    /// storage goes, instead of a second read of it before the lock.
    @discardableResult
    func migrate(_ database: Database, found known: SchemaStatus?) throws -> [Migration] {
        if let unknown = dataSteps.keys.sorted().first(where: { name in !migrations.contains { $0.fileName == name } })
        {
            throw DatabaseError.misuse("a data step names no migration: \(unknown)")
        }
        return try database.withWriter { db in
            // Only a versioned migration of a file with rows sorts them (a table rebuilt, an index
            // built): a new file, or one whose views and triggers are made again, keeps temporary
            // storage in memory, since changing temp_store makes SQLite parse the whole schema
            // again at the next statement (it resets every schema of the connection) — twice,
            // there and back, about 10 ms a shop. Pending only shrinks while another process
            // migrates, so this read (or the open's) may come before the lock.
            let found = try known ?? status(of: db)
            let sorts = !found.pending.isEmpty && !found.applied.isEmpty
            // Outside the transaction: SQLite ignores the pragmas inside one.
            try db.execute(sorts ? "PRAGMA foreign_keys = OFF; PRAGMA temp_store = FILE" : "PRAGMA foreign_keys = OFF")
            // Changing temp_store dropped the connection's mark: a migration's writes are Pizzeria's own.
            if sorts { try db.execute(Connection.marker) }
            let restore = sorts ? db.applyUsualSettings : { try db.execute("PRAGMA foreign_keys = ON") }
            let applied: [Migration]
            do {
                applied = try db.transaction(.immediate) { try applyPending(in: db) }
            } catch {
                try restore()
                throw error
            }
            try restore()
            return applied
        }
    }

    /// The pending migrations, applied in order inside the caller's transaction.
    func applyPending(in db: Connection) throws -> [Migration] {
        // Re-read under the write lock: another process may have migrated meanwhile.
        try db.execute(Self.bookkeepingTable)
        let before = try status(of: db)
        var done = Set(before.applied.map(\.version))
        var appliedNow: [Migration] = []
        // A new file: the current schema in one step, each migration recorded as applied.
        if let baseline, done.isEmpty, try Self.holdsNothingElse(db) {
            do {
                try db.execute(baseline.sql)
            } catch let error as DatabaseError where error.kind != .io && error.kind != .busy {
                throw SchemaError.migrationFailed(
                    version: baseline.version, name: SchemaBaseline.fileName, reason: error.message)
            }
            try record(migrations, in: db)
            done = Set(migrations.map(\.version))
            appliedNow = migrations
        }
        for migration in migrations where !done.contains(migration.version) {
            do {
                try db.execute(migration.sql)
                try dataSteps[migration.fileName]?(db)
            } catch let error as DatabaseError where error.kind != .io && error.kind != .busy {
                // The migration's own SQL failed on this file. A full disk, an I/O error or a lock
                // held by another process is not the file's fault: that error goes up as it is
                // (exit 74 or 75, not "unusable file"), and nothing is applied either way.
                throw SchemaError.migrationFailed(
                    version: migration.version, name: migration.name, reason: error.message)
            }
            try record([migration], in: db)
            appliedNow.append(migration)
        }
        if !appliedNow.isEmpty || !before.repeatablesCurrent { try applyRepeatables(in: db) }
        return appliedNow
    }

    /// Whether `db` holds nothing but the migrator's bookkeeping table: a new file.
    private static func holdsNothingElse(_ db: Connection) throws -> Bool {
        try db.fetchOne("SELECT count(*) AS n FROM sqlite_schema WHERE name <> 'schema_migrations'") {
            try $0.int("n")
        } == 0
    }

    /// Records `applied` (in version order) in `schema_migrations` and `PRAGMA user_version`,
    /// once `foreign_key_check` finds nothing: after each migration, or after the baseline for all.
    private func record(_ applied: [Migration], in db: Connection) throws {
        guard let last = applied.last else { return }
        for migration in applied {
            try db.run(
                "INSERT INTO schema_migrations (version, name, checksum) VALUES (?, ?, ?)",
                [migration.version, migration.name, migration.checksum])
        }
        // PRAGMA takes no bound parameters; the value is an Int from the embedded list.
        try db.execute("PRAGMA user_version = \(last.version)")
        let violations = try db.fetchAll("PRAGMA foreign_key_check") { row in
            "\(try row.string("table")) row \(try row.value("rowid")) → \(try row.string("parent"))"
        }
        guard violations.isEmpty else {
            throw SchemaError.foreignKeyViolation(version: last.version, details: violations)
        }
    }

    /// Makes the views and triggers of each repeatable definition the file lacks: a definition
    /// whose recorded checksum is not its own (changed, new, or never recorded) or one of whose
    /// objects is missing (a migration that rebuilt a table dropped its triggers) is run again,
    /// its objects dropped first; the others are left as they are, so a release that changes one
    /// file re-makes that file's objects, not all of them. When the file holds a view or trigger
    /// no definition makes (one an older version made and a later one renamed, or an analyst's),
    /// every view and trigger is dropped and made again from all the definitions, as a file made
    /// before the definitions were recorded is. Views and triggers name other objects only when
    /// they run, so the order of their creation is free.
    private func applyRepeatables(in db: Connection) throws {
        guard !repeatables.isEmpty else { return }
        try db.execute(Self.repeatablesTable)
        // In the file's order: what is dropped below goes in any order (SQLite checks neither a
        // view's nor a trigger's references when dropping one), so no sort.
        let live = try db.fetchAll("SELECT type, name FROM sqlite_schema WHERE type = 'trigger' OR type = 'view'") {
            (type: try $0.string("type"), name: try $0.string("name"))
        }
        let recorded = Dictionary(
            try db.fetchAll("SELECT name, checksum FROM schema_repeatables") {
                (try $0.string("name"), try $0.string("checksum"))
            }, uniquingKeysWith: { first, _ in first })
        let liveNames = Set(live.map(\.name))
        let objects = repeatables.map(\.objectNames)
        let defined = Set(objects.joined())
        let remakeAll = live.contains { !defined.contains($0.name) }
        let staleIndices = repeatables.indices.filter { index in
            remakeAll || recorded[repeatables[index].fileName] != repeatables[index].checksum || objects[index].isEmpty
                || !objects[index].allSatisfy(liveNames.contains)
        }
        let stale = staleIndices.map { repeatables[$0] }
        let remade = Set(staleIndices.flatMap { objects[$0] })
        for (type, name) in live where remakeAll || remade.contains(name) {
            // The type and the name come from sqlite_schema, quoted as an identifier: not input.
            try db.execute("DROP \(type.uppercased()) \"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"")
        }
        for definition in stale {
            do {
                try db.execute(definition.sql)
            } catch let error as DatabaseError where error.kind != .io && error.kind != .busy {
                throw SchemaError.migrationFailed(
                    version: latestVersion, name: definition.fileName, reason: error.message)
            }
            try db.run(
                "INSERT OR REPLACE INTO schema_repeatables (name, checksum) VALUES (?, ?)",
                [definition.fileName, definition.checksum])
        }
        // Definitions this binary no longer has: their objects went above (no definition makes them).
        for name in recorded.keys.sorted() where !repeatables.contains(where: { $0.fileName == name }) {
            try db.run("DELETE FROM schema_repeatables WHERE name = ?", [name])
        }
    }

    /// The migrator's own record of what it applied; not part of any migration file because it
    /// must exist before the first one runs.
    static let bookkeepingTable = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            version    INTEGER PRIMARY KEY CHECK (version >= 1),
            name       TEXT NOT NULL CHECK (length(name) > 0),
            checksum   TEXT NOT NULL CHECK (length(checksum) = 64),
            applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
        ) STRICT;
        """

    /// The record of the repeatable definitions a file's views and triggers were made from.
    static let repeatablesTable = """
        CREATE TABLE IF NOT EXISTS schema_repeatables (
            name       TEXT PRIMARY KEY CHECK (name GLOB 'R__*.sql'),
            checksum   TEXT NOT NULL CHECK (length(checksum) = 64),
            applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
        ) STRICT;
        """
}

/// Which migrations a database has and which it lacks.
public struct SchemaStatus: Sendable, Equatable {
    /// Recorded in `schema_migrations`, in version order.
    public let applied: [AppliedMigration]
    /// Known to this binary but not applied, in version order.
    public let pending: [Migration]
    /// Whether its views and triggers are this binary's repeatable definitions as they are now.
    public let repeatablesCurrent: Bool

    /// The highest applied version (0 for an empty database).
    public var version: Int { applied.last?.version ?? 0 }
    /// Whether nothing is pending: every migration applied, the views and triggers current.
    public var isCurrent: Bool { pending.isEmpty && repeatablesCurrent }
}
