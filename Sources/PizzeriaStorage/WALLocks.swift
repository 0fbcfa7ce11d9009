import Foundation

/// Which other processes hold SQLite's WAL locks on a database, read from `/proc/locks`.
///
/// In WAL mode SQLite takes POSIX advisory locks on bytes of the `-shm` file
/// (<https://sqlite.org/walformat.html#the_wal_index_file_format>): byte 120 is the write lock,
/// 121 the checkpoint lock, 123–127 the five reader slots (a reader in a transaction holds one of
/// them shared: slot 0 when it reads the database file alone, slots 1–4 with a WAL snapshot). Linux lists every such lock, with its owner's pid, in `/proc/locks`.
///
/// Reading that list never opens the `-shm` file. That matters: closing any descriptor of a file
/// drops every POSIX lock the process holds on it, SQLite's included
/// (<https://sqlite.org/howtocorrupt.html#_posix_advisory_locks_canceled_by_a_separate_thread_doing_close_>).
///
/// Locks held by this process are not listed as other processes' locks: in-process writers are
/// serialized by ``Database`` itself.
struct WALLocks: Sendable, Equatable {
    /// The pid of another process holding the write lock, if one does.
    var writer: Int32?
    /// The pid of another process holding the checkpoint lock, if one does.
    var checkpointer: Int32?
    /// Other processes in a read transaction (any reader slot): each may keep a checkpoint from
    /// copying, or restarting, the WAL past its snapshot (a reader on slot 0 reads the database
    /// file itself, so no frame may be copied into it until that reader ends).
    var readers: [Int32] = []

    static let writeLockByte = 120
    static let checkpointLockByte = 121
    static let readerBytes = 123...127

    /// The locks on the `-shm` file beside `databasePath`, or `nil` when they cannot be known
    /// (no `-shm` file, or no `/proc/locks` on this system).
    static func read(databasePath: String) -> WALLocks? {
        var status = stat()
        guard stat(databasePath + "-shm", &status) == 0 else { return nil }
        let table: String
        do {
            table = try String(contentsOfFile: "/proc/locks", encoding: .utf8)
        } catch {
            // No /proc/locks (another system, or /proc not mounted): the locks cannot be known.
            // Every caller takes `nil` as "someone may be writing", the cautious answer — the
            // checkpoint waits for the write lock rather than run without it — so there is
            // nothing more in the error to act on.
            return nil
        }
        let device = "\(hex(UInt(major(status.st_dev)))):\(hex(UInt(minor(status.st_dev)))):\(status.st_ino)"
        return parse(table, device: device, ownPID: getpid())
    }

    /// Parses `/proc/locks` lines such as `3: POSIX  ADVISORY  WRITE 3341 fe:00:16221281 120 120`,
    /// keeping other processes' locks on `device` (`major:minor:inode`, numbers in hex but the
    /// inode). Blocked requests (`->`) are not locks and are skipped.
    static func parse(_ table: String, device: String, ownPID: Int32) -> WALLocks {
        var locks = WALLocks()
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 8, fields[1] != "->", fields[5] == device,
                let pid = Int32(fields[4]), pid != ownPID, pid > 0,
                let start = Int(fields[6])
            else { continue }
            let end = Int(fields[7]) ?? Int.max  // "EOF"
            let exclusive = fields[3] == "WRITE"
            if exclusive, (start...end).contains(writeLockByte) { locks.writer = pid }
            if exclusive, (start...end).contains(checkpointLockByte) { locks.checkpointer = pid }
            if !exclusive, readerBytes.overlaps(start...end), !locks.readers.contains(pid) { locks.readers.append(pid) }
        }
        return locks
    }

    /// Major and minor device numbers as `/proc/locks` writes them: lowercase hex, two digits
    /// at least.
    private static func hex(_ value: UInt) -> String {
        let text = String(value, radix: 16)
        return text.count < 2 ? "0" + text : text
    }

    // glibc's gnu_dev_major and gnu_dev_minor, which Swift does not import (they are macros).
    private static func major(_ device: dev_t) -> UInt32 {
        UInt32(truncatingIfNeeded: (device >> 8) & 0xfff) | UInt32(truncatingIfNeeded: (device >> 32) & ~0xfff)
    }
    private static func minor(_ device: dev_t) -> UInt32 {
        UInt32(truncatingIfNeeded: device & 0xff) | UInt32(truncatingIfNeeded: (device >> 12) & ~0xff)
    }
}
