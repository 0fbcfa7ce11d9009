import Foundation
import PizzeriaStorage

// The reading side of a model's one shape. A model's stored members (the columns of its table,
// spelled as its JSON spells them) are read by one declaration, `init(reading:)`, and that one
// declaration serves both readers: a row of its table (`StoredDecoder`, the stores' row decoder)
// and the documented JSON (`init(from:)`, through `ContainerMemberReader`). The writing side is
// `JSONMembers.writeMembers`, which JSON text, `JSONEncoder` and CSV share. A new stored field is
// then one line in each of the two functions and its column in the store's `columns`, which a
// test compares with the keys `init(reading:)` reads (StoredMembersTests).

/// A model read from its stored members: a row of its table or its documented JSON.
protocol StoredMembers {
    /// The table its rows come from, named when a stored value is damaged.
    static var table: String { get }
    /// Reads every stored member, each by its key (= the column's name = the JSON member's name).
    init<Reader: MemberReader>(reading members: inout Reader) throws
}

/// Where ``StoredMembers/init(reading:)`` reads its values from.
protocol MemberReader {
    /// Text.
    mutating func text(_ key: StaticString) throws -> String
    /// Text, or `nil` for `NULL` / an absent or `null` JSON member.
    mutating func optionalText(_ key: StaticString) throws -> String?
    /// A whole number.
    mutating func number(_ key: StaticString) throws -> Int64
    /// A whole number, or `nil`.
    mutating func optionalNumber(_ key: StaticString) throws -> Int64?
    /// A UUID as a typed id.
    mutating func id<Entity>(_ key: StaticString, as type: Identifier<Entity>.Type) throws -> Identifier<Entity>
    /// An ISO-8601 UTC instant.
    mutating func timestamp(_ key: StaticString) throws -> Date
    /// An ISO-8601 UTC instant, or `nil`.
    mutating func optionalTimestamp(_ key: StaticString) throws -> Date?
    /// Text naming a case of `type` (its raw value).
    mutating func raw<Value: RawRepresentable>(_ key: StaticString, as type: Value.Type) throws -> Value
    where Value.RawValue == String
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

/// The row decoder of any ``StoredMembers`` model: each key is resolved to its column on the
/// first row of a prepared statement and kept (in the order the model reads them), so later
/// rows read by position, as a hand-written decoder does.
struct StoredDecoder<Model: StoredMembers>: RowDecoder {
    private let columns = ColumnCache()

    init(columns: ColumnResolver) throws {}

    func decode(_ row: Row) throws -> Model {
        var reader = RowMemberReader(row: row, cache: columns, table: Model.table)
        return try Model(reading: &reader)
    }
}

/// The columns a ``StoredDecoder`` resolved, in reading order; kept with its statement, used on
/// the connection's one thread.
private final class ColumnCache {
    var entries: [(key: UnsafeRawPointer?, column: Column)] = []
}

/// Reads one row for ``StoredMembers/init(reading:)``.
private struct RowMemberReader: MemberReader {
    let row: Row
    let cache: ColumnCache
    let table: String
    var position = 0

    /// The column of `key`: the cached one when the model reads its keys in the same order as on
    /// the first row (always, unless it branches), else resolved by name.
    private mutating func column(_ key: StaticString) throws -> Column {
        defer { position += 1 }
        let pointer = key.hasPointerRepresentation ? UnsafeRawPointer(key.utf8Start) : nil
        if position < cache.entries.count {
            let entry = cache.entries[position]
            if let pointer, entry.key == pointer { return entry.column }
        }
        let column = try row.column(key.description)
        if position == cache.entries.count { cache.entries.append((pointer, column)) }
        return column
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
    mutating func id<Entity>(_ key: StaticString, as type: Identifier<Entity>.Type) throws -> Identifier<Entity> {
        try row.id(try column(key))
    }

    mutating func timestamp(_ key: StaticString) throws -> Date {
        let column = try column(key)
        if let date = try row.withUTF8(column, Timestamp.date(utf8:)) { return date }
        throw damaged(column, "'\(try row.string(column))' is not an ISO-8601 UTC time")
    }

    mutating func optionalTimestamp(_ key: StaticString) throws -> Date? {
        let column = try column(key)
        if row.isNull(column) { return nil }
        if let date = try row.withUTF8(column, Timestamp.date(utf8:)) { return date }
        throw damaged(column, "'\(try row.string(column))' is not an ISO-8601 UTC time")
    }

    mutating func raw<Value: RawRepresentable>(_ key: StaticString, as type: Value.Type) throws -> Value
    where Value.RawValue == String {
        let column = try column(key)
        let text = try row.string(column)
        guard let value = Value(rawValue: text) else { throw damaged(column, "'\(text)' is not a known value") }
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
    func id<Entity>(_ key: StaticString, as type: Identifier<Entity>.Type) throws -> Identifier<Entity> {
        try container.decode(type, forKey: JSONMemberKey(key))
    }
    func timestamp(_ key: StaticString) throws -> Date { try container.decodeTimestamp(forKey: JSONMemberKey(key)) }
    func optionalTimestamp(_ key: StaticString) throws -> Date? {
        try container.decodeTimestampIfPresent(forKey: JSONMemberKey(key))
    }
    func raw<Value: RawRepresentable>(_ key: StaticString, as type: Value.Type) throws -> Value
    where Value.RawValue == String {
        let text = try text(key)
        guard let value = Value(rawValue: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: JSONMemberKey(key), in: container, debugDescription: "'\(text)' is not a known value")
        }
        return value
    }
}
