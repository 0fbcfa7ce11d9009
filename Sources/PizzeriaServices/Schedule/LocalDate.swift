import Foundation

/// A calendar date in the pizzeria's own calendar, without a time or a zone: a service day,
/// an exception's date. `2026-12-24`.
///
/// The supported range is 1970-01-01 to 9999-12-31: the proleptic Gregorian calendar the
/// arithmetic here uses agrees with Foundation's and with `gmtime` there (before 1583
/// Foundation's Gregorian calendar is Julian), and no pickup is older than 1970.
public struct LocalDate: Sendable, Hashable, Comparable, TextCodable, CustomStringConvertible {
    /// What its JSON text must be (``TextCodable``).
    public static var textForm: String { "a date YYYY-MM-DD" }

    /// Days since 1970-01-01.
    public let daysSinceEpoch: Int64

    /// The first and last supported dates.
    public static let supported: ClosedRange<LocalDate> =
        LocalDate(days: 0)...LocalDate(days: Timestamp.days(fromCivil: 9999, 12, 31))

    init(days: Int64) { daysSinceEpoch = days }

    /// A date from its parts, or `nil` when it does not exist (February 30th) or is outside
    /// ``supported``.
    public init?(year: Int, month: Int, day: Int) {
        guard (1970...9999).contains(year), (1...12).contains(month),
            (1...Int(Timestamp.daysIn(month: Int64(month), year: Int64(year)))).contains(day)
        else { return nil }
        daysSinceEpoch = Timestamp.days(fromCivil: Int64(year), Int64(month), Int64(day))
    }

    /// `YYYY-MM-DD`, exactly; `nil` for anything else (a sign, a missing digit, a date that does not exist).
    public init?(_ description: String) {
        let bytes = Array(description.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// Year, month and day.
    public var components: (year: Int, month: Int, day: Int) {
        let (year, month, day) = Timestamp.civil(fromDays: daysSinceEpoch)
        return (Int(year), Int(month), Int(day))
    }

    /// The ISO weekday.
    public var weekday: Weekday {
        // 1970-01-01 was a Thursday (ISO 4).
        let index = ((daysSinceEpoch % 7) + 7 + 3) % 7  // 0 = Monday
        return Weekday(rawValue: Int(index) + 1) ?? .monday
    }

    /// The date `days` later (earlier when negative).
    public func adding(days: Int) -> LocalDate { LocalDate(days: daysSinceEpoch + Int64(days)) }

    /// Days from this date to `other`.
    public func days(to other: LocalDate) -> Int { Int(other.daysSinceEpoch - daysSinceEpoch) }

    /// `YYYY-MM-DD`.
    public var description: String {
        let (year, month, day) = components
        guard (0...9999).contains(year) else {
            return PickupTime.digits(year, 4) + "-" + PickupTime.digits(month, 2) + "-" + PickupTime.digits(day, 2)
        }
        // Ten ASCII bytes written in place: dates are formatted for every query that binds one.
        return String(unsafeUninitializedCapacity: 10) { buffer in
            Self.put(Int(year), 4, at: 0, in: buffer)
            buffer[4] = UInt8(ascii: "-")
            Self.put(Int(month), 2, at: 5, in: buffer)
            buffer[7] = UInt8(ascii: "-")
            Self.put(Int(day), 2, at: 8, in: buffer)
            return 10
        }
    }

    /// Writes `value` as `count` decimal digits at `offset`.
    static func put(_ value: Int, _ count: Int, at offset: Int, in buffer: UnsafeMutableBufferPointer<UInt8>) {
        var rest = value
        for index in stride(from: offset + count - 1, through: offset, by: -1) {
            buffer[index] = UInt8(48 + rest % 10)
            rest /= 10
        }
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }

}

/// A range of dates, both ends included: `2026-12-25..2026-12-26`.
public struct LocalDateRange: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The first date.
    public let first: LocalDate
    /// The last date (not before ``first``).
    public let last: LocalDate

    /// A range, or `nil` when `last` is before `first`.
    public init?(_ first: LocalDate, _ last: LocalDate) {
        guard first <= last else { return nil }
        self.first = first
        self.last = last
    }

    /// One date.
    public init(_ date: LocalDate) {
        first = date
        last = date
    }

    /// Every date in the range.
    public var dates: [LocalDate] { (0...first.days(to: last)).map { first.adding(days: $0) } }

    /// How many dates.
    public var count: Int { first.days(to: last) + 1 }

    /// Whether `date` is in the range.
    public func contains(_ date: LocalDate) -> Bool { first <= date && date <= last }

    /// `2026-12-25` or `2026-12-25..2026-12-26`.
    public var description: String { first == last ? first.description : "\(first)..\(last)" }
}
