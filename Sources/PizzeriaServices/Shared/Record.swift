import Foundation

// A model's shape, declared once. A record lists its members in one function, `members(_:)`,
// each as its key and its property (`inout`), in sorted key order; a visitor walks the list.
// Reading (a row of its table, its documented JSON) sets each property from the member; writing
// (the JSON text writer, `JSONEncoder`, CSV) reads each property into the member. Its
// `Encodable` and `Decodable` forms, its `JSONMembers` list and its row decoder all follow from
// that one function, so a new stored field is one line there (and its column in the store's
// column list, which a test compares with the keys the declaration reads).

/// A model whose members are declared once, in ``members(_:)``: its JSON (written and read),
/// its row decoding and its CSV all follow from that declaration.
///
/// ```swift
/// extension Tag: Record {
///     public init(blank: RecordBlank) {}
///     public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
///         try visitor.member("id", &id)
///         try visitor.member("name", &name)
///     }
/// }
/// ```
public protocol Record: JSONMembers, Codable {
    /// A value whose every member reading then sets. Its properties' declared defaults are
    /// placeholders only a reader sees: a ``RecordBlank`` cannot be made outside the library.
    init(blank: RecordBlank)
    /// Visits every member in sorted key order (the order `JSONEncoder` with `.sortedKeys`
    /// prints), each under its key: the column's name in a row, the member's name in JSON.
    mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws
    /// Completes a value after reading, for a member whose absence is read from another (the
    /// default does nothing).
    mutating func didReadMembers()
}

/// The token of ``Record/init(blank:)``: only the library's readers make one.
public struct RecordBlank: Sendable {
    init() {}
}

extension Record {
    /// Nothing to complete.
    public mutating func didReadMembers() {}

    /// The members, written in sorted key order (see ``JSONMembers``).
    public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        var copy = self
        try withUnsafeMutablePointer(to: &writer) { pointer in
            var visitor = MemberWriting(writer: pointer)
            try copy.members(&visitor)
        }
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }

    /// Reads the documented JSON shape.
    public init(from decoder: Decoder) throws {
        var members = try ContainerMemberReader(decoder)
        try self.init(reading: &members)
    }

    /// A value read by `reader`: a row (``StoredDecoder``) or JSON.
    init<Reader: MemberReader>(reading reader: inout Reader) throws {
        self.init(blank: RecordBlank())
        try withUnsafeMutablePointer(to: &reader) { pointer in
            var visitor = MemberReading(reader: pointer)
            try self.members(&visitor)
        }
        didReadMembers()
    }
}

