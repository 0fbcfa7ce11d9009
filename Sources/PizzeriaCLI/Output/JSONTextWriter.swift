import Foundation
import PizzeriaServices

/// Writes JSON text byte for byte as Foundation's `JSONEncoder` does with
/// `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]` (or without `.prettyPrinted`):
/// `"key" : value`, two spaces per level, an empty container as `[` + two newlines + `]`, only
/// `"`, `\` and control characters escaped. The CLI's tests compare both on every documented shape.
struct JSONTextWriter {
    /// Pretty-printed (indented, one member per line) or compact.
    let pretty: Bool
    /// The text so far (a list flushes it as it grows).
    let bytes: OutputBuffer

    init(pretty: Bool, into bytes: OutputBuffer = OutputBuffer()) {
        self.pretty = pretty
        self.bytes = bytes
    }

    /// Members written so far in each container opened with ``beginObject()`` or ``beginArray()``.
    private var open: [Int] = []
    /// The nesting of the value being written when it is part of a larger text (a list's
    /// elements are at depth 1).
    var baseDepth = 0
    private var depth: Int { baseDepth + open.count }

    // MARK: Writing directly, for the shapes lists print by the thousand (see JSONTextWriter+Members.swift)

    mutating func beginObject() { begin(UInt8(ascii: "{")) }
    mutating func endObject() { end(UInt8(ascii: "}")) }
    mutating func beginArray() { begin(UInt8(ascii: "[")) }
    mutating func endArray() { end(UInt8(ascii: "]")) }

    private mutating func begin(_ bracket: UInt8) {
        bytes.append(bracket)
        open.append(0)
    }

    private mutating func end(_ bracket: UInt8) {
        let count = open.removeLast()
        close(bracket, empty: count == 0, depth: depth)
    }

    /// Starts the next member of the open object; its value follows. Keys must come in sorted
    /// order (the tests compare with `JSONEncoder`).
    mutating func key(_ key: String) {
        nextMember()
        writeString(key)
        keyValueSeparator()
    }

    /// A key known at compile time (plain ASCII, nothing to escape): copied, not scanned.
    mutating func key(_ key: StaticString) {
        nextMember()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(key)
        bytes.append(UInt8(ascii: "\""))
        keyValueSeparator()
    }

    /// `" : "` pretty, `":"` compact: between a key and its value.
    private mutating func keyValueSeparator() {
        if pretty { bytes.append(" : " as StaticString) } else { bytes.append(UInt8(ascii: ":")) }
    }

    /// Starts the next element of the open array; its value follows.
    mutating func nextElement() { nextMember() }

    private mutating func nextMember() {
        separator(first: open[open.count - 1] == 0, depth: depth)
        open[open.count - 1] += 1
    }

    mutating func field(_ name: StaticString, _ text: String?) {
        key(name)
        if let text { writeString(text) } else { append("null") }
    }

    /// An id, copied from its text buffer (no `String` per id).
    mutating func field<Entity>(_ name: StaticString, id: Identifier<Entity>) {
        key(name)
        bytes.append(UInt8(ascii: "\""))
        id.withText { bytes.append($0) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A stored timestamp (`YYYY-MM-DDTHH:MM:SS.sssZ`), or `null`.
    mutating func field(_ name: StaticString, timestamp date: Date?) {
        key(name)
        guard let date else { return bytes.append("null" as StaticString) }
        bytes.append(UInt8(ascii: "\""))
        Timestamp.withText(date) { bytes.append($0) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A pickup time as stored (`YYYY-MM-DDTHH:MM:SSZ`).
    mutating func field(_ name: StaticString, pickupUTC date: Date) {
        key(name)
        bytes.append(UInt8(ascii: "\""))
        PickupTime.withUTCText(date) { bytes.append($0) }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func field<Number: BinaryInteger>(_ name: StaticString, _ number: Number) {
        key(name)
        appendInteger(Int64(number))
    }

    /// Decimal digits without building a `String` (lists print several numbers per row).
    mutating func appendInteger(_ number: Int64) {
        if number < 0 {
            guard number != .min else { return append(String(number)) }
            bytes.append(UInt8(ascii: "-"))
        }
        var magnitude = number.magnitude, digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(48 + magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
    }

    mutating func field(_ name: StaticString, _ flag: Bool) {
        key(name)
        append(flag ? "true" : "false")
    }

    /// Any value at the current nesting: a ``JSONMembers`` shape streamed member by member, any
    /// other `Encodable` through Foundation's `JSONEncoder` (whose bytes the streamed shapes equal),
    /// indented to where it lands.
    mutating func encoded<T: Encodable>(_ value: T) throws {
        if let shape = value as? any JSONMembers { return try writeObject(shape) }
        // A list of strings (an item's allergen codes) is streamed too: through JSONEncoder it
        // cost half of `pizza list --json`.
        if let strings = value as? [String] {
            beginArray()
            for string in strings {
                nextElement()
                writeString(string)
            }
            return endArray()
        }
        let data = try (pretty ? Self.prettyEncoder : Self.compactEncoder).encode(value)
        let indent = pretty ? depth * 2 : 0
        let newline = UInt8(ascii: "\n")
        for (index, byte) in zip(data.indices, data) {
            bytes.append(byte)
            // JSONEncoder escapes newlines inside strings: a raw one is always layout. The blank
            // line of an empty array (`[\n\n]`) stays blank, as JSONEncoder prints it nested.
            let next = data.index(after: index)
            if byte == newline, next == data.endIndex || data[next] != newline {
                for _ in 0..<indent { bytes.append(UInt8(ascii: " ")) }
            }
        }
    }

    private static var prettyEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    private static var compactEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Byte order of the UTF-8 text (Unicode scalar order, as `.sortedKeys` sorts).
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        var lhs = lhs, rhs = rhs
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                let common = min(left.count, right.count)
                if common > 0, let a = left.baseAddress, let b = right.baseAddress {
                    let order = memcmp(a, b, common)
                    if order != 0 { return order < 0 }
                }
                return left.count < right.count
            }
        }
    }

    /// What goes before an element of a container: a newline (after a comma) and the indent.
    mutating func separator(first: Bool, depth: Int) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        guard pretty else { return }
        bytes.append(UInt8(ascii: "\n"))
        indent(depth)
    }

    /// Closes a container opened at `depth`.
    mutating func close(_ bracket: UInt8, empty: Bool, depth: Int) {
        if pretty {
            bytes.append(UInt8(ascii: "\n"))
            if empty { bytes.append(UInt8(ascii: "\n")) }
            indent(depth)
        }
        bytes.append(bracket)
    }

    private mutating func indent(_ depth: Int) {
        bytes.append(repeating: UInt8(ascii: " "), count: 2 * depth)
    }

    mutating func append(_ text: String) { bytes.append(text) }

    private static let hexDigits = Swift.Array("0123456789abcdef".utf8)

    mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            // Most text needs no escaping: one scan, one copy.
            var clean = true
            for byte in utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                clean = false
                break
            }
            guard !clean else {
                bytes.append(utf8)
                return
            }
            var runStart = 0
            for (index, byte) in utf8.enumerated()
            where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                default:
                    bytes.append("u00" as StaticString)
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 0x0F)])
                }
            }
            bytes.append(UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
