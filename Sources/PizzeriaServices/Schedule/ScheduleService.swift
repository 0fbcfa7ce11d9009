import Foundation
import PizzeriaStorage

/// The pizzeria's real week: weekly hours, date exceptions, and the effective hours of a service
/// day. Every change is one write transaction, validated first, and refused when it would leave a
/// future booked order outside the hours (unless the caller keeps such orders).
///
/// ```swift
/// let schedule = pizzeria.schedule
/// try schedule.setWeek(try HoursSyntax.osm("Tu-Th 12:00-14:30,18:30-23:30; Fr,Sa 12:00-14:30,18:30-01:00; Su 18:30-23:30; Mo off"))
/// try schedule.close(LocalDateRange(christmas, boxingDay)!, reason: "Christmas")
/// let friday = try schedule.hours(of: LocalDate("2026-12-04")!)   // friday.open, friday.basis
/// ```
public final class ScheduleService: Sendable {
    let database: Database
    let now: @Sendable () -> Date

    /// Who acts through this handle, for the audit log.
    let acting: Acting

    init(database: Database, now: @escaping @Sendable () -> Date, acting: Acting = .library) {
        self.database = database
        self.now = now
        self.acting = acting
    }

    // MARK: - Reading

    /// The weekly hours.
    public func week() throws -> Week {
        try database.read { try ScheduleStore.week(in: $0) }
    }

    /// The exceptions of `range` (by default: from today, a year ahead), by date.
    public func exceptions(in range: LocalDateRange? = nil) throws -> [ScheduleException] {
        try database.read { db in
            try ScheduleStore.exceptions(in: try range ?? Self.ahead(from: today(in: db)), db: db)
        }
    }

    /// The effective hours of each service day in `range`, and why.
    public func hours(in range: LocalDateRange) throws -> [DayHours] {
        try database.read { db in
            let schedule = ScheduleStore.schedule(try SettingsStore.current(in: db), in: db)
            return try range.dates.map { try schedule.hours(of: $0) }
        }
    }

    /// The effective hours of one service day.
    public func hours(of date: LocalDate) throws -> DayHours {
        try hours(in: LocalDateRange(date))[0]
    }

    /// The instant the local date `day` starts at, in the pizzeria's zone.
    public func startOfDay(_ day: LocalDate) throws -> Date {
        try database.read { db in ZonedClock(zone: try SettingsStore.current(in: db).timeZone).start(of: day) }
    }

    /// Today: the service day whose service is open or most recently opened, in the pizzeria's
    /// zone. After midnight a night that ran past it is still today until the calendar day's first
    /// opening or 06:00, whichever is first (at 00:45 on Friday night, today is Friday).
    public func today() throws -> LocalDate {
        try database.read { try today(in: $0) }
    }

    func today(in db: Connection) throws -> LocalDate { try Self.today(at: now(), in: db) }

    /// The one definition of "today" at `now` (``Schedule/today(at:)``).
    static func today(at now: Date, in db: Connection) throws -> LocalDate {
        try ScheduleStore.schedule(try SettingsStore.current(in: db), in: db).today(at: now)
    }

    private static func ahead(from today: LocalDate) -> LocalDateRange {
        LocalDateRange(today, today.adding(days: 365)) ?? LocalDateRange(today)
    }

    // MARK: - Changing

    /// Sets the hours of `days` (the other days keep theirs); empty intervals close those days.
    /// - Throws: ``ValidationError`` for overlapping intervals (named with their days);
    ///   ``ScheduleError/wouldOrphan(_:)`` unless `keepOrders`.
    @discardableResult
    public func setHours(_ days: Set<Weekday>, _ intervals: [OpeningInterval], keepOrders: Bool = false) throws -> Week
    {
        try change(keepOrders: keepOrders) { db, settings in
            var week = settings.week
            for day in days { week[day] = intervals }
            try Self.validate(week)
            try ScheduleStore.replace(days, with: week, in: db)
            return week
        }
    }

    /// Replaces the whole week.
    @discardableResult
    public func setWeek(_ week: Week, keepOrders: Bool = false) throws -> Week {
        try change(keepOrders: keepOrders) { db, _ in
            try Self.validate(week)
            try ScheduleStore.replace(Set(Weekday.allCases), with: week, in: db)
            return week
        }
    }

    /// Closes the whole of each day of `range`, or (`from`/`to` given) cuts that time range out of
    /// each day's hours.
    @discardableResult
    public func close(
        _ range: LocalDateRange, cutting interval: OpeningInterval? = nil, reason: String? = nil,
        keepOrders: Bool = false
    ) throws -> [ScheduleException] {
        let reason = try Self.validReason(reason)
        let exceptions = range.dates.compactMap {
            ScheduleException(date: $0, kind: interval == nil ? .closed : .cut, interval: interval, reason: reason)
        }
        return try addExceptions(
            exceptions, replacing: interval == nil ? .closed : nil, in: range, keepOrders: keepOrders,
            mustCut: interval)
    }

