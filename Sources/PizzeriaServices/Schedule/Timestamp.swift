import Foundation

/// ISO-8601 UTC timestamps with milliseconds, as the schema's defaults write them:
/// `2026-11-30T12:00:00.000Z`. Text in this form sorts in time order.
public enum Timestamp {
    /// `date` as `YYYY-MM-DDTHH:MM:SS.sssZ`, built by hand (no formatter, no locale).
    public static func string(from date: Date) -> String {
        withText(date) { text in String(unsafeUninitializedCapacity: 24) { $0.initialize(fromContentsOf: text) } }
    }

    /// Calls `body` with `date` as `YYYY-MM-DDTHH:MM:SS.sssZ` (24 ASCII bytes) in a stack
    /// buffer, valid only inside `body`: for writers that copy it straight into their output.
    @inlinable  // specialised in the caller's module: lists call it for every timestamp they print
    public static func withText<Result>(_ date: Date, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
        -> Result
    {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (days, rest) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (day, remainder) = rest < 0 ? (days - 1, rest + 86_400_000) : (days, rest)
        let (year, month, dayOfMonth) = civil(fromDays: day)
        let hour = remainder / 3_600_000, minute = remainder / 60_000 % 60, second = remainder / 1000 % 60,
            milli = remainder % 1000
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { bytes in
            writeDateAndMinute(year, month, dayOfMonth, hour, minute, separator: UInt8(ascii: "T"), into: bytes)
            bytes[16] = UInt8(ascii: ":")
            putDigits(second, count: 2, at: 17, in: bytes)
            bytes[19] = UInt8(ascii: ".")
            putDigits(milli, count: 3, at: 20, in: bytes)
            bytes[23] = UInt8(ascii: "Z")
            return try body(UnsafeBufferPointer(bytes))
        }
    }

    /// Writes `YYYY-MM-DD?HH:MM` (16 bytes; `?` is `separator`) at the start of `bytes`: the
    /// part stored timestamps and local pickup times share. The year must be 0…9999.
    @usableFromInline
    static func writeDateAndMinute(
        _ year: Int64, _ month: Int64, _ day: Int64, _ hour: Int64, _ minute: Int64,
        separator: UInt8, into bytes: UnsafeMutableBufferPointer<UInt8>
    ) {
        putDigits(year, count: 4, at: 0, in: bytes)
        bytes[4] = UInt8(ascii: "-")
        putDigits(month, count: 2, at: 5, in: bytes)
        bytes[7] = UInt8(ascii: "-")
        putDigits(day, count: 2, at: 8, in: bytes)
        bytes[10] = separator
        putDigits(hour, count: 2, at: 11, in: bytes)
        bytes[13] = UInt8(ascii: ":")
        putDigits(minute, count: 2, at: 14, in: bytes)
    }

    /// `value` as `count` decimal digits (zero-padded, the lowest kept) at `offset`.
    @usableFromInline
    static func putDigits(_ value: Int64, count: Int, at offset: Int, in bytes: UnsafeMutableBufferPointer<UInt8>) {
        var value = value
        for position in stride(from: offset + count - 1, through: offset, by: -1) {
            bytes[position] = UInt8(truncatingIfNeeded: 48 + value % 10)
            value /= 10
        }
    }

    /// `2026-12-01 11:03:12 +01:00`: an instant as people read it, in the pizzeria's zone with its
    /// offset (JSON keeps the UTC form; this is for tables and messages).
    public static func local(_ date: Date, in zone: TimeZone) -> String {
        let clock = ZonedClock(zone: zone)
        let (day, minutes, offset) = clock.local(date)
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) % 60
        return "\(day) \(LocalTime.clock(minutes)):\(PickupTime.digits((seconds + 60) % 60, 2)) "
            + PickupTime.offsetText(offset)
    }

    /// Parses `YYYY-MM-DDTHH:MM[:SS[.fff…]]Z`: the stored form, or a time a person gives.
    public static func date(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { date(utf8: $0) }
    }

    /// Parses the UTF-8 bytes of `YYYY-MM-DDTHH:MM[:SS[.fff…]]Z` (hot path: every row read has
    /// timestamps). Refuses anything else, including dates that do not exist.
    static func date(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        if bytes.count == 24, let stored = storedDate(bytes) { return stored }
        return generalDate(bytes)
    }

    /// Any accepted form, digit by digit.
    static func generalDate(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        func number(_ start: Int, _ count: Int) -> Int64? {
            guard start + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for index in start..<start + count {
                let digit = bytes[index] &- 48
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
            }
            return value
        }
        guard bytes.count >= 17, bytes[4] == 45, bytes[7] == 45, bytes[10] == 84 || bytes[10] == 116 || bytes[10] == 32,
            bytes[13] == 58, let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), (1...12).contains(month), hour < 24, minute < 60,
            day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        var index = 16, seconds: Int64 = 0, fraction = 0.0
        if index < bytes.count, bytes[index] == 58 {
            guard let value = number(17, 2), value < 60 else { return nil }
            seconds = value
            index = 19
            if index < bytes.count, bytes[index] == 46 {
                index += 1
                var scale = 0.1
                let start = index
                while index < bytes.count, bytes[index] &- 48 < 10 {
                    fraction += Double(bytes[index] &- 48) * scale
                    scale /= 10
                    index += 1
                }
                guard index > start else { return nil }
            }
        }
        guard index == bytes.count - 1, bytes[index] == 90 || bytes[index] == 122 else { return nil }
        let total = (days(fromCivil: year, month, day) * 86_400) + hour * 3_600 + minute * 60 + seconds
        return Date(timeIntervalSince1970: Double(total) + fraction)
    }

    /// The stored form exactly (`YYYY-MM-DDTHH:MM:SS.sssZ`, 24 bytes), as every row has it:
    /// fixed offsets, no bounds checks, the same value as the general parser gives (the
    /// fraction summed digit by digit in the same order). `nil` for anything else, which then
    /// goes through the general parser.
    @inline(__always)
    static func storedDate(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard let text = bytes.baseAddress, text[4] == 45, text[7] == 45, text[10] == 84, text[13] == 58,
            text[16] == 58,
            text[19] == 46, text[23] == 90
        else { return nil }
        var bad: UInt8 = 0
        @inline(__always) func digit(_ offset: Int) -> Int64 {
            let value = text[offset] &- 48
            bad |= value < 10 ? 0 : 1
            return Int64(value)
        }
        let year = digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3)
        let month = digit(5) * 10 + digit(6), day = digit(8) * 10 + digit(9)
        let hour = digit(11) * 10 + digit(12), minute = digit(14) * 10 + digit(15), second = digit(17) * 10 + digit(18)
        let tenths = digit(20), hundredths = digit(21), thousandths = digit(22)
        guard bad == 0, month >= 1, month <= 12, hour < 24, minute < 60, second < 60,
            day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        var fraction = 0.0, scale = 0.1
        fraction += Double(tenths) * scale
        scale /= 10
        fraction += Double(hundredths) * scale
        scale /= 10
        fraction += Double(thousandths) * scale
        let total = (days(fromCivil: year, month, day) * 86_400) + hour * 3_600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(total) + fraction)
    }

    @inline(__always)
    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    @inline(__always)
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day number (days since 1970-01-01).
    @usableFromInline
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
