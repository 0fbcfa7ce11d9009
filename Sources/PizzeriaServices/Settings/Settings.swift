import Foundation

/// The pizzeria's booking settings, stored in the database's single `settings` row.
///
/// JSON: `{"slot_minutes", "slot_capacity", "opening_hours": "12:00-23:00", "opens_at",
/// "closes_at", "time_zone", "time_zone_is_default"}`.
public struct Settings: Sendable, Hashable, Codable {
    /// Length of a pickup slot; divides 60.
    public let slotMinutes: Int
    /// Pizzas the kitchen makes per slot.
    public let slotCapacity: Int
    /// Opening time, minutes after local midnight.
    public let opensAt: Int
    /// Closing time, minutes after local midnight (1440 = midnight). The last slot starts
    /// `slotMinutes` before it.
    public let closesAt: Int
    /// The stored IANA zone, or `nil` for the machine's zone.
    public let storedTimeZone: String?
    /// How many days ahead a pickup may be booked.
    public let bookingHorizonDays: Int

    /// A value from its parts.
    public init(slotMinutes: Int, slotCapacity: Int, opensAt: Int, closesAt: Int, storedTimeZone: String?,
                bookingHorizonDays: Int = 365) {
        self.init(slotMinutes: slotMinutes, slotCapacity: slotCapacity, opensAt: opensAt, closesAt: closesAt,
                  storedTimeZone: storedTimeZone, timeZone: storedTimeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone.current,
                  bookingHorizonDays: bookingHorizonDays)
    }

    /// A value whose zone is already resolved.
    init(slotMinutes: Int, slotCapacity: Int, opensAt: Int, closesAt: Int, storedTimeZone: String?, timeZone: TimeZone,
         bookingHorizonDays: Int) {
        self.slotMinutes = slotMinutes
        self.slotCapacity = slotCapacity
        self.opensAt = opensAt
        self.closesAt = closesAt
        self.storedTimeZone = storedTimeZone
        self.timeZone = timeZone
        self.bookingHorizonDays = bookingHorizonDays
    }

    /// Whether a slot starting `minutes` after local midnight lies within the opening hours.
    func isOpen(minutes: Int) -> Bool { minutes >= opensAt && minutes + slotMinutes <= closesAt }

    /// Why a slot starting at `date` cannot be booked under these settings (off the slot grid
    /// or outside the opening hours), or `nil`.
    func slotProblem(_ date: Date) -> String? {
        let minutes = PickupTime.minutesOfDay(date, in: timeZone)
        if minutes % slotMinutes != 0 || PickupTime.secondsPastMinute(date) != 0 { return "not the start of a \(slotMinutes)-minute slot" }
        if !isOpen(minutes: minutes) { return "outside the opening hours \(openingHours)" }
        return nil
    }

    /// The zone times are shown and typed in: the stored one, else the machine's (resolved once).
    public let timeZone: TimeZone

    /// `12:00-23:00`.
    public var openingHours: String { "\(Self.clock(opensAt))-\(Self.clock(closesAt))" }

    /// `HH:MM` for minutes after midnight.
    public static func clock(_ minutes: Int) -> String {
        PickupTime.digits(minutes / 60, 2) + ":" + PickupTime.digits(minutes % 60, 2)
    }

    /// Minutes after midnight for `HH:MM` (00:00…24:00), or `nil`.
    public static func minutes(_ clock: String) -> Int? {
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              let hours = Int(parts[0]), let minutes = Int(parts[1]), minutes < 60,
              hours < 24 || (hours == 24 && minutes == 0) else { return nil }
        return hours * 60 + minutes
    }

    private enum CodingKeys: String, CodingKey {
        case slotMinutes = "slot_minutes", slotCapacity = "slot_capacity", openingHours = "opening_hours"
        case opensAt = "opens_at", closesAt = "closes_at", timeZone = "time_zone", timeZoneIsDefault = "time_zone_is_default"
        case bookingHorizonDays = "booking_horizon_days"
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(slotMinutes, forKey: .slotMinutes)
        try container.encode(slotCapacity, forKey: .slotCapacity)
        try container.encode(openingHours, forKey: .openingHours)
        try container.encode(Self.clock(opensAt), forKey: .opensAt)
        try container.encode(Self.clock(closesAt), forKey: .closesAt)
        try container.encode(timeZone.identifier, forKey: .timeZone)
        try container.encode(storedTimeZone == nil, forKey: .timeZoneIsDefault)
        try container.encode(bookingHorizonDays, forKey: .bookingHorizonDays)
    }

