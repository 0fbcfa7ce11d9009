internal import CPizzeriaSQLite

/// The one error type of the storage layer.
///
/// It carries SQLite's primary and extended result codes, SQLite's message and the SQL that
/// failed. Bound values are never part of it, so it is safe to log.
///
/// ```swift
/// do { try database.write { try $0.run("INSERT …", […]) } }
/// catch let error as DatabaseError where error.kind == .busy { /* retry later */ }
/// catch let error as DatabaseError where error.isConstraint { … }
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
        /// A value read from a row does not have the requested type.
        case typeMismatch
        /// Misuse of the API, such as a nested write transaction.
        case misuse
        /// Anything else SQLite reports.
        case other
    }

    /// The primary result code (`SQLITE_BUSY` is 5), or -1 for errors raised by this library.
    public let resultCode: Int32
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE` is 2067), or -1.
    public let extendedResultCode: Int32
    /// SQLite's message (`sqlite3_errmsg`), or this library's.
    public let message: String
    /// The SQL that failed, when there was one.
    public let sql: String?

    /// Creates an error from SQLite's codes.
    public init(extendedResultCode: Int32, message: String, sql: String? = nil) {
        self.resultCode = extendedResultCode & 0xFF
        self.extendedResultCode = extendedResultCode
        self.message = message
        self.sql = sql
    }

    private init(libraryMessage: String, kind: Kind) {
        self.resultCode = kind == .misuse ? SQLITE_MISUSE : -1
        self.extendedResultCode = self.resultCode
        self.message = libraryMessage
        self.sql = nil
    }

    /// A stored value that does not convert to the type a caller's ``DatabaseValueConvertible``
    /// asked for (`expected` describes it, such as "a UUID"); the value itself is not included.
    public static func typeMismatchValue(_ expected: String) -> DatabaseError {
        typeMismatch("expected \(expected)")
    }

    /// A value that does not have the type a caller asked for.
    static func typeMismatch(_ message: String) -> DatabaseError {
        DatabaseError(libraryMessage: message, kind: .typeMismatch)
    }

    /// A call this library refuses, such as a write transaction inside another one.
    static func misuse(_ message: String) -> DatabaseError {
        DatabaseError(libraryMessage: message, kind: .misuse)
    }

    /// This error, raised while rolling back after `cause`: the message names both.
    func afterFailure(_ cause: any Error) -> DatabaseError {
        DatabaseError(extendedResultCode: extendedResultCode,
                      message: "rolling back after \(cause) failed: \(message)", sql: sql)
    }

    /// A row the schema guarantees is missing (someone deleted it by hand).
    public static func missingRow(_ table: String) -> DatabaseError {
        DatabaseError(extendedResultCode: SQLITE_CORRUPT, message: "the required row of \(table) is missing")
    }

    /// The kind, derived from the primary result code.
    public var kind: Kind {
        switch resultCode {
        case -1: .typeMismatch
        case SQLITE_BUSY, SQLITE_LOCKED: .busy
        case SQLITE_CONSTRAINT: .constraint
        case SQLITE_NOTADB, SQLITE_CORRUPT: .notADatabase
        case SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_FULL, SQLITE_READONLY, SQLITE_PERM: .io
        case SQLITE_MISUSE: .misuse
        default: .other
        }
    }

    /// Whether the database was busy: another connection held the lock past the timeout.
    public var isBusy: Bool { kind == .busy }

    /// Whether a constraint refused the change.
    public var isConstraint: Bool { kind == .constraint }

    /// Whether the failure is a `UNIQUE` or `PRIMARY KEY` violation.
    public var isUniqueViolation: Bool {
        extendedResultCode == Self.constraintUnique || extendedResultCode == Self.constraintPrimaryKey
    }

    /// Whether the failure is a foreign key violation.
    public var isForeignKeyViolation: Bool { extendedResultCode == Self.constraintForeignKey }

    // Extended codes are C macros built with `|`, which Swift does not import.
    static let constraintForeignKey = SQLITE_CONSTRAINT | (3 << 8)
    static let constraintPrimaryKey = SQLITE_CONSTRAINT | (6 << 8)
    static let constraintUnique = SQLITE_CONSTRAINT | (8 << 8)
    static let constraintTrigger = SQLITE_CONSTRAINT | (7 << 8)

    /// Whether a trigger's `RAISE(ABORT, …)` refused the change (the message is the trigger's).
    public var isTriggerRefusal: Bool { extendedResultCode == Self.constraintTrigger }

    /// SQLite's name for the result code, such as `SQLITE_BUSY`.
    public var codeName: String {
        guard resultCode >= 0, let name = sqlite3_errstr(extendedResultCode) else { return "library error" }
        return String(cString: name)
    }

    /// `message (code N: name) in: SQL`, without bound values.
    public var description: String {
        var text = kind == .busy ? "database is busy: \(message)" : message
        if resultCode >= 0 { text += " (SQLite code \(extendedResultCode))" }
        if let sql { text += " in: \(sql)" }
        return text
    }
}
