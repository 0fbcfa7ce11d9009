internal import CPizzeriaSQLite
import Foundation

extension Database {
    // MARK: - Backup

    /// Copies the database to a new file at `destination` with SQLite's online backup API
    /// (<https://sqlite.org/backup.html>).
    ///
    /// The copy is taken in a single step inside one read transaction, so it is one consistent
    /// snapshot even while other connections and processes keep writing (WAL lets them). The
    /// destination is created with mode 0600 and must not exist: an existing file is never
    /// overwritten. On failure the partial copy is removed.
    /// - Returns: the number of pages copied.
    /// - Throws: ``DatabaseError``; of kind ``DatabaseError/Kind/io`` when `destination` exists
    ///   or cannot be created.
    @discardableResult
    public func backup(to destination: String) throws -> Int {
        if DatabaseFile.exists(destination) {
            throw DatabaseError(extendedResultCode: SQLITE_CANTOPEN, message: "\(destination) already exists; refusing to overwrite it")
        }
        try DatabaseFile.createPrivate(destination)
        do {
            return try readWithoutTransaction { source in
                let target = try Connection(path: destination, mode: .readWrite, configuration: configuration)
                guard let backup = sqlite3_backup_init(target.handle, "main", source.handle, "main") else {
                    throw target.error(code: sqlite3_errcode(target.handle), sql: nil)
                }
                let code = sqlite3_backup_step(backup, -1)
                let pages = Int(sqlite3_backup_pagecount(backup))
                let finish = sqlite3_backup_finish(backup)
                guard code == SQLITE_DONE else { throw target.error(code: code, sql: nil) }
                guard finish == SQLITE_OK else { throw target.error(code: finish, sql: nil) }
                return pages
            }
        } catch {
            try? FileManager.default.removeItem(atPath: destination)
            throw error
        }
    }

    // MARK: - Health

    /// Runs `PRAGMA integrity_check` and `PRAGMA foreign_key_check` on one snapshot.
    /// - Returns: the problems found; empty when the file is sound.
    public func healthProblems() throws -> HealthReport {
        try read { db in
            let integrity = try db.fetchAll("PRAGMA integrity_check") { try $0.string(0) }
            let foreignKeys = try db.fetchAll("PRAGMA foreign_key_check") { row in
                "\(try row.string(0)) rowid \(row[1]) references missing row in \(try row.string(2))"
            }
            return HealthReport(integrityProblems: integrity == ["ok"] ? [] : integrity,
                                foreignKeyProblems: foreignKeys)
        }
    }

    /// The journal mode the file is in (`wal` once opened by ``Database``).
    public func journalMode() throws -> String {
        try read { db in try db.fetchOne("PRAGMA journal_mode") { try $0.string(0) } ?? "unknown" }
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
