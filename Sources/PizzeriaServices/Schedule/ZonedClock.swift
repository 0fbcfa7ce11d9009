import Foundation

/// The one place where local dates and wall-clock times meet instants: every conversion between
/// the two goes through the pizzeria's zone here — the booking, the picker, the schedule, the
/// CLI, the demo, the bench and the examples. No `Calendar` (slow on Linux): the zone's offsets
/// and integer arithmetic.
///
/// ```swift
/// let clock = try pizzeria.settings.current().clock
/// let pickup = try clock.instant(on: tomorrow, at: LocalTime(hour: 19, minute: 30) ?? .midnight)
/// ```
///
/// A wall-clock time of a service day is given as minutes after that day's midnight and may pass
/// 24:00 (Friday's 25:30 is Saturday 01:30): a night interval's slots are laid out on the day it
/// opens.
public struct ZonedClock: Sendable, Equatable {
    /// The zone every conversion uses.
    public let zone: TimeZone

    /// A clock for `zone`.
    public init(zone: TimeZone) { self.zone = zone }

    /// The pizzeria's zone from its stored IANA identifier: the machine's when none is stored,
    /// `nil` when the stored one is not a known zone (a damaged setting, never a guess).
    static func zone(stored identifier: String?) -> TimeZone? {
        guard let identifier else { return TimeZone.current }
        return TimeZone(identifier: identifier)
    }

    /// The instant `time` names on `date` in this zone.
    /// - Throws: ``PickupTime/ParseError/nonexistent(local:zone:)`` when the clocks skip that time
    ///   (spring forward), ``PickupTime/ParseError/ambiguous(local:zone:instants:)`` when they pass
    ///   it twice (fall back): ``instants(on:at:)`` gives both.
    public func instant(on date: LocalDate, at time: LocalTime) throws -> Date {
        try instant(on: date, minutes: time.minutes)
    }

    /// Every instant `time` names on `date`: none when the clocks skip it, two (earliest first)
    /// when they pass it twice, one otherwise.
    public func instants(on date: LocalDate, at time: LocalTime) -> [Date] { instants(date, minutes: time.minutes) }

    /// The local date of `instant` in this zone.
    public func date(of instant: Date) -> LocalDate { local(instant).date }

    /// The wall-clock time of `instant` in this zone.
    public func time(of instant: Date) -> LocalTime { LocalTime(uncheckedMinutes: local(instant).minutes) }

    /// ``instant(on:at:)`` for minutes after midnight (which may pass 24:00).
    func instant(on date: LocalDate, minutes: Int) throws -> Date {
        let found = instants(date, minutes: minutes)
        if found.count == 1 { return found[0] }
        let local = "\(date) \(LocalTime.clock(minutes))"
        if found.isEmpty { throw PickupTime.ParseError.nonexistent(local: local, zone: zone.identifier) }
        throw PickupTime.ParseError.ambiguous(local: local, zone: zone.identifier, instants: found)
    }

    /// The offset (seconds east of UTC) at which `instant` shows `minutes` after the midnight of
    /// `date`: a slot that knows its wall time knows its offset without a zone lookup.
    static func offset(of instant: Date, showing date: LocalDate, minutes: Int) -> Int {
        offset(ofSecond: Int64(instant.timeIntervalSince1970.rounded(.down)), showing: date, minutes: minutes)
    }

    /// ``offset(of:showing:minutes:)`` for an instant in whole seconds since 1970, in integers
    /// alone (the picker's walk has each slot's start so).
    static func offset(ofSecond second: Int64, showing date: LocalDate, minutes: Int) -> Int {
        Int(date.daysSinceEpoch * 86_400 + Int64(minutes) * 60 - second)
    }

    /// The instant `date` at `minutes` would be in UTC: the arithmetic alone.
    static func naive(_ date: LocalDate, minutes: Int) -> Date {
        Date(timeIntervalSince1970: Double(date.daysSinceEpoch * 86_400 + Int64(minutes * 60)))
    }

