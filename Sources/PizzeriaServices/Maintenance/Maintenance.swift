import Foundation
import PizzeriaStorage

/// Work on the database file itself: create and migrate it, inspect its migrations and health,
/// back it up. The inspecting calls open the file read-only and leave every byte of it, its
/// `-wal` and its `-shm` as they were.
public enum Maintenance {
    // MARK: - Init

    /// What ``initialize(path:configuration:)`` did.
    public struct InitResult: Sendable, Equatable {
        /// Whether the file was created.
        public let created: Bool
        /// The schema version before (0 for a new or empty file).
        public let previousVersion: Int
        /// The migrations applied now, in order.
        public let applied: [MigrationEntry]
        /// The schema version now.
        public let version: Int
        /// Whether the views and triggers were made again from this binary's definitions.
        public let definitionsRemade: Bool
    }

    /// Creates the database at `path` (mode 0600) or applies its pending migrations.
    /// - Throws: ``SchemaError`` or ``DatabaseError`` for a file Pizzeria must not touch (it stays
    ///   as it was).
    public static func initialize(path: String, configuration: PizzeriaConfiguration = .init()) throws -> InitResult {
        let existed = FileManager.default.fileExists(atPath: path)
        // The status after a migration is read on the writer that migrated, whose schema is
        // parsed already: a reader connection would parse all of it again for one read.
        var oneRead = configuration
        oneRead.readsOnIdleWriter = true
        // One read of the schema: the open says what it found, and a current file is neither
        // written nor locked (no write lock to wait for behind a busy writer).
        let (database, found) = try Pizzeria.migrator.openReporting(
            path: path, access: .migrate, configuration: oneRead.database)
        let previous = existed ? found.version : 0
        if found.isCurrent {
            return InitResult(
                created: false, previousVersion: previous, applied: [], version: found.version,
                definitionsRemade: false)
        }
        let after = try database.read { try Pizzeria.migrator.status(of: $0) }
        let earlier = Set(found.applied.map(\.version))
        return InitResult(
            created: !existed, previousVersion: previous,
            applied: after.applied.filter { !earlier.contains($0.version) }.map(MigrationEntry.init(applied:)),
            version: after.version, definitionsRemade: existed && !found.repeatablesCurrent)
    }

    // MARK: - Migrations

    /// One migration, applied or pending.
    public struct MigrationEntry: Sendable, Equatable {
        /// Its number.
        public let version: Int
        /// Its file name without number and extension.
        public let name: String
        /// SHA-256 of its text, hex.
        public let checksum: String
        /// When it was applied (ISO-8601 UTC); `nil` while pending.
        public let appliedAt: String?
        /// Whether it is applied.
        public var isApplied: Bool { appliedAt != nil }

        init(applied: AppliedMigration) {
            (version, name, checksum, appliedAt) = (applied.version, applied.name, applied.checksum, applied.appliedAt)
        }

        init(pending: Migration) {
            (version, name, checksum, appliedAt) = (pending.version, pending.name, pending.checksum, nil)
        }
    }

    /// The schema state of a file.
    public struct MigrationStatus: Sendable, Equatable {
        /// The highest applied version.
        public let version: Int
        /// The highest version this binary knows.
        public let latestVersion: Int
        /// Applied migrations, then pending ones.
        public let entries: [MigrationEntry]
        /// Whether the views and triggers are this binary's definitions (`Migrations/R__*.sql`).
        public let definitionsCurrent: Bool
        /// Whether nothing is pending: every migration applied, the views and triggers current.
        public var isCurrent: Bool { entries.allSatisfy(\.isApplied) && definitionsCurrent }
    }

    /// Applied and pending migrations, read without changing the file.
    public static func migrations(path: String, configuration: PizzeriaConfiguration = .init()) throws
        -> MigrationStatus
    {
        try status(of: try inspect(path, configuration))
    }

    private static func status(of database: Database) throws -> MigrationStatus {
        let migrator = Pizzeria.migrator
        let status = try database.read { try migrator.status(of: $0) }
        return MigrationStatus(
            version: status.version, latestVersion: migrator.latestVersion,
            entries: status.applied.map(MigrationEntry.init(applied:))
                + status.pending.map(MigrationEntry.init(pending:)),
            definitionsCurrent: status.repeatablesCurrent)
    }

    // MARK: - Check

