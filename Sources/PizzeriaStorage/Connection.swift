internal import CPizzeriaSQLite
import Foundation

/// One SQLite connection: the handle, its per-connection settings and its statement cache.
///
/// A connection is used by one thread at a time and is not `Sendable`; share a ``Database``
/// instead, which hands connections to closures. Every connection gets the same setup, because
/// SQLite keeps these settings per connection, not per file:
/// `foreign_keys=ON`, a busy timeout, `synchronous` from the durability, and the checkpoint
/// policy.
///
/// A connection handed to a closure by ``Database`` is confined to that closure: used after the
/// closure returned, or from another thread, it throws a ``DatabaseError/Kind/misuse`` error
/// instead of touching a handle that may by then belong to another caller.
///
/// ```swift
/// try database.write { db in
///     try db.run("UPDATE pizzas SET price_cents = ? WHERE id = ?", [650, id])
/// }
/// ```
public final class Connection {
    /// How to open the file.
    public enum OpenMode: Sendable {
        /// Read and write an existing file.
        case readWrite
        /// Read and write, creating the file when it does not exist.
        case readWriteCreate
        /// Read only; the connection can never write.
        case readOnly
        /// Read only, and the file is taken as unchanging (`immutable=1`): SQLite creates no `-wal`
        /// or `-shm` file and takes no locks. Only for a file with no WAL content, opened to be
        /// inspected.
        case readOnlyImmutable
    }

    let handle: OpaquePointer
    /// The database file's path.
    public let path: String
    /// How the file was opened.
    let mode: OpenMode
    let configuration: DatabaseConfiguration
    private var statements = StatementCache()
    /// The counter a statement trace reports to, kept alive while the trace runs.
    var statementCounter: StatementCounter?
    private var savepointDepth = 0
    /// Set while the connection is lent for a read (``readingOnly(_:)``).
    private var isReadingOnly = false
    /// Pages in the WAL after the last commit, reported by SQLite's WAL hook.
    fileprivate(set) var walPageCount = 0
    /// Who may use the connection now; its statements hold it too (a strong reference to a small
    /// object, where checking through their `unowned` connection cost a reference-count round
    /// trip per step).
    let loan = Loan()

