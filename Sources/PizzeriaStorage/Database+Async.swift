internal import CPizzeriaSQLite
import Foundation
import Synchronization

/// Async access that never blocks Swift's cooperative thread pool, and group commit.
///
/// ``Database/perform(_:_:)`` runs synchronous work on the database's own threads and suspends
/// the caller meanwhile: reads on a pool as wide as the reader pool, writes on one writer thread.
/// The writer thread takes every write queued while the previous commit was syncing, runs each
/// in its own savepoint inside one `BEGIN IMMEDIATE` transaction, commits (and syncs) once, and
/// only then resumes each caller — so with durable commits many callers share one sync. Each
/// caller's work is still atomic (a refused one rolls back only its own savepoint, however many
/// writes it made) and durable when its call returns: the guarantees of ``Database/write(_:)``, at a fraction of the syncs.
extension Database {
    /// What a piece of work does.
    public enum Access: Sendable {
        /// Only reads: runs concurrently with other reads.
        case read
        /// Writes: runs on the writer thread, batched with other writes into one commit.
        case write
    }

    /// Runs `work` on the database's own threads and returns its result.
    ///
    /// `work` calls the synchronous API (``read(_:)``, ``write(_:)``, or services built on them);
    /// for `.write`, each ``write(_:)`` it makes becomes a savepoint of the batch's transaction.
    /// A task cancelled before its work starts throws `CancellationError`, and nothing is done;
    /// once the work has started, cancellation is ignored and the caller gets its result — so
    /// `CancellationError` always means nothing was written.
    /// - Throws: what `work` throws; a commit failure for every write of its batch.
    public func perform<T: Sendable>(_ access: Access, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        try Task.checkCancellation()
        let job = Job(work)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
                job.start(continuation)
                switch access {
                case .read: readQueue.addOperation { job.runAlone() }
                case .write: batcher.enqueue(job)
                }
            }
        } onCancel: {
            job.cancel()
        }
    }

    /// How many batches the writer thread committed, for how many writes.
    public var groupCommitStatistics: GroupCommitStatistics {
        var statistics = groupCommits.withLock { $0 }
        statistics.syncs = syncer?.syncs ?? 0
        return statistics
    }

    /// Async writes queued for the writer thread or running on it, not yet finished: for
    /// monitoring, and for tests that wait until writes have queued up.
    public var unfinishedWrites: Int { batcher.unfinished }

    /// Runs one batch on the writer: every job in its own savepoint, one commit for all.
    func runBatch(_ jobs: [any BatchedWrite]) {
        var live: [any BatchedWrite] = []
        do {
            try withWriter { db in
                // Cancellation is honoured up to the moment the transaction starts: a job whose
                // task was cancelled while it waited for the write lock does not run. Claiming
                // decides each job's fate once, under its lock: a cancellation arriving after the
                // claim is ignored, so no caller is told "cancelled" of work that then commits.
                var dropped: [any BatchedWrite] = []
                for job in jobs {
                    if job.claim() { live.append(job) } else { dropped.append(job) }
                }
                for job in dropped { job.finish(overriding: CancellationError()) }
                guard !live.isEmpty else { return }
                // Pipelined: this batch commits without a sync; the syncer syncs it (below).
                if syncer != nil { try db.run(Self.synchronousNormal) }
                do {
                    try runJobs(live, on: db)
                } catch {
                    if syncer != nil { try db.run(Self.synchronousFull) }
                    throw error
                }
                if syncer != nil { try db.run(Self.synchronousFull) }
                commits.notify()
                checkpointIfDue(db)
            }
            guard !live.isEmpty else { return }
            groupCommits.withLock {
                $0.batches += 1; $0.writes += live.count
            }
            if let syncer {
                syncer.submit(live)
            } else {
                for job in live { job.finish(overriding: nil) }
            }
        } catch {
            batchOpen.store(false, ordering: .releasing)
            // Jobs not yet sorted (the lock never came) fail with the error too.
            for job in live.isEmpty ? jobs : live { job.finish(overriding: error) }
        }
    }

    // The writer's `synchronous` while it commits a pipelined batch, and back (outside a transaction).
    private static let synchronousNormal = StatementKey("PRAGMA synchronous = NORMAL")
    private static let synchronousFull = StatementKey("PRAGMA synchronous = FULL")

    /// Runs `live` in one transaction, each job in its own savepoint, and commits.
    private func runJobs(_ live: [any BatchedWrite], on db: Connection) throws {
        try db.run("BEGIN IMMEDIATE")
        if configuration.honoursMoveFence {
            do {
                try MoveFence.requireOpen(db, path: path)
            } catch {
                try db.rollbackIfOpen(after: error)
                throw error
            }
        }
        batchOpen.store(true, ordering: .releasing)
        for job in live {
            // Each job in its own savepoint: when its work throws, everything it wrote
            // (however many write(_:) calls, each a nested savepoint) rolls back, and
            // only that. Its error is its own result, kept by the job.
            do {
                try db.savepoint { if !job.run() { throw JobFailed() } }
            } catch is JobFailed {
                // Rolled back to its savepoint; the caller gets its own error.
            }
            if !db.isInTransaction { break }  // SQLite rolled everything back (I/O, full disk)
        }
        batchOpen.store(false, ordering: .releasing)
        guard db.isInTransaction else {
            throw DatabaseError(
                extendedResultCode: SQLITE_ABORT, message: "the batch's transaction was rolled back by SQLite")
        }
        do {
            try db.run("COMMIT")
        } catch {
            try db.rollbackIfOpen(after: error)
            throw error
        }
    }
}

