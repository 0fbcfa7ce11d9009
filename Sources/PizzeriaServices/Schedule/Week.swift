/// The pizzeria's weekly hours: any number of intervals per weekday; a weekday without one is
/// closed.
///
/// Valid weeks have no two intervals that overlap — within a day, or a night interval running
/// into the next day's first one (Sunday night runs into Monday).
public struct Week: Sendable, Hashable, Codable {
    /// Each weekday's intervals, in opening order; a weekday missing here is closed.
    public private(set) var days: [Weekday: [OpeningInterval]]

    /// A week; call ``problems()`` before storing one built by hand.
    public init(_ days: [Weekday: [OpeningInterval]] = [:]) {
        self.days = days.filter { !$0.value.isEmpty }.mapValues { $0.sorted() }
    }

    /// A week from days whose intervals are already in opening order (as the store reads them).
    init(sorted days: [Weekday: [OpeningInterval]]) { self.days = days }

    /// The same intervals every day.
    public static func everyDay(_ intervals: [OpeningInterval]) -> Week {
        Week(Dictionary(uniqueKeysWithValues: Weekday.allCases.map { ($0, intervals) }))
    }

    /// The intervals of `weekday` (empty: closed).
    public subscript(weekday: Weekday) -> [OpeningInterval] {
        get { days[weekday] ?? [] }
        set { days[weekday] = newValue.isEmpty ? nil : newValue.sorted() }
    }

    /// Whether no day is open.
    public var isClosedAllWeek: Bool { days.isEmpty }

    /// The most intervals one weekday may have.
    public static let maximumIntervalsPerDay = 8

    /// Why this week cannot be stored: overlaps named with their days, too many intervals.
    public func problems() -> [FieldError] {
        var errors: [FieldError] = []
        for day in Weekday.allCases {
            let intervals = self[day]
            if intervals.count > Self.maximumIntervalsPerDay {
                errors.append(
                    FieldError(
                        field: "hours",
                        message: "\(day.name) has \(intervals.count) intervals; at most \(Self.maximumIntervalsPerDay)")
                )
            }
            for (a, b) in zip(intervals, intervals.dropFirst()) where b.start < a.end {
                errors.append(FieldError(field: "hours", message: "\(day.name): \(a) and \(b) overlap"))
            }
            if let last = intervals.last, let first = self[day.next].first, last.end - 1440 > first.start {
                errors.append(
                    FieldError(field: "hours", message: "\(day.name) \(last) runs into \(day.next.name) \(first)"))
            }
        }
        return errors
    }

    /// As `{"monday": ["12:00-14:30", …], …}`, every weekday present (closed ones empty).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: WeekdayKey.self)
        for day in Weekday.allCases {
            try container.encode(self[day].map(\.description), forKey: WeekdayKey(day))
        }
    }

    /// Reads `{"monday": ["12:00-14:30", …], …}`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: WeekdayKey.self)
        var days: [Weekday: [OpeningInterval]] = [:]
        for day in Weekday.allCases {
            let texts = try container.decodeIfPresent([String].self, forKey: WeekdayKey(day)) ?? []
            days[day] = try texts.map { text in
                guard let interval = HoursSyntax.interval(text) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: WeekdayKey(day), in: container, debugDescription: "'\(text)' is not HH:MM-HH:MM")
                }
                return interval
            }
        }
        self.init(days)
    }

    private struct WeekdayKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ day: Weekday) { stringValue = day.name.lowercased() }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
