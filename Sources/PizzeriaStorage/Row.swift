internal import CPizzeriaSQLite
import Foundation

/// The current row of a query. Valid only inside the closure or loop step that received it:
/// reading it later reads whatever row the statement is on then.
///
/// Columns are numbered from 0, in the order of the `SELECT`.
///
/// ```swift
/// let names = try connection.fetchAll("SELECT name, price_cents FROM pizzas") { row in
///     (try row.string(0), try row.int64(1))
/// }
/// ```
public struct Row {
    let statement: Statement

    /// The number of columns.
    public var count: Int { Int(sqlite3_column_count(statement.handle)) }

    /// The column's name as the query spells it.
    public func columnName(_ index: Int) -> String {
        String(cString: sqlite3_column_name(statement.handle, Int32(index)))
    }

    /// Whether the column holds `NULL`.
    public func isNull(_ index: Int) -> Bool {
        sqlite3_column_type(statement.handle, Int32(index)) == SQLITE_NULL
    }

    /// The column's value, whatever its type.
    public subscript(_ index: Int) -> DatabaseValue {
        let column = Int32(index)
        switch sqlite3_column_type(statement.handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement.handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement.handle, column))
        case SQLITE_TEXT: return .text(readText(column))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement.handle, column))
            guard count > 0, let bytes = sqlite3_column_blob(statement.handle, column) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default: return .null
        }
    }

    /// The column converted to `T`.
    /// - Throws: ``DatabaseError`` of kind ``DatabaseError/Kind/typeMismatch``.
    public func get<T: DatabaseValueConvertible>(_ index: Int, as type: T.Type = T.self) throws -> T {
        do {
            return try T(databaseValue: self[index])
        } catch let error as DatabaseError {
            throw DatabaseError.typeMismatch("column \(index) (\(columnName(index))): \(error.message) in: \(statement.sql)")
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
    private func value(_ index: Int) -> OpaquePointer? {
        sqlite3_column_value(statement.handle, Int32(index))
    }

    /// An `INTEGER` column. - Throws: on `NULL` or another type.
    public func int64(_ index: Int) throws -> Int64 {
        let value = value(index)
        guard sqlite3_value_type(value) == SQLITE_INTEGER else { throw mismatch(index, expected: "INTEGER") }
        return sqlite3_value_int64(value)
    }

    /// An `INTEGER` column as `Int`. - Throws: on `NULL` or another type.
    public func int(_ index: Int) throws -> Int { Int(try int64(index)) }

    /// A `TEXT` column. - Throws: on `NULL` or another type.
    public func string(_ index: Int) throws -> String {
        try withUTF8(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 bytes of a `TEXT` column, without building a `String`: for
    /// decoders of fixed formats (ids, timestamps) on hot paths. The bytes are valid only inside
    /// `body`. - Throws: on `NULL` or another type, or what `body` throws.
    public func withUTF8<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) throws -> T {
        let value = value(index)
        guard sqlite3_value_type(value) == SQLITE_TEXT else { throw mismatch(index, expected: "TEXT") }
        // Text first, then its length in those bytes (the order SQLite's documentation asks for).
        guard let bytes = sqlite3_value_text(value) else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value))))
    }

    /// A nullable `TEXT` column. - Throws: on another type.
    public func optionalString(_ index: Int) throws -> String? {
        isNull(index) ? nil : try string(index)
    }

    /// A nullable `INTEGER` column. - Throws: on another type.
    public func optionalInt64(_ index: Int) throws -> Int64? {
        isNull(index) ? nil : try int64(index)
    }

    private func mismatch(_ index: Int, expected name: String) -> DatabaseError {
        DatabaseError.typeMismatch("column \(index) (\(columnName(index))): expected \(name), found \(self[index].typeName) in: \(statement.sql)")
    }

    private func readText(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement.handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement.handle, column))
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
