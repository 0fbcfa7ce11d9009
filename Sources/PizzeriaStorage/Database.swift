internal import CPizzeriaSQLite
import Foundation
import Synchronization

/// A database file shared by any number of threads: the `Sendable` entry point of the storage
/// layer.
///
/// Writes are serialized on one writer connection and run in `BEGIN IMMEDIATE` transactions.
/// Reads run on their own read-only connections in deferred transactions, so in WAL mode a reader
/// sees one consistent snapshot and never waits for the writer.
///
/// ```swift
/// let database = try Database(path: "pizzeria.sqlite", create: true)
/// try database.write { db in
///     try db.run("INSERT INTO users (handle) VALUES (?)", ["anna"])
/// }
/// let count = try database.read { db in
///     try db.fetchOne("SELECT count(*) AS users FROM users") { try $0.int("users") } ?? 0
/// }
/// ```
///
/// A ``Connection`` is confined to the closure that received it: used after the closure returned
/// or from another thread it throws a misuse error. A ``write(_:)`` inside another `write` on the
/// same thread would wait for itself; it throws a misuse error instead: nest with
/// ``Connection/savepoint(_:)``. A ``read(_:)`` inside a `write` uses another connection and does
/// not see the write's uncommitted changes.
public final class Database: @unchecked Sendable {
    // @unchecked: the writer is only touched while its gate is held, and each reader connection
    // by one thread at a time (see ReaderPool). Statistics sit behind a Mutex; the rest is
    // immutable.

    /// The database file's path.
    public let path: String
    /// The settings every connection gets.
    public let configuration: DatabaseConfiguration
    /// Whether this handle only reads: opened to inspect, or the file (or its directory, where
    /// SQLite creates the `-wal` and `-shm` files) is not writable by this process.
    /// ``write(_:)`` then throws.
    public let isReadOnly: Bool
    /// Why it only reads, for the error a write gets.
    private let readOnlyReason: String?
    private let writer: Connection?
    private let gate: WriterGate
    private let checkpointer: Checkpointer?
    private let statistics = Mutex(CheckpointStatistics())
    private let readers: ReaderPool
    /// Where ``perform(_:_:)`` runs reads: as many at once as there are reader connections.
    let readQueue: OperationQueue
    /// The writer thread of ``perform(_:_:)``.
    private(set) var batcher: WriteBatcher
    /// With durable commits: syncs what the writer thread commits, so the next batch runs while
    /// the device flushes (see ``CommitSyncer``); `nil` when commits are not synced.
    let syncer: CommitSyncer?
    /// Whether the writer thread has a batch's transaction open (its writes become savepoints).
    let batchOpen = Atomic<Bool>(false)
    /// Signalled after every commit of this handle's writer.
    public let commits = CommitSignal()
    /// Counted by the writer thread (see `groupCommitStatistics`).
    let groupCommits = Mutex(GroupCommitStatistics())