/// A batched job's work failed: its savepoint is rolled back, its error goes to its caller.
struct JobFailed: Error {}

/// Group commit at work: batches committed by the writer thread, the writes they carried, and
/// the syncs that made them durable.
public struct GroupCommitStatistics: Sendable, Equatable {
    /// Commits made.
    public var batches = 0
    /// Writes those commits carried (each in its own savepoint).
    public var writes = 0
    /// Syncs of the WAL by the syncer, each for every batch committed before it began (durable
    /// commits only; with `synchronous=NORMAL` nothing is synced per commit).
    public var syncs = 0
}

/// A write waiting for the writer thread.
protocol BatchedWrite: AnyObject, Sendable {
    /// Decides the job's fate: `true` and it will run (later cancellation is ignored), or
    /// `false` because its task was cancelled first and it never will.
    func claim() -> Bool
    /// Runs the work, keeping its result (or its error); `false` when it failed, so that the
    /// batch rolls back the job's savepoint.
    func run() -> Bool
    /// Resumes the caller with the work's result, or with `error` instead when the batch failed.
    func finish(overriding error: Error?)
}

/// One call of ``Database/perform(_:_:)``: its work, its result, its caller.
final class Job<T: Sendable>: BatchedWrite, @unchecked Sendable {
    // @unchecked: `state` is behind a Mutex; `work` is immutable.
    private let work: @Sendable () throws -> T
    private struct State {
        var continuation: CheckedContinuation<T, Error>?
        var result: Result<T, Error>?
        var fate = Fate.waiting
    }
    /// Set once from `.waiting`, never changed after: whoever comes first — the task's
    /// cancellation or the thread about to run the work — decides.
    private enum Fate { case waiting, claimed, cancelled }
    private let state = Mutex(State())

    init(_ work: @escaping @Sendable () throws -> T) { self.work = work }

    func start(_ continuation: CheckedContinuation<T, Error>) {
        state.withLock { $0.continuation = continuation }
    }

    func cancel() {
        state.withLock { if $0.fate == .waiting { $0.fate = .cancelled } }
    }

    func claim() -> Bool {
        state.withLock { state in
            if state.fate == .waiting { state.fate = .claimed }
            return state.fate == .claimed
        }
    }

    func run() -> Bool {
        let result = Result { try work() }
        state.withLock { $0.result = result }
        if case .failure = result { return false }
        return true
    }

    /// A read: run unless cancelled meanwhile, then resume.
    func runAlone() {
        guard claim() else { return finish(overriding: CancellationError()) }
        _ = run()  // the result, error or not, is kept for the caller
        finish(overriding: nil)
    }

    func finish(overriding error: Error?) {
        let (continuation, result) = state.withLock { state -> (CheckedContinuation<T, Error>?, Result<T, Error>?) in
            defer { state.continuation = nil }
            return (state.continuation, state.result)
        }
        if let error {
            continuation?.resume(throwing: error)
        } else {
            continuation?.resume(with: result ?? .failure(CancellationError()))
        }
    }
}

/// The writer thread and its queue: one ``WorkerThreads`` thread, taking up to the batch limit.
final class WriteBatcher: Sendable {
    private let threads: WorkerThreads<any BatchedWrite>

    init(maximumBatch: Int, execute: @escaping @Sendable ([any BatchedWrite]) -> Void) {
        threads = WorkerThreads(
            name: "pizzeria.writer", maximumThreads: 1, maximumBatch: maximumBatch, execute: execute)
    }

    /// Jobs enqueued and not yet run to their end.
    var unfinished: Int { threads.unfinished }

    func enqueue(_ job: any BatchedWrite) { threads.enqueue(contentsOf: [job]) }
}
