import Foundation

/// Pickup times: parsing what people type, and formatting in UTC (stored) and local time (shown).
public enum PickupTime {
    /// Why a typed time was not understood or does not name one instant.
    public enum ParseError: Error, Sendable, Equatable {
        /// Not one of the accepted forms.
        case malformed(String)
        /// Seconds other than `:00` (a pickup slot starts on the minute).
        case seconds(String)
        /// A local time that does not exist: the clocks skip it (spring forward).
        case nonexistent(local: String, zone: String)
        /// A local time that happens twice (fall back); `instants` are both, earliest first.
        case ambiguous(local: String, zone: String, instants: [Date])

        /// The rule it breaks, after the field name.
        public var message: String {
            switch self {
            case .malformed(let text):
                "must be HH:MM (today), YYYY-MM-DDTHH:MM (pizzeria time) or ISO-8601 with an offset or Z, not '\(text)'"
            case .seconds(let text):
                "'\(text)' has seconds; a pickup slot starts on the minute (HH:MM)"
            case .nonexistent(let local, let zone):
                "\(local) does not exist in \(zone): the clocks skip that hour (daylight saving time)"
            case .ambiguous(let local, let zone, let instants):
                "\(local) happens twice in \(zone) (daylight saving time ends): add the offset, "
                    + instants.map { PickupTime.withOffset($0, in: TimeZone(identifier: zone) ?? .current) }.joined(
                        separator: " or ")
            }
        }
    }

    /// Parses a pickup time.
    ///
    /// - `HH:MM`: today, in `timeZone`;
    /// - `YYYY-MM-DDTHH:MM` (or with a space, or with `:00`): in `timeZone`;
    /// - ISO-8601 with `Z` or an offset: `2026-12-01T18:30Z`, `2026-12-01T19:30:00+01:00`.
    ///
    /// A local time the clocks skip is refused, and one they pass twice is refused unless an
    /// offset says which.
    public static func parse(_ text: String, timeZone: TimeZone, now: Date) -> Result<Date, ParseError> {
        let input = text.trimmingWhitespace()
        if let minutes = LocalTime(input)?.minutes, minutes < 24 * 60 {
            let day = calendar(timeZone).dateComponents([.year, .month, .day], from: now)
            return resolve(
                year: day.year ?? 0, month: day.month ?? 0, day: day.day ?? 0, minutes: minutes, in: timeZone,
                text: input)
        }
        guard let parsed = parseDateTime(input) else { return .failure(.malformed(input)) }
        guard parsed.second == 0 else { return .failure(.seconds(input)) }
        let minutes = parsed.hour * 60 + parsed.minute
        guard let offset = parsed.offsetSeconds else {
            return resolve(
                year: parsed.year, month: parsed.month, day: parsed.day, minutes: minutes, in: timeZone, text: input)
        }
        guard let naive = naiveInstant(year: parsed.year, month: parsed.month, day: parsed.day, minutes: minutes) else {
            return .failure(.malformed(input))
        }
        return .success(naive.addingTimeInterval(TimeInterval(-offset)))
    }

    /// The one instant a local date and time names, or why there is not exactly one.
    private static func resolve(year: Int, month: Int, day: Int, minutes: Int, in zone: TimeZone, text: String)
        -> Result<Date, ParseError>
    {
        guard naiveInstant(year: year, month: month, day: day, minutes: minutes) != nil else {
            return .failure(.malformed(text))
        }
        let found = instants(year: year, month: month, day: day, minutes: minutes, in: zone)
        let local = String(format: "%04d-%02d-%02d %@", year, month, day, LocalTime.clock(minutes))
        switch found.count {
        case 1: return .success(found[0])
        case 0: return .failure(.nonexistent(local: local, zone: zone.identifier))
        default: return .failure(.ambiguous(local: local, zone: zone.identifier, instants: found))
        }
    }

    /// Every instant whose local time in `zone` is the given one: none in a spring-forward gap,
    /// two in a fall-back overlap, one otherwise. Earliest first.
    static func instants(year: Int, month: Int, day: Int, minutes: Int, in zone: TimeZone) -> [Date] {
        guard let naive = naiveInstant(year: year, month: month, day: day, minutes: minutes) else { return [] }
        // The offsets in force a day either side cover any transition that day.
        let offsets = Set([-86_400.0, 0, 86_400].map { zone.secondsFromGMT(for: naive.addingTimeInterval($0)) })
        // A candidate is real when the zone's offset at that instant is the one that made it.
        return offsets.compactMap { offset in
            let candidate = naive.addingTimeInterval(TimeInterval(-offset))
            return zone.secondsFromGMT(for: candidate) == offset ? candidate : nil
        }.sorted()
    }

