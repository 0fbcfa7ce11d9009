/// How many columns text takes on a terminal or a thermal printer's fixed-width font: most
/// characters one, East Asian wide and fullwidth characters and emoji two, combining marks and
/// invisible format characters none (after Unicode's East Asian Width, UAX #11, and the emoji
/// presentation property). Kitchen tickets and the tables of the CLI lay text out with it.
public enum DisplayWidth {
    /// The columns `text` takes.
    public static func of<S: StringProtocol>(_ text: S) -> Int {
        // ASCII is the common case: one column per byte, no grapheme breaking needed.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return text.reduce(0) { $0 + of(character: $1) }
    }

    /// The columns one character (grapheme cluster) takes: 0, 1 or 2.
    public static func of(character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        // An emoji shown as one: presented as emoji by default, or asked to be (VS16), or a
        // sequence joined with ZWJ or a pair of regional indicators (a flag).
        if first.properties.isEmojiPresentation
            || (first.properties.isEmoji && scalars.contains { $0.value == 0xFE0F })
            || (scalars.count > 1 && first.properties.isEmoji && first.value > 0xFF
                && scalars.contains { $0.value == 0x200D })
        {
            return 2
        }
        if isWide(first.value) { return 2 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: return 1
        }
    }

    /// Whether a scalar is East Asian wide or fullwidth (the main blocks of UAX #11's W and F).
    static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
            0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default: false
        }
    }

    /// `text` cut to at most `width` columns (never in the middle of a character).
    public static func prefix(_ text: String, width: Int) -> String {
        var out = "", used = 0
        for character in text {
            let columns = of(character: character)
            guard used + columns <= width else { break }
            out.append(character)
            used += columns
        }
        return out
    }

    /// `text` laid out in lines of at most `width` columns, broken between words; a word longer
    /// than a line is cut. Every line after the first is indented by `indent` columns (the
    /// first carries its own leading spaces).
    public static func wrap(_ text: String, width: Int, indent: Int = 0) -> [String] {
        let pad = String(repeating: " ", count: max(0, min(indent, width / 2)))
        var lines: [String] = [], current = "", used = 0
        let lead = String(text.prefix { $0 == " " })
        current = lead
        used = lead.count
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            var word = String(word)
            var columns = of(word)
            let fresh = current.isEmpty || current == lead || current == pad
            if !fresh && used + 1 + columns <= width {
                current += " " + word
                used += 1 + columns
                continue
            }
            if !fresh {
                lines.append(current)
                (current, used) = (pad, pad.count)
            }
            while used + columns > width {
                let piece = prefix(word, width: width - used)
                guard !piece.isEmpty else { break }
                lines.append(current + piece)
                word = String(word.dropFirst(piece.count))
                columns = of(word)
                (current, used) = (pad, pad.count)
            }
            current += word
            used += columns
        }
        lines.append(current)
        return lines
    }
}
