/// A strict check of JSON text before anything parses it: valid syntax (RFC 8259), nesting no
/// deeper than a limit, and no object with the same key twice.
///
/// Foundation's parsers disagree about duplicate keys (one keeps the last, another fails) and
/// nest as deep as the stack allows; checking first makes both import formats treat every input
/// the same way, in time and memory proportional to the input.
enum JSONCheck {
    /// Why the text was refused.
    enum Problem: Error, Equatable {
        /// Not JSON; `offset` is the byte where it stopped making sense.
        case invalid(offset: Int)
        /// Arrays and objects nested deeper than the limit.
        case tooDeep(limit: Int)
        /// An object with the same key twice.
        case duplicateKey(String)

        /// A phrase for the `input:` error.
        var reason: String {
            switch self {
            case .invalid(let offset): "is not JSON (at byte \(offset + 1))"
            case .tooDeep(let limit): "is nested too deep (more than \(limit) levels of arrays and objects)"
            case .duplicateKey(let key): "has an object with the key \"\(key)\" twice"
            }
        }
    }

    static func validate(_ text: String, maximumDepth: Int) throws(Problem) {
        var scanner = Scanner(bytes: Array(text.utf8), maximumDepth: maximumDepth)
        try scanner.skipSpace()
        try scanner.value(depth: 0)
        try scanner.skipSpace()
        guard scanner.index == scanner.bytes.count else { throw .invalid(offset: scanner.index) }
    }

    private struct Scanner {
        let bytes: [UInt8]
        let maximumDepth: Int
        var index = 0

        init(bytes: [UInt8], maximumDepth: Int) {
            self.bytes = bytes
            self.maximumDepth = maximumDepth
        }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() throws(Problem) {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        mutating func expect(_ byte: UInt8) throws(Problem) {
            guard current == byte else { throw .invalid(offset: index) }
            index += 1
        }

        mutating func value(depth: Int) throws(Problem) {
            switch current {
            case UInt8(ascii: "{"): try object(depth: depth + 1)
            case UInt8(ascii: "["): try array(depth: depth + 1)
            case UInt8(ascii: "\""): _ = try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            default: try number()
            }
        }

        mutating func object(depth: Int) throws(Problem) {
            guard depth <= maximumDepth else { throw .tooDeep(limit: maximumDepth) }
            try expect(UInt8(ascii: "{"))
            try skipSpace()
            if current == UInt8(ascii: "}") { index += 1; return }
            var keys = Set<String>()
            while true {
                try skipSpace()
                let key = try string()
                guard keys.insert(key).inserted else { throw .duplicateKey(key) }
                try skipSpace()
                try expect(UInt8(ascii: ":"))
                try skipSpace()
                try value(depth: depth)
                try skipSpace()
                if current == UInt8(ascii: ",") { index += 1; continue }
                try expect(UInt8(ascii: "}"))
                return
            }
        }

        mutating func array(depth: Int) throws(Problem) {
            guard depth <= maximumDepth else { throw .tooDeep(limit: maximumDepth) }
            try expect(UInt8(ascii: "["))
            try skipSpace()
            if current == UInt8(ascii: "]") { index += 1; return }
            while true {
                try skipSpace()
                try value(depth: depth)
                try skipSpace()
                if current == UInt8(ascii: ",") { index += 1; continue }
                try expect(UInt8(ascii: "]"))
                return
            }
        }

        /// A string, returned decoded enough to compare keys (escapes kept as written, except
        /// that `\uXXXX` of an ASCII character is decoded, so `"a"` and `"\u0061"` are one key).
        mutating func string() throws(Problem) -> String {
            try expect(UInt8(ascii: "\""))
            var decoded: [UInt8] = []
            while let byte = current {
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: decoded, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard let escaped = current else { throw .invalid(offset: index) }
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "u"):
                        guard index + 4 <= bytes.count,
                            let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
                        else {
                            throw .invalid(offset: index)
                        }
                        index += 4
                        decoded += code < 0x80 ? [UInt8(code)] : Array("\\u\(String(code, radix: 16))".utf8)
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                        decoded.append(escaped)
                    case UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        decoded += [UInt8(ascii: "\\"), escaped]
                    default:
                        throw .invalid(offset: index - 1)
                    }
                case 0x00..<0x20:
                    throw .invalid(offset: index - 1)
                default:
                    decoded.append(byte)
                }
            }
            throw .invalid(offset: index)
        }

        mutating func literal(_ word: String) throws(Problem) {
            for byte in word.utf8 { try expect(byte) }
        }

        mutating func number() throws(Problem) {
            let start = index
            if current == UInt8(ascii: "-") { index += 1 }
            guard let first = current, (0x30...0x39).contains(first) else { throw .invalid(offset: start) }
            if first == 0x30 { index += 1 } else { digits() }
            if current == UInt8(ascii: ".") {
                index += 1
                guard let byte = current, (0x30...0x39).contains(byte) else { throw .invalid(offset: index) }
                digits()
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard let byte = current, (0x30...0x39).contains(byte) else { throw .invalid(offset: index) }
                digits()
            }
        }

        mutating func digits() {
            while let byte = current, (0x30...0x39).contains(byte) { index += 1 }
        }
    }
}
