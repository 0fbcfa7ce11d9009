internal import CPizzeriaSQLite
import Foundation

/// The current row of a query. Valid only inside the closure or loop step that received it:
/// reading it later reads whatever row the statement is on then.
///
/// Columns are read by name: by a ``Column`` a ``RowDecoder`` resolved once for the statement
/// (the hot paths), or by the name itself (looked up in the statement's own column list).
///
/// ```swift
/// let count = try connection.fetchOne("SELECT count(*) AS n FROM pizzas") { try $0.int("n") }
/// ```
public struct Row {
    @usableFromInline let statement: Statement

    @usableFromInline
    init(statement: Statement) { self.statement = statement }

    /// The column called `name` in this row's statement.
    /// - Throws: ``DatabaseError/Kind/misuse`` when there is no such column, or two.
    public func column(_ name: String) throws -> Column { try statement.column(named: name) }

    /// Every result column, in the order of the `SELECT`: for code that shows whole rows
    /// (`SELECT *` dumps), not for decoders, which name their columns.
    public var columns: [Column] {
        (0..<sqlite3_column_count(statement.handle)).map { Column(index: $0) }
    }

    /// The column's name as the query spells it.
    public func name(of column: Column) -> String {
        String(cString: sqlite3_column_name(statement.handle, column.index))
    }

    /// Whether the column holds `NULL`.
    public func isNull(_ column: Column) -> Bool {
        sqlite3_column_type(statement.handle, column.index) == SQLITE_NULL
    }