    /// The instant the local date and time would be in UTC, or `nil` for a date that does not
    /// exist (February 30th).
    private static func naiveInstant(year: Int, month: Int, day: Int, minutes: Int) -> Date? {
        guard let utc = TimeZone(secondsFromGMT: 0) else { return nil }
        return localDate(year: year, month: month, day: day, minutes: minutes, seconds: 0, in: utc)
    }

    /// `2027-10-31T02:30+01:00`: an instant with the zone's offset then.
    public static func withOffset(_ date: Date, in zone: TimeZone) -> String {
        "\(dayString(date, in: zone))T\(clock(date, in: zone))" + offsetText(zone.secondsFromGMT(for: date))
    }

    /// Whether the local time of `date` also names another instant that day (fall back).
    /// `offset` is the zone's offset at `date`, when the caller has it already.
    static func isAmbiguous(_ date: Date, in zone: TimeZone, offset known: Int? = nil) -> Bool {
        // Another offset in force a day either side that maps the same local time to an instant
        // which really has that offset: the clocks pass this local time twice.
        let offset = known ?? zone.secondsFromGMT(for: date)
        for other in Set([
            zone.secondsFromGMT(for: date.addingTimeInterval(-86_400)),
            zone.secondsFromGMT(for: date.addingTimeInterval(86_400)),
        ])
        where other != offset {
            if zone.secondsFromGMT(for: date.addingTimeInterval(Double(offset - other))) == other { return true }
        }
        return false
    }

    /// The local calendar date of `date`, `YYYY-MM-DD`.
    public static func dayString(_ date: Date, in timeZone: TimeZone) -> String {
        // The zone's offset and arithmetic, as in minutesOfDay: order lists format thousands.
        let local = Int64((date.timeIntervalSince1970).rounded(.down)) + Int64(timeZone.secondsFromGMT(for: date))
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let (year, month, day) = Timestamp.civil(fromDays: days)
        return digits(year, 4) + "-" + digits(month, 2) + "-" + digits(day, 2)
    }

    /// `value` in decimal, zero-padded to `count` digits.
    static func digits<Number: BinaryInteger>(_ value: Number, _ count: Int) -> String {
        let text = String(value)
        return text.count >= count ? text : String(repeating: "0", count: count - text.count) + text
    }

    /// `2026-12-01T18:30:00Z`: how pickup times are stored (whole seconds).
    public static func utc(_ date: Date) -> String {
        withUTCText(date) { text in String(unsafeUninitializedCapacity: 20) { $0.initialize(fromContentsOf: text) } }
    }

