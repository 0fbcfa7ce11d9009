/// One result column of a prepared statement, resolved from its name.
///
/// Obtained from a ``ColumnResolver`` (inside ``RowDecoder/init(columns:)``) or from
/// ``Statement/column(named:)``; valid for the statement it came from.
public struct Column: Sendable, Hashable {
    /// The column's position in the statement's result, from 0.
    public let index: Int32
}

/// Resolves column names to the ``Column``s of one prepared statement.
public struct ColumnResolver {
    let statement: Statement

    /// The column called `name`.
    /// - Throws: ``DatabaseError/Kind/misuse`` naming the column and the SQL when the statement
    ///   has no such column or two of them.
    public func callAsFunction(_ name: String) throws -> Column {
        try statement.column(named: name)
    }

    /// The column called `name`, or `nil` when the statement does not select it (for a decoder
    /// shared by queries of which only some select an extra column).
    public func optional(_ name: String) throws -> Column? {
        try statement.columnIfPresent(named: name)
    }
}

/// Decodes one model from a row, reading its columns by name.
///
/// The names are resolved to indexes once per prepared statement (``init(columns:)``) and the
/// decoder is kept with the cached statement, so decoding a row costs what reading its columns
/// by position costs — without offsets that drift when a query's column list changes. One
/// decoder per model is shared by every query that returns the model; a query that lacks one of
/// the decoder's columns fails on its first use, naming the column.
///
/// ```swift
/// struct UserDecoder: RowDecoder {
///     let id, handle: Column
///     init(columns: ColumnResolver) throws {
///         id = try columns("id")
///         handle = try columns("handle")
///     }
///     func decode(_ row: Row) throws -> (String, String) {
///         (try row.string(id), try row.string(handle))
///     }
/// }
/// let users = try db.fetchAll("SELECT id, handle FROM users", [], UserDecoder.self)
/// ```
public protocol RowDecoder {
    /// What one row decodes to.
    associatedtype Value
    /// Resolves the columns this decoder reads.
    /// - Throws: when the statement lacks one of them.
    init(columns: ColumnResolver) throws
    /// Decodes the current row.
    func decode(_ row: Row) throws -> Value
}
