internal import CPizzeriaSQLite
import Foundation

/// Checks on a database file made before SQLite touches it.
enum DatabaseFile {
    /// The 16 bytes every SQLite 3 database file starts with (<https://sqlite.org/fileformat.html>).
    static let header = Array("SQLite format 3\0".utf8)

    /// Whether something exists at `path`.
    static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }

    /// Creates an empty file readable and writable by its owner only (0600).
    ///
    /// SQLite would create the file with 0644 less the umask; an empty file is a valid new
    /// database, and SQLite gives its `-wal` and `-shm` files the same mode as the database.
    static func createPrivate(_ path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 {
            if errno == EEXIST { return }
            throw DatabaseError(extendedResultCode: SQLITE_CANTOPEN,
                                message: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        close(fd)
    }

    /// Throws unless the file is empty or starts with the SQLite header.
    ///
    /// SQLite itself notices only at the first read, and by then a caller may have asked for a
    /// write; checking the bytes first guarantees a foreign file is never modified.
    static func requireSQLiteOrEmpty(_ path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw DatabaseError(extendedResultCode: SQLITE_CANTOPEN, message: "cannot read \(path)")
        }
        defer { try? handle.close() }
        let prefix = (try? handle.read(upToCount: header.count)) ?? Data()
        guard prefix.isEmpty || Array(prefix) == header else {
            throw DatabaseError(extendedResultCode: SQLITE_NOTADB, message: "\(path) is not a SQLite database")
        }
    }
}
