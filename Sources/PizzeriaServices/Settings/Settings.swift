import Foundation

/// The pizzeria's booking settings, stored in the database's single `settings` row, with the
/// week of opening hours (`weekly_hours`).
///
/// JSON: `{"slot_minutes", "slot_capacity", "opening_hours": "Mo-Su 12:00-23:00", "week",
/// "lead_minutes", "time_zone", "time_zone_is_default", "booking_horizon_days", "pause": {…} | null,
/// "rush": {…} | null}`.
public struct Settings: Sendable, Hashable, Encodable {
    /// Length of a pickup slot; divides 60.
    public let slotMinutes: Int
    /// Pizzas the kitchen makes per slot (unless a capacity rule says otherwise).
    public let slotCapacity: Int
    /// The weekly opening hours.
    public let week: Week
    /// The stored IANA zone, or `nil` for the machine's.
    public let storedTimeZone: String?
    /// How many days ahead a pickup may be booked.
    public let bookingHorizonDays: Int
    /// A pickup must be at least this many minutes of real time from now.
    public let leadMinutes: Int
    /// The zone times are shown and typed in: the stored one, else the machine's (resolved once).
    public let timeZone: TimeZone
    /// Conversions between local dates and times and instants, in ``timeZone``.
    public var clock: ZonedClock { ZonedClock(zone: timeZone) }
    /// New bookings are stopped, if set (it may have ended: see ``activePause(at:)``).
    public let pause: Pause?
    /// Extra lead time, if set (it may have ended: see ``activeRush(at:)``).
    public let rush: Rush?

    /// A value whose zone is already resolved.
    init(
        slotMinutes: Int, slotCapacity: Int, week: Week, storedTimeZone: String?, timeZone: TimeZone,
        bookingHorizonDays: Int, leadMinutes: Int, pause: Pause? = nil, rush: Rush? = nil
    ) {
        self.pause = pause
        self.rush = rush
        self.slotMinutes = slotMinutes
        self.slotCapacity = slotCapacity
        self.week = week
        self.storedTimeZone = storedTimeZone
        self.timeZone = timeZone
        self.bookingHorizonDays = bookingHorizonDays
        self.leadMinutes = leadMinutes
    }

    /// The pause that holds at `now`, if any: one with an `until` ends by itself.
    public func activePause(at now: Date) -> Pause? { pause.flatMap { $0.isActive(at: now) ? $0 : nil } }

    /// The rush that holds at `now`, if any.
    public func activeRush(at now: Date) -> Rush? { rush.flatMap { $0.isActive(at: now) ? $0 : nil } }

    /// The lead time at `now`: the setting plus a rush's minutes while it lasts.
    public func effectiveLeadMinutes(at now: Date) -> Int { leadMinutes + (activeRush(at: now)?.minutes ?? 0) }

    /// The same settings without a pause or rush that has ended by `now`.
    public func current(at now: Date) -> Settings {
        Settings(
            slotMinutes: slotMinutes, slotCapacity: slotCapacity, week: week, storedTimeZone: storedTimeZone,
            timeZone: timeZone,
            bookingHorizonDays: bookingHorizonDays, leadMinutes: leadMinutes, pause: activePause(at: now),
            rush: activeRush(at: now))
    }

    /// The week in OpenStreetMap's `opening_hours` syntax: `Mo-Su 12:00-23:00`.
    public var openingHours: String { HoursSyntax.osm(week) }

    private enum CodingKeys: String, CodingKey {
        case slotMinutes = "slot_minutes", slotCapacity = "slot_capacity", openingHours = "opening_hours", week
        case leadMinutes = "lead_minutes", timeZone = "time_zone", timeZoneIsDefault = "time_zone_is_default"
        case bookingHorizonDays = "booking_horizon_days", pause, rush
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(slotMinutes, forKey: .slotMinutes)
        try container.encode(slotCapacity, forKey: .slotCapacity)
        try container.encode(openingHours, forKey: .openingHours)
        try container.encode(week, forKey: .week)
        try container.encode(leadMinutes, forKey: .leadMinutes)
        try container.encode(timeZone.identifier, forKey: .timeZone)
        try container.encode(storedTimeZone == nil, forKey: .timeZoneIsDefault)
        try container.encode(bookingHorizonDays, forKey: .bookingHorizonDays)
        try container.encode(pause, forKey: .pause)
        try container.encode(rush, forKey: .rush)
    }

    /// The same settings with one change applied (the week changes through the schedule).
    func applying(_ change: SettingsChange) -> Settings {
        var (minutes, capacity, week, zone, horizon, lead) = (
            slotMinutes, slotCapacity, self.week, storedTimeZone, bookingHorizonDays, leadMinutes
        )
        switch change {
        case .slotMinutes(let value): minutes = value
        case .slotCapacity(let value): capacity = value
        case .openingHours(let intervals): week = .everyDay(intervals)
        case .timeZone(let value): zone = value?.identifier
        case .bookingHorizonDays(let value): horizon = value
        case .leadMinutes(let value): lead = value
        }
        return Settings(
            slotMinutes: minutes, slotCapacity: capacity, week: week, storedTimeZone: zone,
            timeZone: ZonedClock.zone(stored: zone) ?? timeZone, bookingHorizonDays: horizon,
            leadMinutes: lead,
            pause: pause, rush: rush)
    }
}

