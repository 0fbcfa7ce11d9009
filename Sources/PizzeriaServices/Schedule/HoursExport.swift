/// The hours as a website publishes them: OpenStreetMap's `opening_hours` text and schema.org's
/// `OpeningHoursSpecification` (JSON-LD), the week plus the dates that differ from it.
public enum HoursExport {
    /// The week in OSM syntax, then each run of consecutive dates with the same exceptional hours:
    /// `Tu-Th 12:00-23:00; Mo off; 2026 Dec 24 12:00-16:00; 2026 Dec 25-26 off`.
    public static func osm(_ week: Week, exceptions days: [DayHours]) -> String {
        var rules = [HoursSyntax.osm(week)]
        for run in runs(days) {
            let hours = run.open.isEmpty ? "off" : run.open.map(\.description).joined(separator: ",")
            rules.append("\(osmDates(run.first, run.last)) \(hours)")
        }
        return rules.joined(separator: "; ")
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `2026 Dec 25`, `2026 Dec 25-26`, `2026 Dec 31-2027 Jan 01`.
    static func osmDates(_ first: LocalDate, _ last: LocalDate) -> String {
        let a = first.components, b = last.components
        let start = "\(a.year) \(months[a.month - 1]) \(PickupTime.digits(a.day, 2))"
        if first == last { return start }
        if a.year == b.year, a.month == b.month { return start + "-" + PickupTime.digits(b.day, 2) }
        return start + "-\(b.year) \(months[b.month - 1]) \(PickupTime.digits(b.day, 2))"
    }

    /// Consecutive dates whose open hours are the same, as ranges.
    private static func runs(_ days: [DayHours]) -> [(first: LocalDate, last: LocalDate, open: [DaySpan])] {
        var runs: [(first: LocalDate, last: LocalDate, open: [DaySpan])] = []
        for day in days.sorted(by: { $0.date < $1.date }) {
            if let last = runs.last, last.last.adding(days: 1) == day.date, last.open == day.open {
                runs[runs.count - 1].last = day.date
            } else {
                runs.append((day.date, day.date, day.open))
            }
        }
        return runs
    }

    /// schema.org JSON-LD for a restaurant's hours: one specification per group of weekdays with
    /// the same interval, and per run of exceptional dates (`validFrom`/`validThrough`; a closed
    /// date opens and closes at 00:00, as schema.org asks). A closing time before the opening
    /// runs past midnight, in schema.org as here.
    public static func schemaOrg(_ week: Week, exceptions days: [DayHours]) -> SchemaOrgHours {
        var specifications: [SchemaOrgHours.Specification] = []
        var groups: [(OpeningInterval, [Weekday])] = []
        for day in Weekday.allCases {
            for interval in week[day] {
                if let index = groups.firstIndex(where: { $0.0 == interval }) {
                    groups[index].1.append(day)
                } else {
                    groups.append((interval, [day]))
                }
            }
        }
        for (interval, days) in groups {
            specifications.append(
                .init(
                    dayOfWeek: days.map { "https://schema.org/\($0.name)" }, opens: interval.opens.description,
                    closes: interval.closes.description == "24:00" ? "23:59" : interval.closes.description))
        }
        for run in runs(days) {
            let spans = run.open.isEmpty ? [DaySpan(start: 0, end: 0)] : run.open
            for span in spans {
                specifications.append(
                    .init(
                        opens: LocalTime.clock(span.start), closes: LocalTime.clock(span.end),
                        validFrom: run.first.description, validThrough: run.last.description))
            }
        }
        return SchemaOrgHours(openingHoursSpecification: specifications)
    }
}

/// `{"@context": "https://schema.org", "@type": "Restaurant", "openingHoursSpecification": […]}`.
public struct SchemaOrgHours: Sendable, Hashable, Encodable {
    /// One `OpeningHoursSpecification`.
    public struct Specification: Sendable, Hashable, Encodable {
        /// Weekday URIs (`https://schema.org/Monday`); absent for a date's exception.
        public var dayOfWeek: [String]?
        /// `HH:MM`.
        public var opens: String
        /// `HH:MM` (before `opens`: past midnight).
        public var closes: String
        /// First date of an exception.
        public var validFrom: String?
        /// Last date of an exception.
        public var validThrough: String?

        init(
            dayOfWeek: [String]? = nil, opens: String, closes: String, validFrom: String? = nil,
            validThrough: String? = nil
        ) {
            (self.dayOfWeek, self.opens, self.closes, self.validFrom, self.validThrough) = (
                dayOfWeek, opens, closes, validFrom, validThrough
            )
        }

        private enum CodingKeys: String, CodingKey {
            case type = "@type", dayOfWeek, opens, closes, validFrom, validThrough
        }

        /// The JSON-LD object (absent members left out).
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("OpeningHoursSpecification", forKey: .type)
            try container.encodeIfPresent(dayOfWeek, forKey: .dayOfWeek)
            try container.encode(opens, forKey: .opens)
            try container.encode(closes, forKey: .closes)
            try container.encodeIfPresent(validFrom, forKey: .validFrom)
            try container.encodeIfPresent(validThrough, forKey: .validThrough)
        }
    }

    /// The specifications: the week, then the exceptions.
    public let openingHoursSpecification: [Specification]

    private enum CodingKeys: String, CodingKey { case context = "@context", type = "@type", openingHoursSpecification }

    /// The JSON-LD document.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("https://schema.org", forKey: .context)
        try container.encode("Restaurant", forKey: .type)
        try container.encode(openingHoursSpecification, forKey: .openingHoursSpecification)
    }
}
