/// The rows of one bound statement, decoded one at a time as the caller asks: a cursor that
/// allocates nothing, for a walk that steps a query only as far as it needs (the picker).
///
/// Obtained inside ``Connection/withRows(_:_:_:_:)`` and valid only inside its closure: the
/// statement is reset when the closure returns.
public struct RowStream<D: RowDecoder> {
    @usableFromInline let statement: Statement
    /// The decoder bound to the statement's columns (resolved once per prepared statement).
    public let decoder: D
    @usableFromInline var done = false

    @usableFromInline
    init(statement: Statement, decoder: D) { (self.statement, self.decoder) = (statement, decoder) }

    /// The next row decoded, or `nil` after the last one.
    /// - Throws: ``DatabaseError`` when SQLite fails mid-query.
    @inlinable
    public mutating func next() throws -> D.Value? {
        guard try step() else { return nil }
        return try decoder.decode(Row(statement: statement))
    }

    /// Moves to the next row without decoding it: `false` after the last one. For a caller
    /// that looks at a row (``row``) before deciding to decode it with ``decoder`` — the menu
    /// read matches each variant to its item by the bytes of their ids, not by parsing them.
    /// - Throws: ``DatabaseError`` when SQLite fails mid-query.
    @inlinable
    public mutating func step() throws -> Bool {
        guard !done else { return false }
        guard try statement.step() else {
            done = true
            return false
        }
        return true
    }

    /// The row ``next()`` or ``step()`` last moved to, for columns a caller reads only for some
    /// rows.
    public var row: Row { Row(statement: statement) }
}

extension Connection {
    /// Runs `body` with the rows of the statement of `key`, bound to `arguments`, decoded by
    /// `decoder` as `body` steps them; the statement is reset after.
    @inlinable
    public func withRows<D: RowDecoder, T>(
        _ key: StatementKey, _ arguments: [any DatabaseValueConvertible], _ decoder: D.Type,
        _ body: (inout RowStream<D>) throws -> T
    ) throws -> T {
        try withBound(key, arguments) { statement in
            var rows = RowStream(statement: statement, decoder: try statement.decoder(D.self))
            return try body(&rows)
        }
    }

    /// ``withRows(_:_:_:_:)`` for a statement of `key` with one parameter, bound to `argument`
    /// (no array of arguments: the picker's statement runs on every checkout).
    @inlinable
    public func withRows<A: DatabaseValueConvertible, D: RowDecoder, T>(
        _ key: StatementKey, binding argument: A, _ decoder: D.Type,
        _ body: (inout RowStream<D>) throws -> T
    ) throws -> T {
        try withBound(key, only: argument) { statement in
            var rows = RowStream(statement: statement, decoder: try statement.decoder(D.self))
            return try body(&rows)
        }
    }
}
