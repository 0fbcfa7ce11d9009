import Foundation
import PizzeriaStorage

// The readers of a record's one declaration (`Record.members`): a row of its table
// (`StoredDecoder`, the stores' row decoder) and the documented JSON (`ContainerMemberReader`).
// A store's column list is compared with the keys the declaration reads (StoredMembersTests).

/// A ``Record`` stored as the rows of a table.
protocol StoredMembers: Record {
    /// The table its rows come from, named when a stored value is damaged.
    static var table: String { get }
}

/// Where a ``Record`` reads its members from (through ``MemberReading``).
protocol MemberReader {
    /// Text.
    mutating func text(_ key: StaticString) throws -> String
    /// Text, or `nil` for `NULL` / an absent or `null` JSON member.
    mutating func optionalText(_ key: StaticString) throws -> String?
    /// A whole number.
    mutating func number(_ key: StaticString) throws -> Int64
    /// A whole number, or `nil`.
    mutating func optionalNumber(_ key: StaticString) throws -> Int64?
    /// `true` or `false` (a row stores 1 or 0), or `nil`.
    mutating func optionalFlag(_ key: StaticString) throws -> Bool?
    /// A UUID as a typed id.
    mutating func id<Entity>(_ key: StaticString, as type: Identifier<Entity>.Type) throws -> Identifier<Entity>
    /// An ISO-8601 UTC instant.
    mutating func timestamp(_ key: StaticString) throws -> Date
    /// An ISO-8601 UTC instant, or `nil`.
    mutating func optionalTimestamp(_ key: StaticString) throws -> Date?
    /// A structured value: JSON text in a row, a nested JSON value in JSON; `nil` for `NULL` or absent.
    mutating func decoded<Value: Decodable>(_ key: StaticString, as type: Value.Type) throws -> Value?
    /// A set of allergens: the sum of their bits in a row, their codes in JSON; empty when absent.
    mutating func allergens(_ key: StaticString) throws -> Set<Allergen>
    /// A value assembled from other rows: `nil` from a row (not one of its columns), the nested
    /// JSON value in JSON.
    mutating func assembled<Value: Decodable>(_ key: StaticString, as type: Value.Type) throws -> Value?
    /// A structured value that must be there: JSON text in a row, a nested JSON value in JSON.
    /// `placeholder` is the blank record's value, for a reader that reads none.
    mutating func required<Value: Decodable>(_ key: StaticString, placeholder: Value) throws -> Value
    /// A value parsed from its text; text `parse` refuses is damaged, named with `form` ("a date
    /// YYYY-MM-DD"). `placeholder` is the blank record's value, for a reader that reads none.
    mutating func parsed<Value>(
        _ key: StaticString, form: @autoclosure () -> String, placeholder: Value, _ parse: (String) -> Value?
    ) throws -> Value
    /// A value parsed from its text, or `nil` for `NULL` / an absent or `null` member.
    mutating func optionalParsed<Value>(
        _ key: StaticString, form: @autoclosure () -> String, _ parse: (String) -> Value?
    ) throws
        -> Value?
}

extension MemberReader {
    /// A whole number as `Int`.
    mutating func int(_ key: StaticString) throws -> Int { Int(try number(key)) }
    /// Money from its integer cents (the `"6.00"` text is for people and is not read).
    mutating func money(cents key: StaticString) throws -> Money { Money(cents: try number(key)) }
    /// Money from its integer cents, or `nil`.
    mutating func optionalMoney(cents key: StaticString) throws -> Money? {
        try optionalNumber(key).map(Money.init(cents:))
    }
    /// A typed id, its type inferred.
    mutating func id<Entity>(_ key: StaticString) throws -> Identifier<Entity> {
        try id(key, as: Identifier<Entity>.self)
    }
}

// MARK: - From a row

/// The row decoder of any ``StoredMembers`` model. When a statement is prepared, the model's
/// reading declaration runs once against the statement's columns (``ResolvingReader``: each key
/// resolved to its column, placeholder values returned), so every row then reads by position, as
/// a hand-written decoder does — and a query that lacks one of the keys fails there, naming it.
struct StoredDecoder<Model: StoredMembers>: RowDecoder {
    /// Each key's text (its address) and column, in the order the model reads them.
    private let keys: [UnsafeRawPointer?]
    private let columns: [Column]

