import Foundation
import PizzeriaStorage

/// A typed id: `Pizza.ID`, `Order.ID` and `User.ID` are distinct types over a UUID, so one can
/// never be passed where another is expected.
///
/// Written as lowercase UUID text (in the database, in JSON, by `description`); read in any case,
/// since Swift's `JSONEncoder` writes `UUID`s in uppercase.
///
/// ```swift
/// let id = Pizza.ID("3D83A1B2-0C5E-4F7A-9B1D-2E3F4A5B6C7D")   // an id, or nil
/// try pizzeria.menu.pizza(id: id!)
/// ```
public struct Identifier<Entity>: Hashable, Comparable, Sendable, Codable, LosslessStringConvertible {
    /// The UUID.
    public let uuid: UUID

    /// The id of a UUID.
    public init(uuid: UUID) { self.uuid = uuid }

    /// Parses UUID text in any case; `nil` for anything else.
    public init?(_ description: String) {
        guard description.utf8.count == 36, let uuid = UUID(uuidString: description) else { return nil }
        self.uuid = uuid
    }

    /// A new random (version 4) id: 16 bytes from glibc's `arc4random_buf` (one `getrandom`
    /// call), without opening `/dev/urandom` for each id as Foundation's `UUID()` does there.
    public static func random() -> Self {
        var bytes: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &bytes) { raw in
            if let base = raw.baseAddress { arc4random_buf(base, raw.count) }
        }
        return withUnsafeMutableBytes(of: &bytes) { raw in
            raw[6] = (raw[6] & 0x0F) | 0x40  // version 4
            raw[8] = (raw[8] & 0x3F) | 0x80  // RFC 4122 variant
            return Self(
                uuid: UUID(
                    uuid: (
                        raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                        raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]
                    )))
        }
    }

    /// Lowercase UUID text, as stored. Written by hand: Foundation's `uuidString` formats each
    /// byte with `snprintf`, which every bound id would pay for.
    public var description: String {
        withText { text in String(unsafeUninitializedCapacity: 36) { $0.initialize(fromContentsOf: text) } }
    }

    /// The first 8 characters: enough for people to tell ids apart at a glance.
    public var short: String {
        // The first four bytes as hex, written straight into the string (tables print one per row).
        withUnsafeBytes(of: uuid.uuid) { raw in
            String(unsafeUninitializedCapacity: 8) { text in
                for index in 0..<4 {
                    text[2 * index] = Self.hexDigit(raw[index] >> 4)
                    text[2 * index + 1] = Self.hexDigit(raw[index] & 0x0F)
                }
                return 8
            }
        }
    }

    /// Calls `body` with the id's text (lowercase UUID, 36 ASCII bytes) in a stack buffer, valid
    /// only inside `body`: for writers that copy it straight into their output (lists print
    /// thousands of ids) without building a `String` for each.
    @inlinable  // specialised in the caller's module: lists call it for every id they print
    public func withText<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 36) { text in
            withUnsafeBytes(of: uuid.uuid) { raw in
                var position = 0
                for (index, byte) in raw.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[position] = 45
                        position += 1
                    }
                    text[position] = Self.hexDigit(byte >> 4)
                    text[position + 1] = Self.hexDigit(byte & 0x0F)
                    position += 2
                }
            }
            return try body(UnsafeBufferPointer(text))
        }
    }

    @usableFromInline
    static func hexDigit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 48 + nibble : 87 + nibble }

    /// Ordered as their text is (as the database orders them).
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.description < rhs.description }

    /// Reads UUID text in any case.
    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = Self(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not a UUID"))
        }
        self = id
    }

    /// Writes lowercase UUID text.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension Identifier: DatabaseValueConvertible {
    /// Bound as lowercase text.
    public var databaseValue: DatabaseValue { .text(description) }

    /// The lowercase text (36 bytes), written where the statement binds it: binding an id builds
    /// no `String`.
    public func writeDatabaseText(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        guard buffer.count >= 36 else { return nil }
        withUnsafeBytes(of: uuid.uuid) { raw in
            var position = 0
            for (index, byte) in raw.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    buffer[position] = 45
                    position += 1
                }
                buffer[position] = Self.hexDigit(byte >> 4)
                buffer[position + 1] = Self.hexDigit(byte & 0x0F)
                position += 2
            }
        }
        return 36
    }

    /// Reads stored text.
    public init(databaseValue: DatabaseValue) throws {
        guard case .text(let text) = databaseValue, let id = Self(text) else {
            throw DatabaseError.typeMismatchValue("a UUID")
        }
        self = id
    }
}

extension Identifier {
    /// Parses 36 bytes of UUID text (any case) without building a `String`: every row read
    /// carries ids, so this is a hot path. Each digit is one table lookup; an invalid byte maps
    /// to a value with the high bit set, checked once at the end.
    init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 36, let text = bytes.baseAddress,
            text[8] == 45, text[13] == 45, text[18] == 45, text[23] == 45
        else { return nil }
        let parsed: (UInt64, UInt64)? = hexDigitValues.withUnsafeBufferPointer { table in
            guard let table = table.baseAddress else { return nil }
            var high: UInt64 = 0, low: UInt64 = 0, invalid: UInt8 = 0
            @inline(__always) func digits(_ start: Int, _ end: Int, into value: inout UInt64) {
                var index = start
                while index < end {
                    let digit = table[Int(text[index])]
                    invalid |= digit
                    value = value << 4 | UInt64(digit & 0x0F)
                    index += 1
                }
            }
            digits(0, 8, into: &high)
            digits(9, 13, into: &high)
            digits(14, 18, into: &high)
            digits(19, 23, into: &low)
            digits(24, 36, into: &low)
            return invalid & 0x80 == 0 ? (high, low) : nil
        }
        guard let (high, low) = parsed else { return nil }
        let h = high.bigEndian, l = low.bigEndian
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &value) { raw in
            raw.storeBytes(of: h, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: l, toByteOffset: 8, as: UInt64.self)
        }
        uuid = UUID(uuid: value)
    }
}

/// The value of each byte as a hex digit (either case), or 0xFF for a byte that is not one.
private let hexDigitValues: [UInt8] = (0...255).map { byte -> UInt8 in
    switch UInt8(byte) {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt8(byte) - UInt8(ascii: "A") + 10
    default: 0xFF
    }
}

extension Row {
    /// A UUID column as a typed id, parsed from the column's bytes.
    func id<Entity>(_ column: Column, as type: Identifier<Entity>.Type = Identifier<Entity>.self) throws -> Identifier<
        Entity
    > {
        if let id = try withUTF8(column, { Identifier<Entity>(utf8: $0) }) { return id }
        throw DatabaseError.typeMismatchValue("a UUID in column \(name(of: column))")
    }

    /// The UUID column called `name` as a typed id.
    func id<Entity>(_ name: String, as type: Identifier<Entity>.Type = Identifier<Entity>.self) throws -> Identifier<
        Entity
    > {
        try id(try column(name))
    }
}

/// JSON text the stores bind as one parameter (`json_each(?)`).
enum JSONText {
    /// `["id1","id2"]`: ids are UUID text, so nothing needs escaping.
    static func array<Entity>(of ids: [Identifier<Entity>]) -> String {
        "[" + ids.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }

    /// `text` as a JSON string: quote, backslash and control characters escaped (RFC 8259 §7);
    /// everything else as it is (UTF-8).
    static func quoted(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