    /// Opens a connection and applies the per-connection settings.
    ///
    /// The journal mode is left alone here: switching a file to WAL writes to it, and a file that
    /// turns out to belong to someone else must stay untouched. ``enableWAL()`` does it.
    /// - Throws: ``DatabaseError`` when the file cannot be opened.
    public init(path: String, mode: OpenMode, configuration: DatabaseConfiguration = .init()) throws {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        var location = path
        switch mode {
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readOnlyImmutable:
            flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            location = Self.immutableURI(path)
        }
        SQLiteLibrary.applyProcessSettings()
        var db: OpaquePointer?
        let code = sqlite3_open_v2(location, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open database"
            sqlite3_close_v2(db)
            throw DatabaseError(extendedResultCode: code, message: "\(message): \(path)")
        }
        self.handle = db
        self.path = path
        self.mode = mode
        self.configuration = configuration
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, configuration.busyTimeoutMilliseconds)
        try configure()
    }

    deinit {
        statements.removeAll()
        sqlite3_wal_hook(handle, nil, nil)
        sqlite3_close_v2(handle)
    }

    /// Keeps ``walPageCount`` up to date after each commit, for the writer's `Checkpointer`.
    private func countWALPages() {
        sqlite3_wal_hook(
            handle,
            { context, _, _, pages in
                guard let context else { return SQLITE_OK }
                Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue().walPageCount = Int(pages)
                return SQLITE_OK
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The two settings of every connection that the migrator changes while it migrates and
    /// sets back after (``SchemaMigrator/migrate(_:)``), from here, so the two cannot drift:
    /// foreign keys enforced, and statement journals and temporary tables in memory instead of
    /// files in /var/tmp (https://sqlite.org/tempfiles.html).
    static let usualKeysAndTemporaryStorage = "PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY"

    /// What marks a connection as Pizzeria's own for the schema's triggers (migration 38): a
    /// temporary table of this name, which a trigger finds with `pragma_table_list` (a hand edit
    /// in `sqlite3`, where there is none, is written into the history as one), and the SQL
    /// function `pizzeria_connection()`, which only these connections have (so `sqlite3` cannot
    /// write who acts into `audit_context`).
    static let marker = "CREATE TEMP TABLE IF NOT EXISTS pizzeria_connection (id INTEGER PRIMARY KEY)"

    /// Sets ``usualKeysAndTemporaryStorage`` and marks a connection that may write as Pizzeria's
    /// (``marker``): changing `temp_store` drops temporary tables, so the two go together.
    func applyUsualSettings() throws {
        try execute(Self.usualKeysAndTemporaryStorage)
        if mode != .readOnly && mode != .readOnlyImmutable { try execute(Self.marker) }
    }

    private func configure() throws {
        let marked = pizzeria_sqlite_mark_connection(handle)
        guard marked == SQLITE_OK else { throw error(code: marked, sql: nil) }
        try applyUsualSettings()
        // Deleted content is overwritten with zeros, freed pages included, so an erased customer's
        // data leaves the file (https://sqlite.org/pragma.html#pragma_secure_delete).
        // A PRAGMA value cannot be bound: it comes from a two-case enum, never from input.
        try execute("PRAGMA synchronous = \(configuration.synchronous.pragmaValue); PRAGMA secure_delete = ON")
        switch configuration.checkpointPolicy {
        case .sqliteAutomatic(let pages):
            sqlite3_wal_autocheckpoint(handle, Int32(clamping: pages))
        case .manualWithWriterLock:
            // wal_autocheckpoint(0) removes SQLite's passive auto-checkpoint; the hook below only
            // counts pages, and the writer checkpoints after commit (see `Checkpointer`).
            sqlite3_wal_autocheckpoint(handle, 0)
            countWALPages()
        case .external:
            // Not even the checkpoint SQLite runs when the last connection closes: with a
            // replicator (Litestream) every checkpoint is its own, made by its fixed SQLite
            // after it has copied the frames (see README, "Past one machine"). The hook counts
            // pages for the WAL limit.
            sqlite3_wal_autocheckpoint(handle, 0)
            let code = pizzeria_sqlite_no_checkpoint_on_close(handle, 1)
            guard code == SQLITE_OK else { throw error(code: code, sql: nil) }
            countWALPages()
        }
    }

    /// Sets this connection's page cache to `kibibytes` KiB (clamped to 64–1,048,576).
    func setCacheSize(kibibytes: Int) throws {
        // An integer clamped here, never text from input: a PRAGMA value cannot be bound.
        let value = min(max(kibibytes, 64), 1_048_576)
        try execute("PRAGMA cache_size = -\(value)")
    }

    /// The page cache's hits, misses and pages written since it was opened or last reset
    /// (`sqlite3_db_status` with `SQLITE_DBSTATUS_CACHE_HIT`, `_MISS` and `_WRITE`).
    public func pageCacheStatistics(reset: Bool = false) -> PageCacheStatistics {
        PageCacheStatistics(
            hits: status(SQLITE_DBSTATUS_CACHE_HIT, reset: reset),
            misses: status(SQLITE_DBSTATUS_CACHE_MISS, reset: reset),
            writes: status(SQLITE_DBSTATUS_CACHE_WRITE, reset: reset))
    }

    /// One `sqlite3_db_status` figure's current value, optionally reset.
    private func status(_ operation: Int32, reset: Bool = false) -> Int {
        var current: Int32 = 0, highwater: Int32 = 0
        sqlite3_db_status(handle, operation, &current, &highwater, reset ? 1 : 0)
        return Int(current)
    }

    /// What this connection holds in memory: its parsed schema, page cache and statements.
    public func memory() -> ConnectionMemory {
        ConnectionMemory(
            schemaBytes: status(SQLITE_DBSTATUS_SCHEMA_USED), pageCacheBytes: status(SQLITE_DBSTATUS_CACHE_USED),
            statementBytes: status(SQLITE_DBSTATUS_STMT_USED))
    }

    /// `file:` URI for `path` with `immutable=1`; `%`, `?` and `#` are escaped so any file name
    /// works (<https://sqlite.org/uri.html>).
    private static func immutableURI(_ path: String) -> String {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return "file:" + escaped + "?immutable=1"
    }

    /// The path of the main database's `-wal` file (it may not exist yet).
    var walPath: String? {
        guard let name = sqlite3_db_filename(handle, "main"), let wal = sqlite3_filename_wal(name) else { return nil }
        let path = String(cString: wal)
        return path.isEmpty ? nil : path
    }

    // MARK: - Confinement

    /// Marks the connection as owned by a ``Database``: from now on it may be used only while lent.
    func confine() { loan.borrower = 0 }

    /// Lends the connection to the calling thread until ``giveBack()``.
    func lend() { loan.borrower = UInt(bitPattern: Int(bitPattern: pthread_self())) }

    /// Ends the current loan.
    func giveBack() { loan.borrower = 0 }

    /// Throws unless the connection is used where it may be: by its owner, or inside the closure
    /// (and on the thread) it was lent to.
    func checkAccess() throws { try loan.check() }

    /// Switches the file to write-ahead logging (persistent: it stays in WAL mode).
    /// - Throws: ``DatabaseError`` when SQLite cannot switch, such as on a read-only file.
    ///
    /// Two connections switching a new file at once can each hold a shared lock and want the
    /// exclusive one; SQLite then returns `SQLITE_BUSY` to one of them at once, without calling the
    /// busy handler (it would deadlock). That one retries, with a short pause, until the
    /// configured busy timeout has passed.
    public func enableWAL() throws {
        let deadline =
            DispatchTime.now().uptimeNanoseconds + UInt64(max(configuration.busyTimeoutMilliseconds, 0)) * 1_000_000
        var pause: UInt32 = 1_000
        var mode: String?
        while true {
            do {
                mode = try fetchOne("PRAGMA journal_mode = WAL") { try $0.string("journal_mode") }
                break
            } catch let error as DatabaseError where error.isBusy && DispatchTime.now().uptimeNanoseconds < deadline {
                usleep(pause)  // backing off from another opener's lock, not pacing a test
                pause = min(pause * 2, 50_000)
            }
        }
        guard mode?.lowercased() == "wal" else {
            throw DatabaseError(
                code: nil, kind: .walUnavailable,
                message: "cannot switch to WAL journal mode (got \(mode ?? "nothing"))")
        }
    }

    // MARK: - Running SQL

    /// Runs one or more SQL statements that take no parameters, such as a migration script.
    /// - Throws: ``DatabaseError`` from the first statement that fails.
    public func execute(_ sql: String) throws {
        try checkAccess()
        guard !isReadingOnly else {
            throw DatabaseError(extendedResultCode: SQLITE_READONLY, message: "a script cannot run in a read: \(sql)")
        }
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw DatabaseError(extendedResultCode: sqlite3_extended_errcode(handle), message: text, sql: sql)
        }
    }

    /// The connection's cached statement for `sql`, prepared on first use.
    ///
    /// A statement that a live cursor is still iterating is not handed out twice: the caller gets
    /// a fresh, uncached one instead.
    public func statement(_ sql: String) throws -> Statement {
        try checkAccess()
        if let cached = statements[sql], !cached.isBusy {
            try requireReadOnly(cached)
            return cached
        }
        let statement = try Statement(connection: self, sql: sql)
        try requireReadOnly(statement)
        if statements[sql] == nil { statements[sql] = statement }
        return statement
    }

    /// The connection's cached statement for `key`, found by the key's number and prepared on
    /// first use; like ``statement(_:)-(String)`` a statement a live cursor still iterates is not
    /// handed out twice.
    public func statement(_ key: StatementKey) throws -> Statement {
        if let cached = statements[key], !cached.isBusy {
            try checkAccess()
            try requireReadOnly(cached)
            return cached
        }
        let statement = try statement(key.sql)
        if statements[key] == nil { statements[key] = statement }
        return statement
    }

    /// Runs one statement with bound `arguments` and ignores any rows.
    /// - Returns: the number of rows changed (``changes``).
    /// - Throws: ``DatabaseError``.
    @discardableResult
    public func run(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) throws -> Int {
        let statement = try statement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        while try statement.step() {}
        return changes
    }

    /// ``run(_:_:)-(String,_)`` for the statement of `key`.
    @discardableResult
    public func run(_ key: StatementKey, _ arguments: [any DatabaseValueConvertible] = []) throws -> Int {
        let statement = try statement(key)
        try statement.bind(arguments)
        defer { statement.reset() }
        while try statement.step() {}
        return changes
    }

    /// ``query(_:_:)-(String,_)`` for the statement of `key`.
    public func query(_ key: StatementKey, _ arguments: [any DatabaseValueConvertible] = []) throws -> RowCursor {
        let statement = try statement(key)
        try statement.bind(arguments)
        return RowCursor(statement: statement)
    }

    /// ``fetchOne(_:_:_:)-(String,_,_)`` for the statement of `key`.
    public func fetchOne<T>(
        _ key: StatementKey, _ arguments: [any DatabaseValueConvertible] = [], _ transform: (Row) throws -> T
    ) throws -> T? {
        try withBound(key, arguments) { statement in
            guard try statement.step() else { return nil }
            return try transform(Row(statement: statement))
        }
    }

    /// Starts a query; rows are produced one at a time by the returned cursor.
    /// - Throws: ``DatabaseError`` when the SQL does not prepare or a value does not bind.
    public func query(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) throws -> RowCursor {
        let statement = try statement(sql)
        try statement.bind(arguments)
        return RowCursor(statement: statement)
    }

    /// Calls `body` for each row, without collecting them.
    public func forEach(
        _ sql: String, _ arguments: [any DatabaseValueConvertible] = [],
        _ body: (Row) throws -> Void
    ) throws {
        try withBound(sql, arguments) { statement in
            while try statement.step() { try body(Row(statement: statement)) }
        }
    }

    /// Runs `body` with the statement for `sql`, bound and marked busy, and resets it after: a
    /// cursor's work without allocating one (these are the hot paths).
    @usableFromInline
    func withBound<T>(_ sql: String, _ arguments: [any DatabaseValueConvertible], _ body: (Statement) throws -> T)
        throws -> T
    {
        let statement = try statement(sql)
        try statement.bind(arguments)
        statement.beginUse()
        defer { statement.endUse() }
        return try body(statement)
    }

    /// ``withBound(_:_:_:)`` for the statement of `key`.
    @usableFromInline
    func withBound<T>(
        _ key: StatementKey, _ arguments: [any DatabaseValueConvertible], _ body: (Statement) throws -> T
    ) throws -> T {
        let statement = try statement(key)
        try statement.bind(arguments)
        statement.beginUse()
        defer { statement.endUse() }
        return try body(statement)
    }

    /// ``withBound(_:_:_:)`` for a statement of `key` with one parameter, bound to `argument`.
    @inlinable  // specialised where it is called: the picker's statement runs on every checkout
    func withBound<A: DatabaseValueConvertible, T>(
        _ key: StatementKey, only argument: A, _ body: (Statement) throws -> T
    ) throws -> T {
        let statement = try statement(key)
        try statement.bind(only: argument)
        statement.beginUse()
        defer { statement.endUse() }
        return try body(statement)
    }

    /// Maps every row with `transform` and returns the results.
    public func fetchAll<T>(
        _ sql: String, _ arguments: [any DatabaseValueConvertible] = [],
        _ transform: (Row) throws -> T
    ) throws -> [T] {
        var results: [T] = []
        try forEach(sql, arguments) { results.append(try transform($0)) }
        return results
    }

    /// Maps the first row with `transform`, or returns `nil` when there is none.
    public func fetchOne<T>(
        _ sql: String, _ arguments: [any DatabaseValueConvertible] = [],
        _ transform: (Row) throws -> T
    ) throws -> T? {
        try withBound(sql, arguments) { statement in
            guard try statement.step() else { return nil }
            return try transform(Row(statement: statement))
        }
    }

    // MARK: - Decoding with a RowDecoder
    // The decoder is resolved once per prepared statement and kept with it (see `RowDecoder`).
    // Inlinable, so the loop is specialised for each decoder where it is called: decoding a row
    // then costs its column reads, not a generic call and a boxed value per row.

    /// Calls `body` with each row decoded by `decoder`, without collecting them.
    @inlinable
    public func forEach<D: RowDecoder>(
        _ sql: String, _ arguments: [any DatabaseValueConvertible] = [], _ decoder: D.Type,
        _ body: (D.Value) throws -> Void
    ) throws {
        try withBound(sql, arguments) { statement in
            let decoder = try statement.decoder(D.self)
            while try statement.step() { try body(try decoder.decode(Row(statement: statement))) }
        }
    }

    /// Calls `body` with each row and the decoder bound to the statement, for a decoder that
    /// reads some columns from one row only (a state whose first row carries the header).
    @inlinable
    public func forEachRow<D: RowDecoder>(
        _ sql: String, _ arguments: [any DatabaseValueConvertible] = [], _ decoder: D.Type,
        _ body: (Row, D) throws -> Void
    ) throws {
        try withBound(sql, arguments) { statement in
            let decoder = try statement.decoder(D.self)
            while try statement.step() { try body(Row(statement: statement), decoder) }
        }
    }

    /// Every row decoded by `decoder`.
    @inlinable
    public func fetchAll<D: RowDecoder>(
        _ sql: String, _ arguments: [any DatabaseValueConvertible] = [],
        _ decoder: D.Type
    ) throws -> [D.Value] {
        var results: [D.Value] = []
        try forEach(sql, arguments, decoder) { results.append($0) }
        return results
    }

    /// The first row decoded by `decoder`, or `nil` when there is none.
    @inlinable
    public func fetchOne<D: RowDecoder>(
        _ sql: String, _ arguments: [any DatabaseValueConvertible] = [],
        _ decoder: D.Type
    ) throws -> D.Value? {
        try withBound(sql, arguments) { statement in
            guard try statement.step() else { return nil }
            return try statement.decoder(D.self).decode(Row(statement: statement))
        }
    }

    /// ``fetchOne(_:_:_:)-(String,_,D.Type)`` for the statement of `key`.
    @inlinable
    public func fetchOne<D: RowDecoder>(
        _ key: StatementKey, _ arguments: [any DatabaseValueConvertible] = [], _ decoder: D.Type
    ) throws -> D.Value? {
        try withBound(key, arguments) { statement in
            guard try statement.step() else { return nil }
            return try statement.decoder(D.self).decode(Row(statement: statement))
        }
    }

    /// Rows changed by the most recent `INSERT`, `UPDATE` or `DELETE`.
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// The rowid of the most recent successful `INSERT`.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Whether a transaction is open on this connection.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    func error(code: Int32, sql: String?) -> DatabaseError {
        // The connection's extended code is more precise than a step's primary code.
        let extended = sqlite3_extended_errcode(handle)
        let useExtended = extended & 0xFF == code & 0xFF
        return DatabaseError(
            extendedResultCode: useExtended ? extended : code,
            message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    /// Runs `body` with writes refused: a read lent the writer connection cannot write through
    /// it, as it could not through a reader. Each statement is checked as it is handed out
    /// (`sqlite3_stmt_readonly`) — `PRAGMA query_only` would do it too, but setting it expires
    /// every prepared statement of the connection.
    func readingOnly<T>(_ body: () throws -> T) throws -> T {
        isReadingOnly = true
        defer { isReadingOnly = false }
        let result: T
        do {
            result = try body()
        } catch {
            try rollbackIfOpen(after: error)
            throw error
        }
        // `BEGIN` counts as read-only; a transaction left open would outlive the loan.
        if isInTransaction {
            let misuse = DatabaseError.misuse(
                "a read left a transaction open; use Database.read for several statements")
            try rollbackIfOpen(after: misuse)
            throw misuse
        }
        return result
    }

    /// Refuses a statement that writes while the connection is lent for reading.
    private func requireReadOnly(_ statement: Statement) throws {
        guard isReadingOnly, sqlite3_stmt_readonly(statement.handle) == 0 else { return }
        throw DatabaseError(
            extendedResultCode: SQLITE_READONLY, message: "attempt to write in a read: \(statement.sql)")
    }

    // MARK: - Transactions

    /// How a transaction takes its locks (<https://sqlite.org/lang_transaction.html>).
    public enum TransactionKind: Sendable {
        /// Locks on first use. Fine for reads; a read that later writes can fail with
        /// `SQLITE_BUSY` at once, whatever the timeout, if another connection wrote meanwhile.
        case deferred
        /// Takes the write lock at `BEGIN`, waiting up to the busy timeout. Use it whenever the
        /// transaction may write: two writers then queue instead of deadlocking on an upgrade.
        case immediate
    }

    // The transaction's own statements, found by number (every read and write runs them).
    private static let beginImmediate = StatementKey("BEGIN IMMEDIATE")
    private static let beginDeferred = StatementKey("BEGIN DEFERRED")
    private static let commit = StatementKey("COMMIT")

    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    ///
    /// - Throws: what `body` throws, or ``DatabaseError`` (``DatabaseError/Kind/busy`` when the
    ///   write lock stayed taken past the busy timeout). Calling it inside another transaction
    ///   is a misuse: nest with ``savepoint(_:)``.
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        guard !isInTransaction else {
            throw DatabaseError.misuse("a transaction is already open on this connection; nest with savepoint")
        }
        try run(kind == .immediate ? Self.beginImmediate : Self.beginDeferred)
        let result: T
        do {
            result = try body()
            try run(Self.commit)
        } catch {
            try rollbackIfOpen(after: error)
            throw error
        }
        return result
    }

    /// Runs `body` inside a savepoint: released when it returns, rolled back (to the state before
    /// `body`) when it throws, leaving the enclosing transaction open. Outside a transaction it
    /// is an immediate ``transaction(_:_:)``.
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        guard isInTransaction else { return try transaction(.immediate, body) }
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        // The name is built from a counter, never from input.
        let name = "pizzeria_savepoint_\(savepointDepth)"
        try execute("SAVEPOINT \(name)")
        let result: T
        do {
            result = try body()
            try execute("RELEASE \(name)")
        } catch {
            // After SQLITE_FULL, IOERR, BUSY or NOMEM SQLite may have rolled back the whole
            // transaction already; only roll back to the savepoint if it still exists.
            if isInTransaction {
                do {
                    try execute("ROLLBACK TO \(name); RELEASE \(name)")
                } catch let rollback as DatabaseError {
                    throw rollback.afterFailure(error)
                }
            }
            throw error
        }
        return result
    }

    /// Rolls back the open transaction, if SQLite has not already done so.
    /// - Throws: the rollback's own failure, naming `cause` (the error that made it roll back),
    ///   so neither is lost.
    func rollbackIfOpen(after cause: any Error) throws {
        guard isInTransaction else { return }
        do {
            try run("ROLLBACK")
        } catch let rollback as DatabaseError {
            throw rollback.afterFailure(cause)
        }
    }
}

/// Who may use a connection: for one that belongs to a ``Database``, the thread it is lent to
/// (0 while it is not lent); `nil` for a connection its creator owns outright. Shared by the
/// connection and its statements, which check it on every bind and step.
final class Loan {
    var borrower: UInt?

    /// Throws unless the calling thread may use the connection now.
    @inline(__always)
    func check() throws {
        guard let borrower else { return }
        guard borrower != 0, borrower == UInt(bitPattern: Int(bitPattern: pthread_self())) else {
            throw DatabaseError.misuse(
                "a connection was used outside the closure that received it; do the work inside the closure")
        }
    }
}
