internal import CPizzeriaSQLite
import Foundation

/// A prepared statement. It finalizes itself when released.
///
/// Statements belong to one ``Connection`` and are not `Sendable`. Most code never holds one:
/// ``Connection/run(_:_:)`` and ``Connection/query(_:_:)`` take SQL text and reuse the
/// connection's cached statement for it.
public final class Statement {
    let handle: OpaquePointer
    /// The SQL text, as prepared.
    public let sql: String
    unowned let connection: Connection
    /// The connection's ``Loan``, checked on every bind and step without touching the
    /// `unowned` reference (which costs a reference-count round trip per access).
    private let loan: Loan
    /// Set while a cursor iterates this statement, so a nested query with the same SQL prepares
    /// its own statement instead of resetting this one under the cursor.
    var isBusy = false
    /// Whether the statement has been bound or stepped since its last ``reset()``.
    private var needsReset = false
    /// Result column names with their indexes, built on the first lookup by name (see
    /// ``column(named:)``). Searched in order: a statement has a few dozen columns at most, and
    /// comparing short names (stored inline by `String`) costs less than hashing one.
    private var namedColumns: [(name: String, index: Int32)]?
    /// Room for the text of each parameter a value writes itself (``DatabaseValueConvertible/
    /// writeDatabaseText(into:)``): bound without a copy (`SQLITE_STATIC`), since the statement
    /// owns it and resets its bindings before it writes here again. Made on the first such bind.
    private var textScratch: UnsafeMutableBufferPointer<UInt8>?
    /// The decoders bound to this statement's columns, with their type: each resolves its
    /// column names once per prepared statement, however many rows and calls follow. Most
    /// statements have one; a search of a few entries and a cast by type identity cost less
    /// than a dictionary and a dynamic cast.
    private var decoders: [(type: ObjectIdentifier, box: AnyObject)] = []

