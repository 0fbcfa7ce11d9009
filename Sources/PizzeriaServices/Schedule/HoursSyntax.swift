/// Opening hours as people type them, and as OpenStreetMap's `opening_hours` writes them.
///
/// - Intervals: `12:00-14:30,18:30-23:30`, or `closed`. A closing time at or before the opening
///   runs past midnight (`18:30-01:00`); `24:00` ends at midnight; `25:00` (OSM's form) is 01:00
///   the next day.
/// - Days: `mon`, `tue-thu`, `fri,sat`, `mon-wed,fri`, `daily` (also `Mo`, `Tu-Th`: OSM's names).
/// - The OSM subset: rules separated by `;`, each `DAYS TIMES` or `DAYS off` (`closed` too), with
///   days as weekday ranges and lists (`Mo-Fr`, `Fr,Sa`); a later rule replaces an earlier one's
///   times for its days: `Tu-Th 12:00-14:30,18:30-23:30; Fr,Sa 12:00-14:30,18:30-01:00; Su 18:30-23:30; Mo off`.
///
/// Every refusal names the part that is wrong; input is bounded (``maximumLength``).
public enum HoursSyntax {
    /// The longest text accepted (an OSM week is a few hundred characters).
    public static let maximumLength = 2_000

    /// One interval `HH:MM-HH:MM`, or `nil`.
    public static func interval(_ text: String) -> OpeningInterval? {
        try? parseInterval(text)
    }

    /// `HH:MM-HH:MM` with the closing time up to 48:00 (OSM's past-midnight form).
    /// - Throws: ``ValidationError`` for the field `hours`, naming the part that is wrong.
    public static func parseInterval(_ text: String) throws -> OpeningInterval {
        let parts = text.trimmingWhitespace().split(separator: "-", omittingEmptySubsequences: false).map {
            $0.trimmingWhitespace()
        }
        guard parts.count == 2 else { throw problem("'\(text)' is not an interval HH:MM-HH:MM") }
        guard let opens = LocalTime(parts[0]), opens.minutes < 1440 else {
            throw problem("'\(parts[0])' in '\(text)' is not an opening time 00:00-23:59")
        }
        guard let closing = extendedMinutes(parts[1]) else {
            throw problem(
                "'\(parts[1])' in '\(text)' is not a closing time 00:00-24:00 (or up to 48:00 for past midnight)")
        }
        // 25:00 is 01:00 of the next day; it must still close within 24 hours of opening.
        let closesMinutes = closing > 1440 ? closing - 1440 : closing
        guard closing <= 1440 || closesMinutes <= opens.minutes, let closes = LocalTime(minutes: closesMinutes),
            let interval = OpeningInterval(opens: opens, closes: closes)
        else {
            throw problem(
                "'\(text)' is empty or 24 hours or longer; an interval is shorter than a day (00:00-24:00 is the whole day)"
            )
        }
        return interval
    }

    /// A range to cut out of a service day, `--from`/`--to` as typed: `20:00`-`22:00`, a night's
    /// `00:00`-`00:30` (cut where the day's hours have it: before or after midnight), or OSM's
    /// `24:00`-`24:30` for the same after midnight.
    public static func parseCut(from: String, to: String) throws -> OpeningInterval {
        guard let start = extendedMinutes(from.trimmingWhitespace()), start < 2880 else {
            throw problem("'\(from)' is not a time 00:00-23:59 (or 24:00-47:59 after midnight)")
        }
        guard start >= 1440 else { return try parseInterval(from + "-" + to) }
        guard let end = extendedMinutes(to.trimmingWhitespace()), end > start else {
            throw problem("'\(to)' must be after '\(from)' (24:00-48:00 after midnight)")
        }
        return try parseInterval(LocalTime.clock(start - 1440) + "-" + LocalTime.clock(end - 1440))
    }

    /// Minutes of `HH:MM` from 00:00 to 48:00.
    private static func extendedMinutes(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 5, bytes[2] == UInt8(ascii: ":"),
            bytes.enumerated().allSatisfy({ $0.offset == 2 || (48...57).contains($0.element) })
        else { return nil }
        let hour = Int(bytes[0] - 48) * 10 + Int(bytes[1] - 48), minute = Int(bytes[3] - 48) * 10 + Int(bytes[4] - 48)
        guard minute < 60, hour * 60 + minute <= 2880 else { return nil }
        return hour * 60 + minute
    }

    /// `12:00-14:30,18:30-23:30` or `closed`/`off` (no intervals).
    public static func intervals(_ text: String) throws -> [OpeningInterval] {
        let input = try bounded(text)
        if ["closed", "off"].contains(input.lowercased()) { return [] }
        let parts = input.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= Week.maximumIntervalsPerDay else {
            throw problem(
                "\(parts.count) intervals in '\(input.prefix(60))'; a day has at most \(Week.maximumIntervalsPerDay)")
        }
        let intervals = try parts.map(parseInterval).sorted()
        for (a, b) in zip(intervals, intervals.dropFirst()) where b.start < a.end {
            throw problem("\(a) and \(b) overlap")
        }
        return intervals
    }

