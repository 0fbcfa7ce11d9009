internal import CPizzeriaSQLite

/// The one error type of the storage layer.
///
/// It carries SQLite's result code (extended, matchable by its primary code), SQLite's message
/// and the SQL that failed. Bound values are never part of it, so it is safe to log. A failure
/// this library raises itself carries the SQLite code that means the same (`SQLITE_MISUSE`,
/// `SQLITE_MISMATCH`), or none when SQLite has no such code (``Kind/walUnavailable``).
///
/// ```swift
/// do { try database.write { try $0.run("INSERT …", […]) } }
/// catch let error as DatabaseError where error.code == .SQLITE_BUSY { /* retry later */ }
/// catch let error as DatabaseError where error.constraint == .unique(table: "users", columns: ["handle"]) { … }
/// ```
public struct DatabaseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is, for callers that react differently to each.
    public enum Kind: Sendable, Equatable {
        /// The database stayed locked by another connection longer than the busy timeout.
        case busy
        /// A `CHECK`, `UNIQUE`, `NOT NULL`, foreign key or trigger `RAISE` refused the change.
        case constraint
        /// The file is not a SQLite database, or is damaged.
        case notADatabase
        /// The file could not be opened, read or written (permissions, disk full, I/O error).
        case io
        /// The file cannot be put in write-ahead-log mode (its directory is not writable, or the
        /// file system cannot share memory between processes).
        case walUnavailable
        /// A value read from a row does not have the requested type.
        case typeMismatch
        /// Misuse of the API, such as a nested write transaction.
        case misuse
        /// Anything else SQLite reports.
        case other
    }

    /// SQLite's extended result code (`SQLITE_CONSTRAINT_UNIQUE`), or `nil` for a failure SQLite
    /// has no code for (see ``kind``).
    public let code: ResultCode?
    /// What kind of failure this is.
    public let kind: Kind
    /// SQLite's message (`sqlite3_errmsg`), or this library's.
    public let message: String
    /// The SQL that failed, when there was one.
    public let sql: String?

    /// An error SQLite reported with `extendedResultCode`.
    public init(extendedResultCode: Int32, message: String, sql: String? = nil) {
        let code = ResultCode(rawValue: extendedResultCode)
        self.init(code: code, kind: Self.kind(of: code), message: message, sql: sql)
    }

    /// An error from its parts.
    init(code: ResultCode?, kind: Kind, message: String, sql: String? = nil) {
        self.code = code
        self.kind = kind
        self.message = message
        self.sql = sql
    }

    /// A stored value that does not convert to the type a caller's ``DatabaseValueConvertible``
    /// asked for (`expected` describes it, such as "a UUID"); the value itself is not included.
    public static func typeMismatchValue(_ expected: String) -> DatabaseError {
        typeMismatch("expected \(expected)")
    }

    /// A value that does not have the type a caller asked for (SQLite's own code for it).
    static func typeMismatch(_ message: String) -> DatabaseError {
        DatabaseError(code: .SQLITE_MISMATCH, kind: .typeMismatch, message: message)
    }

    /// A call this library refuses, such as a write transaction inside another one.
    @usableFromInline
    static func misuse(_ message: String) -> DatabaseError {
        DatabaseError(code: .SQLITE_MISUSE, kind: .misuse, message: message)
    }

    /// This error, raised while rolling back after `cause`: the message names both.
    func afterFailure(_ cause: any Error) -> DatabaseError {
        DatabaseError(code: code, kind: kind, message: "rolling back after \(cause) failed: \(message)", sql: sql)
    }

    /// The kind of a SQLite result code, by its primary code.
    private static func kind(of code: ResultCode) -> Kind {
        switch code.primary {
        case .SQLITE_BUSY, .SQLITE_LOCKED: .busy
        case .SQLITE_CONSTRAINT: .constraint
        case .SQLITE_NOTADB, .SQLITE_CORRUPT: .notADatabase
        case .SQLITE_IOERR, .SQLITE_CANTOPEN, .SQLITE_FULL, .SQLITE_READONLY, .SQLITE_PERM: .io
        case .SQLITE_MISUSE: .misuse
        case .SQLITE_MISMATCH: .typeMismatch
        default: .other
        }
    }

    /// Whether the database was busy: another connection held the lock past the timeout.
    public var isBusy: Bool { kind == .busy }

    /// Whether a constraint refused the change.
    public var isConstraint: Bool { kind == .constraint }

    /// Which constraint refused the change, by its extended code and the table and columns
    /// SQLite names; `nil` for any other failure.
    public var constraint: Constraint? {
        guard kind == .constraint, let code else { return nil }
        return Constraint(code: code, message: message)
    }

    /// Whether a trigger of this schema refused the change with this token (`route_not_owned`).
    public func isRefusal(_ token: String) -> Bool {
        if case .trigger(token, _)? = constraint { return true }
        return false
    }

    /// SQLite's name for the result code, such as `SQLITE_BUSY`.
    public var codeName: String {
        guard let code, let name = sqlite3_errstr(code.rawValue) else { return "library error" }
        return String(cString: name)
    }

    /// `message (SQLite code N) in: SQL`, without bound values.
    public var description: String {
        var text = kind == .busy ? "database is busy: \(message)" : message
        if let code { text += " (SQLite code \(code.rawValue))" }
        if let sql { text += " in: \(sql)" }
        return text
    }
}