    init(columns resolver: ColumnResolver) throws {
        var resolving = ResolvingReader(resolver: resolver, table: Model.table)
        _ = try Model(reading: &resolving)
        (keys, columns) = (resolving.keys, resolving.columns)
    }

    func decode(_ row: Row) throws -> Model {
        try keys.withUnsafeBufferPointer { keys in
            try columns.withUnsafeBufferPointer { columns in
                var reader = RowMemberReader(row: row, keys: keys, columns: columns, model: Model.self)
                return try Model(reading: &reader)
            }
        }
    }

    /// The model of `row`, with the id under `key` taken as `id` instead of parsed from its
    /// column: for a caller that has already matched that column's bytes to the row the id was
    /// read from (the menu read: a variant's `pizza_id` to its item's `id`, by ``UUIDText``).
    func decode<Entity>(_ row: Row, taking id: Identifier<Entity>, for key: StaticString) throws -> Model {
        try keys.withUnsafeBufferPointer { keys in
            try columns.withUnsafeBufferPointer { columns in
                var reader = RowMemberReader(row: row, keys: keys, columns: columns, model: Model.self)
                reader.given = (address(key), id.uuid)
                return try Model(reading: &reader)
            }
        }
    }
}

extension StoredMembers {
    /// A record from a row whose columns are looked up by name (a cold path's closure decoder;
    /// a hot query uses ``StoredDecoder``, which resolves them once per statement).
    init(row: Row) throws {
        var reader = RowMemberReader(
            row: row, keys: UnsafeBufferPointer(start: nil, count: 0),
            columns: UnsafeBufferPointer(start: nil, count: 0),
            model: Self.self)
        try self.init(reading: &reader)
    }
}

/// The address of a key's text, which identifies a literal key without comparing its characters.
@inline(__always)
private func address(_ key: StaticString) -> UnsafeRawPointer? {
    key.hasPointerRepresentation ? UnsafeRawPointer(key.utf8Start) : nil
}

/// Resolves the keys a model reads to a statement's columns, answering with placeholders.
private struct ResolvingReader: MemberReader {
    let resolver: ColumnResolver
    let table: String
    var keys: [UnsafeRawPointer?] = []
    var columns: [Column] = []

    init(resolver: ColumnResolver, table: String) { (self.resolver, self.table) = (resolver, table) }

    private mutating func resolve<T>(_ key: StaticString, _ placeholder: T) throws -> T {
        columns.append(try resolver(key.description))
        keys.append(address(key))
        return placeholder
    }

    mutating func text(_ key: StaticString) throws -> String { try resolve(key, "") }
    mutating func optionalText(_ key: StaticString) throws -> String? { try resolve(key, nil) }
    mutating func number(_ key: StaticString) throws -> Int64 { try resolve(key, 0) }
    mutating func optionalNumber(_ key: StaticString) throws -> Int64? { try resolve(key, nil) }
    mutating func optionalFlag(_ key: StaticString) throws -> Bool? { try resolve(key, nil) }
    mutating func id<Entity>(_ key: StaticString, as type: Identifier<Entity>.Type) throws -> Identifier<Entity> {
        try resolve(key, Identifier(uuid: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))))
    }
    mutating func timestamp(_ key: StaticString) throws -> Date { try resolve(key, Date(timeIntervalSince1970: 0)) }
    mutating func optionalTimestamp(_ key: StaticString) throws -> Date? { try resolve(key, nil) }
    mutating func decoded<Value: Decodable>(_ key: StaticString, as type: Value.Type) throws -> Value? {
        try resolve(key, nil)
    }
    mutating func allergens(_ key: StaticString) throws -> Set<Allergen> { try resolve(key, []) }
    mutating func assembled<Value: Decodable>(_ key: StaticString, as type: Value.Type) throws -> Value? { nil }
    mutating func parsed<Value>(
        _ key: StaticString, form: @autoclosure () -> String, placeholder: Value, _ parse: (String) -> Value?
    ) throws -> Value { try resolve(key, placeholder) }
    mutating func required<Value: Decodable>(_ key: StaticString, placeholder: Value) throws -> Value {
        try resolve(key, placeholder)
    }
    mutating func optionalParsed<Value>(
        _ key: StaticString, form: @autoclosure () -> String, _ parse: (String) -> Value?
    ) throws
        -> Value?
    { try resolve(key, nil) }
}

