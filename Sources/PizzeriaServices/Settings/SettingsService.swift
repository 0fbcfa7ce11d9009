import Foundation
import PizzeriaStorage

/// Reading and changing the pizzeria's settings, each change validated — against its rule, and
/// against the orders already booked: a change that would leave a future booking off the slot
/// grid, outside the opening hours or over capacity is refused.
public final class SettingsService: Sendable {
    let database: Database
    let now: @Sendable () -> Date

    init(database: Database, now: @escaping @Sendable () -> Date) {
        self.database = database
        self.now = now
    }

    /// The current settings.
    public func current() throws -> Settings {
        try database.read { try Self.current(in: $0) }
    }

    static func current(in db: Connection) throws -> Settings {
        let settings = try db.fetchOne("""
            SELECT slot_minutes, slot_capacity, opens_at, closes_at, time_zone, booking_horizon_days FROM settings WHERE id = 1
            """) { row in
            guard let opens = Settings.minutes(try row.string(2)), let closes = Settings.minutes(try row.string(3)) else {
                throw DataError.damagedRow(table: "settings", id: "1", problem: "opening hours are not HH:MM")
            }
            let zone = try row.optionalString(4)
            if let zone, TimeZone(identifier: zone) == nil {
                throw DataError.damagedRow(table: "settings", id: "1", problem: "time_zone '\(zone)' is not a known time zone")
            }
            return Settings(slotMinutes: try row.int(0), slotCapacity: try row.int(1), opensAt: opens, closesAt: closes,
                            storedTimeZone: zone, bookingHorizonDays: try row.int(5))
        }
        guard let settings else { throw DataError.damagedRow(table: "settings", id: "1", problem: "the row is missing") }
        return settings
    }

    /// Changes one setting.
    /// - Throws: ``ValidationError`` naming the key and the rule when `value` is not valid;
    ///   ``SettingsError/conflictsWithBookings(key:slots:)`` naming the future slots the new
    ///   value would break. Nothing changes when it throws.
    @discardableResult
    public func set(_ key: SettingKey, to value: String) throws -> Settings {
        let text = value.trimmingWhitespace()
        let invalid = ValidationError([FieldError(field: key.rawValue, message: "must be \(key.rule), not '\(text)'")])
        let now = now()
        return try database.write { db in
            let old = try Self.current(in: db)
            var new = (old.slotMinutes, old.slotCapacity, old.opensAt, old.closesAt, old.storedTimeZone, old.bookingHorizonDays)
            switch key {
            case .slotMinutes:
                guard let minutes = Int(text), (1...60).contains(minutes), 60 % minutes == 0 else { throw invalid }
                new.0 = minutes
            case .slotCapacity:
                guard let capacity = Int(text), (1...10_000).contains(capacity) else { throw invalid }
                new.1 = capacity
            case .openingHours:
                let parts = text.split(separator: "-").map { String($0).trimmingWhitespace() }
                guard parts.count == 2, let opens = Settings.minutes(parts[0]), let closes = Settings.minutes(parts[1]),
                      opens < closes, opens < 24 * 60 else { throw invalid }
                (new.2, new.3) = (opens, closes)
            case .timeZone:
                if text.lowercased() == "system" {
                    new.4 = nil
                } else {
                    guard !text.isEmpty, TimeZone(identifier: text) != nil else { throw invalid }
                    new.4 = text
                }
            case .bookingHorizonDays:
                guard let days = Int(text), (1...3650).contains(days) else { throw invalid }
                new.5 = days
            }
            let settings = Settings(slotMinutes: new.0, slotCapacity: new.1, opensAt: new.2, closesAt: new.3,
                                    storedTimeZone: new.4, bookingHorizonDays: new.5)
            let broken = try Self.futureSlotsBroken(by: settings, after: now, in: db)
            guard broken.isEmpty else { throw SettingsError.conflictsWithBookings(key: key, slots: broken) }
            try db.run("""
                UPDATE settings SET slot_minutes = ?, slot_capacity = ?, opens_at = ?, closes_at = ?, time_zone = ?,
                       booking_horizon_days = ?, updated_at = ? WHERE id = 1
                """, [settings.slotMinutes, settings.slotCapacity, Settings.clock(settings.opensAt), Settings.clock(settings.closesAt),
                      settings.storedTimeZone, settings.bookingHorizonDays, Timestamp.string(from: now)])
            return settings
        }
    }

    /// Future slots with bookings that `settings` would break: each `local time: problem`.
    static func futureSlotsBroken(by settings: Settings, after now: Date, in db: Connection) throws -> [String] {
        var broken: [String] = []
        for (pickup, load) in try OrderStore.futureLoads(after: PickupTime.utc(now), in: db) {
            guard let date = PickupTime.fromUTC(pickup) else {
                throw DataError.damagedRow(table: "orders", id: pickup, problem: "pickup_at is not a UTC time")
            }
            let local = PickupTime.local(date, in: settings.timeZone)
            if let problem = settings.slotProblem(date) {
                broken.append("\(local) (\(problem))")
            } else if load > settings.slotCapacity {
                broken.append("\(local) (\(load) pizzas booked)")
            }
        }
        return broken
    }
}

/// Why a settings change was refused.
public enum SettingsError: PizzeriaFailure, Equatable {
    /// Orders already booked for these future slots would no longer fit.
    case conflictsWithBookings(key: SettingKey, slots: [String])

    /// Refused by the current state.
    public var category: FailureCategory { .refused }

    /// A sentence for people.
    public var description: String {
        switch self {
        case .conflictsWithBookings(let key, let slots):
            let shown = slots.prefix(5).joined(separator: ", ") + (slots.count > 5 ? ", and \(slots.count - 5) more" : "")
            return "\(key.rawValue): the new value does not fit \(slots.count) future slot\(slots.count == 1 ? "" : "s") already booked: \(shown)"
        }
    }
}
