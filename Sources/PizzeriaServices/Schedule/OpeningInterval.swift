/// One opening interval of a service day, in wall-clock time: `12:00-14:30`, or `18:30-01:00`,
/// which closes after midnight and still belongs to the day it opens.
///
/// A closing time at or before the opening time runs past midnight; `00:00-24:00` is the whole
/// day, and every other interval is shorter than 24 hours.
public struct OpeningInterval: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// When it opens (00:00…23:59).
    public let opens: LocalTime
    /// When it closes (00:00…24:00; at or before ``opens``: the next day).
    public let closes: LocalTime

    /// An interval, or `nil` when it opens at 24:00 or closes when it opens (24 hours or none).
    public init?(opens: LocalTime, closes: LocalTime) {
        guard opens.minutes < 1440, opens != closes else { return nil }
        self.opens = opens
        self.closes = closes
    }

    /// Whether it closes after midnight.
    public var runsPastMidnight: Bool { closes <= opens }

    /// Minutes after the service day's midnight when it opens.
    public var start: Int { opens.minutes }

    /// Minutes after the service day's midnight when it closes (past 1440 after midnight).
    public var end: Int { runsPastMidnight ? closes.minutes + 1440 : closes.minutes }

    /// `18:30-01:00`.
    public var description: String { "\(opens)-\(closes)" }

    public static func < (lhs: OpeningInterval, rhs: OpeningInterval) -> Bool { lhs.start < rhs.start }

    private enum CodingKeys: String, CodingKey { case opens, closes }
}

/// A span of a service day in minutes after its midnight (the end may pass 1440): an opening
/// interval, or what is left of one after a closure cut into it.
public struct DaySpan: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// First minute.
    public let start: Int
    /// The minute after the last (exclusive).
    public let end: Int

    /// `18:30-01:00`.
    public var description: String { LocalTime.clock(start) + "-" + LocalTime.clock(end) }

    /// Whether `minute` lies within it.
    func contains(_ minute: Int) -> Bool { start <= minute && minute < end }

    public static func < (lhs: DaySpan, rhs: DaySpan) -> Bool { lhs.start < rhs.start }

    /// What is left of `spans` once `cut` is taken out of them.
    static func subtract(_ cut: DaySpan, from spans: [DaySpan]) -> [DaySpan] {
        spans.flatMap { span -> [DaySpan] in
            guard cut.start < span.end, span.start < cut.end else { return [span] }
            var left: [DaySpan] = []
            if span.start < cut.start { left.append(DaySpan(start: span.start, end: cut.start)) }
            if cut.end < span.end { left.append(DaySpan(start: cut.end, end: span.end)) }
            return left
        }
    }
}

extension OpeningInterval {
    /// The interval as a span of its service day.
    var span: DaySpan { DaySpan(start: start, end: end) }
}
