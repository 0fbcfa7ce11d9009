import Foundation
import PizzeriaStorage

/// Reading and changing the pizzeria's settings, each change validated — against its rule, and
/// against the orders already booked: a change that would leave a future booking off the slot
/// grid, outside the opening hours or over capacity is refused.
public final class SettingsService: Sendable {
    let database: Database
    let now: @Sendable () -> Date

    /// Who acts through this handle, for the audit log.
    let acting: Acting

    init(database: Database, now: @escaping @Sendable () -> Date, acting: Acting = .library) {
        self.database = database
        self.now = now
        self.acting = acting
    }

    /// The current settings (a pause or rush that has ended by now is left out).
    public func current() throws -> Settings {
        let now = now()
        return try database.read { try Self.current(in: $0).current(at: now) }
    }

    static func current(in db: Connection) throws -> Settings {
        guard
            let settings = try db.fetchOne(
                "SELECT " + Decoder.columns + " FROM settings WHERE id = 1", [], Decoder.self)
        else {
            throw DataError.damagedRow(table: "settings", id: "1", problem: "the row is missing")
        }
        return settings(try ScheduleStore.week(in: db))
    }

    /// The settings row; the week is read beside it.
    struct Decoder: RowDecoder {
        /// The columns it reads (a constant, never input).
        static let columns =
            "slot_minutes, slot_capacity, time_zone, booking_horizon_days, lead_minutes, paused, paused_until, pause_reason, "
            + "busy_minutes, busy_until"
        let slotMinutes, slotCapacity, timeZone, bookingHorizonDays, leadMinutes, paused, pausedUntil, pauseReason,
            busyMinutes, busyUntil: Column

        init(columns: ColumnResolver) throws {
            (slotMinutes, slotCapacity, timeZone) = (
                try columns("slot_minutes"), try columns("slot_capacity"), try columns("time_zone")
            )
            (bookingHorizonDays, leadMinutes) = (try columns("booking_horizon_days"), try columns("lead_minutes"))
            (paused, pausedUntil, pauseReason) = (
                try columns("paused"), try columns("paused_until"), try columns("pause_reason")
            )
            (busyMinutes, busyUntil) = (try columns("busy_minutes"), try columns("busy_until"))
        }

        /// A stored instant, or `nil`; a damaged one is an error, never a guess.
        private func instant(_ row: Row, _ column: Column, _ name: String) throws -> Date? {
            guard let text = try row.optionalString(column) else { return nil }
            guard let date = Timestamp.date(from: text) else {
                throw DataError.damagedRow(table: "settings", id: "1", problem: "\(name) '\(text)' is not a UTC time")
            }
            return date
        }

        func decode(_ row: Row) throws -> (Week) -> Settings {
            let stored = try row.optionalString(timeZone)
            guard let zone = ZonedClock.zone(stored: stored) else {
                throw DataError.damagedRow(
                    table: "settings", id: "1", problem: "time_zone '\(stored ?? "")' is not a known time zone")
            }
            let (minutes, capacity, horizon, lead) = (
                try row.int(slotMinutes), try row.int(slotCapacity), try row.int(bookingHorizonDays),
                try row.int(leadMinutes)
            )
            let pause =
                try row.int(paused) == 1
                ? Pause(
                    until: try instant(row, pausedUntil, "paused_until"), reason: try row.optionalString(pauseReason))
                : nil
            let busy = try row.int(busyMinutes)
            let rush = busy > 0 ? Rush(minutes: busy, until: try instant(row, busyUntil, "busy_until")) : nil
            return { week in
                Settings(
                    slotMinutes: minutes, slotCapacity: capacity, week: week, storedTimeZone: stored, timeZone: zone,
                    bookingHorizonDays: horizon, leadMinutes: lead, pause: pause, rush: rush)
            }
        }
    }

    /// Changes one setting.
    /// - Parameter keepOrders: apply a change of the hours, the slot length or the time zone even
    ///   when it leaves future booked orders outside the hours; they stay booked.
    /// - Throws: ``SettingsError/invalidValue(key:value:)`` when the value breaks its rule;
    ///   ``SettingsError/conflictsWithBookings(key:slots:)`` naming the future slots a lower
    ///   capacity would overfill; ``ScheduleError/wouldOrphan(_:)`` naming the booked orders the
    ///   change would leave outside the hours. Nothing changes when it throws.
    @discardableResult
    public func update(_ change: SettingsChange, keepOrders: Bool = false) throws -> Settings {
        guard change.isValid else { throw SettingsError.invalidValue(key: change.key, value: change.valueText) }
        let now = now()
        return try database.audited(acting, at: now) { db in
            let settings = try Self.current(in: db).applying(change)
            let capacities = try CapacityStore.futureCapacities(after: now, in: db)
            if case .openingHours = change {
                try ScheduleStore.replace(Set(Weekday.allCases), with: settings.week, in: db)
            }
            switch change {
            case .slotMinutes, .openingHours, .timeZone:
                // Every future booking re-homed under the new schedule: refused when one would leave
                // the hours, change service day or overfill its slot (unless kept).
                let schedule = ScheduleStore.schedule(settings, in: db)
                try Rehoming.apply(
                    under: schedule, capacitiesBefore: capacities, now: now, keepOrders: keepOrders, in: db)
                if case .timeZone = change { try OrderStore.relocalize(under: schedule, before: now, in: db) }
            case .slotCapacity, .bookingHorizonDays, .leadMinutes:
                // Capacity is checked below, on what the database made of it; the others govern new bookings only.
                break
            }
            try db.run(
                """
                UPDATE settings SET slot_minutes = ?, slot_capacity = ?, time_zone = ?, booking_horizon_days = ?, lead_minutes = ?,
                       updated_at = ? WHERE id = 1
                """,
                [
                    settings.slotMinutes, settings.slotCapacity, settings.storedTimeZone, settings.bookingHorizonDays,
                    settings.leadMinutes, Timestamp.string(from: now),
                ])
            if change.key == .slotCapacity {
                let broken = try CapacityStore.overfilled(
                    since: capacities, after: now, zone: settings.timeZone, in: db)
                guard broken.isEmpty else { throw SettingsError.conflictsWithBookings(key: change.key, slots: broken) }
            }
            return settings
        }
    }

    /// Changes one setting from text as people type it (see ``SettingsChange/parse(_:_:)``).
    @discardableResult
    public func update(_ key: SettingKey, parsing text: String, keepOrders: Bool = false) throws -> Settings {
        try update(try SettingsChange.parse(key, text), keepOrders: keepOrders)
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
            let shown =
                slots.prefix(5).joined(separator: ", ") + (slots.count > 5 ? ", and \(slots.count - 5) more" : "")
            return
                "\(key): the new value does not fit \(slots.count) future slot\(slots.count == 1 ? "" : "s") already booked: \(shown)"
        }
    }
}
