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
        guard let settings = try db.fetchOne("SELECT " + Decoder.columns + " FROM settings WHERE id = 1", [], Decoder.self) else {
            throw DataError.damagedRow(table: "settings", id: "1", problem: "the row is missing")
        }
        return settings
    }

    /// The settings row.
    struct Decoder: RowDecoder {
        /// The columns it reads (a constant, never input).
        static let columns = "slot_minutes, slot_capacity, opens_at, closes_at, time_zone, booking_horizon_days"
        let slotMinutes, slotCapacity, opensAt, closesAt, timeZone, bookingHorizonDays: Column

        init(columns: ColumnResolver) throws {
            (slotMinutes, slotCapacity, opensAt) = (try columns("slot_minutes"), try columns("slot_capacity"), try columns("opens_at"))
            (closesAt, timeZone, bookingHorizonDays) = (try columns("closes_at"), try columns("time_zone"), try columns("booking_horizon_days"))
        }

        func decode(_ row: Row) throws -> Settings {
            guard let opens = Settings.minutes(try row.string(opensAt)), let closes = Settings.minutes(try row.string(closesAt)) else {
                throw DataError.damagedRow(table: "settings", id: "1", problem: "opening hours are not HH:MM")
            }
            let stored = try row.optionalString(timeZone)
            let zone = stored.map { TimeZone(identifier: $0) } ?? TimeZone.current
            guard let zone else {
                throw DataError.damagedRow(table: "settings", id: "1", problem: "time_zone '\(stored ?? "")' is not a known time zone")
            }
            return Settings(slotMinutes: try row.int(slotMinutes), slotCapacity: try row.int(slotCapacity), opensAt: opens, closesAt: closes,
                            storedTimeZone: stored, timeZone: zone, bookingHorizonDays: try row.int(bookingHorizonDays))
        }
    }

    /// Changes one setting.
    /// - Throws: ``SettingsError/invalidValue(key:value:)`` when the value breaks its rule;
    ///   ``SettingsError/conflictsWithBookings(key:slots:)`` naming the future slots the new value
    ///   would break. Nothing changes when it throws.
    @discardableResult
    public func update(_ change: SettingsChange) throws -> Settings {
        guard change.isValid else { throw SettingsError.invalidValue(key: change.key, value: "\(change)") }
        let now = now()
        return try database.write { db in
            let old = try Self.current(in: db)
            var new = (old.slotMinutes, old.slotCapacity, old.opensAt, old.closesAt, old.storedTimeZone, old.bookingHorizonDays)
            switch change {
            case .slotMinutes(let minutes): new.0 = minutes
            case .slotCapacity(let capacity): new.1 = capacity
            case .openingHours(let opens, let closes): (new.2, new.3) = (opens, closes)
            case .timeZone(let zone): new.4 = zone?.identifier
            case .bookingHorizonDays(let days): new.5 = days
            }
            let settings = Settings(slotMinutes: new.0, slotCapacity: new.1, opensAt: new.2, closesAt: new.3,
                                    storedTimeZone: new.4, bookingHorizonDays: new.5)
            let broken = try Self.futureSlotsBroken(by: settings, after: now, in: db)
            guard broken.isEmpty else { throw SettingsError.conflictsWithBookings(key: change.key, slots: broken) }
            try db.run("""
                UPDATE settings SET slot_minutes = ?, slot_capacity = ?, opens_at = ?, closes_at = ?, time_zone = ?,
                       booking_horizon_days = ?, updated_at = ? WHERE id = 1
                """, [settings.slotMinutes, settings.slotCapacity, Settings.clock(settings.opensAt), Settings.clock(settings.closesAt),
                      settings.storedTimeZone, settings.bookingHorizonDays, Timestamp.string(from: now)])
            return settings
        }
    }

    /// Changes one setting from text as people type it (see ``SettingsChange/parse(_:_:)``).
    @discardableResult
    public func update(_ key: SettingKey, parsing text: String) throws -> Settings {
        try update(try SettingsChange.parse(key, text))
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
    /// The value breaks the setting's rule (``SettingKey/rule``).
    case invalidValue(key: SettingKey, value: String)
    /// Orders already booked for these future slots would no longer fit.
    case conflictsWithBookings(key: SettingKey, slots: [String])

    /// Invalid input, or refused by the current state.
    public var category: FailureCategory {
        switch self {
        case .invalidValue: .invalidInput
        case .conflictsWithBookings: .refused
        }
    }

    /// A sentence for people.
    public var description: String {
        switch self {
        case .invalidValue(let key, let value):
            return "\(key): must be \(key.rule), not '\(value)'"
        case .conflictsWithBookings(let key, let slots):
            let shown = slots.prefix(5).joined(separator: ", ") + (slots.count > 5 ? ", and \(slots.count - 5) more" : "")
            return "\(key): the new value does not fit \(slots.count) future slot\(slots.count == 1 ? "" : "s") already booked: \(shown)"
        }
    }
}
