/// Settings applied to every connection a ``Database`` opens.
public struct DatabaseConfiguration: Sendable, Equatable {
    /// How long a connection waits for a lock held by another connection before the operation
    /// fails with ``DatabaseError/Kind/busy``. Default 5 seconds.
    public var busyTimeoutMilliseconds: Int32 = 5_000

    /// The most reader connections open at once; further readers wait for one to be free.
    public var maximumReaderCount = 4

    /// Whether a commit survives power loss. Default ``Synchronous/full``.
    public var synchronous: Synchronous = .full

    /// Who checkpoints the WAL into the database file.
    public var checkpointPolicy: CheckpointPolicy = .recommended

    /// The most writes of ``Database/perform(_:_:)`` committed together (group commit). 1 turns
    /// batching off. Default 64.
    public var maximumWriteBatch = 64

    /// The writer connection's page cache, in KiB (64 to 1,048,576); `nil` keeps SQLite's default
    /// (2,000 KiB). The writer is the one connection whose cache survives commits (every commit
    /// empties the other connections' caches), so a long-lived process on a large file can give
    /// it room for the interior pages of the big indexes. Memory grows to it only as pages are read.
    public var writerCacheKiB: Int?

    /// Whether ``Database/read(_:)`` runs on the writer connection whenever no write holds it
    /// (writes refused there, as for ``Database/readStatement(_:)``), instead of on a reader
    /// connection. For one-shot processes that read once or twice and exit (the `pizzeria` CLI):
    /// one connection means SQLite reads and parses the schema once, not once per connection.
    /// A long-lived service leaves it off, so a long read never holds up a write. Default `false`.
    public var readsOnIdleWriter = false

    /// Whether every write transaction first checks the file's ``MoveFence`` and refuses to
    /// write to a fenced file (a shop moved or moving to another node). `Shops` turns it on for
    /// the shops it opens; a single file opened by path leaves it off. Default `false`.
    public var honoursMoveFence = false

    /// The defaults: 5 s busy timeout, 4 readers, durable commits, the recommended checkpoint
    /// policy.
    public init() {}
}

/// What an acknowledged commit survives (<https://sqlite.org/pragma.html#pragma_synchronous>).
public enum Synchronous: String, Sendable, Equatable, CaseIterable {
    /// `synchronous=FULL`: the WAL is synced to the device at every commit, so a commit that
    /// returned survives power loss. The default, as in PostgreSQL and SQLite itself.
    case full
    /// `synchronous=NORMAL`: the WAL is synced only at checkpoints. Faster (no sync per commit);
    /// the database stays consistent, but the last commits before a power loss or OS crash can
    /// be lost. A crash of the process alone loses nothing.
    case normal

    /// The `PRAGMA synchronous` value.
    var pragmaValue: String { self == .full ? "FULL" : "NORMAL" }
}

/// Who checkpoints the write-ahead log, and how.
///
/// On libraries with the WAL-reset bug (<https://sqlite.org/wal.html#walresetbug>) SQLite's own
/// automatic checkpoints are unsafe: they are *passive* and can overlap another connection's WAL
/// reset. ``manualWithWriterLock(thresholdPages:)`` turns them off on every connection and
/// checkpoints after a commit, on the writer, holding the write lock, so no WAL reset can run at
/// the same time; it never waits for readers (see ``CheckpointStatistics``).
public enum CheckpointPolicy: Sendable, Equatable {
    /// SQLite's automatic passive checkpoint once the WAL holds `thresholdPages` pages.
    case sqliteAutomatic(thresholdPages: Int)
    /// No automatic checkpoints; after a commit that leaves at least `thresholdPages` pages in
    /// the WAL, the writer checkpoints holding the write lock, without waiting for readers.
    case manualWithWriterLock(thresholdPages: Int)
    /// Another program owns checkpoints (a replicator such as Litestream, which must see every
    /// WAL frame before it is checkpointed away): Pizzeria checkpoints only when a commit leaves
    /// the WAL at `walLimitPages` or more — which happens when that program is not running — as
    /// ``manualWithWriterLock(thresholdPages:)`` does, so a replicator that is down cannot make
    /// the WAL grow without end. While a replicator runs, its read transaction keeps such a
    /// checkpoint from copying frames it has not read yet.
    case external(walLimitPages: Int)

    /// The WAL size at which an ``external(walLimitPages:)`` policy checkpoints anyway: 262,144
    /// pages (1 GiB of 4 KiB pages), far above what a running replicator lets the WAL reach.
    public static let defaultExternalWALLimitPages = 262_144

    /// The default threshold: 8,000 pages (about 32 MB of WAL). SQLite's own is 1,000; measured
    /// here (docs/archive/PERFORMANCE-HISTORY.md), eight times fewer checkpoints made bookings on a 4 GB file 1.5×
    /// faster (a page changed by many bookings is copied once) and let group commit reach 5× a
    /// one-commit-per-booking writer on a device with a 5 ms flush (each checkpoint is two syncs).
    public static let defaultThresholdPages = 8_000

    /// The safe choice for the linked library: manual when it has the WAL-reset bug, SQLite's
    /// automatic checkpoints otherwise, at ``defaultThresholdPages`` either way.
    public static var recommended: CheckpointPolicy { recommended(thresholdPages: defaultThresholdPages) }

    /// The safe choice for the linked library at another threshold (100 to 1,000,000 pages).
    public static func recommended(thresholdPages: Int) -> CheckpointPolicy {
        let pages = min(max(thresholdPages, 100), 1_000_000)
        return SQLiteLibrary.hasWALResetBug
            ? .manualWithWriterLock(thresholdPages: pages) : .sqliteAutomatic(thresholdPages: pages)
    }

    /// Whether no passive checkpoint can run from this process (the WAL-reset mitigation).
    public var isWALResetMitigation: Bool {
        switch self {
        case .manualWithWriterLock, .external: true
        case .sqliteAutomatic: false
        }
    }

    /// `manual`, `sqlite-automatic` or `external`, as `check` reports it.
    public var name: String {
        switch self {
        case .sqliteAutomatic: "sqlite-automatic"
        case .manualWithWriterLock: "manual"
        case .external: "external"
        }
    }
}
