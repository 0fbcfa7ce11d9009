/// A day of the week, numbered as ISO 8601 does: Monday is 1, Sunday 7.
public enum Weekday: Int, Sendable, Hashable, CaseIterable, Codable, Comparable {
    case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

    /// `Monday`.
    public var name: String {
        switch self {
        case .monday: "Monday"
        case .tuesday: "Tuesday"
        case .wednesday: "Wednesday"
        case .thursday: "Thursday"
        case .friday: "Friday"
        case .saturday: "Saturday"
        case .sunday: "Sunday"
        }
    }

    /// `mon`: how the CLI writes it.
    public var short: String { String(name.prefix(3)).lowercased() }

    /// `Mo`: OpenStreetMap's `opening_hours` abbreviation.
    public var osm: String { String(name.prefix(2)) }

    /// The weekday after this one (Sunday is followed by Monday).
    public var next: Weekday { Weekday(rawValue: rawValue % 7 + 1) ?? .monday }

    /// The weekday before this one.
    public var previous: Weekday { Weekday(rawValue: (rawValue + 5) % 7 + 1) ?? .sunday }

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }
}
