import Foundation

/// One pickup slot: its instant, the service day it belongs to and its wall-clock time on that day.
public struct Slot: Sendable, Hashable, Comparable {
    /// When it starts.
    public let start: Date
    /// The service day it belongs to (a slot after midnight can belong to the day before).
    public let serviceDay: LocalDate
    /// Minutes after the service day's midnight (past 1440 after midnight).
    public let wallMinute: Int

    /// The wall-clock time, `00:30`.
    public var time: LocalTime { LocalTime(uncheckedMinutes: ((wallMinute % 1440) + 1440) % 1440) }

    public static func < (lhs: Slot, rhs: Slot) -> Bool { lhs.start < rhs.start }
}

/// Where an instant falls in the schedule: a slot, or why it is not one.
enum SlotLocation: Sendable, Equatable {
    /// The start of this slot.
    case slot(Slot)
    /// The weekday is closed (and no special hours open it).
    case closedWeekday(LocalDate)
    /// The date is closed, by a closure or by cuts that took all its hours.
    case closedDate(LocalDate, reasons: [String])
    /// The day is open, but not then; `hours` is its hours.
    case outside(DayHours, nearest: [Slot])
    /// Within the hours, but not the start of a slot (or too close to closing for one).
    case offGrid(DayHours, nearest: [Slot])
}

/// The schedule as a booking, a day's slot list or the pickup-time picker reads it: the week, the
/// exceptions of the days asked about (read as needed, in the caller's transaction, so a change
/// made by another process applies to the next booking), the slot length and the zone.
///
/// Slots are laid out in local wall-clock time from each interval's opening: a local time the
/// clocks skip is not a slot; one they pass twice gives two slots (the night is an hour longer);
/// the last slot ends by the closing time.
final class Schedule {
    let week: Week
    let slotMinutes: Int
    let clock: ZonedClock
    private let load: (LocalDateRange) throws -> [ScheduleException]
    /// The exceptions read so far, by day (days without any are absent), and the ranges read.
    private var exceptions: [LocalDate: [ScheduleException]] = [:]
    private var loaded: [LocalDateRange] = []
    private var hoursCache: [LocalDate: DayHours] = [:]
    /// Exceptions already in memory, by day, from a first day on (the picker's configuration).
    private let known: (from: LocalDate, byDay: [LocalDate: [ScheduleException]])?

    /// Exceptions are read this many days at a time.
    private static let chunk = 31

    /// A schedule whose exceptions from `from` on are `byDay` (days before are read through
    /// `load`): the picker's, over its kept configuration.
    init(
        week: Week, slotMinutes: Int, zone: TimeZone, exceptions byDay: [LocalDate: [ScheduleException]],
        from: LocalDate, orReading load: @escaping (LocalDateRange) throws -> [ScheduleException]
    ) {
        self.week = week
        self.slotMinutes = slotMinutes
        self.clock = ZonedClock(zone: zone)
        self.load = load
        self.known = (from, byDay)
    }

    init(
        week: Week, slotMinutes: Int, zone: TimeZone,
        exceptions load: @escaping (LocalDateRange) throws -> [ScheduleException]
    ) {
        self.week = week
        self.slotMinutes = slotMinutes
        self.clock = ZonedClock(zone: zone)
        self.load = load
        self.known = nil
    }

    /// The hours of a service day.
    func hours(of date: LocalDate) throws -> DayHours {
        if let known, date >= known.from {
            return DayHours(date: date, week: week, exceptions: known.byDay[date] ?? [])
        }
        if let cached = hoursCache[date] { return cached }
        if !loaded.contains(where: { $0.first <= date && date <= $0.last }) {
            // One query for the days around it: a booking asks about two days, a list about a few.
            let range = LocalDateRange(date.adding(days: -1)).extended(by: Self.chunk)
            for exception in try load(range) where exceptions[exception.date]?.contains(exception) != true {
                exceptions[exception.date, default: []].append(exception)
            }
            loaded.append(range)
        }
        let hours = DayHours(date: date, week: week, exceptions: exceptions[date] ?? [])
        hoursCache[date] = hours
        return hours
    }

    /// The hour after midnight (local) until which a night's service day is still "today": the
    /// close-out hour POS systems use for the business day.
    static let closeOutMinute = 6 * 60

    /// The service day "today" means at `now`: the day whose service is open or most recently
    /// opened. After midnight, while the previous day's hours ran past midnight, that night is
    /// still today until the calendar day's own first opening or the close-out hour (06:00),
    /// whichever comes first; otherwise the local date.
    func today(at now: Date) throws -> LocalDate {
        let (date, minutes, _) = clock.local(now)
        let yesterday = date.adding(days: -1)
        guard minutes < Self.closeOutMinute, try hours(of: yesterday).open.contains(where: { $0.end > 1440 }) else {
            return date
        }
        return minutes < (try hours(of: date).open.first?.start ?? 1440) ? yesterday : date
    }