    /// The local date, the minutes after local midnight, and the zone's offset (seconds) at `instant`.
    func local(_ instant: Date) -> (date: LocalDate, minutes: Int, offset: Int) {
        let offset = zone.secondsFromGMT(for: instant)
        let (date, minutes) = Self.wallClock(instant, offset: offset)
        return (date, minutes, offset)
    }

    /// The local date and minutes after local midnight of `instant` at a known offset: the
    /// arithmetic alone, for values that carry their offset.
    static func wallClock(_ instant: Date, offset: Int) -> (date: LocalDate, minutes: Int) {
        let local = Int64(instant.timeIntervalSince1970.rounded(.down)) + Int64(offset)
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        return (LocalDate(days: days), Int((local - days * 86_400) / 60))
    }

    /// Every instant whose local time is `minutes` after the midnight of `date`: none when the
    /// clocks skip that time, two when they pass it twice (earliest first), one otherwise.
    func instants(_ date: LocalDate, minutes: Int) -> [Date] {
        let day = date.adding(days: Int((minutes >= 0 ? minutes : minutes - 1439) / 1440))
        let wall = ((minutes % 1440) + 1440) % 1440
        // The instant this local time would be in UTC, then each offset in force within a day of it.
        let naive = Self.naive(day, minutes: wall)
        let offsets = Set([-86_400.0, 0, 86_400].map { zone.secondsFromGMT(for: naive.addingTimeInterval($0)) })
        // A candidate is real when the zone's offset at that instant is the one that made it.
        return offsets.compactMap { offset in
            let candidate = naive.addingTimeInterval(TimeInterval(-offset))
            return zone.secondsFromGMT(for: candidate) == offset ? candidate : nil
        }.sorted()
    }

    /// The zone's offset (seconds) throughout the wall-clock times of service day `date` (its
    /// minutes 0 to 2880 and a margin), or `nil` when the clocks change within them. Most days
    /// have one: their slots are then plain arithmetic instead of a zone lookup each.
    func fixedOffset(on date: LocalDate) -> Int? {
        let first = Date(timeIntervalSince1970: Double(date.adding(days: -1).daysSinceEpoch * 86_400))
        let last = Date(timeIntervalSince1970: Double(date.adding(days: 3).daysSinceEpoch * 86_400))
        let offset = zone.secondsFromGMT(for: first)
        if let change = zone.nextDaylightSavingTimeTransition(after: first), change <= last { return nil }
        return zone.secondsFromGMT(for: last) == offset ? offset : nil
    }

    /// The first instant of `date` (its midnight, or the first time after it that exists).
    func start(of date: LocalDate) -> Date {
        if let midnight = instants(date, minutes: 0).first { return midnight }
        // Midnight skipped (some zones change at 00:00): the first minute that exists.
        for minute in stride(from: 1, through: 180, by: 1) {
            if let first = instants(date, minutes: minute).first { return first }
        }
        return Date(timeIntervalSince1970: Double(date.daysSinceEpoch * 86_400))
    }

    /// `2026-12-05T00:30+01:00`: how orders store their local pickup time.
    func localText(_ instant: Date) -> String {
        let (date, minutes, offset) = local(instant)
        return "\(date)T\(LocalTime.clock(minutes))" + PickupTime.offsetText(offset)
    }

    /// Whether the local time of `instant` names another instant too (the clocks pass it twice).
    /// `offset` is the zone's offset at `instant`, when the caller has it already.
    func isAmbiguous(_ instant: Date, offset known: Int? = nil) -> Bool {
        // Another offset in force a day either side that maps the same local time to an instant
        // which really has that offset: the clocks pass this local time twice.
        let offset = known ?? zone.secondsFromGMT(for: instant)
        for other in Set([
            zone.secondsFromGMT(for: instant.addingTimeInterval(-86_400)),
            zone.secondsFromGMT(for: instant.addingTimeInterval(86_400)),
        ])
        where other != offset {
            if zone.secondsFromGMT(for: instant.addingTimeInterval(Double(offset - other))) == other { return true }
        }
        return false
    }
}
