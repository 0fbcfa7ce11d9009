/// An exception to the week on one service day.
///
/// Precedence: special hours replace the weekday's; closures — the whole day, or a time range
/// cut out — subtract from whatever applies (special hours included).
public struct ScheduleException: Sendable, Hashable, Codable {
    /// What the exception does.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Closed the whole service day.
        case closed
        /// One of the day's special intervals: together they replace the weekday's hours.
        case special
        /// A time range cut out of the day's hours (a private party, a break).
        case cut
    }

    /// The service day.
    public let date: LocalDate
    /// What it does.
    public let kind: Kind
    /// `special`: the interval; `cut`: the range taken out; `closed`: `nil`.
    public let interval: OpeningInterval?
    /// Why, as customers are told ("Christmas"); optional.
    public let reason: String?

    /// An exception. A closure has no interval; a special or a cut has one.
    public init?(date: LocalDate, kind: Kind, interval: OpeningInterval? = nil, reason: String? = nil) {
        guard (kind == .closed) == (interval == nil) else { return nil }
        self.date = date
        self.kind = kind
        self.interval = interval
        self.reason = reason
    }

    /// The longest reason, in Unicode scalars (as SQLite's `length()` counts them).
    public static let maximumReasonLength = 200
    /// The most exception rows a file keeps: enough for years of holidays, few enough that
    /// every booking's check stays cheap.
    public static let maximumCount = 1_000
    /// The most days one command may cover.
    public static let maximumDays = 366

    private enum CodingKeys: String, CodingKey { case date, kind, opens, closes, reason }

    /// `{"date", "kind", "opens", "closes", "reason"}` (times `null` for a closure).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(date, forKey: .date)
        try container.encode(kind, forKey: .kind)
        try container.encode(interval?.opens, forKey: .opens)
        try container.encode(interval?.closes, forKey: .closes)
        try container.encode(reason, forKey: .reason)
    }

    /// Reads the JSON shape.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let opens = try container.decodeIfPresent(LocalTime.self, forKey: .opens),
            closes = try container.decodeIfPresent(LocalTime.self, forKey: .closes)
        let interval = try opens.map { opens -> OpeningInterval in
            guard let closes, let interval = OpeningInterval(opens: opens, closes: closes) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .closes, in: container, debugDescription: "not an interval")
            }
            return interval
        }
        guard
            let exception = ScheduleException(
                date: try container.decode(LocalDate.self, forKey: .date),
                kind: try container.decode(Kind.self, forKey: .kind), interval: interval,
                reason: try container.decodeIfPresent(String.self, forKey: .reason))
        else {
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container, debugDescription: "a closure has no times; a special or cut has them")
        }
        self = exception
    }
}

/// The hours of one service day as they apply, and why.
public struct DayHours: Sendable, Hashable, Encodable {
    /// Where the day's hours come from before closures.
    public enum Basis: String, Sendable, Hashable, Codable {
        /// The weekday's intervals.
        case weekly
        /// Special hours for this date.
        case special
    }

    /// The service day.
    public let date: LocalDate
    /// Where the hours come from.
    public let basis: Basis
    /// The weekday's or the special intervals, before closures.
    public let intervals: [OpeningInterval]
    /// The whole-day closure, if any.
    public let closure: ScheduleException?
    /// Ranges cut out.
    public let cuts: [ScheduleException]
    /// What is open: the intervals less the closures, in minutes after the day's midnight.
    public let open: [DaySpan]

    /// The hours of `date` under `week` and that day's `exceptions`.
    init(date: LocalDate, week: Week, exceptions: [ScheduleException]) {
        self.date = date
        let specials = exceptions.filter { $0.kind == .special }.compactMap(\.interval).sorted()
        basis = specials.isEmpty ? .weekly : .special
        intervals = specials.isEmpty ? week[date.weekday] : specials
        closure = exceptions.first { $0.kind == .closed }
        cuts = exceptions.filter { $0.kind == .cut }
        var open = closure == nil ? intervals.map(\.span) : []
        // A cut is in the service day's own terms: 00:00-00:30 takes out the day's own 00:00-00:30
        // and its night's (24:00-24:30), whichever its hours have.
        for cut in cuts.compactMap(\.interval) {
            open = DaySpan.subtract(cut.span, from: open)
            if cut.end <= 1440 {
                open = DaySpan.subtract(DaySpan(start: cut.start + 1440, end: cut.end + 1440), from: open)
            }
        }
        self.open = open
    }

    /// Whether any of the day is open.
    public var isOpen: Bool { !open.isEmpty }

    /// `12:00-14:30, 18:30-01:00`, or `closed`.
    public var summary: String { open.isEmpty ? "closed" : open.map(\.description).joined(separator: ", ") }

    private enum CodingKeys: String, CodingKey {
        case date, weekday, basis, intervals, closed, closedReason = "closed_reason", cuts, open
    }

    /// The JSON shape: the date, its weekday, where the hours come from, the intervals before
    /// closures, the closure and cuts, and what is open.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(date, forKey: .date)
        try container.encode(date.weekday.name.lowercased(), forKey: .weekday)
        try container.encode(basis, forKey: .basis)
        try container.encode(intervals.map(\.description), forKey: .intervals)
        try container.encode(closure != nil, forKey: .closed)
        try container.encode(closure?.reason, forKey: .closedReason)
        try container.encode(cuts, forKey: .cuts)
        try container.encode(open.map(\.description), forKey: .open)
    }
}