    /// The next time the wall clock shows `minutes` within the current service day or the next
    /// (``today(at:)`` and the day after), as a slot of their hours, after `now`: `00:30` at 22:40
    /// is tonight's 00:30. Returns the calendar date it falls on, or `nil` when no such slot exists.
    func nextOccurrence(ofMinutes minutes: Int, after now: Date) throws -> LocalDate? {
        let today = try today(at: now)
        let services: Set<LocalDate> = [today, today.adding(days: 1)]
        for offset in 0...2 {
            let date = today.adding(days: offset)
            for instant in clock.instants(date, minutes: minutes) where instant > now {
                if case .slot(let slot) = try locate(instant), services.contains(slot.serviceDay) { return date }
            }
        }
        return nil
    }

    /// Every slot of a service day, in time order.
    func slots(of date: LocalDate) throws -> [Slot] {
        var slots: [Slot] = []
        let fixed = clock.fixedOffset(on: date)
        let midnight = ZonedClock.naive(date, minutes: 0).timeIntervalSince1970
        for span in try hours(of: date).open {
            var wall = span.start
            while wall + slotMinutes <= span.end {
                if let offset = fixed {
                    slots.append(
                        Slot(
                            start: Date(timeIntervalSince1970: midnight + Double(wall * 60 - offset)), serviceDay: date,
                            wallMinute: wall))
                } else {
                    for instant in clock.instants(date, minutes: wall) {
                        slots.append(Slot(start: instant, serviceDay: date, wallMinute: wall))
                    }
                }
                wall += slotMinutes
            }
        }
        return slots.sorted()
    }

    /// Where `instant` falls: the slot it starts, or why it starts none.
    func locate(_ instant: Date) throws -> SlotLocation {
        let (date, minutes, _) = clock.local(instant)
        let onMinute = instant.timeIntervalSince1970 == (instant.timeIntervalSince1970 / 60).rounded(.down) * 60
        // A night interval of the day before comes first: Friday's 25:30 is Saturday's 01:30.
        for (day, wall) in [(date.adding(days: -1), minutes + 1440), (date, minutes)] {
            let hours = try hours(of: day)
            guard let span = hours.open.first(where: { $0.contains(wall) }) else { continue }
            guard onMinute, (wall - span.start) % slotMinutes == 0, wall + slotMinutes <= span.end else {
                return .offGrid(hours, nearest: try nearest(to: instant))
            }
            return .slot(Slot(start: instant, serviceDay: day, wallMinute: wall))
        }
        let hours = try hours(of: date)
        if hours.isOpen { return .outside(hours, nearest: try nearest(to: instant)) }
        if hours.basis == .weekly, hours.intervals.isEmpty { return .closedWeekday(date) }
        return .closedDate(date, reasons: ([hours.closure] + hours.cuts).compactMap { $0?.reason })
    }

    /// The slot before `instant` and the one after it, within a day either side.
    func nearest(to instant: Date) throws -> [Slot] {
        let date = clock.local(instant).date
        let around = try (-1...1).flatMap { try slots(of: date.adding(days: $0)) }.sorted()
        return [around.last { $0.start < instant }, around.first { $0.start > instant }].compactMap { $0 }
    }

    /// Slots from `earliest` on, in time order, through `latest`, for which `accept` holds —
    /// at most `limit`, across closed days and exceptions.
    func slots(
        from earliest: Date, through latest: Date, limit: Int, where accept: (Slot) throws -> Bool = { _ in true }
    ) throws -> [Slot] {
        var found: [Slot] = []
        guard limit > 0, earliest <= latest else { return [] }
        var day = clock.local(earliest).date.adding(days: -1)
        let last = clock.local(latest).date
        while day <= last, found.count < limit {
            for slot in try slots(of: day) where slot.start >= earliest && slot.start <= latest {
                guard try accept(slot) else { continue }
                found.append(slot)
                if found.count == limit { break }
            }
            day = day.adding(days: 1)
        }
        return found
    }

    /// `Tuesday 12:00` when the slot is within six days of `reference`, else `Tuesday 2026-12-29
    /// 12:00` (with the offset when the time happens twice): how a refusal names another slot.
    func describe(_ slot: Slot, near reference: Date) -> String {
        let date = clock.local(slot.start).date
        let days = clock.local(reference).date.days(to: date)
        let time = label(slot, relativeTo: date)
        return (0...6).contains(days) ? "\(date.weekday.name) \(time)" : "\(date.weekday.name) \(date) \(time)"
    }

    /// `Friday 2026-12-04`: a service day in a refusal.
    static func dayName(_ date: LocalDate) -> String { "\(date.weekday.name) \(date)" }

    /// `19:30`, or `2026-12-05 00:30` when not on `day`, with the offset when the time happens twice.
    func label(_ slot: Slot, relativeTo day: LocalDate? = nil) -> String {
        let (date, minutes, offset) = clock.local(slot.start)
        var text = date == day ? LocalTime.clock(minutes) : "\(date) \(LocalTime.clock(minutes))"
        if clock.instants(date, minutes: minutes).count > 1 { text += " " + PickupTime.offsetText(offset) }
        return text
    }
}

extension LocalDateRange {
    /// The range with `days` more days at its end.
    func extended(by days: Int) -> LocalDateRange { LocalDateRange(first, last.adding(days: days)) ?? self }
}
