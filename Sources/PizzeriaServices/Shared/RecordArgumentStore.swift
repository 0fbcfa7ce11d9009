import Foundation
import PizzeriaStorage

// The writing side of a stored record's one declaration: the value of each member as its table
// stores it, to bind to a statement. The same `members(_:)` list that reads a row gives the
// arguments that write one, so a column's stored form is not written again by hand.

extension StoredMembers {
    /// The stored form of the members named by `keys`, in that order: what a statement binds to
    /// write them (`INSERT INTO users (id, handle, …) VALUES (?, ?, …)`). A key the record does
    /// not store as a scalar (derived, assembled from other rows, JSON text its store writes, or
    /// unknown) is an internal error.
    func arguments(_ keys: [StaticString]) throws -> [DatabaseValue] { try arguments(named: keys.map(\.description)) }

    /// ``arguments(_:)`` by the keys' text.
    func arguments(named keys: [String]) throws -> [DatabaseValue] {
        var collector = MemberArguments()
        var copy = self
        try copy.members(&collector)
        return try keys.map { key in
            guard let value = collector.values[key] else { throw UnstoredMember(record: "\(Self.self)", key: key) }
            return value
        }
    }

    /// `INSERT INTO <table> (<keys>) VALUES (?, …)`: the statement that writes `keys` of a record
    /// whose members are its table's columns (the keys are the declaration's constants).
    static func insertStatement(_ keys: [StaticString]) -> String {
        "INSERT INTO " + table + " (" + keys.map(\.description).joined(separator: ", ") + ") VALUES ("
            + Array(repeating: "?", count: keys.count).joined(separator: ", ") + ")"
    }
}

/// A statement asked a record for a member it does not store as a column value: a mistake in
/// the library, not in the data.
struct UnstoredMember: PizzeriaFailure {
    let record: String
    let key: String
    var category: FailureCategory { .internal }
    var description: String { "\(record) stores no member '\(key)' as a column value" }
}

/// Collects each stored member's value in its stored form, by key.
struct MemberArguments: StoredMembersOnly {
    var values: [String: DatabaseValue] = [:]

    private mutating func put(_ key: StaticString, _ value: DatabaseValue) { values[key.description] = value }
    private mutating func put(_ key: StaticString, _ value: (any DatabaseValueConvertible)?) {
        put(key, value?.databaseValue ?? .null)
    }

    mutating func member(_ key: StaticString, _ value: inout String) throws { put(key, .text(value)) }
    mutating func member(_ key: StaticString, _ value: inout String?) throws { put(key, value) }
    mutating func member(_ key: StaticString, _ value: inout Int) throws { put(key, .integer(Int64(value))) }
    mutating func member(_ key: StaticString, _ value: inout Int?) throws { put(key, value.map { Int64($0) }) }
    mutating func member(_ key: StaticString, _ value: inout Int64) throws { put(key, .integer(value)) }
    mutating func member(_ key: StaticString, _ value: inout Int64?) throws { put(key, value) }
    mutating func member(_ key: StaticString, _ value: inout Bool, absent: Bool) throws {
        put(key, .integer(value ? 1 : 0))
    }
    mutating func member<Entity>(_ key: StaticString, _ value: inout Identifier<Entity>) throws { put(key, value) }
    mutating func member<Entity>(_ key: StaticString, _ value: inout RowNumber<Entity>, absent: RowNumber<Entity>?)
        throws
    { put(key, value) }
    mutating func member<Entity>(_ key: StaticString, _ value: inout RowNumber<Entity>?) throws { put(key, value) }
    mutating func member(_ key: StaticString, _ value: inout Int, absent: Int) throws {
        put(key, .integer(Int64(value)))
    }
    mutating func member<Value: TextCodable>(_ key: StaticString, text value: inout Value) throws {
        put(key, .text(value.description))
    }
    mutating func member<Value: TextCodable>(_ key: StaticString, text value: inout Value?) throws {
        put(key, value?.description)
    }
    mutating func member(_ key: StaticString, timeZone value: inout TimeZone) throws {
        put(key, .text(value.identifier))
    }
    mutating func member<Value: RawRepresentable & CaseIterable>(_ key: StaticString, raw value: inout Value?) throws
    where Value.RawValue == String { put(key, value?.rawValue) }
    mutating func member(_ key: StaticString, minute value: inout Date) throws {
        put(key, .text(PickupTime.utc(value)))
    }
    mutating func member(_ key: StaticString, timestamp value: inout Date) throws {
        put(key, .text(Timestamp.string(from: value)))
    }
    mutating func member(_ key: StaticString, timestamp value: inout Date?) throws {
        put(key, value.map(Timestamp.string(from:)))
    }
    mutating func member(_ key: StaticString, cents value: inout Money) throws { put(key, .integer(value.cents)) }
    mutating func member(_ key: StaticString, cents value: inout Money?) throws { put(key, value?.cents) }
    mutating func member<Value: RawRepresentable & CaseIterable>(
        _ key: StaticString, raw value: inout Value, absent: Value?
    ) throws where Value.RawValue == String { put(key, .text(value.rawValue)) }
    mutating func member(_ key: StaticString, allergens value: inout Set<Allergen>) throws {
        put(key, .integer(Allergen.bits(value)))
    }
    mutating func member(_ key: StaticString, basisPoints value: inout VATRate?) throws {
        put(key, value.map { Int64($0.basisPoints) })
    }
    mutating func member(_ key: StaticString, basisPoints value: inout VATRate, absent: VATRate) throws {
        put(key, .integer(Int64(value.basisPoints)))
    }
    // Structured members (JSON text in a row) have a stored form of their own, which their store
    // writes (a line's modifiers: the keys the schema's trigger checks, without the prices for
    // people); they are not arguments.
    mutating func member<Value: Codable>(_ key: StaticString, encoded value: inout Value, absent: Value) throws {}
    mutating func member<Value: JSONMembers & Decodable>(_ key: StaticString, object value: inout Value) throws {}
    mutating func member<Value: JSONMembers & Decodable>(_ key: StaticString, object value: inout Value?) throws {}
    mutating func member<Element: JSONMembers & Decodable>(_ key: StaticString, objects value: inout [Element])
        throws
    {}
    mutating func member<Element: JSONMembers & Decodable>(_ key: StaticString, assembled value: inout [Element])
        throws
    {}
}