/// Walks a ``Record``'s members: reads each into its property, or writes each from it. A member
/// whose reading takes an `absent` value gets it when a row lacks the column (`NULL`) or JSON
/// lacks the member — an older file's, or an older version's.
public protocol MemberVisitor {
    /// Text.
    mutating func member(_ key: StaticString, _ value: inout String) throws
    /// Text, or `null`.
    mutating func member(_ key: StaticString, _ value: inout String?) throws
    /// A whole number.
    mutating func member(_ key: StaticString, _ value: inout Int) throws
    /// A whole number, or `null`.
    mutating func member(_ key: StaticString, _ value: inout Int?) throws
    /// A whole number of 64 bits.
    mutating func member(_ key: StaticString, _ value: inout Int64) throws
    /// A whole number of 64 bits, or `null`.
    mutating func member(_ key: StaticString, _ value: inout Int64?) throws
    /// `true` or `false` (a row stores 1 or 0).
    mutating func member(_ key: StaticString, _ value: inout Bool, absent: Bool) throws
    /// A UUID id.
    mutating func member<Entity>(_ key: StaticString, _ value: inout Identifier<Entity>) throws
    /// A numbered id; `absent` when given is read for `NULL` or a missing member.
    mutating func member<Entity>(_ key: StaticString, _ value: inout RowNumber<Entity>, absent: RowNumber<Entity>?)
        throws
    /// A numbered id, or `null`.
    mutating func member<Entity>(_ key: StaticString, _ value: inout RowNumber<Entity>?) throws
    /// A whole number; `absent` for `NULL` or a missing member.
    mutating func member(_ key: StaticString, _ value: inout Int, absent: Int) throws
    /// A value written as its text (``TextCodable``: a date, a time, a UUID id).
    mutating func member<Value: TextCodable>(_ key: StaticString, text value: inout Value) throws
    /// A value written as its text, or `null`.
    mutating func member<Value: TextCodable>(_ key: StaticString, text value: inout Value?) throws
    /// A time zone by its identifier (`Europe/Rome`).
    mutating func member(_ key: StaticString, timeZone value: inout TimeZone) throws
    /// A case of `Value` by its raw text, or `null`.
    mutating func member<Value: RawRepresentable & CaseIterable>(_ key: StaticString, raw value: inout Value?) throws
    where Value.RawValue == String
    /// A slot's instant, ISO-8601 UTC to the minute.
    mutating func member(_ key: StaticString, minute value: inout Date) throws
    /// An instant, ISO-8601 UTC with milliseconds.
    mutating func member(_ key: StaticString, timestamp value: inout Date) throws
    /// An instant, or `null`.
    mutating func member(_ key: StaticString, timestamp value: inout Date?) throws
    /// Money as its integer cents.
    mutating func member(_ key: StaticString, cents value: inout Money) throws
    /// Money as its integer cents, or `null`.
    mutating func member(_ key: StaticString, cents value: inout Money?) throws
    /// A case of `Value` by its raw text; `absent` when given is read for `NULL` or a missing
    /// member. Text no case has is refused, naming the cases.
    mutating func member<Value: RawRepresentable & CaseIterable>(
        _ key: StaticString, raw value: inout Value, absent: Value?
    ) throws where Value.RawValue == String
    /// A set of allergens: their bits in a row, their codes in JSON.
    mutating func member(_ key: StaticString, allergens value: inout Set<Allergen>) throws
    /// A VAT rate as basis points, or `null` (the shop's rate applies).
    mutating func member(_ key: StaticString, basisPoints value: inout VATRate?) throws
    /// A VAT rate as basis points; `absent` for `NULL` or a missing member.
    mutating func member(_ key: StaticString, basisPoints value: inout VATRate, absent: VATRate) throws
    /// A structured value: JSON text in a row, nested JSON in JSON; `absent` when missing.
    mutating func member<Value: Codable>(_ key: StaticString, encoded value: inout Value, absent: Value) throws
    /// A nested record that must be there: JSON text in a row, an object in JSON.
    mutating func member<Value: JSONMembers & Decodable>(_ key: StaticString, object value: inout Value) throws
    /// A nested record, or `null`.
    mutating func member<Value: JSONMembers & Decodable>(_ key: StaticString, object value: inout Value?) throws
    /// Nested records: JSON text in a row, an array in JSON; empty when missing.
    mutating func member<Element: JSONMembers & Decodable>(_ key: StaticString, objects value: inout [Element]) throws
    /// Nested records assembled from other rows: an array in JSON, not read from the model's row.
    mutating func member<Element: JSONMembers & Decodable>(_ key: StaticString, assembled value: inout [Element])
        throws
    /// A member only written, derived from others (`"price": "6.00"`, `"archived": true`).
    mutating func derived(_ key: StaticString, _ value: @autoclosure () -> String?) throws
    /// A flag only written, derived from others.
    mutating func derived(_ key: StaticString, _ value: @autoclosure () -> Bool) throws
    /// A number only written, derived from others.
    mutating func derived(_ key: StaticString, _ value: @autoclosure () -> Int64) throws
    /// Money only written, as its plain text (`"6.00"`).
    mutating func derived(_ key: StaticString, plain value: @autoclosure () -> Money) throws
    /// A nested object only written, or `null`.
    mutating func derived<Value: JSONMembers>(_ key: StaticString, object value: @autoclosure () -> Value?) throws
    /// Nested objects only written.
    mutating func derived<Element: JSONMembers>(_ key: StaticString, objects value: @autoclosure () -> [Element])
        throws
}

/// A visitor of the stored members only (reading a record, or binding its columns): the members
/// derived for people (the `derived` ones) are passed over, in one place.
protocol StoredMembersOnly: MemberVisitor {}

