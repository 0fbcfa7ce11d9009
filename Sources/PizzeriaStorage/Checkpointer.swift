internal import CPizzeriaSQLite
import Foundation

/// What one checkpoint attempt did.
public enum CheckpointOutcome: Sendable, Equatable, CustomStringConvertible {
    /// Every frame was copied into the database file and the WAL will restart from the beginning.
    case completed(walFrames: Int)
    /// Readers with older snapshots kept the checkpoint from copying every frame or from
    /// restarting the WAL. It copied what it could and did not wait for them; the next attempt
    /// comes after the WAL has grown by another threshold.
    case blockedByReaders(walFrames: Int, copied: Int)
    /// Another process was writing or checkpointing; not attempted, because a checkpoint that does
    /// not hold the write lock is what the WAL-reset bug needs.
    case skippedForOtherProcess
    /// SQLite reported an error other than busy (the message and code).
    case failed(String)

    /// A phrase for `check`.
    public var description: String {
        switch self {
        case .completed(let frames): "completed (\(frames) frames copied, WAL restarted)"
        case .blockedByReaders(let frames, let copied): "blocked by readers (\(copied) of \(frames) frames copied)"
        case .skippedForOtherProcess: "skipped: another process was writing or checkpointing"
        case .failed(let message): "failed: \(message)"
        }
    }
}

/// Checkpoints attempted by this ``Database`` since it was opened, so a blocked or failed
/// checkpoint is counted and visible, never silently dropped.
public struct CheckpointStatistics: Sendable, Equatable {
    /// Attempts made.
    public var attempts = 0
    /// Attempts that copied everything and restarted the WAL.
    public var completed = 0
    /// Attempts that readers kept from finishing.
    public var blockedByReaders = 0
    /// Attempts skipped because another process held the write or checkpoint lock.
    public var skipped = 0
    /// Attempts that failed with another error.
    public var failed = 0
    /// The latest attempt's outcome, if any.
    public var lastOutcome: CheckpointOutcome?
    /// When the latest attempt was made.
    public var lastAttemptAt: Date?

    /// No attempts yet.
    public init() {}

    mutating func record(_ outcome: CheckpointOutcome, at date: Date) {
        attempts += 1
        switch outcome {
        case .completed: completed += 1
        case .blockedByReaders: blockedByReaders += 1
        case .skippedForOtherProcess: skipped += 1
        case .failed: failed += 1
        }
        lastOutcome = outcome
        lastAttemptAt = date
    }
}

/// Decides when the writer checkpoints under ``CheckpointPolicy/manualWithWriterLock(thresholdPages:)``,
/// and backs off when readers block it.
///
/// Used only while the writer is held, so it needs no lock of its own.
final class Checkpointer {
    private let threshold: Int
    /// WAL growth (pages) after a blocked attempt before the next one.
    private let backOff: Int
    /// Whether a completed checkpoint also truncates the `-wal` file to nothing.
    private let truncates: Bool
    /// The WAL size (pages) at which the next attempt is made.
    private var nextAttempt: Int
    /// The WAL size after the previous commit: a smaller one means the WAL restarted.
    private var previousPages = 0

    /// Checkpoints once the WAL holds `threshold` pages; after a blocked attempt, once it has
    /// grown by `backOff` more (a threshold's worth unless said).
    init(threshold: Int, backOff: Int? = nil, truncates: Bool = false) {
        self.threshold = max(1, threshold)
        self.backOff = max(1, backOff ?? threshold)
        self.truncates = truncates
        self.nextAttempt = max(1, threshold)
    }

    /// For ``CheckpointPolicy/external(walLimitPages:)``: a checkpoint only at the limit, which
    /// gives the disk back (`TRUNCATE`), and after one a reader blocked, another every sixteenth
    /// of the limit — while the replicator is down the first such attempt succeeds, so the WAL
    /// ends within a sixteenth of the limit above it.
    static func walLimit(_ pages: Int) -> Checkpointer {
        Checkpointer(threshold: pages, backOff: max(1_000, pages / 16), truncates: true)
    }

    /// Called after each commit with the WAL's size; checkpoints when it is due.
    /// - Returns: the attempt's outcome, or `nil` when none was due.
    func afterCommit(walPages: Int, on db: Connection) -> CheckpointOutcome? {
        if walPages < previousPages { nextAttempt = threshold }
        previousPages = walPages
        guard walPages >= nextAttempt else { return nil }
        let outcome = db.checkpointHoldingWriteLock(truncating: truncates)
        // Completed: the WAL restarts and the next attempt is one threshold away. Otherwise back
        // off by some growth, instead of paying for a blocked attempt at every commit.
        if case .completed = outcome { nextAttempt = threshold } else { nextAttempt = walPages + backOff }
        return outcome
    }
}

