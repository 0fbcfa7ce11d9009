internal import CPizzeriaSQLite
import Foundation

/// Checks on a database file made before SQLite touches it.
///
/// Nothing here opens the database file or its companions: closing any descriptor of a file
/// drops every POSIX lock this process holds on it, SQLite's included
/// (<https://sqlite.org/howtocorrupt.html#_posix_advisory_locks_canceled_by_a_separate_thread_doing_close_>).
/// Only `stat`, `chmod` and (for a new file) an exclusive create are used.
enum DatabaseFile {
    /// The file's companions in WAL and rollback modes.
    static let companionSuffixes = ["-wal", "-shm", "-journal"]

    /// What is at a path.
    enum State: Equatable {
        /// Nothing, and no symbolic link either.
        case missing
        /// A symbolic link whose target does not exist.
        case danglingLink
        /// A regular file (after following links).
        case regular(stat)
        /// Something else: a directory, FIFO, socket or device (after following links).
        case notRegular(kind: String)

        static func == (lhs: State, rhs: State) -> Bool {
            switch (lhs, rhs) {
            case (.missing, .missing), (.danglingLink, .danglingLink): true
            case (.regular(let a), .regular(let b)): a.st_dev == b.st_dev && a.st_ino == b.st_ino
            case (.notRegular(let a), .notRegular(let b)): a == b
            default: false
            }
        }
    }

    static func state(_ path: String) -> State {
        var status = stat()
        if stat(path, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFREG: return .regular(status)
            case S_IFDIR: return .notRegular(kind: "a directory")
            case S_IFIFO: return .notRegular(kind: "a FIFO")
            case S_IFSOCK: return .notRegular(kind: "a socket")
            case S_IFCHR: return .notRegular(kind: "a character device")
            case S_IFBLK: return .notRegular(kind: "a block device")
            default: return .notRegular(kind: "not a regular file")
            }
        }
        var link = stat()
        return lstat(path, &link) == 0 ? .danglingLink : .missing
    }

    /// Whether something (even a dangling link) is at `path`.
    static func exists(_ path: String) -> Bool { state(path) != .missing }

    /// The regular file at `path`, creating it (empty, mode 0600) when it is missing and `create`
    /// is set.
    /// - Throws: ``DatabaseError`` of kind ``DatabaseError/Kind/notADatabase`` for anything that is
    ///   not a regular file, or a link to nothing (nothing is created through it); of kind
    ///   ``DatabaseError/Kind/io`` when it is missing and `create` is not set.
    static func requireRegularFile(_ path: String, create: Bool) throws -> stat {
        switch state(path) {
        case .regular(let status):
            // /proc and /sys files say they are regular and empty — an empty file is a valid
            // new database to SQLite — yet their contents come from the kernel.
            if status.st_size == 0, isKernelPseudoFile(path) {
                throw DatabaseError(
                    extendedResultCode: SQLITE_NOTADB,
                    message: "\(path) is a file of the kernel (/proc, /sys), not a database file")
            }
            return status
        case .notRegular(let kind):
            throw DatabaseError(extendedResultCode: SQLITE_NOTADB, message: "\(path) is \(kind), not a database file")
        case .danglingLink:
            throw DatabaseError(
                extendedResultCode: SQLITE_NOTADB,
                message:
                    "\(path) is a symbolic link to a file that does not exist; refusing to create a database through it"
            )
        case .missing:
            guard create else {
                throw DatabaseError(extendedResultCode: SQLITE_CANTOPEN, message: "no database file at \(path)")
            }
            try createPrivate(path)
            return try requireRegularFile(path, create: false)
        }
    }

    /// Whether `path` is on a file system whose files the kernel makes up (procfs, sysfs and
    /// kin), asked without opening it (closing a descriptor of a database this process has
    /// open would drop SQLite's locks on it).
    private static func isKernelPseudoFile(_ path: String) -> Bool {
        let pseudo: Set<Int> = [
            0x9FA0, 0x6265_6572, 0x6462_6720, 0x7472_6163, 0x7363_6673, 0x0027_E0EB, 0x6367_7270, 0x6265_6570,
        ]
        return pseudo.contains(pizzeria_file_system_type(path))
    }

    /// Creates an empty file readable and writable by its owner only (0600). A file created
    /// meanwhile by someone else is left as it is.
    ///
    /// SQLite would create the file with 0644 less the umask; an empty file is a valid new
    /// database, and SQLite gives its `-wal` and `-shm` files the same mode as the database.
    /// `O_EXCL` also refuses to follow a symbolic link.
    private static func createPrivate(_ path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 {
            if errno == EEXIST { return }
            throw DatabaseError(
                extendedResultCode: SQLITE_CANTOPEN,
                message: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        // Nothing holds a lock on a file that did not exist a moment ago: closing is safe.
        close(fd)
    }

    /// Why this process cannot write the database, or `nil` when it can.
    ///
    /// Writing a WAL database takes more than a writable file: SQLite creates the `-wal` and
    /// `-shm` files beside it (and deletes the `-wal` on the last close), so a directory this
    /// process cannot write makes a writable file unusable read-write — every statement, even
    /// a read, would fail with "attempt to write a readonly database". Such a file is opened to
    /// read instead, like a file this process cannot write.
    static func writeObstacle(_ path: String) -> String? {
        guard access(path, W_OK) == 0 else { return "the file is not writable by this user" }
        let directory = (path as NSString).deletingLastPathComponent
        if access(directory.isEmpty ? "." : directory, W_OK | X_OK) == 0 { return nil }
        // Companions a previous writer left behind can still be used where they are.
        if ["-wal", "-shm"].allSatisfy({ access(path + $0, R_OK | W_OK) == 0 }) { return nil }
        return
            "its directory is not writable by this user, so SQLite cannot create the -wal and -shm files a write needs"
    }

    /// Whether none of the `-wal`, `-shm` and `-journal` files exist.
    static func hasNoCompanions(_ path: String) -> Bool {
        companionSuffixes.allSatisfy { state(path + $0) == .missing }
    }

    /// Gives existing `-wal` and `-shm` files the database's permission bits.
    ///
    /// SQLite creates them with the database's mode; a database that was read-only (0400) when
    /// someone opened it leaves read-only companions behind, and once the database is writable
    /// again every write fails with "attempt to write a readonly database". Only the owner (or
    /// root) can change them; other users are left with SQLite's own error.
    static func alignCompanionModes(with database: stat, path: String) {
        let wanted = database.st_mode & 0o777
        for suffix in ["-wal", "-shm"] {
            guard case .regular(let companion) = state(path + suffix),
                companion.st_mode & 0o777 != wanted,
                geteuid() == 0 || geteuid() == companion.st_uid
            else { continue }
            // A failure leaves SQLite to report the unwritable file at the first write.
            _ = chmod(path + suffix, wanted)
        }
    }
}
