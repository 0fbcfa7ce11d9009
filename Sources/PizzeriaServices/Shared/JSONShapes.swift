import Foundation
import PizzeriaStorage

// The few ways every documented JSON shape writes and reads its values: money as `"6.00"` plus
// integer cents, times as ISO-8601 UTC text with milliseconds. One place, so every model agrees.

extension KeyedEncodingContainer {
    /// Money as `"6.00"` under `key` and integer cents under `centsKey` (both `null` for `nil`).
    mutating func encode(_ money: Money?, forKey key: Key, centsKey: Key) throws {
        try encode(money?.plain, forKey: key)
        try encode(money?.cents, forKey: centsKey)
    }

    /// A time as `2026-11-30T12:42:19.610Z` (`null` for `nil`).
    mutating func encodeTimestamp(_ date: Date?, forKey key: Key) throws {
        try encode(date.map(Timestamp.string(from:)), forKey: key)
    }
}

extension KeyedDecodingContainer {
    /// Money from its integer cents (the `"6.00"` text is for people).
    func decodeMoney(centsKey: Key) throws -> Money {
        Money(cents: try decode(Int64.self, forKey: centsKey))
    }

    /// Money from its integer cents, or `nil`.
    func decodeMoneyIfPresent(centsKey: Key) throws -> Money? {
        try decodeIfPresent(Int64.self, forKey: centsKey).map(Money.init(cents:))
    }

    /// A time written by ``KeyedEncodingContainer/encodeTimestamp(_:forKey:)``.
    func decodeTimestamp(forKey key: Key) throws -> Date {
        let text = try decode(String.self, forKey: key)
        guard let date = Timestamp.date(from: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "'\(text)' is not an ISO-8601 UTC time")
        }
        return date
    }

    /// A time, or `nil`.
    func decodeTimestampIfPresent(forKey key: Key) throws -> Date? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeTimestamp(forKey: key)
    }
}

extension Row {
    /// A stored ISO-8601 UTC time; anything else is a damaged row of `table`.
    func timestamp<ID: CustomStringConvertible>(_ column: Column, table: String, id: ID) throws -> Date {
        if let date = try withUTF8(column, Timestamp.date(utf8:)) { return date }
        throw DataError.damagedRow(
            table: table, id: id.description,
            problem: "\(name(of: column)) '\(try string(column))' is not an ISO-8601 UTC time")
    }

    /// A stored ISO-8601 UTC time or `NULL`.
    func optionalTimestamp<ID: CustomStringConvertible>(_ column: Column, table: String, id: ID) throws -> Date? {
        isNull(column) ? nil : try timestamp(column, table: table, id: id)
    }
}