/// A setting that can be changed.
public enum SettingKey: Sendable, Hashable, CaseIterable {
    /// Minutes per pickup slot: 1–60, dividing 60.
    case slotMinutes
    /// Pizzas per slot: 1–10000.
    case slotCapacity
    /// The same opening hours every day (the week has more: `hours set`).
    case openingHours
    /// The IANA time zone times are typed and shown in, or the machine's.
    case timeZone
    /// How many days ahead a pickup may be booked: 1–3650.
    case bookingHorizonDays
    /// Minutes of real time a pickup must be from now: 0–1440.
    case leadMinutes

    /// What values it takes, for errors and help.
    public var rule: String {
        switch self {
        case .slotMinutes: "a whole number of minutes that divides 60 (1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30 or 60)"
        case .slotCapacity: "a whole number of pizzas from 1 to 10000"
        case .openingHours:
            "intervals HH:MM-HH:MM for every day, such as 12:00-23:00 or 12:00-14:30,18:30-01:00 (past midnight)"
        case .timeZone: "an IANA time zone such as Europe/Rome, or 'system' for this machine's zone"
        case .bookingHorizonDays: "a whole number of days from 1 to 3650 (how far ahead a pickup may be booked)"
        case .leadMinutes: "a whole number of minutes from 0 to 1440 (how long before pickup an order must be booked)"
        }
    }
}

/// One change of a setting, with a typed value.
///
/// ```swift
/// try pizzeria.settings.update(.slotCapacity(10))
/// try pizzeria.settings.update(.leadMinutes(20))
/// ```
public enum SettingsChange: Sendable, Hashable {
    /// Minutes per slot (1–60, dividing 60).
    case slotMinutes(Int)
    /// Pizzas per slot (1–10000).
    case slotCapacity(Int)
    /// The same intervals every day (1 to 8, not overlapping).
    case openingHours([OpeningInterval])
    /// A time zone, or `nil` for the machine's.
    case timeZone(TimeZone?)
    /// Days ahead a pickup may be booked (1–3650).
    case bookingHorizonDays(Int)
    /// Minutes a pickup must be from now (0–1440).
    case leadMinutes(Int)

    /// The setting it changes.
    public var key: SettingKey {
        switch self {
        case .slotMinutes: .slotMinutes
        case .slotCapacity: .slotCapacity
        case .openingHours: .openingHours
        case .timeZone: .timeZone
        case .bookingHorizonDays: .bookingHorizonDays
        case .leadMinutes: .leadMinutes
        }
    }

    /// The value as people type it (what ``SettingsChange/parse(_:_:)`` reads), for messages.
    var valueText: String {
        switch self {
        case .slotMinutes(let number), .slotCapacity(let number), .bookingHorizonDays(let number),
            .leadMinutes(let number):
            String(number)
        case .openingHours(let intervals): intervals.map(\.description).joined(separator: ",")
        case .timeZone(let zone): zone?.identifier ?? "system"
        }
    }

    /// Whether the value keeps its key's rule.
    var isValid: Bool {
        switch self {
        case .slotMinutes(let minutes): (1...60).contains(minutes) && 60 % minutes == 0
        case .slotCapacity(let capacity): (1...10_000).contains(capacity)
        case .openingHours(let intervals):
            (1...Week.maximumIntervalsPerDay).contains(intervals.count) && Week.everyDay(intervals).problems().isEmpty
        case .timeZone: true
        case .bookingHorizonDays(let days): (1...3650).contains(days)
        case .leadMinutes(let minutes): (0...1440).contains(minutes)
        }
    }

    /// Parses a value as people type it: numbers, `HH:MM-HH:MM`, an IANA zone or `system`.
    /// - Throws: ``SettingsError/invalidValue(key:value:)``.
    public static func parse(_ key: SettingKey, _ text: String) throws -> SettingsChange {
        let value = text.trimmingWhitespace()
        let invalid = SettingsError.invalidValue(key: key, value: value)
        let change: SettingsChange
        switch key {
        case .slotMinutes: change = .slotMinutes(try Int(value).orThrow(invalid))
        case .slotCapacity: change = .slotCapacity(try Int(value).orThrow(invalid))
        case .bookingHorizonDays: change = .bookingHorizonDays(try Int(value).orThrow(invalid))
        case .leadMinutes: change = .leadMinutes(try Int(value).orThrow(invalid))
        case .openingHours:
            guard let intervals = try? HoursSyntax.intervals(value), !intervals.isEmpty else { throw invalid }
            change = .openingHours(intervals)
        case .timeZone:
            if value.lowercased() == "system" {
                change = .timeZone(nil)
            } else {
                guard !value.isEmpty, let zone = TimeZone(identifier: value) else { throw invalid }
                change = .timeZone(zone)
            }
        }
        guard change.isValid else { throw invalid }
        return change
    }
}

extension Optional {
    /// The value, or `error` thrown.
    func orThrow(_ error: @autoclosure () -> any Error) throws -> Wrapped {
        guard let self else { throw error() }
        return self
    }
}
