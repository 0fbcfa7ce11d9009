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
        // Nearly every text is printable ASCII: one pass over the bytes decides.
        if text.utf8.allSatisfy({ byte in
            (0x20...0x7E).contains(byte) || (layout == .lines && (byte == 0x0A || byte == 0x09))
        }) {
            return text
        }
        guard text.unicodeScalars.contains(where: { needsEscape($0, layout) }) else { return text }
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

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