    /// `mon`, `tue-thu`, `fri,sat`, `daily`; OSM's `Mo`, `Tu-Th` too.
    public static func days(_ text: String) throws -> Set<Weekday> {
        let input = try bounded(text).lowercased()
        if ["daily", "every-day", "mo-su"].contains(input) { return Set(Weekday.allCases) }
        var days = Set<Weekday>()
        for item in input.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            let ends = item.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard (1...2).contains(ends.count), let first = weekday(ends[0]), let last = weekday(ends.last ?? "") else {
                throw problem(
                    "'\(item)' in '\(text)' is not a weekday or a range of weekdays (mon, tue-thu, fri,sat, daily)")
            }
            // A range wraps around the week: sat-mon is Saturday, Sunday and Monday.
            var day = first
            while true {
                days.insert(day)
                if day == last { break }
                day = day.next
            }
        }
        return days
    }

    /// A weekday by its English name or its first three or two letters (any case).
    static func weekday(_ text: String) -> Weekday? {
        let name = text.trimmingWhitespace().lowercased()
        guard name.count >= 2 else { return nil }
        return Weekday.allCases.first { day in
            let full = day.name.lowercased()
            return name == full || name == day.short || name == String(full.prefix(2))
        }
    }

    /// A week in the OSM subset.
    public static func osm(_ text: String) throws -> Week {
        let input = try bounded(text)
        var week = Week()
        var any = false
        for rule in input.split(separator: ";").map({ $0.trimmingWhitespace() }) where !rule.isEmpty {
            guard let space = rule.firstIndex(of: " ") else {
                throw problem("rule '\(rule)' needs days and times, such as 'Mo-Fr 12:00-14:30' or 'Mo off'")
            }
            let days = try self.days(String(rule[..<space]))
            let intervals = try self.intervals(
                String(rule[rule.index(after: space)...]).replacingOccurrences(of: " ", with: ""))
            for day in days { week[day] = intervals }
            any = true
        }
        guard any else { throw problem("no rule in '\(input.prefix(60))'") }
        return week
    }

    /// The week in OSM syntax: days with the same hours grouped into ranges and lists, closed
    /// days last as `off`: `Tu-Th 12:00-14:30,18:30-23:30; Fr,Sa 12:00-14:30,18:30-01:00; Mo off`.
    public static func osm(_ week: Week) -> String {
        var groups: [([OpeningInterval], [Weekday])] = []
        for day in Weekday.allCases {
            if let index = groups.firstIndex(where: { $0.0 == week[day] }) {
                groups[index].1.append(day)
            } else {
                groups.append((week[day], [day]))
            }
        }
        let open = groups.filter { !$0.0.isEmpty }, closed = groups.filter { $0.0.isEmpty }
        if open.count == 1, closed.isEmpty, let only = open.first {
            return "Mo-Su " + only.0.map(\.description).joined(separator: ",")
        }
        return (open + closed).map { intervals, days in
            daysText(days) + " " + (intervals.isEmpty ? "off" : intervals.map(\.description).joined(separator: ","))
        }.joined(separator: "; ")
    }

    /// `Mo-We,Fr` for a set of weekdays: consecutive runs of three or more as ranges.
    static func daysText(_ days: [Weekday]) -> String {
        let sorted = days.sorted()
        var runs: [[Weekday]] = []
        for day in sorted {
            if let last = runs.last?.last, last.next == day, last != .sunday {
                runs[runs.count - 1].append(day)
            } else {
                runs.append([day])
            }
        }
        return runs.map { run in
            run.count >= 3 ? "\(run[0].osm)-\(run[run.count - 1].osm)" : run.map(\.osm).joined(separator: ",")
        }.joined(separator: ",")
    }

    /// `2026-12-25` or `2026-12-25..2026-12-26`; `today` and `tomorrow` relative to `today`.
    public static func dateRange(_ text: String, today: LocalDate) throws -> LocalDateRange {
        let input = try bounded(text)
        let ends = input.components(separatedBy: "..")
        guard (1...2).contains(ends.count) else { throw problem("'\(input)' is not a date or a range DATE..DATE") }
        let first = try date(ends[0], today: today), last = try date(ends.last ?? "", today: today)
        guard let range = LocalDateRange(first, last) else { throw problem("the range \(input) ends before it starts") }
        guard range.count <= ScheduleException.maximumDays else {
            throw problem("the range \(input) covers \(range.count) days; at most \(ScheduleException.maximumDays)")
        }
        return range
    }

    /// `YYYY-MM-DD` (1970-01-01 to 9999-12-31), `today` or `tomorrow`.
    public static func date(_ text: String, today: LocalDate) throws -> LocalDate {
        let input = text.trimmingWhitespace()
        switch input.lowercased() {
        case "today": return today
        case "tomorrow": return today.adding(days: 1)
        case "yesterday": return today.adding(days: -1)
        default:
            guard let date = LocalDate(input) else {
                throw problem("'\(input)' is not a date YYYY-MM-DD from 1970-01-01 to 9999-12-31 (or today, tomorrow)")
            }
            return date
        }
    }

    private static func bounded(_ text: String) throws -> String {
        guard text.utf8.count <= maximumLength else {
            throw problem("the text is \(text.utf8.count) bytes; at most \(maximumLength)")
        }
        let input = text.trimmingWhitespace()
        guard !input.isEmpty else { throw problem("must not be empty") }
        guard !input.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw problem("must not contain control characters")
        }
        return input
    }

    /// A refusal of the field `hours`.
    static func problem(_ message: String) -> ValidationError {
        ValidationError([FieldError(field: "hours", message: message)])
    }
}