extension StoredMembersOnly {
    mutating func derived(_ key: StaticString, _ value: @autoclosure () -> String?) throws {}
    mutating func derived(_ key: StaticString, _ value: @autoclosure () -> Bool) throws {}
    mutating func derived(_ key: StaticString, _ value: @autoclosure () -> Int64) throws {}
    mutating func derived(_ key: StaticString, plain value: @autoclosure () -> Money) throws {}
    mutating func derived<Value: JSONMembers>(_ key: StaticString, object value: @autoclosure () -> Value?) throws {}
    mutating func derived<Element: JSONMembers>(_ key: StaticString, objects value: @autoclosure () -> [Element])
        throws
    {}
}

/// Reads each member through a ``MemberReader``: a row's or a JSON object's.
struct MemberReading<Reader: MemberReader>: StoredMembersOnly {
    let reader: UnsafeMutablePointer<Reader>

    mutating func member(_ key: StaticString, _ value: inout String) throws { value = try reader.pointee.text(key) }
    mutating func member(_ key: StaticString, _ value: inout String?) throws {
        value = try reader.pointee.optionalText(key)
    }
    mutating func member(_ key: StaticString, _ value: inout Int) throws { value = try reader.pointee.int(key) }
    mutating func member(_ key: StaticString, _ value: inout Int?) throws {
        value = try reader.pointee.optionalNumber(key).map { Int($0) }
    }
    mutating func member(_ key: StaticString, _ value: inout Bool, absent: Bool) throws {
        value = try reader.pointee.optionalFlag(key) ?? absent
    }
    mutating func member<Entity>(_ key: StaticString, _ value: inout Identifier<Entity>) throws {
        value = try reader.pointee.id(key)
    }
    mutating func member<Entity>(_ key: StaticString, _ value: inout RowNumber<Entity>, absent: RowNumber<Entity>?)
        throws
    {
        if let absent {
            value = try reader.pointee.optionalNumber(key).map(RowNumber.init) ?? absent
        } else {
            value = RowNumber(try reader.pointee.number(key))
        }
    }
    mutating func member<Entity>(_ key: StaticString, _ value: inout RowNumber<Entity>?) throws {
        value = try reader.pointee.optionalNumber(key).map(RowNumber.init)
    }
    mutating func member(_ key: StaticString, _ value: inout Int, absent: Int) throws {
        value = try reader.pointee.optionalNumber(key).map { Int($0) } ?? absent
    }
    mutating func member(_ key: StaticString, _ value: inout Int64) throws { value = try reader.pointee.number(key) }
    mutating func member(_ key: StaticString, _ value: inout Int64?) throws {
        value = try reader.pointee.optionalNumber(key)
    }
    mutating func member<Value: TextCodable>(_ key: StaticString, text value: inout Value) throws {
        value = try reader.pointee.parsed(key, form: Value.textForm, placeholder: value, Value.init)
    }
    mutating func member<Value: TextCodable>(_ key: StaticString, text value: inout Value?) throws {
        value = try reader.pointee.optionalParsed(key, form: Value.textForm, Value.init)
    }
    mutating func member(_ key: StaticString, timeZone value: inout TimeZone) throws {
        value = try reader.pointee.parsed(key, form: "a known time zone", placeholder: value) {
            TimeZone(identifier: $0)
        }
    }
    mutating func member<Value: RawRepresentable & CaseIterable>(_ key: StaticString, raw value: inout Value?) throws
    where Value.RawValue == String {
        value = try reader.pointee.optionalParsed(key, form: cases(of: Value.self), Value.init(rawValue:))
    }
    mutating func member(_ key: StaticString, minute value: inout Date) throws {
        value = try reader.pointee.timestamp(key)
    }
    mutating func member(_ key: StaticString, timestamp value: inout Date) throws {
        value = try reader.pointee.timestamp(key)
    }
    mutating func member(_ key: StaticString, timestamp value: inout Date?) throws {
        value = try reader.pointee.optionalTimestamp(key)
    }
    mutating func member(_ key: StaticString, cents value: inout Money) throws {
        value = try reader.pointee.money(cents: key)
    }
    mutating func member(_ key: StaticString, cents value: inout Money?) throws {
        value = try reader.pointee.optionalMoney(cents: key)
    }
    mutating func member<Value: RawRepresentable & CaseIterable>(
        _ key: StaticString, raw value: inout Value, absent: Value?
    ) throws where Value.RawValue == String {
        if let absent {
            value = try reader.pointee.optionalParsed(key, form: cases(of: Value.self), Value.init(rawValue:)) ?? absent
        } else {
            value = try reader.pointee.parsed(
                key, form: cases(of: Value.self), placeholder: value, Value.init(rawValue:))
        }
    }
    mutating func member(_ key: StaticString, allergens value: inout Set<Allergen>) throws {
        value = try reader.pointee.allergens(key)
    }
    mutating func member(_ key: StaticString, basisPoints value: inout VATRate?) throws {
        value = try reader.pointee.optionalNumber(key).flatMap { VATRate(basisPoints: Int($0)) }
    }
    mutating func member(_ key: StaticString, basisPoints value: inout VATRate, absent: VATRate) throws {
        value = try reader.pointee.optionalNumber(key).flatMap { VATRate(basisPoints: Int($0)) } ?? absent
    }
    mutating func member<Value: Codable>(_ key: StaticString, encoded value: inout Value, absent: Value) throws {
        value = try reader.pointee.decoded(key, as: Value.self) ?? absent
    }
    mutating func member<Value: JSONMembers & Decodable>(_ key: StaticString, object value: inout Value) throws {
        value = try reader.pointee.required(key, placeholder: value)
    }
    mutating func member<Value: JSONMembers & Decodable>(_ key: StaticString, object value: inout Value?) throws {
        value = try reader.pointee.decoded(key, as: Value.self)
    }
    mutating func member<Element: JSONMembers & Decodable>(_ key: StaticString, objects value: inout [Element]) throws {
        value = try reader.pointee.decoded(key, as: [Element].self) ?? []
    }
    mutating func member<Element: JSONMembers & Decodable>(_ key: StaticString, assembled value: inout [Element])
        throws
    {
        value = try reader.pointee.assembled(key, as: [Element].self) ?? []
    }
}