    /// The column's value, whatever its type.
    public subscript(_ column: Column) -> DatabaseValue {
        let index = column.index
        switch sqlite3_column_type(statement.handle, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement.handle, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement.handle, index))
        case SQLITE_TEXT: return .text(readText(index))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement.handle, index))
            guard count > 0, let bytes = sqlite3_column_blob(statement.handle, index) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default: return .null
        }
    }

    /// The value of the column called `name`, whatever its type.
    /// - Throws: when there is no such column.
    public func value(_ name: String) throws -> DatabaseValue { self[try column(name)] }

    /// The column converted to `T`.
    /// - Throws: ``DatabaseError`` of kind ``DatabaseError/Kind/typeMismatch``.
    public func get<T: DatabaseValueConvertible>(_ column: Column, as type: T.Type = T.self) throws -> T {
        do {
            return try T(databaseValue: self[column])
        } catch let error as DatabaseError {
            throw DatabaseError.typeMismatch("column \(name(of: column)): \(error.message) in: \(statement.sql)")
        }
    }

    // MARK: - Fast typed readers
    // The stores read thousands of rows per call; these avoid building a `DatabaseValue`, and
    // read each column through its `sqlite3_value` — one column lookup for the type check and
    // the read, where `sqlite3_column_type` + `_text` + `_bytes` would repeat it (and its error
    // bookkeeping) three times. SQLite calls reading an unprotected value this way "not
    // threadsafe": a connection here is only ever used by the one thread it is lent to.

    /// The column's value object, valid until the statement steps or resets.
    @inline(__always)
    private func value(_ column: Column) -> OpaquePointer? {
        sqlite3_column_value(statement.handle, column.index)
    }

    /// An `INTEGER` column. - Throws: on `NULL` or another type.
    public func int64(_ column: Column) throws -> Int64 {
        let value = value(column)
        guard sqlite3_value_type(value) == SQLITE_INTEGER else { throw mismatch(column, expected: "INTEGER") }
        return sqlite3_value_int64(value)
    }

    /// An `INTEGER` column as `Int`. - Throws: on `NULL` or another type.
    @inlinable
    public func int(_ column: Column) throws -> Int { Int(try int64(column)) }

    /// A column whose type the schema itself guarantees — an `INTEGER NOT NULL` column of a
    /// `STRICT` table, which SQLite refuses to store anything else in — read without checking
    /// it again: for a decoder that reads such columns on every row of a hot path (the picker's
    /// `slot_loads`). Any other column is read with ``int64(_:)``, which checks.
    public func strictInteger(_ column: Column) -> Int {
        Int(sqlite3_column_int64(statement.handle, column.index))
    }

    /// A `TEXT` column. - Throws: on `NULL` or another type.
    public func string(_ column: Column) throws -> String {
        try withUTF8(column) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 bytes of a `TEXT` column, without building a `String`: for
    /// decoders of fixed formats (ids, timestamps) on hot paths. The bytes are valid only inside
    /// `body`. - Throws: on `NULL` or another type, or what `body` throws.
    @inlinable  // specialised where it is called: a generic closure call per row costs more than the read
    public func withUTF8<T>(_ column: Column, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) throws -> T {
        try body(try textBytes(column))
    }

    /// The UTF-8 bytes of a nullable `TEXT` column (`nil` for `NULL`), valid only until the
    /// statement moves on: for a decoder that parses them at once (one value lookup, where
    /// ``isNull(_:)`` and then ``withUTF8(_:_:)`` would take two).
    /// - Throws: on a type other than `TEXT` or `NULL`.
    public func optionalTextBytes(_ column: Column) throws -> UnsafeBufferPointer<UInt8>? {
        let value = value(column)
        switch sqlite3_value_type(value) {
        case SQLITE_NULL: return nil
        case SQLITE_TEXT:
            // Text first, then its length in those bytes (the order SQLite's documentation asks for).
            guard let bytes = sqlite3_value_text(value) else { return UnsafeBufferPointer(start: nil, count: 0) }
            return UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value)))
        default: throw mismatch(column, expected: "TEXT")
        }
    }

    /// The UTF-8 bytes of a `TEXT` column, valid until the statement moves (``withUTF8(_:_:)``).
    @usableFromInline
    func textBytes(_ column: Column) throws -> UnsafeBufferPointer<UInt8> {
        guard let bytes = try optionalTextBytes(column) else { throw mismatch(column, expected: "TEXT") }
        return bytes
    }

    /// A nullable `TEXT` column. - Throws: on another type.
    public func optionalString(_ column: Column) throws -> String? {
        // One value lookup for both questions (NULL? then the bytes), not a type check first.
        try optionalTextBytes(column).map { String(decoding: $0, as: UTF8.self) }
    }

    /// A nullable `INTEGER` column. - Throws: on another type.
    public func optionalInt64(_ column: Column) throws -> Int64? {
        let value = value(column)
        switch sqlite3_value_type(value) {
        case SQLITE_NULL: return nil
        case SQLITE_INTEGER: return sqlite3_value_int64(value)
        default: throw mismatch(column, expected: "INTEGER")
        }
    }

    /// A nullable `INTEGER` column as `Int`. - Throws: on another type.
    public func optionalInt(_ column: Column) throws -> Int? {
        try optionalInt64(column).map { Int($0) }
    }

    // MARK: - By name
    // For one-row and administrative queries; decoders of many rows resolve their columns once
    // (``RowDecoder``) instead of looking each name up per row.

    /// The `INTEGER` column called `name`. - Throws: on a missing column, `NULL` or another type.
    public func int64(_ name: String) throws -> Int64 { try int64(try column(name)) }
    /// The `INTEGER` column called `name` as `Int`.
    public func int(_ name: String) throws -> Int { try int(try column(name)) }
    /// The `TEXT` column called `name`.
    public func string(_ name: String) throws -> String { try string(try column(name)) }
    /// The nullable `TEXT` column called `name`.
    public func optionalString(_ name: String) throws -> String? { try optionalString(try column(name)) }
    /// The nullable `INTEGER` column called `name`.
    public func optionalInt64(_ name: String) throws -> Int64? { try optionalInt64(try column(name)) }

    private func mismatch(_ column: Column, expected type: String) -> DatabaseError {
        DatabaseError.typeMismatch(
            "column \(name(of: column)): expected \(type), found \(self[column].typeName) in: \(statement.sql)")
    }

    private func readText(_ index: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement.handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(statement.handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}

/// Iterates the rows of a query one at a time; nothing is loaded ahead.
///
/// Obtained from ``Connection/query(_:_:)``. The underlying statement is reset when the cursor
/// is exhausted or released, which ends its read snapshot.
public final class RowCursor {
    private let statement: Statement
    private var done = false

    init(statement: Statement) {
        self.statement = statement
        statement.isBusy = true
    }

    deinit { finish() }

    /// The next row, or `nil` after the last one.
    /// - Throws: ``DatabaseError`` when SQLite fails mid-query.
    public func next() throws -> Row? {
        guard !done else { return nil }
        do {
            if try statement.step() { return Row(statement: statement) }
        } catch {
            finish()
            throw error
        }
        finish()
        return nil
    }

    private func finish() {
        guard !done else { return }
        done = true
        statement.reset()
        statement.isBusy = false
    }
}
