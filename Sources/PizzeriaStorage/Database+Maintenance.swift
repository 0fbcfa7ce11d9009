internal import CPizzeriaSQLite
import Foundation

extension Database {
    // MARK: - Backup

    /// Copies the database to a new file at `destination` with SQLite's online backup API
    /// (<https://sqlite.org/backup.html>).
    ///
    /// The copy is one consistent snapshot even while other connections and processes keep
    /// writing: every step runs inside one read transaction on the source. It is written to a
    /// temporary file beside `destination`, synced, and only then linked into place with a call
    /// that fails if `destination` exists — so an existing file is never overwritten, of two
    /// concurrent backups to one name exactly one wins, and a backup killed midway leaves nothing
    /// at `destination`. Before it is linked, the copy must pass `PRAGMA integrity_check` and
    /// `PRAGMA foreign_key_check`; one that does not is made again (at most ``backupAttempts`` copies in all). The copy has mode 0600. A killed backup's temporary file is removed by
    /// the next backup into that directory (see `BackupFile`).
    ///
    /// - Parameter progress: called after each step with pages copied and pages in all; when
    ///   given, the copy is made in steps of 1,024 pages.
    /// - Returns: the number of pages copied.
    /// - Throws: ``BackupError/destinationExists(_:)``; ``DatabaseError`` when reading or writing
    ///   fails (the temporary file is removed).
    @discardableResult
    public func backup(to destination: String, progress: ((_ copied: Int, _ total: Int) -> Void)? = nil) throws -> Int {
        guard !DatabaseFile.exists(destination) else { throw BackupError.destinationExists(destination) }
        BackupFile.removeAbandoned(beside: destination)
        // The copy is checked (`PRAGMA integrity_check`) before it is linked into place: a copy that
        // fails is made again from a new snapshot, up to `backupAttempts` times, so a backup never
        // leaves a damaged file however the source was being written meanwhile. (Under load, with
        // the SQLite of Debian 12, one copy in a few dozen was seen to mix two snapshots.)
        var attempt = 1
        var (temporary, pages) = try copyChecked(beside: destination, progress: progress)
        while pages == nil {
            temporary.remove()
            guard attempt < Self.backupAttempts else {
                throw DatabaseError(
                    extendedResultCode: SQLITE_CORRUPT,
                    message:
                        "the copy failed its integrity check \(attempt) times; check the source with `pizzeria check`")
            }
            attempt += 1
            (temporary, pages) = try copyChecked(beside: destination, progress: progress)
        }
        defer { temporary.remove() }
        try temporary.sync()
        guard link(temporary.path, destination) == 0 else {
            if errno == EEXIST { throw BackupError.destinationExists(destination) }
            throw DatabaseError(
                extendedResultCode: SQLITE_CANTOPEN,
                message: "cannot create \(destination): \(String(cString: strerror(errno)))")
        }
        try BackupFile.syncDirectory(of: destination)
        return pages ?? 0
    }

    /// How many copies a backup makes before it gives up on copies that fail their check.
    public static let backupAttempts = 5

    /// One copy into a new temporary file, and its integrity check: the pages copied, or `nil`
    /// when the copy is not sound (the caller removes it).
    private func copyChecked(beside destination: String, progress: ((Int, Int) -> Void)?) throws -> (
        BackupFile, Int?
    ) {
        let temporary = try BackupFile(beside: destination)
        do {
            let pages = try readWithoutTransaction { source in
                try source.transaction(.deferred) {
                    try Self.requireSQLiteHeader(source)
                    return try Self.copy(
                        from: source, to: temporary.path, configuration: configuration, progress: progress)
                }
            }
            return (temporary, pages)
        } catch {
            temporary.remove()
            throw error
        }
    }

    private static func requireSQLiteHeader(_ db: Connection) throws {
        _ = try db.fetchOne("SELECT count(*) AS objects FROM sqlite_schema") { try $0.int("objects") }
    }

    private static func copy(
        from source: Connection, to path: String, configuration: DatabaseConfiguration,
        progress: ((Int, Int) -> Void)?
    ) throws -> Int? {
        let target = try Connection(path: path, mode: .readWrite, configuration: configuration)
        // The copy is disposable until it is linked into place, and synced once before that: it
        // needs no rollback journal (which a killed backup would leave behind) and no syncs.
        try target.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
        guard let backup = sqlite3_backup_init(target.handle, "main", source.handle, "main") else {
            throw target.error(code: sqlite3_errcode(target.handle), sql: nil)
        }
        let stepPages: Int32 = progress == nil ? -1 : 1_024
        var code: Int32
        repeat {
            code = sqlite3_backup_step(backup, stepPages)
            let total = Int(sqlite3_backup_pagecount(backup))
            progress?(total - Int(sqlite3_backup_remaining(backup)), total)
        } while code == SQLITE_OK
        let pages = Int(sqlite3_backup_pagecount(backup))
        let finish = sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE else { throw target.error(code: code, sql: nil) }
        guard finish == SQLITE_OK else { throw target.error(code: finish, sql: nil) }
        let check = try target.fetchOne("PRAGMA integrity_check(1)") { try $0.string("integrity_check") }
        guard check == "ok" else { return nil }
        // A copy that mixed two snapshots can pass integrity_check and still hold a row whose
        // parent is not in it (seen under load: a pizza_history row without its pizza): made again.
        let orphan = try target.fetchOne("PRAGMA foreign_key_check") { try $0.string("table") }
        return orphan == nil ? pages : nil
    }

    // MARK: - Health

    /// What ``clearWAL(waitingUpTo:)`` achieved.
    public enum WALClearing: Sendable, Equatable {
        /// The `-wal` file was emptied (truncated to nothing): what was written before is only in
        /// the database file now.
        case cleared
        /// Readers kept it: these processes (Linux; empty when unknown) still read an older
        /// snapshot. Their transactions end; clear again then.
        case heldByReaders([Int32])
    }