extension Connection {
    /// A `RESTART` checkpoint that holds SQLite's write lock and never waits for readers.
    ///
    /// SQLite's `RESTART` first takes the write lock (calling the busy handler while another
    /// connection writes), copies every frame no reader still needs, then waits for readers so the
    /// WAL can restart. If its busy handler gives up before it has the write lock, SQLite goes on
    /// as a *passive* checkpoint — exactly what the WAL-reset bug needs. So the handler here waits
    /// (up to the busy timeout) while another process holds the write lock, gives up at once when
    /// only readers are in the way (`/proc/locks`, ``WALLocks``, tells the two apart), and when it
    /// gives up on another process's writer it interrupts the checkpoint first: SQLite checks the
    /// interrupt before copying each frame, so nothing is copied without the write lock.
    ///
    /// `/proc/locks` is read only when SQLite is kept waiting: an uncontended checkpoint never
    /// reads it (one read took 5–18 ms inside the benchmark, measured with `strace -T`: most of
    /// the cost of a commit that checkpoints).
    /// With `truncating`, a completed checkpoint also truncates the `-wal` file (`TRUNCATE`,
    /// which is `RESTART` and then a truncation), giving its space back.
    func checkpointHoldingWriteLock(truncating: Bool = false) -> CheckpointOutcome {
        let wait = CheckpointWait(
            handle: handle, databasePath: path, timeoutMilliseconds: configuration.busyTimeoutMilliseconds)
        let context = Unmanaged.passRetained(wait)
        defer {
            sqlite3_busy_timeout(handle, configuration.busyTimeoutMilliseconds)
            context.release()
        }
        sqlite3_busy_handler(
            handle,
            { context, _ in
                guard let context else { return 0 }
                return Unmanaged<CheckpointWait>.fromOpaque(context).takeUnretainedValue().shouldRetry() ? 1 : 0
            }, context.toOpaque())
        var log: Int32 = -1
        var copied: Int32 = -1
        let code = sqlite3_wal_checkpoint_v2(
            handle, nil, truncating ? SQLITE_CHECKPOINT_TRUNCATE : SQLITE_CHECKPOINT_RESTART, &log, &copied)
        if wait.interruptedForOtherWriter { return .skippedForOtherProcess }
        switch code & 0xFF {
        case SQLITE_OK:
            return .completed(walFrames: Int(log))
        case SQLITE_BUSY where log >= 0:
            return .blockedByReaders(walFrames: Int(log), copied: Int(max(copied, 0)))
        case SQLITE_BUSY:
            // Another process holds the checkpoint lock: SQLite refuses at once, copying nothing.
            return .skippedForOtherProcess
        default:
            return .failed(error(code: code, sql: nil).description)
        }
    }
}

/// The busy handler's state during one checkpoint.
private final class CheckpointWait {
    private let handle: OpaquePointer
    private let databasePath: String
    private let deadline: Date
    private var immediateRetries = 0
    /// Set when the handler gave up on another process's write lock and interrupted the checkpoint.
    private(set) var interruptedForOtherWriter = false

    init(handle: OpaquePointer, databasePath: String, timeoutMilliseconds: Int32) {
        self.handle = handle
        self.databasePath = databasePath
        self.deadline = Date().addingTimeInterval(Double(timeoutMilliseconds) / 1000)
    }

    /// Whether SQLite should try the lock again.
    func shouldRetry() -> Bool {
        let locks = WALLocks.read(databasePath: databasePath)
        if locks == nil || locks?.writer != nil {
            // Another process writes (or this system cannot tell): wait for the write lock rather
            // than let SQLite continue without it. Writers' transactions are short; one that is
            // not (a shell left mid-transaction) makes this checkpoint stop before copying.
            guard Date() < deadline else {
                interruptedForOtherWriter = true
                sqlite3_interrupt(handle)
                return false
            }
            usleep(1_000)
            return true
        }
        // Nobody else writes. Either a writer let go between SQLite's try and this look (one more
        // try takes the lock), or readers are what is in the way: never wait for them.
        immediateRetries += 1
        return immediateRetries <= 2
    }
}
