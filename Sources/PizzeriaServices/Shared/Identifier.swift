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
public struct Identifier<Entity>: Hashable, Comparable, Sendable, TextCodable {
    /// What its JSON text must be (``TextCodable``).
    public static var textForm: String { "a UUID" }

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
        withRandomBytes { raw in raw[6] = (raw[6] & 0x0F) | 0x40 }  // version 4
    }

    /// A new time-ordered (version 7, RFC 9562) id: the first 48 bits are `date` in milliseconds
    /// since 1970 (UTC), the other 74 free bits random. Ids made later sort after earlier ones (to
    /// the millisecond), so rows keyed by them are appended at the end of an index instead of on a
    /// random page of it — what orders use: a booking at a million orders then writes to the pages
    /// the last bookings wrote. The id says when it was made (to the millisecond).
    public static func timeOrdered(at date: Date) -> Self {
        let time = milliseconds(date)
        return withRandomBytes { raw in
            for index in 0..<6 { raw[index] = UInt8(truncatingIfNeeded: time >> (8 * (5 - index))) }
            raw[6] = (raw[6] & 0x0F) | 0x70  // version 7
        }
    }

    /// An id of 16 random bytes (`arc4random_buf`) that `set` gives its version (and time), with
    /// the RFC 9562 variant.
    private static func withRandomBytes(_ set: (UnsafeMutableRawBufferPointer) -> Void) -> Self {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { raw in
            if let base = raw.baseAddress { arc4random_buf(base, raw.count) }
            set(raw)
            raw[8] = (raw[8] & 0x3F) | 0x80
        }
        return Self(uuid: UUID(uuid: bytes))
    }

    /// `date` in whole milliseconds since 1970, within the 48 bits a version 7 id holds.
    private static func milliseconds(_ date: Date) -> UInt64 {
        UInt64(max(0, min((date.timeIntervalSince1970 * 1_000).rounded(.down), 0xFFFF_FFFF_FFFF)))
    }

    /// The first 13 characters (`019af232-b200`) of the text of every version 7 id made at
    /// `date`'s millisecond: ids made from `date` on sort at or after it.
    static func timePrefix(_ date: Date) -> String {
        let digits = String(milliseconds(date), radix: 16)
        let hex = String(repeating: "0", count: 12 - digits.count) + digits
        return String(hex.prefix(8)) + "-" + String(hex.suffix(4))
    }

    /// Whether this is a time-ordered (version 7) id, whose text starts with its time.
    public var isTimeOrdered: Bool { uuid.uuid.6 >> 4 == 7 }

    /// Lowercase UUID text, as stored. Written by hand: Foundation's `uuidString` formats each
    /// byte with `snprintf`, which every bound id would pay for.
    public var description: String {
        withText { text in String(unsafeUninitializedCapacity: 36) { $0.initialize(fromContentsOf: text) } }
    }

    /// 8 characters that tell ids apart at a glance (tables, the board, receipts): the first 8 of
    /// a random (version 4) id; the **last** 8 of a time-ordered (version 7) one, whose first
    /// characters are its time and are shared by every id made in the same minute. The database's
    /// views say the same (`CASE WHEN substr(id, 15, 1) = '7' THEN substr(id, 29, 8) ELSE substr(id,
    /// 1, 8) END`), and ``LookupService`` finds an order by it.
    public var short: String {
        // Four bytes as hex, written straight into the string (tables print one per row).
        let first = isTimeOrdered ? 12 : 0
        return withUnsafeBytes(of: uuid.uuid) { raw in
            String(unsafeUninitializedCapacity: 8) { text in
                for index in 0..<4 {
                    text[2 * index] = Self.hexDigit(raw[first + index] >> 4)
                    text[2 * index + 1] = Self.hexDigit(raw[first + index] & 0x0F)
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
    /// carries ids, so this is a hot path. The 32 digits are read as four words of eight bytes,
    /// each checked and converted in a few word operations (``hexWord(_:)``), not byte by byte.
    init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 36, let text = bytes.baseAddress,
            text[8] == 45, text[13] == 45, text[18] == 45, text[23] == 45
        else { return nil }
        let raw = UnsafeRawPointer(text)
        func word(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        func half(_ offset: Int) -> UInt64 {
            UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }
        // 8 digits; 4 + 4 (around a hyphen); 4 + 4; the last 12 as 4 + 8.
        guard let a = Self.hexWord(word(0)), let b = Self.hexWord(half(9) | half(14) << 32),
            let c = Self.hexWord(half(19) | half(24) << 32), let d = Self.hexWord(word(28))
        else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &value) { out in
            out.storeBytes(of: a.littleEndian, toByteOffset: 0, as: UInt32.self)
            out.storeBytes(of: b.littleEndian, toByteOffset: 4, as: UInt32.self)
            out.storeBytes(of: c.littleEndian, toByteOffset: 8, as: UInt32.self)
            out.storeBytes(of: d.littleEndian, toByteOffset: 12, as: UInt32.self)
        }
        uuid = UUID(uuid: value)
    }

    /// Eight hex digits (either case), the first in the word's lowest byte, as the four bytes they
    /// spell — the first digit pair in the result's lowest byte — or `nil` if any byte is not a
    /// digit. SWAR: each byte's range tests are additions whose carries land in its high bit.
    @inline(__always)
    static func hexWord(_ x: UInt64) -> UInt32? {
        let high: UInt64 = 0x8080_8080_8080_8080
        guard x & high == 0 else { return nil }  // ASCII only: the additions below cannot carry over
        let digit = (x &+ 0x5050_5050_5050_5050) & ~(x &+ 0x4646_4646_4646_4646) & high  // 0x30 ... 0x39
        let lower = x | 0x2020_2020_2020_2020
        let letter = (lower &+ 0x1F1F_1F1F_1F1F_1F1F) & ~(lower &+ 0x1919_1919_1919_1919) & high  // a ... f, A ... F
        guard digit | letter == high else { return nil }
        let nibbles = (x & 0x0F0F_0F0F_0F0F_0F0F) &+ (letter >> 7) &* 9
        // Pairs of nibbles into bytes (first digit high), then the four bytes side by side.
        let pairs = ((nibbles << 4) | (nibbles >> 8)) & 0x00FF_00FF_00FF_00FF
        let quads = (pairs | (pairs >> 8)) & 0x0000_FFFF_0000_FFFF
        return UInt32(truncatingIfNeeded: quads | (quads >> 16))
    }
}

/// The 36 bytes of a UUID's text as a row holds them, compared without parsing: for matching the
/// rows of statements stepped side by side by an id they share (the menu read's variants and
/// groups to their item, whose `pizza_id = id` is a comparison of these bytes).
struct UUIDText: Equatable {
    private let words: (UInt64, UInt64, UInt64, UInt64, UInt32)

    /// The text of the `TEXT` column `column` of `row`.
    /// - Throws: when it is not 36 bytes of text.
    init(_ row: Row, _ column: Column) throws {
        guard
            let words = try row.withUTF8(
                column,
                { bytes -> (UInt64, UInt64, UInt64, UInt64, UInt32)? in
                    guard bytes.count == 36, let text = bytes.baseAddress else { return nil }
                    let raw = UnsafeRawPointer(text)
                    return (
                        raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                        raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self),
                        raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self),
                        raw.loadUnaligned(fromByteOffset: 32, as: UInt32.self)
                    )
                })
        else { throw DatabaseError.typeMismatchValue("a UUID in column \(row.name(of: column))") }
        self.words = words
    }

    static func == (left: UUIDText, right: UUIDText) -> Bool {
        left.words.0 == right.words.0 && left.words.1 == right.words.1 && left.words.2 == right.words.2
            && left.words.3 == right.words.3 && left.words.4 == right.words.4
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