    /// Everything `check` looks at.
    public struct CheckResult: Sendable, Equatable {
        /// `integrity_check` lines other than `ok`.
        public let integrityProblems: [String]
        /// Rows whose foreign key points nowhere.
        public let foreignKeyProblems: [String]
        /// The schema state.
        public let migrations: MigrationStatus
        /// `wal` for a file Pizzeria has written.
        public let journalMode: String
        /// The linked SQLite library's version.
        public let sqliteVersion: String
        /// Whether that version has the WAL-reset bug.
        public let hasWALResetBug: Bool
        /// Who checkpoints, with this configuration.
        public let checkpoints: PizzeriaConfiguration.Checkpoints
        /// Whether no passive checkpoint runs from Pizzeria (needed on a library with the bug).
        public let walResetMitigation: Bool
        /// The durability writers use with this configuration.
        public let durability: PizzeriaConfiguration.Durability
        /// The WAL: size, checkpointed frames, readers holding it back.
        public let wal: WALReport
        /// Stored navigation that points at another customer's order (each `handle: order 1a2b3c4d`):
        /// never shown (the router leaves such routes out), reported to be cleaned up.
        public let foreignOrderRoutes: [String]
        /// Settings and opening hours no booking could use (an unknown time zone, a damaged
        /// pause): what every command that reads them would refuse with.
        public let settingsProblems: [String]
        /// The shop's data against its own rules: every derived value recomputed from its source
        /// (slot loads, capacities, service days, local times, totals), slots at or under their
        /// capacity, future orders inside the hours or kept, erasures carried through, routes,
        /// each item's history chain and audit entries.
        public let domainProblems: [DomainProblem]
        /// How the file's tables, indexes, triggers and views differ from what its migrations
        /// make (`missing trigger slot_loads_capacity (on slot_loads)`): a dropped or edited
        /// trigger no longer holds its rule. `check --repair` makes triggers, views and indexes again.
        public let schemaDrift: [String]

        /// Whether the file is sound: SQLite's checks, a current schema as its migrations make
        /// it, usable settings.
        public var isHealthy: Bool {
            integrityProblems.isEmpty && foreignKeyProblems.isEmpty && migrations.isCurrent && schemaDrift.isEmpty
                && settingsProblems.isEmpty
        }
        /// Whether the shop's data keeps its rules (``domainProblems`` is empty).
        public var isDomainSound: Bool { domainProblems.isEmpty }
    }

    /// Checks the file without changing it; `now` decides which orders and slots are in the future.
    public static func check(path: String, configuration: PizzeriaConfiguration = .init(), now: Date = Date()) throws
        -> CheckResult
    {
        let database = try inspect(path, configuration)
        let health = try database.healthProblems()
        let migrations = try status(of: database)
        // Older schemas have no ownership rule to check yet.
        let foreign = migrations.isCurrent ? try database.read { try NavigationStore.foreignOrderRoutes(in: $0) } : []
        let drift =
            migrations.isCurrent
            ? try database.read { try Pizzeria.migrator.schemaDrift(of: $0) }.map(\.description) : []
        let settingsProblems = migrations.isCurrent ? try Self.settingsProblems(database) : []
        let domain =
            migrations.isCurrent && settingsProblems.isEmpty
            ? try database.read { try DomainCheck.run(now: now, in: $0).problems } : []
        return CheckResult(
            integrityProblems: health.integrityProblems, foreignKeyProblems: health.foreignKeyProblems,
            migrations: migrations, journalMode: try database.journalMode(),
            sqliteVersion: SQLiteLibrary.version, hasWALResetBug: SQLiteLibrary.hasWALResetBug,
            checkpoints: configuration.checkpoints,
            walResetMitigation: configuration.database.checkpointPolicy.isWALResetMitigation,
            durability: configuration.durability, wal: WALReport(try database.walStatus()),
            foreignOrderRoutes: foreign, settingsProblems: settingsProblems, domainProblems: domain,
            schemaDrift: drift)
    }

    /// How many customers the file has erased, and when the latest was: what a backup reminds of
    /// (backups made before an erasure still hold that customer's data).
    public static func erasures(path: String, configuration: PizzeriaConfiguration = .init()) throws -> (
        count: Int, latest: Date?
    ) {
        try inspect(path, configuration).read { db in
            let ids = try UserStore.erasedIDs(in: db)
            return (ids.count, try UserStore.latestErasure(in: db))
        }
    }

    /// Customers erased in `other` (the live file a backup was restored from) whose data the
    /// file at `path` still holds: a backup made before their erasure.
    public static func erasuresMissing(path: String, from other: String, configuration: PizzeriaConfiguration = .init())
        throws -> [User.ID]
    {
        let erased = try inspect(other, configuration).read { try UserStore.erasedIDs(in: $0) }
        return try inspect(path, configuration).read { db in try erased.filter { try UserStore.isLiveUser($0, in: db) }
        }
    }

    /// Erases again, in the file at `path`, every customer erased in `other` whose data it still
    /// holds (a restored backup that predates their erasure); returns their ids.
    public static func reapplyErasures(
        path: String, from other: String, configuration: PizzeriaConfiguration = .init(),
        now: Date = Date(), by actor: String? = nil
    ) throws -> [User.ID] {
        let missing = try erasuresMissing(path: path, from: other, configuration: configuration)
        guard !missing.isEmpty else { return [] }
        let pizzeria = try Pizzeria.open(
            path: path, access: .requireCurrent, configuration: configuration, now: { now },
            acting: Acting(name: actor, source: "check --repair --erasures-from"))
        for id in missing { try pizzeria.users.erase(id: id, by: actor) }
        return missing
    }