    /// Opens the file at `path`: for reading and writing (switching it to WAL), or only to read.
    ///
    /// Anything but a regular file (after following links) is refused before it is opened, and
    /// nothing is ever created through a link to a missing file.
    ///
    /// - Parameters:
    ///   - create: create the file (mode 0600) when it does not exist; otherwise a missing file
    ///     is an error of kind ``DatabaseError/Kind/io`` and nothing is created.
    ///   - readOnly: open only to read: the file, its `-wal` and its `-shm` stay byte for byte as
    ///     they were, and none is created (a file without companions is opened `immutable`).
    ///     A file this process cannot write is opened this way too.
    ///   - prepare: runs before the file is switched to WAL (on the writer; on a reader inside a
    ///     read transaction when read-only), for checks that must leave a foreign file untouched
    ///     (the migrator's). Throwing aborts the open.
    /// - Throws: ``DatabaseError``; of kind ``DatabaseError/Kind/notADatabase`` when the file is
    ///   not SQLite or not a regular file.
    public init(
        path: String, configuration: DatabaseConfiguration = .init(), create: Bool = false,
        readOnly: Bool = false, prepare: (Connection) throws -> Void = { _ in }
    ) throws {
        let file = try DatabaseFile.requireRegularFile(path, create: create && !readOnly)
        let obstacle = readOnly ? "opened to inspect" : DatabaseFile.writeObstacle(path)
        let onlyReads = obstacle != nil
        self.readOnlyReason = obstacle
        self.path = path
        self.configuration = configuration
        self.isReadOnly = onlyReads
        self.gate = WriterGate.shared(for: file)
        let queue = OperationQueue()
        queue.name = "pizzeria.readers"
        queue.maxConcurrentOperationCount = max(1, configuration.maximumReaderCount)
        self.readQueue = queue
        self.batcher = WriteBatcher(maximumBatch: 1, execute: { _ in })
        if onlyReads {
            self.writer = nil
            self.syncer = nil
            self.checkpointer = nil
            self.readers = ReaderPool(
                path: path, configuration: configuration,
                mode: DatabaseFile.hasNoCompanions(path) ? .readOnlyImmutable : .readOnly)
            try readers.withReader { db in
                try db.transaction(.deferred) {
                    try Self.requireSQLite(db)
                    try prepare(db)
                }
            }
        } else {
            DatabaseFile.alignCompanionModes(with: file, path: path)
            let writer = try Connection(path: path, mode: .readWrite, configuration: configuration)
            if let kibibytes = configuration.writerCacheKiB { try writer.setCacheSize(kibibytes: kibibytes) }
            try Self.requireSQLite(writer)
            try prepare(writer)
            try writer.enableWAL()
            writer.confine()
            self.writer = writer
            self.syncer = configuration.synchronous == .full ? writer.walPath.map(CommitSyncer.init(walPath:)) : nil
            switch configuration.checkpointPolicy {
            case .manualWithWriterLock(let threshold): self.checkpointer = Checkpointer(threshold: threshold)
            case .external(let limit): self.checkpointer = .walLimit(limit)
            case .sqliteAutomatic: self.checkpointer = nil
            }
            self.readers = ReaderPool(path: path, configuration: configuration, mode: .readOnly)
        }
        // The batcher calls back into this handle without keeping it alive.
        self.batcher = WriteBatcher(maximumBatch: configuration.maximumWriteBatch) { [weak self] jobs in
            guard let self else {
                for job in jobs { job.finish(overriding: CancellationError()) }
                return
            }
            self.runBatch(jobs)
        }
    }

    deinit {
        // Readers first: the last connection to close checkpoints the WAL into the file and
        // deletes it (holding an exclusive lock, so no other connection can race it), and only
        // the read-write writer can. Closing it last leaves a database file complete by itself.
        readers.closeAll()
    }