/// Reads one row for ``StoredMembers/init(reading:)``. It borrows the decoder's resolved keys and
/// columns for one record (made per row: holding the arrays themselves cost a retain and a
/// release of each per row) and names its model's table only when a value is damaged.
private struct RowMemberReader: MemberReader {
    let row: Row
    let keys: UnsafeBufferPointer<UnsafeRawPointer?>
    let columns: UnsafeBufferPointer<Column>
    let model: any StoredMembers.Type
    var table: String { model.table }
    var position = 0
    /// An id the caller already has, by its key's address: read without its column (``StoredDecoder/decode(_:taking:for:)``).
    var given: (key: UnsafeRawPointer?, uuid: UUID)?

    /// The column of `key`: the resolved one when the model reads its keys in the order it read
    /// them when the statement was prepared (always, unless it branches), else looked up by name.
    @inline(__always)
    private mutating func column(_ key: StaticString) throws -> Column {
        defer { position += 1 }
        if position < keys.count, let expected = keys[position], expected == address(key) { return columns[position] }
        return try row.column(key.description)
    }

    /// The row's id, for naming a damaged row.
    private func rowID() -> String {
        do {
            switch row[try row.column("id")] {
            case .integer(let number): return String(number)
            case .text(let text): return text
            default: return "?"
            }
        } catch {
            return "?"  // a table without an `id` column: the problem is still named
        }
    }

    private func damaged(_ column: Column, _ problem: String) -> DataError {
        DataError.damagedRow(table: table, id: rowID(), problem: "\(row.name(of: column)) \(problem)")
    }

    mutating func text(_ key: StaticString) throws -> String { try row.string(try column(key)) }
    mutating func optionalText(_ key: StaticString) throws -> String? { try row.optionalString(try column(key)) }
    mutating func number(_ key: StaticString) throws -> Int64 { try row.int64(try column(key)) }
    mutating func optionalNumber(_ key: StaticString) throws -> Int64? { try row.optionalInt64(try column(key)) }
    mutating func optionalFlag(_ key: StaticString) throws -> Bool? {
        try row.optionalInt64(try column(key)).map { $0 != 0 }
    }
    mutating func id<Entity>(_ key: StaticString, as type: Identifier<Entity>.Type) throws -> Identifier<Entity> {
        if let given, given.key != nil, given.key == address(key) {
            position += 1
            return Identifier(uuid: given.uuid)
        }
        return try row.id(try column(key))
    }

    mutating func timestamp(_ key: StaticString) throws -> Date {
        let column = try column(key)
        if let date = try row.withUTF8(column, Timestamp.date(utf8:)) { return date }
        throw damaged(column, "'\(try row.string(column))' is not an ISO-8601 UTC time")
    }

    mutating func optionalTimestamp(_ key: StaticString) throws -> Date? {
        let column = try column(key)
        guard let bytes = try row.optionalTextBytes(column) else { return nil }
        if let date = Timestamp.date(utf8: bytes) { return date }
        throw damaged(column, "'\(try row.string(column))' is not an ISO-8601 UTC time")
    }