    /// What ``repair(path:configuration:now:)`` did.
    public struct RepairResult: Sendable, Equatable {
        /// The problems it put right (derived data recomputed from its source).
        public let repaired: [DomainProblem]
        /// The problems left for a person: overbooked slots, orders outside the hours, routes.
        public let remaining: [DomainProblem]
    }

    /// Recomputes every derived value that disagrees with its source, in one write transaction,
    /// and says what it changed. Never cancels or moves an order: what only a person can decide
    /// (an overbooked slot, an order outside the hours) is listed in ``RepairResult/remaining``.
    public static func repair(path: String, configuration: PizzeriaConfiguration = .init(), now: Date = Date()) throws
        -> RepairResult
    {
        let pizzeria = try Pizzeria.open(
            path: path, access: .requireCurrent, configuration: configuration, now: { now })
        let (before, schema) = try pizzeria.database.write { db in
            // The schema first: a dropped trigger or view is what the rest relies on.
            let drift = try Pizzeria.migrator.schemaDrift(of: db)
            try Pizzeria.migrator.repair(drift, in: db)
            let before = try DomainCheck.run(now: now, in: db)
            try DomainCheck.apply(before.repairs, in: db)
            return (before, drift.filter(\.isRepairable))
        }
        if before.repairs.contains(.clearWAL) {
            _ = try UserService.clearErasures(from: pizzeria.database, at: now, waitingForReaders: 2)
        }
        let after = try pizzeria.database.read { try DomainCheck.run(now: now, in: $0).problems }
        let madeAgain = schema.map {
            DomainProblem(
                table: "sqlite_schema", id: $0.object.name, problem: $0.description,
                expected: $0.kind == .extraTrigger ? "no such trigger" : "as its migration makes it", repairable: true)
        }
        return RepairResult(repaired: madeAgain + before.problems.filter { !after.contains($0) }, remaining: after)
    }

    /// Reads the settings and the week as every booking does; what that refuses is the problem.
    private static func settingsProblems(_ database: Database) throws -> [String] {
        do {
            _ = try database.read { try SettingsStore.current(in: $0) }
            return []
        } catch let error as DataError {
            return [error.description]
        }
    }

    /// The write-ahead log as `check` sees it.
    public struct WALReport: Sendable, Equatable {
        /// Size of the `-wal` file in bytes (0 when there is none).
        public let fileBytes: Int64
        /// Frames in the current WAL, when known.
        public let frames: Int?
        /// Frames the checkpoints so far have copied into the database file.
        public let checkpointedFrames: Int?
        /// Other processes in a read transaction on a WAL snapshot (Linux).
        public let readerProcesses: [Int32]?
        /// Whether frames wait to be checkpointed while another process reads an older snapshot:
        /// the WAL grows until that transaction ends.
        public let isHeldBackByReader: Bool

        /// Frames not yet in the database file.
        public var pendingFrames: Int? {
            guard let frames, let checkpointedFrames else { return nil }
            return max(0, frames - checkpointedFrames)
        }

        init(_ status: WALStatus) {
            fileBytes = status.fileBytes
            frames = status.frames
            checkpointedFrames = status.checkpointedFrames
            readerProcesses = status.readerProcesses
            isHeldBackByReader = status.isHeldBackByReader
        }
    }

    // MARK: - Backup

    /// Copies the database to a new file with SQLite's online backup API: one consistent
    /// snapshot while others write; never over an existing file (see ``Database/backup(to:progress:)``).
    /// - Returns: pages copied.
    /// - Throws: ``MaintenanceError/nothingToBackUp(path:)`` for an empty or never-migrated file;
    ///   ``BackupError/destinationExists(_:)``; storage errors.
    @discardableResult
    public static func backup(
        path: String, to destination: String, configuration: PizzeriaConfiguration = .init(),
        progress: ((_ copied: Int, _ total: Int) -> Void)? = nil
    ) throws -> Int {
        let database = try inspect(path, configuration)
        guard try status(of: database).version > 0 else { throw MaintenanceError.nothingToBackUp(path: path) }
        return try database.backup(to: destination, progress: progress)
    }

    // MARK: - Opening

    /// Opens an existing Pizzeria file read-only.
    static func inspect(_ path: String, _ configuration: PizzeriaConfiguration) throws -> Database {
        try Pizzeria.requireFile(path)
        return try Pizzeria.migrator.open(path: path, access: .inspect, configuration: configuration.database)
    }
}

/// Why maintenance refused a file.
public enum MaintenanceError: PizzeriaFailure, Equatable {
    /// No file at the path (and the call does not create one).
    case noDatabase(path: String)
    /// The file is empty or was never migrated: there is nothing to back up.
    case nothingToBackUp(path: String)

    /// Not found, or an unusable file.
    public var category: FailureCategory {
        switch self {
        case .noDatabase: .notFound
        case .nothingToBackUp: .unusableDatabase
        }
    }

    /// A sentence for people.
    public var description: String {
        switch self {
        case .noDatabase(let path): "no database at \(path)"
        case .nothingToBackUp(let path):
            "\(path) holds no Pizzeria data (empty or never migrated); there is nothing to back up"
        }
    }
}
