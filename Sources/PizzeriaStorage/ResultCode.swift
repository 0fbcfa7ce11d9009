internal import CPizzeriaSQLite

/// A SQLite result code, primary (`SQLITE_CONSTRAINT`, 19) or extended
/// (`SQLITE_CONSTRAINT_UNIQUE`, 2067; <https://sqlite.org/rescode.html>).
///
/// A primary code used as a pattern matches its extended codes too, as in GRDB:
///
/// ```swift
/// switch error.code {
/// case .SQLITE_CONSTRAINT_UNIQUE?: …   // exactly this one
/// case .SQLITE_CONSTRAINT?: …          // any other constraint
/// default: …
/// }
/// ```
public struct ResultCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code's value.
    public let rawValue: Int32

    /// A code from its value.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code (the low byte of an extended one).
    public var primary: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

    /// Whether this is a primary code.
    public var isPrimary: Bool { rawValue == rawValue & 0xFF }

    /// A primary pattern matches its extended codes; an extended pattern matches only itself.
    public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
        pattern.isPrimary ? pattern == code.primary : pattern == code
    }

    /// A primary pattern matches an optional code holding one of its extended codes.
    public static func ~= (pattern: ResultCode, code: ResultCode?) -> Bool {
        code.map { pattern ~= $0 } ?? false
    }

    /// SQLite's English text for the code.
    public var description: String {
        sqlite3_errstr(rawValue).map { String(cString: $0) } ?? "SQLite code \(rawValue)"
    }

    // Primary codes.
    public static let SQLITE_ERROR = ResultCode(rawValue: CPizzeriaSQLite.SQLITE_ERROR)
    public static let SQLITE_PERM = ResultCode(rawValue: CPizzeriaSQLite.SQLITE_PERM)
    public static let SQLITE_ABORT = ResultCode(rawValue: CPizzeriaSQLite.SQLITE_ABORT)
    public static let SQLITE_BUSY = ResultCode(rawValue: CPizzeriaSQLite.SQLITE_BUSY)
    public static let SQLITE_LOCKED = ResultCode(rawValue: CPizzeriaSQLite.SQLITE_LOCKED)
    public static let SQLITE_NOMEM = ResultCode(rawValue: CPizzeriaSQLite.SQLITE_NOMEM)
    public static let SQLITE_READONLY = ResultCode(rawValue: CPizzeriaSQLite.SQLITE_READONLY)
    public static let SQLITE_INTERRUPT = ResultCode(rawValue: CPizzeriaSQLite.SQLITE_INTERRUPT)
    public static let SQLITE_IOERR = ResultCode(rawValue: CPizzeriaSQLite.SQLITE_IOERR)
    public static let SQLITE_CORRUPT = ResultCode(rawValue: CPizzeriaSQLite.SQLITE_CORRUPT)
    public static let SQLITE_FULL = ResultCode(rawValue: CPizzeriaSQLite.SQLITE_FULL)
    public static let SQLITE_CANTOPEN = ResultCode(rawValue: CPizzeriaSQLite.SQLITE_CANTOPEN)
    public static let SQLITE_CONSTRAINT = ResultCode(rawValue: CPizzeriaSQLite.SQLITE_CONSTRAINT)
    public static let SQLITE_MISMATCH = ResultCode(rawValue: CPizzeriaSQLite.SQLITE_MISMATCH)
    public static let SQLITE_MISUSE = ResultCode(rawValue: CPizzeriaSQLite.SQLITE_MISUSE)
    public static let SQLITE_NOTADB = ResultCode(rawValue: CPizzeriaSQLite.SQLITE_NOTADB)

    // Extended codes: C macros built with `|`, which Swift does not import.
    public static let SQLITE_CONSTRAINT_CHECK = ResultCode(rawValue: CPizzeriaSQLite.SQLITE_CONSTRAINT | (1 << 8))
    public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode(rawValue: CPizzeriaSQLite.SQLITE_CONSTRAINT | (3 << 8))
    public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode(rawValue: CPizzeriaSQLite.SQLITE_CONSTRAINT | (5 << 8))
    public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode(rawValue: CPizzeriaSQLite.SQLITE_CONSTRAINT | (6 << 8))
    public static let SQLITE_CONSTRAINT_TRIGGER = ResultCode(rawValue: CPizzeriaSQLite.SQLITE_CONSTRAINT | (7 << 8))
    public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode(rawValue: CPizzeriaSQLite.SQLITE_CONSTRAINT | (8 << 8))
    public static let SQLITE_READONLY_DBMOVED = ResultCode(rawValue: CPizzeriaSQLite.SQLITE_READONLY | (4 << 8))
    public static let SQLITE_BUSY_SNAPSHOT = ResultCode(rawValue: CPizzeriaSQLite.SQLITE_BUSY | (2 << 8))
}
