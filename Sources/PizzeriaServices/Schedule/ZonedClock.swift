import Foundation

/// The one place where local dates and wall-clock times meet instants: every conversion between
/// the two goes through the pizzeria's zone here.
///
/// A wall-clock time of a service day is given as minutes after that day's midnight and may pass
/// 24:00 (Friday's 25:30 is Saturday 01:30): a night interval's slots are laid out on the day it
/// opens.
struct ZonedClock: Sendable {
    let zone: TimeZone

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
        let naive = Date(timeIntervalSince1970: Double(day.daysSinceEpoch * 86_400 + Int64(wall * 60)))
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
    func isAmbiguous(_ instant: Date) -> Bool {
        let (date, minutes, _) = local(instant)
        return instants(date, minutes: minutes).count > 1
    }
}