    /// Special hours for each day of `range`, replacing the weekday's (and any special hours
    /// those days had).
    @discardableResult
    public func special(
        _ range: LocalDateRange, _ intervals: [OpeningInterval], reason: String? = nil,
        keepOrders: Bool = false
    ) throws -> [ScheduleException] {
        let reason = try Self.validReason(reason)
        guard !intervals.isEmpty else { return try close(range, reason: reason, keepOrders: keepOrders) }
        try Self.validate(Week.everyDay(intervals))
        let exceptions = range.dates.flatMap { date in
            intervals.compactMap { ScheduleException(date: date, kind: .special, interval: $0, reason: reason) }
        }
        return try addExceptions(exceptions, replacing: .special, in: range, keepOrders: keepOrders)
    }

    /// Removes every exception of `range`: those days follow the week again.
    /// - Returns: how many exceptions were removed.
    @discardableResult
    public func clear(_ range: LocalDateRange, keepOrders: Bool = false) throws -> Int {
        try change(keepOrders: keepOrders) { db, _ in try ScheduleStore.delete(range, in: db) }
    }

    /// Writes `exceptions`; with `mustCut`, refuses a cut that takes nothing out of any day's hours.
    private func addExceptions(
        _ exceptions: [ScheduleException], replacing kind: ScheduleException.Kind?, in range: LocalDateRange,
        keepOrders: Bool, mustCut: OpeningInterval? = nil
    ) throws -> [ScheduleException] {
        try change(keepOrders: keepOrders) { db, settings in
            let before = try mustCut.map { _ in
                try range.dates.map { try ScheduleStore.schedule(settings, in: db).hours(of: $0).open }
            }
            if let kind { try ScheduleStore.delete(range, kind: kind, in: db) }
            let existing = try ScheduleStore.exceptionCount(in: db)
            guard existing + exceptions.count <= ScheduleException.maximumCount else {
                throw ScheduleError.tooManyExceptions(existing: existing, adding: exceptions.count)
            }
            for exception in exceptions { try ScheduleStore.insert(exception, at: now(), in: db) }
            if let cut = mustCut, let before {
                let schedule = ScheduleStore.schedule(settings, in: db)
                let after = try range.dates.map { try schedule.hours(of: $0).open }
                guard after != before else {
                    let hours = try range.dates.prefix(3).map {
                        "\($0.weekday.short) \($0): \(try schedule.hours(of: $0).summary)"
                    }
                    throw ValidationError([
                        FieldError(
                            field: "from",
                            message: "\(cut) cuts nothing out of the hours ("
                                + hours.joined(separator: "; ") + (range.dates.count > 3 ? "; …" : "")
                                + "); the hours after midnight belong to the night before: cut them on that date")
                    ])
                }
            }
            try Self.checkNights(around: range, settings: settings, in: db)
            return exceptions
        }
    }

    /// One schedule change: `body` writes it; then every future booking is re-homed under the new
    /// schedule (``Rehoming``): refused when one would leave the hours, change service day or
    /// overfill its slot (unless `keepOrders`), all in one transaction.
    private func change<T>(keepOrders: Bool, _ body: (Connection, Settings) throws -> T) throws -> T {
        let now = now()
        return try database.audited(acting, at: now) { db in
            let capacities = try CapacityStore.futureCapacities(after: now, in: db)
            let result = try body(db, try SettingsStore.current(in: db))
            let schedule = ScheduleStore.schedule(try SettingsStore.current(in: db), in: db)
            try Rehoming.apply(under: schedule, capacitiesBefore: capacities, now: now, keepOrders: keepOrders, in: db)
            return result
        }
    }

    static func validate(_ week: Week) throws {
        let problems = week.problems()
        guard problems.isEmpty else { throw ValidationError(problems) }
    }

    /// No day of `range` (or the days beside it) may run into the next day's hours.
    static func checkNights(around range: LocalDateRange, settings: Settings, in db: Connection) throws {
        let schedule = ScheduleStore.schedule(settings, in: db)
        var problems: [String] = []
        for date in (LocalDateRange(range.first.adding(days: -1), range.last) ?? range).dates {
            let today = try schedule.hours(of: date), tomorrow = try schedule.hours(of: date.adding(days: 1))
            if let last = today.open.last, let first = tomorrow.open.first, last.end - 1440 > first.start {
                problems.append("\(date) \(last) runs into \(date.adding(days: 1)) \(first)")
            }
        }
        guard problems.isEmpty else { throw ScheduleError.overlaps(problems) }
    }

    /// A reason trimmed, or `nil`; refused when too long or with control characters.
    static func validReason(_ text: String?) throws -> String? {
        guard let reason = text?.trimmingWhitespace(), !reason.isEmpty else { return nil }
        let problems = TextLimit.problems(reason, field: "reason", maximum: ScheduleException.maximumReasonLength)
        guard problems.isEmpty else { throw ValidationError(problems) }
        return reason
    }
}