    /// Reads the header through SQLite, which refuses a file that is not a database
    /// (`SQLITE_NOTADB`) before anything is written.
    private static func requireSQLite(_ db: Connection) throws {
        _ = try db.fetchOne("PRAGMA schema_version") { try $0.int("schema_version") }
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`): committed when it returns, rolled
    /// back when it throws. Writers from all threads of this process queue here; writers in other
    /// processes queue on SQLite's lock for up to the busy timeout.
    ///
    /// After the commit, under the manual checkpoint policy, the WAL may be checkpointed: that
    /// never waits for readers, and its outcome is counted in ``checkpointStatistics``.
    /// - Throws: what `body` throws, or ``DatabaseError`` (``DatabaseError/Kind/busy`` after the
    ///   timeout).
    @discardableResult
    public func write<T>(_ body: (Connection) throws -> T) throws -> T {
        if let writer, isInsideBatch {
            // On the writer thread, inside a batch of perform(.write): a savepoint of its transaction.
            return try writer.savepoint { try body(writer) }
        }
        return try withWriter { db in
            let result = try db.transaction(.immediate) {
                if configuration.honoursMoveFence { try MoveFence.requireOpen(db, path: path) }
                return try body(db)
            }
            commits.notify()
            checkpointIfDue(db)
            return result
        }
    }

    /// Whether the calling thread is the writer thread with a batch open.
    private var isInsideBatch: Bool { batchOpen.load(ordering: .acquiring) && gate.isHeldByCurrentThread }

    func checkpointIfDue(_ db: Connection) {
        guard let checkpointer, let outcome = checkpointer.afterCommit(walPages: db.walPageCount, on: db) else {
            return
        }
        statistics.withLock { $0.record(outcome, at: Date()) }
    }

    /// Runs `body` on the writer connection without opening a transaction, for work that manages
    /// its own (migrations, one transaction each) or must run outside one.
    /// - Throws: ``DatabaseError`` of kind ``DatabaseError/Kind/misuse`` when called from inside
    ///   another `write` or `withWriter` on this file on the same thread; of kind
    ///   ``DatabaseError/Kind/io`` (`SQLITE_READONLY`) when the database was opened read-only.
    @discardableResult
    public func withWriter<T>(_ body: (Connection) throws -> T) throws -> T {
        guard let writer else {
            throw DatabaseError(
                extendedResultCode: SQLITE_READONLY,
                message: "\(path) is open read-only (\(readOnlyReason ?? "opened to inspect"))")
        }
        return try gate.run {
            writer.lend()
            defer { writer.giveBack() }
            return try body(writer)
        }
    }

    /// Runs `body` on a reader connection inside a deferred transaction: every query in it sees
    /// the same snapshot. Readers are opened read-only and can never write.
    ///
    /// Inside a batch of ``perform(_:_:)`` `.write` work, the read runs on the writer connection
    /// (in a savepoint of the batch's transaction) instead: work that writes and then reads sees
    /// its own writes, which a reader would not until the batch commits. With
    /// ``DatabaseConfiguration/readsOnIdleWriter`` it runs on the writer whenever that is free.
    @discardableResult
    public func read<T>(_ body: (Connection) throws -> T) throws -> T {
        if let writer, isInsideBatch { return try writer.savepoint { try body(writer) } }
        if configuration.readsOnIdleWriter {
            let onWriter = try onIdleWriter { db in
                try db.readingOnly { try db.transaction(.deferred) { try body(db) } }
            }
            if let onWriter { return onWriter }
        }
        return try readers.withReader { db in try db.transaction(.deferred) { try body(db) } }
    }

    /// Runs `body`, which runs exactly one statement, on a reader connection without an explicit
    /// transaction: SQLite's implicit transaction already gives one statement one snapshot, and
    /// the `BEGIN` and `COMMIT` a hot read would pay for are saved. Use ``read(_:)`` for more.
    ///
    /// When no one holds the writer connection, the statement runs there, with writes refused:
    /// every commit empties the page cache of every *other* connection,
    /// so the connection that made the last change is the one whose cache is still warm — a
    /// read right after a write (a sheet's draft, then its save) then costs no page re-reads.
    /// Otherwise it takes a reader, and never waits for the writer; inside a batch of `.write`
    /// work it runs on the writer, as ``read(_:)`` does. Meant for statements that
    /// read a handful of rows (a lookup, a path); use ``read(_:)`` for lists.
    @discardableResult
    @inlinable  // specialised where it is called: the generic answer cost a metadata lookup per call
    public func readStatement<T>(_ body: (Connection) throws -> T) throws -> T {
        var result: T?
        try readStatement { (db: Connection) -> Void in result = try body(db) }
        // Moved out, not copied: a copy would retain what the answer holds, and release it again.
        guard let answer = result.take() else { throw DatabaseError.misuse("a read statement's body did not run") }
        return answer
    }

    /// ``readStatement(_:)`` for a body that keeps its own result: the one place its rules live.
    @usableFromInline
    func readStatement(_ body: (Connection) throws -> Void) throws {
        if let writer, isInsideBatch { return try writer.savepoint { try body(writer) } }
        if try onIdleWriter({ db in try db.readingOnly { try body(db) } }) != nil { return }
        try readers.withReader(body)
    }

    /// Runs `body` on the writer connection when no one holds it (never waiting for it); `nil`
    /// when it is taken, or there is none.
    private func onIdleWriter<T>(_ body: (Connection) throws -> T) throws -> T? {
        guard let writer, gate.enterIfFree() else { return nil }
        defer { gate.leave() }
        writer.lend()
        defer { writer.giveBack() }
        return .some(try body(writer))
    }

    /// How many reader connections this handle has opened (the writer is not counted).
    var readerConnectionsOpened: Int { readers.openedCount }

    /// Runs `body` on a reader connection outside any transaction (the backup API opens its own).
    func readWithoutTransaction<T>(_ body: (Connection) throws -> T) throws -> T {
        try readers.withReader(body)
    }

    // MARK: - Checkpoints and the WAL

    /// The writer connection's page-cache counters (hits, misses, pages written), optionally reset:
    /// what a measurement of a large file needs (`pizzeria-bench` prints them per operation).
    public func writerPageCacheStatistics(reset: Bool = false) throws -> PageCacheStatistics {
        try withWriter { $0.pageCacheStatistics(reset: reset) }
    }

    /// What the writer connection holds in memory (its parsed schema, page cache, statements):
    /// what an open shop costs beyond the process (`pizzeria-bench-shops` prints it).
    public func writerMemory() throws -> ConnectionMemory {
        try withWriter { $0.memory() }
    }

    /// The checkpoints this handle attempted since it was opened, and the last outcome.
    public var checkpointStatistics: CheckpointStatistics { statistics.withLock { $0 } }

    /// The WAL's size, how much of it is checkpointed, and whether another process's reader is
    /// holding it back.
    public func walStatus() throws -> WALStatus {
        try read { db in
            let pageSize = try db.fetchOne("PRAGMA page_size") { try $0.int("page_size") } ?? 4096
            return WALStatus.read(databasePath: path, pageSize: pageSize)
        }
    }
}
