import Foundation

/// The rules for a pizza's name, shared by the add and edit flows.
///
/// A name is trimmed and Unicode NFC-normalised before it is checked or stored, so `Café` typed
/// with a combining accent and `Café` typed precomposed are the same name.
public enum PizzaName {
    /// The most user-perceived characters (grapheme clusters) a name may have.
    public static let maximumLength = 60
    /// The most Unicode code points a name may have (the database's hard ceiling: an emoji can
    /// take several code points).
    public static let maximumCodePoints = 240

    /// Trimmed and NFC-normalised `raw`.
    public static func normalize(_ raw: String) -> String {
        // Printable ASCII without spaces at either end is already trimmed and in NFC: most names,
        // and every save validates and normalises its name.
        if isPlainASCII(raw), raw.utf8.first != 0x20, raw.utf8.last != 0x20 { return raw }
        return raw.trimmingWhitespace().precomposedStringWithCanonicalMapping
    }

    /// Only printable ASCII (U+0020–U+007E): no control, bidi or invisible character can be in it.
    static func isPlainASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// The rules a normalised name breaks (empty when it is valid), uniqueness aside.
    public static func problems(_ name: String) -> [FieldError] {
        // Printable ASCII: one character per byte, nothing forbidden; visible unless all spaces.
        if isPlainASCII(name), !name.isEmpty, name.utf8.count <= maximumLength,
            name.utf8.contains(where: { $0 != 0x20 })
        {
            return []
        }
        return generalProblems(name)
    }

    /// ``problems(_:)`` for any text, character by character.
    static func generalProblems(_ name: String) -> [FieldError] {
        var errors: [FieldError] = []
        if name.isEmpty {
            errors.append(FieldError(field: "name", message: "must not be empty"))
        }
        if name.count > maximumLength {
            errors.append(
                FieldError(field: "name", message: "must be at most \(maximumLength) characters (has \(name.count))"))
        } else if name.unicodeScalars.count > maximumCodePoints {
            errors.append(
                FieldError(
                    field: "name",
                    message:
                        "is too long: at most \(maximumCodePoints) Unicode code points (has \(name.unicodeScalars.count))"
                ))
        }
        if name.unicodeScalars.contains(where: isForbidden) {
            errors.append(FieldError(field: "name", message: "must not contain control characters or line breaks"))
        }
        if name.unicodeScalars.contains(where: isBidiControl) {
            errors.append(
                FieldError(
                    field: "name",
                    message: "must not contain bidi control characters (such as U+202E), which can disguise a name"))
        }
        if !name.isEmpty, !name.unicodeScalars.contains(where: isVisible) {
            errors.append(FieldError(field: "name", message: "must contain a visible character"))
        }
        return errors
    }

    /// Characters that change the direction of the text around them: U+061C, U+200E, U+200F,
    /// U+202A–U+202E, U+2066–U+2069. The database refuses the same list.
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// A letter, digit, punctuation mark or symbol: something a reader sees.
    static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber,
            .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation,
            .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            // Hangul fillers are letters that show nothing.
            ![0x115F, 0x1160, 0x3164, 0xFFA0].contains(scalar.value)
        default:
            false
        }
    }

    /// Control characters (C0, DEL, C1) and the Unicode line and paragraph separators.
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    /// The key two names are compared by for uniqueness: full Unicode case folding of the
    /// normalised name (SQLite's `lower()` folds ASCII only).
    public static func foldKey(_ name: String) -> String {
        normalize(name).folding(options: [.caseInsensitive], locale: nil)
    }
}
