/// Text bound for a terminal, with every character that could control it shown escaped.
///
/// Names, notes, deep links and handles come from outside (a client's JSON, an analyst's
/// `sqlite3`, a crafted link): printed raw, an ESC or OSC sequence among them could recolour
/// the screen, retitle the window, hide the rest of a line or, on some terminals, answer back
/// into the shell. So everything written for people — tables, pages, watch lines, messages and
/// hints — passes through here; JSON, CSV and TSV stay byte for byte exact.
///
/// C0 controls, DEL and C1 controls are written `\x1b`, `\x7f`, `\u009b`; the bidirectional
/// overrides and isolates (which reorder what a line shows) and the line and paragraph
/// separators `\u202e`, `\u2028`.
enum TerminalText {
    /// What may stay as it is.
    enum Layout {
        /// One line, such as a table cell: newlines and tabs are escaped too.
        case line
        /// A message or a page: its newlines and tabs stay.
        case lines
    }

    /// `text` with its control characters escaped.
    static func escaped(_ text: String, _ layout: Layout = .lines) -> String {
        // Nearly every text needs nothing: one pass over its bytes decides.
        guard withUTF8(text, { needsEscape(utf8: $0, layout) }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar, layout) {
                result +=
                    scalar.value < 0x80 ? "\\x" + hex(scalar.value, digits: 2) : "\\u" + hex(scalar.value, digits: 4)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether a character is shown escaped.
    static func needsEscape(_ scalar: Unicode.Scalar, _ layout: Layout) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: layout == .line
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        default: false
        }
    }

    /// ``needsEscape(_:_:)`` for any scalar of valid UTF-8, read byte by byte: the controls
    /// are single bytes (C0, DEL), `C2 80…9F` (C1) and `E2 80 A8…AE`, `E2 81 A6…A9` (the
    /// separators, overrides and isolates).
    static func needsEscape(utf8 bytes: UnsafeBufferPointer<UInt8>, _ layout: Layout) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte < 0x20 || byte == 0x7F {
                if layout == .line || (byte != 0x0A && byte != 0x09) { return true }
            } else if byte == 0xC2, index + 1 < count, (0x80...0x9F).contains(bytes[index + 1]) {
                return true
            } else if byte == 0xE2, index + 2 < count {
                let (second, third) = (bytes[index + 1], bytes[index + 2])
                if second == 0x80, (0xA8...0xAE).contains(third) { return true }
                if second == 0x81, (0xA6...0xA9).contains(third) { return true }
            }
            index += 1
        }
        return false
    }

    /// Calls `body` with the text's UTF-8 bytes, in place when the string is contiguous (native
    /// strings are), else copied.
    static func withUTF8<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