/// What a raw value must be, for a refusal: `one of extra, removal, choice` (made only then: the
/// readers take it as an autoclosure).
private func cases<Value: RawRepresentable & CaseIterable>(of type: Value.Type) -> String
where Value.RawValue == String {
    "one of " + Value.allCases.map(\.rawValue).joined(separator: ", ")
}

/// Writes each member into a ``JSONMemberWriter``.
struct MemberWriting<Writer: JSONMemberWriter>: MemberVisitor {
    let writer: UnsafeMutablePointer<Writer>

    mutating func member(_ key: StaticString, _ value: inout String) throws { try writer.pointee.member(key, value) }
    mutating func member(_ key: StaticString, _ value: inout String?) throws { try writer.pointee.member(key, value) }
    mutating func member(_ key: StaticString, _ value: inout Int) throws { try writer.pointee.member(key, value) }
    mutating func member(_ key: StaticString, _ value: inout Int?) throws { try writer.pointee.member(key, value) }
    mutating func member(_ key: StaticString, _ value: inout Bool, absent: Bool) throws {
        try writer.pointee.member(key, value)
    }
    mutating func member<Entity>(_ key: StaticString, _ value: inout Identifier<Entity>) throws {
        try writer.pointee.member(key, id: value)
    }
    mutating func member<Entity>(_ key: StaticString, _ value: inout RowNumber<Entity>, absent: RowNumber<Entity>?)
        throws
    { try writer.pointee.member(key, value.rawValue) }
    mutating func member<Entity>(_ key: StaticString, _ value: inout RowNumber<Entity>?) throws {
        try writer.pointee.member(key, value.map { Int($0.rawValue) })
    }
    mutating func member(_ key: StaticString, _ value: inout Int, absent: Int) throws {
        try writer.pointee.member(key, value)
    }
    mutating func member(_ key: StaticString, _ value: inout Int64) throws { try writer.pointee.member(key, value) }
    mutating func member(_ key: StaticString, _ value: inout Int64?) throws {
        try writer.pointee.member(key, value.map { Int($0) })
    }
    mutating func member<Value: TextCodable>(_ key: StaticString, text value: inout Value) throws {
        try writer.pointee.member(key, value.description)
    }
    mutating func member<Value: TextCodable>(_ key: StaticString, text value: inout Value?) throws {
        try writer.pointee.member(key, value?.description)
    }
    mutating func member(_ key: StaticString, timeZone value: inout TimeZone) throws {
        try writer.pointee.member(key, value.identifier)
    }
    mutating func member<Value: RawRepresentable & CaseIterable>(_ key: StaticString, raw value: inout Value?) throws
    where Value.RawValue == String { try writer.pointee.member(key, value?.rawValue) }
    mutating func member(_ key: StaticString, minute value: inout Date) throws {
        try writer.pointee.member(key, minute: value)
    }
    mutating func member(_ key: StaticString, timestamp value: inout Date) throws {
        try writer.pointee.member(key, timestamp: value)
    }
    mutating func member(_ key: StaticString, timestamp value: inout Date?) throws {
        try writer.pointee.member(key, timestamp: value)
    }
    mutating func member(_ key: StaticString, cents value: inout Money) throws {
        try writer.pointee.member(key, value.cents)
    }
    mutating func member(_ key: StaticString, cents value: inout Money?) throws {
        try writer.pointee.member(key, value.map { Int($0.cents) })
    }
    mutating func member<Value: RawRepresentable & CaseIterable>(
        _ key: StaticString, raw value: inout Value, absent: Value?
    ) throws where Value.RawValue == String { try writer.pointee.member(key, value.rawValue) }
    mutating func member(_ key: StaticString, allergens value: inout Set<Allergen>) throws {
        try writer.pointee.member(key, encoded: Allergen.codes(value))
    }
    mutating func member(_ key: StaticString, basisPoints value: inout VATRate?) throws {
        try writer.pointee.member(key, value?.basisPoints)
    }
    mutating func member(_ key: StaticString, basisPoints value: inout VATRate, absent: VATRate) throws {
        try writer.pointee.member(key, value.basisPoints)
    }
    mutating func member<Value: Codable>(_ key: StaticString, encoded value: inout Value, absent: Value) throws {
        try writer.pointee.member(key, encoded: value)
    }
    mutating func member<Value: JSONMembers & Decodable>(_ key: StaticString, object value: inout Value) throws {
        try writer.pointee.member(key, object: value)
    }
    mutating func member<Value: JSONMembers & Decodable>(_ key: StaticString, object value: inout Value?) throws {
        try writer.pointee.member(key, object: value)
    }
    mutating func member<Element: JSONMembers & Decodable>(_ key: StaticString, objects value: inout [Element]) throws {
        try writer.pointee.member(key, objects: value)
    }
    mutating func member<Element: JSONMembers & Decodable>(_ key: StaticString, assembled value: inout [Element])
        throws
    {
        try writer.pointee.member(key, objects: value)
    }
    mutating func derived(_ key: StaticString, _ value: @autoclosure () -> String?) throws {
        try writer.pointee.member(key, value())
    }
    mutating func derived(_ key: StaticString, _ value: @autoclosure () -> Bool) throws {
        try writer.pointee.member(key, value())
    }
    mutating func derived(_ key: StaticString, _ value: @autoclosure () -> Int64) throws {
        try writer.pointee.member(key, value())
    }
    mutating func derived(_ key: StaticString, plain value: @autoclosure () -> Money) throws {
        try writer.pointee.member(key, plain: value())
    }
    mutating func derived<Value: JSONMembers>(_ key: StaticString, object value: @autoclosure () -> Value?) throws {
        try writer.pointee.member(key, object: value())
    }
    mutating func derived<Element: JSONMembers>(_ key: StaticString, objects value: @autoclosure () -> [Element])
        throws
    { try writer.pointee.member(key, objects: value()) }
}

/// The nil UUID, made once: a blank record's ids are placeholders every init makes, and making a
/// UUID from its bytes is a call into Foundation.
private let nilUUID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

extension Identifier {
    /// The placeholder of a blank record's id (the nil UUID), which reading replaces.
    static var blank: Identifier { Identifier(uuid: nilUUID) }
}