    /// Calls `body` with ``utc(_:)``'s text (20 ASCII bytes) in a stack buffer, valid only
    /// inside `body`: for writers that copy it straight into their output.
    @inlinable  // specialised in the caller's module, like Timestamp.withText
    public static func withUTCText<Result>(_ date: Date, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
        -> Result
    {
        try Timestamp.withText(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))) { text in
            // `YYYY-MM-DDTHH:MM:SS` of the timestamp, then `Z` where its `.sss` began.
            let mutable = UnsafeMutableBufferPointer(mutating: text)
            mutable[19] = UInt8(ascii: "Z")
            return try body(UnsafeBufferPointer(rebasing: text[0..<20]))
        }
    }

    /// Parses the stored form back.
    public static func fromUTC(_ text: String) -> Date? {
        Timestamp.date(from: text)
    }

    /// `2026-12-01 19:30` in `timeZone`; a time that happens twice that day (daylight saving
    /// time ends) carries its offset: `2027-10-31 02:30 +01:00`.
    public static func local(_ date: Date, in timeZone: TimeZone) -> String {
        // The zone asked once for the offset (order lists format thousands of these).
        let offset = timeZone.secondsFromGMT(for: date)
        let local = Int64(date.timeIntervalSince1970.rounded(.down)) + Int64(offset)
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let minutes = (local - days * 86_400) / 60
        let (year, month, day) = Timestamp.civil(fromDays: days)
        var text =
            (0...9999).contains(year)
            ? String(unsafeUninitializedCapacity: 16) { bytes in
                Timestamp.writeDateAndMinute(
                    year, month, day, minutes / 60, minutes % 60, separator: UInt8(ascii: " "), into: bytes)
                return 16
            }
            : "\(dayString(date, in: timeZone)) \(clock(date, in: timeZone))"
        if isAmbiguous(date, in: timeZone, offset: offset) { text += " " + offsetText(offset) }
        return text
    }

    /// `+01:00`, `-05:00`: a UTC offset as ISO 8601 writes it.
    static func offsetText(_ offset: Int) -> String {
        let minutes = abs(offset) / 60
        return (offset < 0 ? "-" : "+") + digits(minutes / 60, 2) + ":" + digits(minutes % 60, 2)
    }

    /// `19:30` in `timeZone`.
    public static func clock(_ date: Date, in timeZone: TimeZone) -> String {
        LocalTime.clock(minutesOfDay(date, in: timeZone))
    }

    /// Minutes after local midnight.
    static func minutesOfDay(_ date: Date, in timeZone: TimeZone) -> Int {
        // The zone's offset at that instant and arithmetic: no Calendar (which is slow on Linux).
        let local = Int((date.timeIntervalSince1970).rounded(.down)) + timeZone.secondsFromGMT(for: date)
        let seconds = ((local % 86_400) + 86_400) % 86_400
        return seconds / 60
    }

    /// The instant of a local date and time, or `nil` when it does not exist.
    static func localDate(year: Int, month: Int, day: Int, minutes: Int, seconds: Int, in timeZone: TimeZone) -> Date? {
        guard (1...12).contains(month), (1...31).contains(day), (0...59).contains(seconds) else { return nil }
        var components = DateComponents()
        components.year = year
        components.month = month
        components.day = day
        components.hour = minutes / 60
        components.minute = minutes % 60
        components.second = seconds
        let calendar = calendar(timeZone)
        guard let date = calendar.date(from: components) else { return nil }
        // Reject dates the calendar rolled over (February 30th).
        let check = calendar.dateComponents([.year, .month, .day], from: date)
        guard check.year == year, check.month == month, check.day == day else { return nil }
        return date
    }

    static func calendar(_ timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    private struct DateTime {
        var year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0
        var offsetSeconds: Int?
    }

    /// `YYYY-MM-DD[T| ]HH:MM[:SS][Z|±HH:MM|±HHMM]`.
    private static func parseDateTime(_ text: String) -> DateTime? {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= scalars.count else { return nil }
            var value = 0
            for scalar in scalars[index..<index + digits] {
                guard let digit = Int(String(scalar)), scalar.isASCII else { return nil }
                value = value * 10 + digit
            }
            index += digits
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < scalars.count, characters.unicodeScalars.contains(scalars[index]) else { return false }
            index += 1
            return true
        }
        var result = DateTime()
        // Years from 1970 on: before 1583 Foundation's Gregorian calendar is Julian while gmtime is
        // proleptic Gregorian, and no pickup is that old anyway (found by the fuzzer).
        guard let year = number(4), (1970...9999).contains(year), expect("-"), let month = number(2), expect("-"),
            let day = number(2),
            expect("Tt "), let hour = number(2), expect(":"), let minute = number(2),
            hour < 24, minute < 60
        else { return nil }
        (result.year, result.month, result.day, result.hour, result.minute) = (year, month, day, hour, minute)
        if index < scalars.count, scalars[index] == ":" {
            index += 1
            guard let second = number(2), second < 60 else { return nil }
            result.second = second
        }
        if index == scalars.count { return result }
        if expect("Zz"), index == scalars.count {
            result.offsetSeconds = 0
            return result
        }
        guard index < scalars.count, "+-".unicodeScalars.contains(scalars[index]) else { return nil }
        let sign = scalars[index] == "-" ? -1 : 1
        index += 1
        guard let hours = number(2) else { return nil }
        _ = expect(":")
        guard let minutes = number(2), index == scalars.count, hours < 24, minutes < 60 else { return nil }
        result.offsetSeconds = sign * (hours * 3600 + minutes * 60)
        return result
    }
}