    mutating func decoded<Value: Decodable>(_ key: StaticString, as type: Value.Type) throws -> Value? {
        let column = try column(key)
        guard let text = try row.optionalString(column) else { return nil }
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw damaged(column, "is not the JSON of \(Value.self): \(error)")
        }
    }

    mutating func allergens(_ key: StaticString) throws -> Set<Allergen> {
        Allergen.set(bits: try row.optionalInt64(try column(key)) ?? 0)
    }

    mutating func assembled<Value: Decodable>(_ key: StaticString, as type: Value.Type) throws -> Value? { nil }

    mutating func parsed<Value>(
        _ key: StaticString, form: @autoclosure () -> String, placeholder: Value, _ parse: (String) -> Value?
    ) throws -> Value {
        guard let value = try optionalParsed(key, form: form(), parse) else { throw missing(key) }
        return value
    }

    mutating func required<Value: Decodable>(_ key: StaticString, placeholder: Value) throws -> Value {
        guard let value = try decoded(key, as: Value.self) else { throw missing(key) }
        return value
    }

    /// A member that must be there is `NULL`.
    private func missing(_ key: StaticString) -> DataError {
        DataError.damagedRow(table: table, id: rowID(), problem: "\(key) is NULL")
    }

    mutating func optionalParsed<Value>(
        _ key: StaticString, form: @autoclosure () -> String, _ parse: (String) -> Value?
    ) throws
        -> Value?
    {
        let column = try column(key)
        guard let text = try row.optionalString(column) else { return nil }
        guard let value = parse(text) else { throw damaged(column, "'\(text)' is not \(form())") }
        return value
    }
}

// MARK: - From JSON

/// Reads a documented JSON object for ``StoredMembers/init(reading:)`` (the models'
/// `init(from:)`).
struct ContainerMemberReader: MemberReader {
    let container: KeyedDecodingContainer<JSONMemberKey>

    init(_ decoder: any Decoder) throws { container = try decoder.container(keyedBy: JSONMemberKey.self) }

    func text(_ key: StaticString) throws -> String { try container.decode(String.self, forKey: JSONMemberKey(key)) }
    func optionalText(_ key: StaticString) throws -> String? {
        try container.decodeIfPresent(String.self, forKey: JSONMemberKey(key))
    }
    func number(_ key: StaticString) throws -> Int64 { try container.decode(Int64.self, forKey: JSONMemberKey(key)) }
    func optionalNumber(_ key: StaticString) throws -> Int64? {
        try container.decodeIfPresent(Int64.self, forKey: JSONMemberKey(key))
    }
    func optionalFlag(_ key: StaticString) throws -> Bool? {
        try container.decodeIfPresent(Bool.self, forKey: JSONMemberKey(key))
    }
    func id<Entity>(_ key: StaticString, as type: Identifier<Entity>.Type) throws -> Identifier<Entity> {
        try container.decode(type, forKey: JSONMemberKey(key))
    }
    func timestamp(_ key: StaticString) throws -> Date { try container.decodeTimestamp(forKey: JSONMemberKey(key)) }
    func optionalTimestamp(_ key: StaticString) throws -> Date? {
        try container.decodeTimestampIfPresent(forKey: JSONMemberKey(key))
    }

    func decoded<Value: Decodable>(_ key: StaticString, as type: Value.Type) throws -> Value? {
        try container.decodeIfPresent(type, forKey: JSONMemberKey(key))
    }

    func assembled<Value: Decodable>(_ key: StaticString, as type: Value.Type) throws -> Value? {
        try decoded(key, as: type)
    }

    func required<Value: Decodable>(_ key: StaticString, placeholder: Value) throws -> Value {
        try container.decode(Value.self, forKey: JSONMemberKey(key))
    }

    func parsed<Value>(
        _ key: StaticString, form: @autoclosure () -> String, placeholder: Value, _ parse: (String) -> Value?
    ) throws
        -> Value
    {
        // A missing or `null` member: `text` refuses it as it refuses any, naming the key (the
        // placeholder is never returned).
        guard let value = try optionalParsed(key, form: form(), parse) else { _ = try text(key); return placeholder }
        return value
    }

    func optionalParsed<Value>(_ key: StaticString, form: @autoclosure () -> String, _ parse: (String) -> Value?) throws
        -> Value?
    {
        guard let text = try optionalText(key) else { return nil }
        guard let value = parse(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: JSONMemberKey(key), in: container, debugDescription: "'\(text)' is not \(form())")
        }
        return value
    }

    func allergens(_ key: StaticString) throws -> Set<Allergen> {
        let codes = try container.decodeIfPresent([String].self, forKey: JSONMemberKey(key)) ?? []
        return try Set(
            codes.map { code in
                guard let allergen = Allergen(rawValue: code) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: JSONMemberKey(key), in: container,
                        debugDescription: "'\(code)' is not one of the EU's 14 allergens")
                }
                return allergen
            })
    }
}