    /// Empties the write-ahead log: a `TRUNCATE` checkpoint that holds the write lock (the
    /// WAL-reset mitigation's way) and, while readers are in the way, tries again until
    /// `waitingUpTo` seconds have passed. Used after an erasure, so the erased data's frames
    /// leave the disk (https://sqlite.org/pragma.html#pragma_wal_checkpoint). Everything
    /// committed before the call is covered when it returns ``WALClearing/cleared``.
    public func clearWAL(waitingUpTo seconds: TimeInterval) throws -> WALClearing {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let cleared: Bool = try withWriter { db in
                switch db.checkpointHoldingWriteLock(truncating: true) {
                case .completed:
                    return true
                case .failed(let message):
                    throw DatabaseError(
                        extendedResultCode: SQLITE_IOERR, message: "emptying the WAL failed: \(message)")
                case .blockedByReaders, .skippedForOtherProcess:
                    return false
                }
            }
            if cleared { return .cleared }
            guard Date() < deadline else { return .heldByReaders(try walStatus().readerProcesses ?? []) }
            usleep(20_000)
        }
    }

    /// Runs `PRAGMA integrity_check` and `PRAGMA foreign_key_check` on one snapshot.
    /// - Returns: the problems found; empty when the file is sound.
    public func healthProblems() throws -> HealthReport {
        try read { db in
            let integrity = try db.fetchAll("PRAGMA integrity_check") { try $0.string("integrity_check") }
            let foreignKeys = try db.fetchAll("PRAGMA foreign_key_check") { row in
                "\(try row.string("table")) rowid \(try row.value("rowid")) references missing row in \(try row.string("parent"))"
            }
            return HealthReport(
                integrityProblems: integrity == ["ok"] ? [] : integrity,
                foreignKeyProblems: foreignKeys)
        }
    }

    /// The journal mode the file is in, read from the file itself: bytes 18 and 19 of its header
    /// are 2 in WAL mode (<https://sqlite.org/fileformat2.html#database_header>). `PRAGMA
    /// journal_mode` on a read-only or immutable connection would say `delete` for a WAL file
    /// that has no `-wal` beside it.
    public func journalMode() throws -> String {
        try read { db in
            // The read has SQLite open the file; its header is read through that descriptor.
            _ = try db.fetchOne("SELECT count(*) AS objects FROM sqlite_schema") { try $0.int("objects") }
            guard let header = WALStatus.headBytes(of: path, count: 20) else {
                return try db.fetchOne("PRAGMA journal_mode") { try $0.string("journal_mode") } ?? "unknown"
            }
            return header[18] == 2 && header[19] == 2 ? "wal" : "delete"
        }
    }
}

/// Why a backup was refused.
public enum BackupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Something already exists at the destination; a backup never overwrites.
    case destinationExists(String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .destinationExists(let path): "\(path) already exists; a backup never overwrites a file"
        }
    }
}

/// What `integrity_check` and `foreign_key_check` found.
public struct HealthReport: Sendable, Equatable {
    /// Lines of `PRAGMA integrity_check` other than `ok`.
    public let integrityProblems: [String]
    /// One line per row whose foreign key points nowhere.
    public let foreignKeyProblems: [String]
    /// Whether both checks passed.
    public var isHealthy: Bool { integrityProblems.isEmpty && foreignKeyProblems.isEmpty }
}

extension Database {
    /// A digest of every row of every table (SHA-256, hex): two files with the same rows have the
    /// same digest however their pages are laid out and in whatever order a scan returns them.
    /// Each row is hashed (each value with its type), a table's row hashes sorted and hashed with
    /// its name; the header (``MoveFence``, versions) and Litestream's own tables (`_litestream_seq`,
    /// `_litestream_lock`: which replica saw which file) are not part of it. A shop's move compares its
    /// old file with the copy restored on the new node by it.
    /// - Throws: ``DatabaseError``.
    public func contentDigest() throws -> String {
        try read { db in
            let tables = try db.fetchAll(
                """
                SELECT name FROM sqlite_schema
                WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_litestream\\_%' ESCAPE '\\'
                ORDER BY name
                """
            ) { try $0.string("name") }
            var summary: [UInt8] = []
            for table in tables {
                var rows: [[UInt8]] = []
                var bytes: [UInt8] = []
                let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                // Identifiers cannot be bound: the table's name comes from sqlite_schema, quoted.
                try db.forEach("SELECT * FROM \(quoted)") { row in
                    bytes.removeAll(keepingCapacity: true)
                    for column in row.columns { Self.append(row[column], to: &bytes) }
                    rows.append(SHA256.digest(bytes))
                }
                rows.sort { $0.lexicographicallyPrecedes($1) }
                summary += Array(table.utf8) + [0] + SHA256.digest(rows.joined())
            }
            return SHA256.hex(summary)
        }
    }

    private static func append(_ value: DatabaseValue, to bytes: inout [UInt8]) {
        func framed(_ tag: UInt8, _ payload: some Collection<UInt8>) {
            bytes.append(tag)
            withUnsafeBytes(of: UInt64(payload.count).littleEndian) { bytes += $0 }
            bytes += payload
        }
        switch value {
        case .null: bytes.append(0)
        case .integer(let value): withUnsafeBytes(of: value.littleEndian) { framed(1, $0) }
        case .real(let value): withUnsafeBytes(of: value.bitPattern.littleEndian) { framed(2, $0) }
        case .text(let value): framed(3, Array(value.utf8))
        case .blob(let value): framed(4, value)
        }
    }
}
