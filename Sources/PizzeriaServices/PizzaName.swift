import Foundation

/// The rules for a pizza's name, shared by the add and edit flows.
///
/// A name is trimmed and Unicode NFC-normalised before it is checked or stored, so `Café` typed
/// with a combining accent and `Café` typed precomposed are the same name.
public enum PizzaName {
    /// The most user-perceived characters (grapheme clusters) a name may have.
    public static let maximumLength = 60

    /// Trimmed and NFC-normalised `raw`.
    public static func normalize(_ raw: String) -> String {
        raw.trimmingWhitespace().precomposedStringWithCanonicalMapping
    }

    /// The rules a normalised name breaks (empty when it is valid), uniqueness aside.
    public static func problems(_ name: String) -> [FieldError] {
        var errors: [FieldError] = []
        if name.isEmpty {
            errors.append(FieldError(field: "name", message: "must not be empty"))
        }
        if name.count > maximumLength {
            errors.append(FieldError(field: "name", message: "must be at most \(maximumLength) characters (has \(name.count))"))
        }
        if name.unicodeScalars.contains(where: isForbidden) {
            errors.append(FieldError(field: "name", message: "must not contain control characters or line breaks"))
        }
        return errors
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
