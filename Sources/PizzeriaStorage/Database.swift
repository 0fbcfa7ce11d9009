internal import CPizzeriaSQLite
import Foundation
import Synchronization

/// A database file shared by any number of threads: the `Sendable` entry point of the storage
/// layer.
///
/// Writes are serialized on one writer connection and run in `BEGIN IMMEDIATE` transactions.
/// Reads run on their own connections in deferred transactions, so in WAL mode a reader sees one
/// consistent snapshot and never waits for the writer.
///
/// ```swift
/// let database = try Database(path: "pizzeria.sqlite", create: true)
/// try database.write { db in
///     try db.run("INSERT INTO users (handle) VALUES (?)", ["anna"])
/// }
/// let count = try database.read { db in
///     try db.fetchOne("SELECT count(*) FROM users") { try $0.int(0) } ?? 0
/// }
/// ```
///
/// Do not let a ``Connection`` escape the closure that received it. A ``write(_:)`` inside another
/// `write` on the same thread would wait for itself; it throws a misuse error instead: nest with
/// ``Connection/savepoint(_:)``. A ``read(_:)`` inside a `write` uses another connection and does
/// not see the write's uncommitted changes.
public final class Database: @unchecked Sendable {
    // @unchecked: the writer is only touched while `writerLock` is held, and each reader
    // connection by one thread at a time (see ReaderPool). Everything else is immutable.

    /// The database file's path.
    public let path: String
    /// The settings every connection gets.
    public let configuration: DatabaseConfiguration
    private let writer: Connection
    private let writerLock = NSLock()
    /// The thread holding the writer (0 when free), so a nested `write` on the same thread is
    /// reported as misuse instead of waiting for itself forever.
    private let writerThread = Atomic<UInt>(0)
    private let readers: ReaderPool

    /// Opens the file at `path`, switching it to WAL.
    ///
    /// - Parameters:
    ///   - create: create the file (mode 0600) when it does not exist; otherwise a missing file
    ///     is an error of kind ``DatabaseError/Kind/io`` and nothing is created.
    ///   - prepare: runs on the writer before the file is switched to WAL, for checks that must
    ///     leave a foreign file untouched (the migrator's). Throwing aborts the open.
    /// - Throws: ``DatabaseError``; of kind ``DatabaseError/Kind/notADatabase`` when the file is
    ///   not SQLite.
    public init(path: String, configuration: DatabaseConfiguration = .init(), create: Bool = false,
                prepare: (Connection) throws -> Void = { _ in }) throws {
        if !DatabaseFile.exists(path) {
            guard create else {
                throw DatabaseError(extendedResultCode: SQLITE_CANTOPEN, message: "no database file at \(path)")
            }
            try DatabaseFile.createPrivate(path)
        }
        try DatabaseFile.requireSQLiteOrEmpty(path)
        let writer = try Connection(path: path, mode: .readWrite, configuration: configuration)
        try prepare(writer)
        try writer.enableWAL()
        self.path = path
        self.configuration = configuration
        self.writer = writer
        self.readers = ReaderPool(path: path, configuration: configuration)
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`): committed when it returns, rolled
    /// back when it throws. Writers from all threads of this process queue here; writers in other
    /// processes queue on SQLite's lock for up to the busy timeout.
    /// - Throws: what `body` throws, or ``DatabaseError`` (``DatabaseError/Kind/busy`` after the
    ///   timeout).
    @discardableResult
    public func write<T>(_ body: (Connection) throws -> T) throws -> T {
        try withWriter { db in
            let result = try db.transaction(.immediate) { try body(db) }
            db.checkpointIfNeeded()
            return result
        }
    }

    /// Runs `body` on the writer connection without opening a transaction, for work that manages
    /// its own (migrations, one transaction each) or must run outside one (checkpoints, backups).
    @discardableResult
    /// - Throws: ``DatabaseError`` of kind ``DatabaseError/Kind/misuse`` when called from inside
    ///   another `write` or `withWriter` on this database on the same thread.
    public func withWriter<T>(_ body: (Connection) throws -> T) throws -> T {
        let me = UInt(bitPattern: Int(bitPattern: pthread_self()))
        guard writerThread.load(ordering: .acquiring) != me else {
            throw DatabaseError.misuse("write called inside another write on the same database; nest with the connection's savepoint")
        }
        writerLock.lock()
        writerThread.store(me, ordering: .releasing)
        defer {
            writerThread.store(0, ordering: .releasing)
            writerLock.unlock()
        }
        return try body(writer)
    }

    /// Runs `body` on a reader connection inside a deferred transaction: every query in it sees
    /// the same snapshot. Readers never write (`query_only`).
    @discardableResult
    public func read<T>(_ body: (Connection) throws -> T) throws -> T {
        try readers.withReader { db in try db.transaction(.deferred) { try body(db) } }
    }

    /// Runs `body` on a reader connection outside any transaction (the backup API opens its own).
    func readWithoutTransaction<T>(_ body: (Connection) throws -> T) throws -> T {
        try readers.withReader(body)
    }
}

/// Reader connections, opened on demand up to a limit and reused.
private final class ReaderPool: @unchecked Sendable {
    // @unchecked: `idle` is guarded by `lock`; a connection taken out of `idle` belongs to the
    // one thread that took it until it is put back.
    private let path: String
    private let configuration: DatabaseConfiguration
    private let lock = NSLock()
    private var idle: [Connection] = []
    private let slots: DispatchSemaphore

    init(path: String, configuration: DatabaseConfiguration) {
        self.path = path
        self.configuration = configuration
        self.slots = DispatchSemaphore(value: max(1, configuration.maximumReaderCount))
    }

    func withReader<T>(_ body: (Connection) throws -> T) throws -> T {
        slots.wait()
        defer { slots.signal() }
        let connection = try take()
        defer { put(connection) }
        return try body(connection)
    }

    private func take() throws -> Connection {
        lock.lock()
        let reused = idle.popLast()
        lock.unlock()
        if let reused { return reused }
        let connection = try Connection(path: path, mode: .readWrite, configuration: configuration)
        try connection.execute("PRAGMA query_only = ON")
        return connection
    }

    private func put(_ connection: Connection) {
        lock.lock()
        idle.append(connection)
        lock.unlock()
    }
}
