internal import CPizzeriaSQLite
import Foundation
import Synchronization

/// The temporary file a backup is written to before it is linked into place, and the removal
/// of those a killed backup left behind.
///
/// SQLite writes the copy by name, so it cannot be an unnamed (`O_TMPFILE`) file: it is
/// `.NAME.XXXXXX.partial` beside the destination (a link must stay on one file system). While
/// a backup runs, its process holds an exclusive `flock` on that file through a descriptor of
/// its own. `flock` locks belong to the open file description and are released by the kernel
/// when the process dies, however it dies — and they are independent of the `fcntl` locks
/// SQLite takes, so SQLite closing its own descriptors never drops them. A `.partial` whose lock
/// can be taken therefore belongs to no living backup, and the next backup into the directory
/// removes it (and a `-journal` beside it, which backups before this one wrote).
struct BackupFile {
    /// The temporary file's path.
    let path: String
    /// The descriptor holding the `flock`.
    private let lockDescriptor: Int32

    /// This process's own temporary files: never taken for abandoned (opening and closing
    /// one here would drop the `fcntl` locks SQLite holds on it in this process).
    private static let live = Mutex<Set<String>>([])

    private static let suffix = ".partial"

    /// Creates `.NAME.XXXXXX.partial` (mode 0600) beside `destination` and locks it.
    init(beside destination: String) throws {
        let url = URL(fileURLWithPath: destination)
        let directory = url.deletingLastPathComponent().path
        for _ in 0..<8 {
            var template = Array(
                (directory as NSString).appendingPathComponent(".\(url.lastPathComponent).XXXXXX\(Self.suffix)")
                    .utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { buffer in
                buffer.baseAddress.map { mkstemps($0, Int32(Self.suffix.utf8.count)) } ?? -1
            }
            guard fd >= 0 else {
                throw Self.failure("cannot create a file beside \(destination)", code: SQLITE_CANTOPEN)
            }
            let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            // Another backup's clean-up may have found the file in the instant before the lock
            // and removed it: only a locked file that is still the one at `path` will do.
            if flock(fd, LOCK_EX | LOCK_NB) == 0, Self.isSameFile(fd, path) {
                Self.live.withLock { _ = $0.insert(path) }
                self.path = path
                self.lockDescriptor = fd
                return
            }
            close(fd)
        }
        throw DatabaseError(
            extendedResultCode: SQLITE_CANTOPEN,
            message: "cannot create a temporary file beside \(destination) that stays in place")
    }

    /// Removes the file (and any companion SQLite made) and releases the lock; once.
    func remove() {
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path + suffix) }
        Self.live.withLock { _ = $0.remove(path) }
        close(lockDescriptor)
    }

    /// `fsync` of the copy, once no connection has it open any more.
    func sync() throws {
        guard fsync(lockDescriptor) == 0 else { throw Self.failure("cannot sync \(path)") }
    }

    /// Removes the temporary files of backups that died in `destination`'s directory: every
    /// `.*.XXXXXX.partial` no living process holds the lock of, and a `-journal` beside it.
    /// Best effort: a file it cannot open or remove (another user's) is left alone.
    static func removeAbandoned(beside destination: String) {
        let directory = URL(fileURLWithPath: destination).deletingLastPathComponent().path
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            // A directory this user may write but not list (mode 0300) still takes a backup:
            // nothing is cleaned, and creating the temporary file reports any real problem.
            return
        }
        let ours = live.withLock { $0 }
        for name in names where isTemporaryName(name) {
            let path = (directory as NSString).appendingPathComponent(name)
            guard !ours.contains(path) else { continue }
            let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            guard fd >= 0 else { continue }
            // The lock is held while the file is removed: a backup still starting cannot
            // mistake a removed file for its own (it checks the path after locking).
            if flock(fd, LOCK_EX | LOCK_NB) == 0, isSameFile(fd, path) {
                unlink(path + "-journal")
                unlink(path)
            }
            close(fd)
        }
        // Journals whose partial is already gone.
        for name in names
        where name.hasSuffix(suffix + "-journal") && isTemporaryName(String(name.dropLast("-journal".count))) {
            let path = (directory as NSString).appendingPathComponent(name)
            let partial = String(path.dropLast("-journal".count))
            if !ours.contains(partial), access(partial, F_OK) != 0 { unlink(path) }
        }
    }

    /// `.NAME.XXXXXX.partial`, as ``init(beside:)`` makes them.
    static func isTemporaryName(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(suffix) else { return false }
        let stem = name.dropLast(suffix.count)
        guard let dot = stem.lastIndex(of: "."), dot > stem.startIndex else { return false }
        let random = stem[stem.index(after: dot)...]
        return random.utf8.count == 6
            && random.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            }
    }

    /// Whether the open descriptor is the file now at `path`.
    private static func isSameFile(_ fd: Int32, _ path: String) -> Bool {
        var open = stat(), named = stat()
        guard fstat(fd, &open) == 0, lstat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    /// `fsync` of the directory, so the new name survives power loss too.
    static func syncDirectory(of path: String) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let fd = open(directory, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("cannot open \(directory) to sync it") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw failure("cannot sync \(directory)") }
    }

    private static func failure(_ message: String, code: Int32 = SQLITE_IOERR) -> DatabaseError {
        DatabaseError(extendedResultCode: code, message: "\(message): \(String(cString: strerror(errno)))")
    }
}