    init(connection: Connection, sql: String) throws {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw connection.error(code: code, sql: sql)
        }
        self.handle = statement
        self.sql = sql
        self.connection = connection
        self.loan = connection.loan
    }

    deinit {
        sqlite3_finalize(handle)
        textScratch?.deallocate()
    }

    /// The number of `?` parameters.
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// Resets the statement and binds `arguments` to its parameters, in order.
    /// - Throws: ``DatabaseError`` when the count does not match or SQLite refuses a value.
    public func bind(_ arguments: [any DatabaseValueConvertible]) throws {
        try prepareToBind(count: arguments.count)
        for (offset, argument) in arguments.enumerated() { try bind(argument, at: offset) }
    }

    /// Resets the statement and binds its one parameter to `argument`: a hot path's single value
    /// without an array of existentials to build and walk.
    /// - Throws: ``DatabaseError`` when the statement has another number of parameters or SQLite
    ///   refuses the value.
    @inlinable  // specialised for the argument's type where it is called (no witness-table calls)
    func bind<A: DatabaseValueConvertible>(only argument: A) throws {
        try prepareToBind(count: 1)
        try bind(argument, at: 0)
    }

    /// Checks the loan, resets the statement when it was used, and checks the argument count.
    @usableFromInline
    func prepareToBind(count: Int) throws {
        try loan.check()
        if needsReset { reset() }
        needsReset = true
        guard count == parameterCount else {
            throw DatabaseError.misuse("statement has \(parameterCount) parameters, \(count) values given: \(sql)")
        }
    }

    /// Binds `argument` to the parameter at `offset` (0-based): its own text from the
    /// statement's scratch room when it writes one, else its ``DatabaseValue``.
    @inlinable
    func bind<A: DatabaseValueConvertible>(_ argument: A, at offset: Int) throws {
        let room = textRoom(at: offset)
        if let count = argument.writeDatabaseText(into: room), count <= databaseTextCapacity {
            try bindText(in: room, count: count, at: offset)
        } else {
            try bind(argument.databaseValue, at: Int32(offset + 1))
        }
    }

    /// The parameter at `offset`'s share of ``textScratch`` (``databaseTextCapacity`` bytes).
    @usableFromInline
    func textRoom(at offset: Int) -> UnsafeMutableBufferPointer<UInt8> {
        let scratch = textScratch ?? makeTextScratch()
        return UnsafeMutableBufferPointer(
            start: scratch.baseAddress.map { $0 + offset * databaseTextCapacity }, count: databaseTextCapacity)
    }

    /// Marks the statement as in use by a `withBound` body (see ``isBusy``). A method, so that
    /// code inlined into other modules does not touch the property (a dynamic exclusivity check).
    @usableFromInline
    func beginUse() { isBusy = true }

    /// Resets the statement and marks it free again (after ``beginUse()``).
    @usableFromInline
    func endUse() {
        reset()
        isBusy = false
    }

    /// Binds the first `count` bytes of `room` (from ``textRoom(at:)``) to the parameter at
    /// `offset` as UTF-8 text, without a copy.
    @usableFromInline
    func bindText(in room: UnsafeMutableBufferPointer<UInt8>, count: Int, at offset: Int) throws {
        guard let start = room.baseAddress else { throw DatabaseError.misuse("no room for a parameter's text: \(sql)") }
        // SQLITE_STATIC: the bytes stay put until the next reset, which drops the binding.
        let code = sqlite3_bind_text64(
            handle, Int32(offset + 1), UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self), UInt64(count),
            nil, UInt8(SQLITE_UTF8))
        guard code == SQLITE_OK else { throw connection.error(code: code, sql: sql) }
    }

    /// ``textScratch``, made: room for every parameter's text.
    private func makeTextScratch() -> UnsafeMutableBufferPointer<UInt8> {
        let scratch = UnsafeMutableBufferPointer<UInt8>.allocate(
            capacity: max(1, parameterCount) * databaseTextCapacity)
        textScratch = scratch
        return scratch
    }

    @usableFromInline
    func bind(_ value: DatabaseValue, at index: Int32) throws {
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, index)
        case .integer(let integer):
            code = sqlite3_bind_int64(handle, index, integer)
        case .real(let real):
            code = sqlite3_bind_double(handle, index, real)
        case .text(let text):
            code = sqlite3_bind_text64(
                handle, index, text, UInt64(text.utf8.count), pizzeria_sqlite_transient(), UInt8(SQLITE_UTF8))
        case .blob(let data):
            code = data.withUnsafeBytes { bytes in
                // A zero-length blob must still be a blob, not NULL: bind_zeroblob says so.
                bytes.count == 0
                    ? sqlite3_bind_zeroblob(handle, index, 0)
                    : sqlite3_bind_blob64(
                        handle, index, bytes.baseAddress, UInt64(bytes.count), pizzeria_sqlite_transient())
            }
        }
        guard code == SQLITE_OK else { throw connection.error(code: code, sql: sql) }
    }

    // MARK: - Columns by name

    /// The result column called `name` (its alias, or the column's own name).
    /// - Throws: ``DatabaseError/Kind/misuse`` when the statement has no such column, or two
    ///   columns of that name (alias one of them): a query and its decoder that drifted apart
    ///   fail at once, naming the column and the SQL.
    public func column(named name: String) throws -> Column {
        guard let column = try columnIfPresent(named: name) else {
            throw DatabaseError.misuse("no result column named '\(name)' in: \(sql)")
        }
        return column
    }

    /// The result column called `name`, or `nil` when the statement has none.
    /// - Throws: ``DatabaseError/Kind/misuse`` when two columns have that name.
    public func columnIfPresent(named name: String) throws -> Column? {
        let columns: [(name: String, index: Int32)]
        if let built = namedColumns {
            columns = built
        } else {
            var built: [(name: String, index: Int32)] = []
            for index in 0..<sqlite3_column_count(handle) {
                let name = String(cString: sqlite3_column_name(handle, index))
                // A name used twice is recorded as ambiguous (-1), so neither column is guessed.
                if let first = built.firstIndex(where: { $0.name == name }) {
                    built[first].index = -1
                } else {
                    built.append((name, index))
                }
            }
            namedColumns = built
            columns = built
        }
        guard let found = columns.first(where: { $0.name == name }) else { return nil }
        guard found.index >= 0 else {
            throw DatabaseError.misuse("two result columns are named '\(name)' (alias one of them) in: \(sql)")
        }
        return Column(index: found.index)
    }

    /// The decoder of type `D` bound to this statement's columns, resolved on first use and
    /// kept with the statement (a cached statement keeps it for every later call).
    @usableFromInline
    func decoder<D: RowDecoder>(_ type: D.Type) throws -> D {
        let key = ObjectIdentifier(type)
        for entry in decoders where entry.type == key {
            // The entry was made for `D` (its type identity says so): no dynamic cast needed.
            return unsafeDowncast(entry.box, to: DecoderBox<D>.self).decoder
        }
        let decoder = try D(columns: ColumnResolver(statement: self))
        decoders.append((key, DecoderBox(decoder)))
        return decoder
    }

    /// A decoder kept with its statement.
    private final class DecoderBox<D> {
        let decoder: D
        init(_ decoder: D) { self.decoder = decoder }
    }

    /// Advances one step: `true` when a row is available, `false` when done.
    @usableFromInline
    func step() throws -> Bool {
        try loan.check()
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            let error = connection.error(code: code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Releases the statement's read snapshot and bound text, ready for the next use.
    @usableFromInline
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        needsReset = false
    }
}