    /// Reads the documented JSON shape.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let opens = try container.decode(String.self, forKey: .opensAt), closes = try container.decode(String.self, forKey: .closesAt)
        guard let opensAt = Self.minutes(opens), let closesAt = Self.minutes(closes) else {
            throw DecodingError.dataCorruptedError(forKey: .opensAt, in: container, debugDescription: "opening hours must be HH:MM")
        }
        let isDefault = try container.decode(Bool.self, forKey: .timeZoneIsDefault)
        self.init(slotMinutes: try container.decode(Int.self, forKey: .slotMinutes),
                  slotCapacity: try container.decode(Int.self, forKey: .slotCapacity), opensAt: opensAt, closesAt: closesAt,
                  storedTimeZone: isDefault ? nil : try container.decode(String.self, forKey: .timeZone),
                  bookingHorizonDays: try container.decode(Int.self, forKey: .bookingHorizonDays))
    }
}

/// A setting that can be changed.
public enum SettingKey: Sendable, Hashable, CaseIterable {
    /// Minutes per pickup slot: 1–60, dividing 60.
    case slotMinutes
    /// Pizzas per slot: 1–10000.
    case slotCapacity
    /// Opening and closing time, every day.
    case openingHours
    /// The IANA time zone times are typed and shown in, or the machine's.
    case timeZone
    /// How many days ahead a pickup may be booked: 1–3650.
    case bookingHorizonDays

    /// What values it takes, for errors and help.
    public var rule: String {
        switch self {
        case .slotMinutes: "a whole number of minutes that divides 60 (1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30 or 60)"
        case .slotCapacity: "a whole number of pizzas from 1 to 10000"
        case .openingHours: "HH:MM-HH:MM with opening before closing, such as 12:00-23:00 (24:00 is midnight)"
        case .timeZone: "an IANA time zone such as Europe/Rome, or 'system' for this machine's zone"
        case .bookingHorizonDays: "a whole number of days from 1 to 3650 (how far ahead a pickup may be booked)"
        }
    }
}

/// One change of a setting, with a typed value.
///
/// ```swift
/// try pizzeria.settings.update(.slotCapacity(10))
/// try pizzeria.settings.update(.openingHours(opens: 18 * 60, closes: 23 * 60))
/// ```
public enum SettingsChange: Sendable, Hashable {
    /// Minutes per slot (1–60, dividing 60).
    case slotMinutes(Int)
    /// Pizzas per slot (1–10000).
    case slotCapacity(Int)
    /// Opening and closing, minutes after local midnight (closing up to 1440, after opening).
    case openingHours(opens: Int, closes: Int)
    /// A time zone, or `nil` for the machine's.
    case timeZone(TimeZone?)
    /// Days ahead a pickup may be booked (1–3650).
    case bookingHorizonDays(Int)

    /// The setting it changes.
    public var key: SettingKey {
        switch self {
        case .slotMinutes: .slotMinutes
        case .slotCapacity: .slotCapacity
        case .openingHours: .openingHours
        case .timeZone: .timeZone
        case .bookingHorizonDays: .bookingHorizonDays
        }
    }

    /// Whether the value keeps its key's rule.
    var isValid: Bool {
        switch self {
        case .slotMinutes(let minutes): (1...60).contains(minutes) && 60 % minutes == 0
        case .slotCapacity(let capacity): (1...10_000).contains(capacity)
        case .openingHours(let opens, let closes): opens >= 0 && opens < closes && opens < 24 * 60 && closes <= 24 * 60
        case .timeZone: true
        case .bookingHorizonDays(let days): (1...3650).contains(days)
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
        case .openingHours:
            let parts = value.split(separator: "-").map { String($0).trimmingWhitespace() }
            guard parts.count == 2, let opens = Settings.minutes(parts[0]), let closes = Settings.minutes(parts[1]) else { throw invalid }
            change = .openingHours(opens: opens, closes: closes)
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
