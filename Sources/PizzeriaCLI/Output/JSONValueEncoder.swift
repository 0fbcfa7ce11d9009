import Foundation

/// Encodes any `Encodable` into a ``JSONValue`` for ``JSONTextWriter``: the documented shapes
/// come from the models' own `encode(to:)`, so there is one definition of each shape, and the
/// text is what `JSONEncoder` would write — without its per-value boxing and dictionary, which
/// made a 10,000-pizza list five times slower than `sqlite3 -json`.
struct JSONValueEncoder {
    /// The value `value` encodes to.
    static func value<T: Encodable>(_ value: T) throws -> JSONValue {
        if let primitive = try primitive(value) { return primitive }
        let encoder = TreeEncoder(codingPath: [])
        try value.encode(to: encoder)
        return encoder.storage ?? .object(JSONValue.Object())
    }

    /// Values `JSONEncoder` writes itself instead of asking them to encode.
    static func primitive<T: Encodable>(_ value: T) throws -> JSONValue? {
        switch value {
        case let text as String: return .string(text)
        case let number as Int: return .number(String(number))
        case let number as Int64: return .number(String(number))
        case let flag as Bool: return .bool(flag)
        case let number as Int32: return .number(String(number))
        case let number as UInt64: return .number(String(number))
        case let number as UInt32: return .number(String(number))
        case let number as Double: return try floating(number)
        case let number as Float: return try floating(Double(number))
        case let url as URL: return .string(url.absoluteString)
        default: return nil
        }
    }

    /// Floating-point text exactly as `JSONEncoder` writes it (rare in our shapes, so delegated).
    static func floating(_ number: Double) throws -> JSONValue {
        let encoder = JSONEncoder()
        return .number(String(decoding: try encoder.encode(number), as: UTF8.self))
    }
}

/// The `Encoder` behind ``JSONValueEncoder``.
private final class TreeEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// What was encoded; `nil` until something is.
    var storage: JSONValue?

    init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        // Asked twice, the same object (Extended adds a key to a model's own object).
        if case .object(let object) = storage {
            return KeyedEncodingContainer(KeyedContainer<Key>(object: object, codingPath: codingPath))
        }
        let object = JSONValue.Object()
        storage = .object(object)
        return KeyedEncodingContainer(KeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array(let array) = storage { return UnkeyedContainer(array: array, codingPath: codingPath) }
        let array = JSONValue.Array()
        storage = .array(array)
        return UnkeyedContainer(array: array, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueContainer(encoder: self) }

    /// A nested value: a primitive directly, anything else through its own encoder. The coding
    /// path is built only then (most values are primitives, and paths cost an allocation).
    static func encode<T: Encodable>(_ value: T, at path: @autoclosure () -> [any CodingKey]) throws -> JSONValue {
        if let primitive = try JSONValueEncoder.primitive(value) { return primitive }
        let encoder = TreeEncoder(codingPath: path())
        try value.encode(to: encoder)
        return encoder.storage ?? .object(JSONValue.Object())
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: JSONValue.Object
    let codingPath: [any CodingKey]

    private func set(_ value: JSONValue, _ key: Key) {
        // A key encoded twice keeps its last value, as in JSONEncoder's dictionary.
        if let index = object.members.firstIndex(where: { $0.key == key.stringValue }) {
            object.members[index].value = value
        } else {
            object.members.append((key.stringValue, value))
        }
    }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try JSONValueEncoder.floating(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        set(try JSONValueEncoder.floating(Double(value)), key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(.number(String(value)), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        set(try TreeEncoder.encode(value, at: codingPath + [key]), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = JSONValue.Object()
        set(.object(nested), key)
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(object: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = JSONValue.Array()
        set(.array(nested), key)
        return UnkeyedContainer(array: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: "super", path: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(named: key.stringValue, path: codingPath + [key])
    }

    private func superEncoder(named name: String, path: [any CodingKey]) -> any Encoder {
        AttachingEncoder(codingPath: path) { [object] value in
            object.members.removeAll { $0.key == name }
            object.members.append((name, value))
        }
    }
}

/// An encoder whose value is put in place (under a key, or into an array slot) as soon as it
/// is written: what `superEncoder()` hands out.
private final class AttachingEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    private let inner: TreeEncoder
    private let place: (JSONValue) -> Void

    init(codingPath: [any CodingKey], place: @escaping (JSONValue) -> Void) {
        self.codingPath = codingPath
        self.place = place
        inner = TreeEncoder(codingPath: codingPath)
    }

    private func attach() { if let value = inner.storage { place(value) } }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        defer { attach() }
        return inner.container(keyedBy: type)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        defer { attach() }
        return inner.unkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: inner, then: attach)
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let array: JSONValue.Array
    let codingPath: [any CodingKey]
    var count: Int { array.values.count }

    private struct Index: CodingKey {
        let intValue: Int?
        var stringValue: String { "Index \(intValue ?? 0)" }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    mutating func encodeNil() throws { array.values.append(.null) }
    mutating func encode(_ value: Bool) throws { array.values.append(.bool(value)) }
    mutating func encode(_ value: String) throws { array.values.append(.string(value)) }
    mutating func encode(_ value: Double) throws { array.values.append(try JSONValueEncoder.floating(value)) }
    mutating func encode(_ value: Float) throws { array.values.append(try JSONValueEncoder.floating(Double(value))) }
    mutating func encode(_ value: Int) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: Int8) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: Int16) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: Int32) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: Int64) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: UInt) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: UInt8) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: UInt16) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: UInt32) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: UInt64) throws { array.values.append(.number(String(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        array.values.append(try TreeEncoder.encode(value, at: codingPath + [Index(count)]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        let nested = JSONValue.Object()
        array.values.append(.object(nested))
        return KeyedEncodingContainer(
            KeyedContainer<NestedKey>(object: nested, codingPath: codingPath + [Index(count - 1)]))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = JSONValue.Array()
        array.values.append(.array(nested))
        return UnkeyedContainer(array: nested, codingPath: codingPath + [Index(count - 1)])
    }

    mutating func superEncoder() -> any Encoder {
        // Rare; the placeholder is replaced when the super encoder is written to.
        let index = count
        array.values.append(.null)
        return AttachingEncoder(codingPath: codingPath + [Index(index)]) { [array] value in array.values[index] = value
        }
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var then: () -> Void = {}
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ value: JSONValue) {
        encoder.storage = value
        then()
    }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try JSONValueEncoder.floating(value)) }
    mutating func encode(_ value: Float) throws { set(try JSONValueEncoder.floating(Double(value))) }
    mutating func encode(_ value: Int) throws { set(.number(String(value))) }
    mutating func encode(_ value: Int8) throws { set(.number(String(value))) }
    mutating func encode(_ value: Int16) throws { set(.number(String(value))) }
    mutating func encode(_ value: Int32) throws { set(.number(String(value))) }
    mutating func encode(_ value: Int64) throws { set(.number(String(value))) }
    mutating func encode(_ value: UInt) throws { set(.number(String(value))) }
    mutating func encode(_ value: UInt8) throws { set(.number(String(value))) }
    mutating func encode(_ value: UInt16) throws { set(.number(String(value))) }
    mutating func encode(_ value: UInt32) throws { set(.number(String(value))) }
    mutating func encode(_ value: UInt64) throws { set(.number(String(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws { set(try TreeEncoder.encode(value, at: codingPath)) }
}
