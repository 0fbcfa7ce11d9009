import Foundation
import Synchronization

/// Makes the writer thread's commits durable off the writer thread, so that the next batch runs
/// while the device flushes the last one (pipelined group commit).
///
/// With durable commits (`synchronous=FULL`) a batch's `COMMIT` writes its WAL frames and then
/// waits for the device's flush before the writer can start the next batch: on a device whose
/// flush takes milliseconds, the writer spends most of its time waiting. Instead, the writer
/// thread commits a batch with `synchronous=NORMAL` — the frames are written, nothing is synced
/// — and hands the batch's jobs to this syncer, which syncs the WAL file (`fdatasync`) and only
/// then resumes their callers. Every frame a commit wrote is in the file before the commit
/// returns, so one sync that starts after a batch's commit makes that batch durable, and every
/// batch committed before it: one sync covers all the batches the writer committed while the
/// previous sync ran (and up to ``maximumConcurrentSyncs`` syncs run at once, so a batch need
/// not wait for a sync that began before it). A caller is still resumed only once its write is on the device: what
/// ``Database/perform(_:_:)`` acknowledges survives power loss, as before.
///
/// What changes: another connection can read a batch's rows between its commit and its sync
/// (a few milliseconds). Their writers have not been told "done" yet, and a power loss in that
/// window loses them; anything written later that depends on them is synced after them (one
/// WAL, synced in order), so it cannot outlive them. The first sync of a new WAL file also syncs
/// its directory, as SQLite does for a file it creates.
final class CommitSyncer: Sendable {
    /// The most syncs in flight at once. A batch committed while a sync runs need not wait for
    /// it to end: on a device that takes several flushes at once (network block storage) its
    /// sync starts at once; on one that takes them one at a time, the extra syncs simply queue
    /// in the kernel and cost nothing but a thread.
    static let maximumConcurrentSyncs = 4
    private let wal: WALSync
    /// The syncer threads: each takes every job queued, syncs, then resumes them.
    private let threads: WorkerThreads<any BatchedWrite>
    /// Syncs made, for ``Database/groupCommitStatistics``.
    var syncs: Int { wal.syncs.load(ordering: .relaxed) }

    init(walPath: String) {
        let wal = WALSync(path: walPath)
        self.wal = wal
        // Every job a thread takes was committed before its sync starts.
        threads = WorkerThreads(name: "pizzeria.syncer", maximumThreads: Self.maximumConcurrentSyncs) { jobs in
            let failure = wal.sync()
            for job in jobs { job.finish(overriding: failure) }
        }
    }

    /// Resumes `jobs` once a sync that starts after this call has made the WAL durable.
    func submit(_ jobs: [any BatchedWrite]) { threads.enqueue(contentsOf: jobs) }
}

/// The WAL file's syncs: its data each time, its directory the first time for each new file.
private final class WALSync: Sendable {
    private let path: String
    /// The WAL file (device and inode) whose directory entry was last made durable.
    private let syncedFile = Mutex<(device: UInt64, inode: UInt64)?>(nil)
    let syncs = Atomic<Int>(0)

    init(path: String) { self.path = path }

    /// Syncs the WAL file's data (and, the first time for a new file, its directory). The file
    /// is opened for each sync: a descriptor kept open could outlive the file it names.
    func sync() -> DatabaseError? {
        defer { syncs.add(1, ordering: .relaxed) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return Self.failure("open", errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return Self.failure("fstat", errno) }
        let file = (device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        let known = syncedFile.withLock { $0.map { $0 == file } ?? false }
        if !known {
            // A WAL file not synced yet: make its directory entry durable too.
            let directory = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_CLOEXEC)
            guard directory >= 0 else { return Self.failure("open the directory of", errno) }
            defer { close(directory) }
            guard fsync(directory) == 0 else { return Self.failure("sync the directory of", errno) }
            syncedFile.withLock { $0 = file }
        }
        guard fdatasync(descriptor) == 0 else { return Self.failure("sync", errno) }
        return nil
    }

    private static func failure(_ action: String, _ code: Int32) -> DatabaseError {
        DatabaseError(
            code: .SQLITE_IOERR, kind: .io,
            message: "could not \(action) the WAL to make a commit durable: \(String(cString: strerror(code)))")
    }
}
