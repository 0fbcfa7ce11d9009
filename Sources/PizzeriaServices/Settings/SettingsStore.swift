import Foundation
import PizzeriaStorage

/// The SQL of the settings row (one row, `id = 1`): read with the week beside it, written whole.
enum SettingsStore {
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

    /// Writes the settings' own columns (the week is written by ``ScheduleStore``).
    static func write(_ settings: Settings, at now: Date, in db: Connection) throws {
        try db.run(
            """
            UPDATE settings SET slot_minutes = ?, slot_capacity = ?, time_zone = ?, booking_horizon_days = ?, lead_minutes = ?,
                   updated_at = ? WHERE id = 1
            """,
            [
                settings.slotMinutes, settings.slotCapacity, settings.storedTimeZone, settings.bookingHorizonDays,
                settings.leadMinutes, Timestamp.string(from: now),
            ])
    }
}
