import Foundation

/// A JSON shape defined once: the model lists its members, and both its `Encodable` form and
/// any fast writer (the CLI streams lists of a million rows without building a tree of values)
/// come from that one list. Adding a field is one line in ``writeMembers(to:)``.
///
/// Members are listed in sorted key order — the order `JSONEncoder` with `.sortedKeys` prints —
/// so a writer that streams them needs no sorting; a test holds every shape's streamed bytes to
/// `JSONEncoder`'s.
///
/// ```swift
/// extension Tag: JSONMembers {
///     func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
///         try writer.member("id", id)
///         try writer.member("name", name)
///     }
///     func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }
/// }
/// ```
public protocol JSONMembers: Encodable {
    /// Writes every member, in sorted key order.
    func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws
}

/// What a ``JSONMembers`` shape writes its members into: an `Encoder`'s keyed container
/// (``JSONMembers/encodeMembers(to:)``) or a streaming text writer.
public protocol JSONMemberWriter {
    /// Text, or `null`.
    mutating func member(_ key: StaticString, _ text: String?) throws
    /// A whole number.
    mutating func member(_ key: StaticString, _ number: Int64) throws
    /// `true` or `false`.
    mutating func member(_ key: StaticString, _ flag: Bool) throws
    /// An id as lowercase UUID text.
    mutating func member<Entity>(_ key: StaticString, id: Identifier<Entity>) throws
    /// An instant as ISO-8601 UTC with milliseconds (`2026-11-30T12:42:19.610Z`), or `null`.
    mutating func member(_ key: StaticString, timestamp: Date?) throws
    /// A slot's instant as ISO-8601 UTC to the minute (`2026-12-01T18:30:00Z`).
    mutating func member(_ key: StaticString, minute: Date) throws
    /// A nested object, or `null`.
    mutating func member<Value: JSONMembers>(_ key: StaticString, object: Value?) throws
    /// An array of objects.
    mutating func member<Element: JSONMembers>(_ key: StaticString, objects: [Element]) throws
    /// Any other value, through its `Encodable` conformance.
    mutating func member<Value: Encodable>(_ key: StaticString, encoded: Value) throws
    /// Money as its plain decimal text, `"6.00"` (JSON writes it as a string).
    mutating func member(_ key: StaticString, plain money: Money) throws
}

extension JSONMemberWriter {
    /// A whole number.
    public mutating func member(_ key: StaticString, _ number: Int) throws { try member(key, Int64(number)) }
    /// A whole number, or `null`.
    public mutating func member(_ key: StaticString, _ number: Int?) throws {
        if let number { try member(key, Int64(number)) } else { try member(key, String?.none) }
    }
    /// Money as `"6.00"` (the cents go under their own key, listed apart by the caller, so each
    /// lands in its sorted place).
    public mutating func member(_ key: StaticString, plain money: Money) throws { try member(key, money.plain) }
}

extension JSONMembers {
    /// `encode(to:)` from the member list: conforming types implement `Encodable` with this one line.
    public func encodeMembers(to encoder: Encoder) throws {
        var writer = KeyedMemberWriter(container: encoder.container(keyedBy: JSONMemberKey.self))
        try writeMembers(to: &writer)
    }
}

/// A member's name as a coding key.
struct JSONMemberKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ key: StaticString) { stringValue = key.description }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Writes members into an `Encoder`'s keyed container: the `Encodable` form of a shape.
struct KeyedMemberWriter: JSONMemberWriter {
    var container: KeyedEncodingContainer<JSONMemberKey>

    mutating func member(_ key: StaticString, _ text: String?) throws {
        try container.encode(text, forKey: JSONMemberKey(key))
    }
    mutating func member(_ key: StaticString, _ number: Int64) throws {
        try container.encode(number, forKey: JSONMemberKey(key))
    }
    mutating func member(_ key: StaticString, _ flag: Bool) throws {
        try container.encode(flag, forKey: JSONMemberKey(key))
    }
    mutating func member<Entity>(_ key: StaticString, id: Identifier<Entity>) throws {
        try container.encode(id, forKey: JSONMemberKey(key))
    }
    mutating func member(_ key: StaticString, timestamp: Date?) throws {
        try container.encode(timestamp.map(Timestamp.string(from:)), forKey: JSONMemberKey(key))
    }
    mutating func member(_ key: StaticString, minute: Date) throws {
        try container.encode(PickupTime.utc(minute), forKey: JSONMemberKey(key))
    }
    mutating func member<Value: JSONMembers>(_ key: StaticString, object: Value?) throws {
        try container.encode(object, forKey: JSONMemberKey(key))
    }
    mutating func member<Element: JSONMembers>(_ key: StaticString, objects: [Element]) throws {
        try container.encode(objects, forKey: JSONMemberKey(key))
    }
    mutating func member<Value: Encodable>(_ key: StaticString, encoded: Value) throws {
        try container.encode(encoded, forKey: JSONMemberKey(key))
    }
}
