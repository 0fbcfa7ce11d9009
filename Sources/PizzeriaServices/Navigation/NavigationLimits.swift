/// The documented limits of navigation input. Beyond them a request is refused as invalid input
/// before anything is parsed in full or written.
public enum NavigationLimits {
    /// The deepest stack a user may have (push, import, deep links).
    public static let maximumDepth = 500
    /// The largest import text, in bytes (1 MiB).
    public static let maximumImportBytes = 1 << 20
    /// Nesting of arrays and objects in an import, and in each element's JSON.
    public static let maximumJSONDepth = 32
    /// The longest type name of an element, in characters.
    public static let maximumTypeNameLength = 256
    /// The longest JSON text of one opaque element, in bytes.
    public static let maximumElementBytes = 16 * 1024

    /// The rules a client's type name breaks (`PizzeriaApp.Route`): not empty, at most
    /// ``maximumTypeNameLength`` characters, no control or invisible format characters.
    static func problems(typeName: String) -> String? {
        if typeName.isEmpty { return "must not be empty" }
        if typeName.count > maximumTypeNameLength { return "must be at most \(maximumTypeNameLength) characters" }
        if typeName.unicodeScalars.contains(where: {
            $0.properties.generalCategory == .control || $0.properties.generalCategory == .format
        }) {
            return "must not contain control characters"
        }
        return nil
    }
}
