/// Settings applied to every connection a ``Database`` opens.
public struct DatabaseConfiguration: Sendable, Equatable {
    /// How long a connection waits for a lock held by another connection before the operation
    /// fails with ``DatabaseError/Kind/busy``. Default 5 seconds.
    public var busyTimeoutMilliseconds: Int32 = 5_000

    /// The most reader connections open at once; further readers wait for one to be free.
    public var maximumReaderCount = 4

    /// Who checkpoints the WAL into the database file.
    public var checkpointPolicy: CheckpointPolicy = .recommended

    /// The defaults: 5 s busy timeout, 4 readers, the recommended checkpoint policy.
    public init() {}
}

/// Who checkpoints the write-ahead log, and how.
///
/// On libraries with the WAL-reset bug (<https://sqlite.org/wal.html#walresetbug>) SQLite's own
/// automatic checkpoints are unsafe: they are *passive* and can overlap another connection's WAL
/// reset. ``manualWithWriterLock(thresholdPages:)`` turns them off on every connection and
/// checkpoints after a commit, on the writer, in `RESTART` mode, which takes the writer lock so no
/// WAL reset can run at the same time.
public enum CheckpointPolicy: Sendable, Equatable {
    /// SQLite's automatic passive checkpoint once the WAL holds `thresholdPages` pages.
    case sqliteAutomatic(thresholdPages: Int)
    /// No automatic checkpoints; the writer runs a `RESTART` checkpoint after a commit that
    /// leaves at least `thresholdPages` pages in the WAL.
    case manualWithWriterLock(thresholdPages: Int)

    /// The safe choice for the linked library: manual when it has the WAL-reset bug, SQLite's
    /// automatic checkpoints otherwise. 1,000 pages, SQLite's default threshold, either way.
    public static var recommended: CheckpointPolicy {
        SQLiteLibrary.hasWALResetBug
            ? .manualWithWriterLock(thresholdPages: 1_000)
            : .sqliteAutomatic(thresholdPages: 1_000)
    }

    /// Whether the WAL-reset mitigation (no passive checkpoints) is in force.
    public var isWALResetMitigation: Bool {
        if case .manualWithWriterLock = self { true } else { false }
    }
}
