import Foundation
import PizzeriaStorage

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
        let clock = ZonedClock(zone: timeZone)
        if let time = LocalTime(input), time.minutes < 24 * 60 {
            return resolve(clock.local(now).date, time.minutes, clock)
        }
        guard let parsed = parseDateTime(input) else { return .failure(.malformed(input)) }
        guard parsed.second == 0 else { return .failure(.seconds(input)) }
        let minutes = parsed.hour * 60 + parsed.minute
        guard let date = LocalDate(year: parsed.year, month: parsed.month, day: parsed.day), minutes < 24 * 60 else {
            return .failure(.malformed(input))
        }
        guard let offset = parsed.offsetSeconds else { return resolve(date, minutes, clock) }
        return .success(ZonedClock.naive(date, minutes: minutes).addingTimeInterval(TimeInterval(-offset)))
    }

    /// The one instant a local date and time names, or why there is not exactly one.
    private static func resolve(_ date: LocalDate, _ minutes: Int, _ clock: ZonedClock) -> Result<Date, ParseError> {
        Result { try clock.instant(on: date, minutes: minutes) }.mapError { $0 as? ParseError ?? .malformed("\(date)") }
    }

    /// `2027-10-31T02:30+01:00`: an instant with the zone's offset then.
    public static func withOffset(_ date: Date, in zone: TimeZone) -> String {
        "\(dayString(date, in: zone))T\(clock(date, in: zone))" + offsetText(zone.secondsFromGMT(for: date))
    }

    /// Whether the local time of `date` also names another instant that day (fall back).
    /// `offset` is the zone's offset at `date`, when the caller has it already.
    static func isAmbiguous(_ date: Date, in zone: TimeZone, offset known: Int? = nil) -> Bool {
        ZonedClock(zone: zone).isAmbiguous(date, offset: known)
    }

    /// The local calendar date of `date`, `YYYY-MM-DD`.
    public static func dayString(_ date: Date, in timeZone: TimeZone) -> String {
        ZonedClock(zone: timeZone).local(date).date.description
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

    /// Seconds since 1970 of a stored pickup time, `2026-12-01T18:30:00Z` exactly (20 bytes, as
    /// ``utc(_:)`` writes it): fixed offsets, no `String`. `nil` for any other text.
    @Sendable static func storedSeconds(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard let days = storedDays(bytes), let time = secondsOfDay(bytes) else { return nil }
        return days * 86_400 + time
    }

    /// The day (days since 1970) of a stored pickup time: its bytes 0–9, `YYYY-MM-DD`, a real
    /// date; `nil` for anything else (or text that is not 20 bytes).
    static func storedDays(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard bytes.count == 20, let text = bytes.baseAddress, text[4] == 45, text[7] == 45 else { return nil }
        // Each digit's value; a byte that is not a digit wraps to 10 or more, refused once below.
        let d0 = text[0] &- 48, d1 = text[1] &- 48, d2 = text[2] &- 48, d3 = text[3] &- 48
        let m0 = text[5] &- 48, m1 = text[6] &- 48, a0 = text[8] &- 48, a1 = text[9] &- 48
        guard max(d0, d1, d2, d3, m0, m1, a0, a1) < 10 else { return nil }
        let year = Int64(d0) * 1000 + Int64(d1) * 100 + Int64(d2) * 10 + Int64(d3)
        let month = Int64(m0) * 10 + Int64(m1), day = Int64(a0) * 10 + Int64(a1)
        guard month >= 1, month <= 12, day >= 1, day <= Timestamp.daysIn(month: month, year: year) else { return nil }
        return Timestamp.days(fromCivil: year, month, day)
    }

    /// The time of day (seconds) of a stored pickup time: its bytes 10–19, `THH:MM:SSZ`; `nil`
    /// for anything else (or text that is not 20 bytes).
    static func secondsOfDay(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard bytes.count == 20, let text = bytes.baseAddress, text[10] == 84, text[13] == 58, text[16] == 58,
            text[19] == 90
        else { return nil }
        let h0 = text[11] &- 48, h1 = text[12] &- 48, n0 = text[14] &- 48, n1 = text[15] &- 48
        let s0 = text[17] &- 48, s1 = text[18] &- 48
        guard max(h0, h1, n0, n1, s0, s1) < 10 else { return nil }
        let hour = Int64(h0) * 10 + Int64(h1), minute = Int64(n0) * 10 + Int64(n1), second = Int64(s0) * 10 + Int64(s1)
        guard hour < 24, minute < 60, second < 60 else { return nil }
        return hour * 3_600 + minute * 60 + second
    }

    /// The 20 bytes of a stored pickup time copied out of a row (bytes 0–7, 8–15, 16–19), to
    /// parse after the statement has moved on; `nil` for text of another length.
    struct StoredText {
        let head: UInt64, middle: UInt64, tail: UInt32

        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard bytes.count == 20, let base = bytes.baseAddress else { return nil }
            let raw = UnsafeRawPointer(base)
            head = raw.loadUnaligned(as: UInt64.self)
            middle = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            tail = raw.loadUnaligned(fromByteOffset: 16, as: UInt32.self)
        }

        /// Calls `body` with the 20 bytes.
        func withBytes<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
            withUnsafeBytes(of: (head, middle, tail)) { raw in
                body(UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: 20))
            }
        }
    }

    /// Reads stored pickup times that come in time order, as the picker's walk does — dozens to
    /// a day — remembering the last date: a text on the same date as the one before has only its
    /// time read. Every text is validated as ``storedSeconds(_:)`` validates it, and gives the
    /// same seconds.
    struct StoredReader {
        /// The last date's 10 bytes (`YYYY-MM-DD`: the head and the middle's low two bytes) and
        /// its day number; `nil` before the first.
        private var date: (head: UInt64, end: UInt16, days: Int64)?

        /// Seconds since 1970 of `text`, or `nil` when it is not a stored pickup time.
        mutating func seconds(_ text: StoredText) -> Int64? {
            text.withBytes { bytes in
                let days: Int64
                if let date, date.head == text.head, date.end == UInt16(truncatingIfNeeded: text.middle) {
                    days = date.days
                } else {
                    guard let read = PickupTime.storedDays(bytes) else { return nil }
                    (days, date) = (read, (text.head, UInt16(truncatingIfNeeded: text.middle), read))
                }
                return PickupTime.secondsOfDay(bytes).map { days * 86_400 + $0 }
            }
        }
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
        let clock = ZonedClock(zone: timeZone)
        let (day, minutes, offset) = clock.local(date)
        let (year, month, dayOfMonth) = Timestamp.civil(fromDays: day.daysSinceEpoch)
        var text =
            (0...9999).contains(year)
            ? String(unsafeUninitializedCapacity: 16) { bytes in
                Timestamp.writeDateAndMinute(
                    year, month, dayOfMonth, Int64(minutes / 60), Int64(minutes % 60), separator: UInt8(ascii: " "),
                    into: bytes)
                return 16
            }
            : "\(day) \(LocalTime.clock(minutes))"
        if clock.isAmbiguous(date, offset: offset) { text += " " + offsetText(offset) }
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
        ZonedClock(zone: timeZone).local(date).minutes
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

/// A pickup instant bound as its stored text (`2026-12-01T18:30:00Z`, whole seconds) written
/// into a stack buffer: a bound pickup time builds no `String`.
struct StoredPickup: DatabaseValueConvertible {
    let date: Date

    init(_ date: Date) { self.date = date }

    /// The stored text.
    var databaseValue: DatabaseValue { .text(PickupTime.utc(date)) }

    /// Reads stored text.
    init(databaseValue: DatabaseValue) throws {
        guard case .text(let text) = databaseValue,
            let seconds = Array(text.utf8).withUnsafeBufferPointer(PickupTime.storedSeconds)
        else { throw DatabaseError.typeMismatchValue("a stored pickup time (YYYY-MM-DDTHH:MM:SSZ)") }
        date = Date(timeIntervalSince1970: Double(seconds))
    }

    /// The stored text, 20 bytes written where the statement binds it.
    func writeDatabaseText(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        guard buffer.count >= 20 else { return nil }
        var text = Self.text(of: date)
        withUnsafeBytes(of: &text) { raw in
            for index in 0..<20 { buffer[index] = raw[index] }
        }
        return 20
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` of `date` (whole seconds, rounded down) in 20 bytes.
    static func text(of date: Date) -> (UInt64, UInt64, UInt32) {
        var text: (UInt64, UInt64, UInt32) = (0, 0, 0)
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400, time = seconds - days * 86_400
        let (year, month, day) = Timestamp.civil(fromDays: days)
        withUnsafeMutableBytes(of: &text) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            Timestamp.writeDateAndMinute(
                year, month, day, time / 3_600, time / 60 % 60, separator: UInt8(ascii: "T"), into: bytes)
            bytes[16] = UInt8(ascii: ":")
            Timestamp.putDigits(time % 60, count: 2, at: 17, in: bytes)
            bytes[19] = UInt8(ascii: "Z")
        }
        return text
    }
}
