import Foundation
import PizzeriaStorage

/// SQL for capacity rules, pause and rush (`capacity_rules`, `settings.paused…`/`busy…`).
enum CapacityStore {
    static let columns = "weekday, day, start_minute, end_minute, ends_at, capacity"

    /// Reads a rule row by column name, from its integer minutes (the generated columns), which
    /// the schema's `CHECK`s keep consistent with the `HH:MM` text people read.
    struct Decoder: RowDecoder {
        let weekday, day, startMinute, endMinute, endsAt, capacity: Column

        init(columns: ColumnResolver) throws {
            (weekday, day, startMinute, endMinute) = (
                try columns("weekday"), try columns("day"), try columns("start_minute"), try columns("end_minute")
            )
            (endsAt, capacity) = (try columns("ends_at"), try columns("capacity"))
        }

        func decode(_ row: Row) throws -> CapacityRule {
            let start = try row.int(startMinute), end = try row.int(endMinute)
            // The closing time as written (00:00 and 24:00 both end at midnight; the label keeps which).
            let written = try row.string(endsAt)
            let closes = end >= 1440 && written == "00:00" ? 0 : (end > 1440 ? end - 1440 : end)
            guard (0..<1440).contains(start), end > start, end <= 2880,
                let range = OpeningInterval(
                    opens: LocalTime(uncheckedMinutes: start), closes: LocalTime(uncheckedMinutes: closes))
            else {
                throw DataError.damagedRow(
                    table: "capacity_rules", id: "\(start)-\(end)",
                    problem: "minutes \(start)-\(end) are not a time range")
            }
            let days: CapacityRule.Days
            if let dayText = try row.optionalString(day) {
                guard let date = LocalDate(dayText) else {
                    throw DataError.damagedRow(
                        table: "capacity_rules", id: dayText, problem: "day '\(dayText)' is not a date")
                }
                days = .date(date)
            } else {
                let number = try row.int(weekday)
                guard let value = Weekday(rawValue: number) else {
                    throw DataError.damagedRow(
                        table: "capacity_rules", id: "\(range)", problem: "weekday \(number) is not 1-7")
                }
                days = .weekday(value)
            }
            return CapacityRule(days: days, range: range, capacity: try row.int(capacity))
        }
    }

    /// The rules of one service day: its date's and its weekday's (the two partial indexes).
    static func rules(on day: LocalDate, in db: Connection) throws -> [CapacityRule] {
        try db.fetchAll(
            "SELECT " + columns + " FROM capacity_rules WHERE day = ? OR weekday = ?",
            [day.description, day.weekday.rawValue], Decoder.self)
    }

    /// The most pizzas any rule gives a slot, and its rule; `nil` without rules.
    static func largest(in db: Connection) throws -> SlotCapacity? {
        try db.fetchOne("SELECT capacity, rule FROM capacity_rules ORDER BY capacity DESC LIMIT 1") {
            SlotCapacity(capacity: try $0.int("capacity"), rule: try $0.optionalString("rule"))
        }
    }

    /// Every rule: weekday rules by weekday and time, then date rules by date and time.
    static func all(in db: Connection) throws -> [CapacityRule] {
        try db.fetchAll(
            "SELECT " + columns + " FROM capacity_rules ORDER BY day IS NOT NULL, weekday, day, starts_at", [],
            Decoder.self)
    }

    /// How many rules there are.
    static func count(in db: Connection) throws -> Int {
        try db.fetchOne("SELECT count(*) AS n FROM capacity_rules") { try $0.int("n") } ?? 0
    }

    /// The `weekday` and `day` columns of a rule's days.
    static func keys(of days: CapacityRule.Days) -> (weekday: Int?, day: String?) {
        switch days {
        case .weekday(let value): (value.rawValue, nil)
        case .date(let value): (nil, value.description)
        }
    }

    /// Adds a rule, or sets the capacity of the rule with the same days and range.
    static func upsert(_ rule: CapacityRule, in db: Connection) throws {
        let (weekday, day) = keys(of: rule.days)
        let updated = try db.run(
            """
            UPDATE capacity_rules SET capacity = ? WHERE weekday IS ? AND day IS ? AND starts_at = ? AND ends_at = ?
            """, [rule.capacity, weekday, day, rule.range.opens.description, rule.range.closes.description])
        guard updated == 0 else { return }
        try db.run(
            "INSERT INTO capacity_rules (weekday, day, starts_at, ends_at, capacity) VALUES (?, ?, ?, ?, ?)",
            [weekday, day, rule.range.opens.description, rule.range.closes.description, rule.capacity])
    }

    /// Removes the rules of these days (with exactly this range, when given); how many went.
    static func delete(_ days: CapacityRule.Days, range: OpeningInterval?, in db: Connection) throws -> Int {
        let (weekday, day) = keys(of: days)
        return try db.run(
            """
            DELETE FROM capacity_rules WHERE weekday IS ? AND day IS ? AND (? IS NULL OR (starts_at = ? AND ends_at = ?))
            """, [weekday, day, range?.description, range?.opens.description, range?.closes.description])
    }

    /// The capacity of every booked future slot, by pickup (UTC text): what a change is compared with.
    static func futureCapacities(after now: Date, in db: Connection) throws -> [String: Int] {
        var capacities: [String: Int] = [:]
        try db.forEach("SELECT pickup_at, capacity FROM slot_loads WHERE pickup_at > ?", [PickupTime.utc(now)]) { row in
            capacities[try row.string("pickup_at")] = try row.int("capacity")
        }
        return capacities
    }

    /// Future slots that a change just lowered below what they hold, by pickup: their pickup
    /// (UTC text) and booked pizzas. Slots that were over already (capacity lowered by hand) are
    /// not this change's doing.
    static func overfilledSlots(since before: [String: Int], after now: Date, in db: Connection) throws -> [(
        pickupAt: String, booked: Int
    )] {
        var broken: [(pickupAt: String, booked: Int)] = []
        try db.forEach(
            """
            SELECT pickup_at, booked, capacity FROM slot_loads WHERE pickup_at > ? AND booked > capacity ORDER BY pickup_at
            """, [PickupTime.utc(now)]
        ) { row in
            let pickup = try row.string("pickup_at"), capacity = try row.int("capacity")
            guard capacity < before[pickup] ?? Int.max else { return }
            broken.append((pickup, try row.int("booked")))
        }
        return broken
    }

    /// ``overfilledSlots(since:after:in:)``'s pickups.
    static func overfilledPickups(since before: [String: Int], after now: Date, in db: Connection) throws -> [String] {
        try overfilledSlots(since: before, after: now, in: db).map(\.pickupAt)
    }

    /// ``overfilledSlots(since:after:in:)`` for people: each `local time (N pizzas booked)`.
    static func overfilled(since before: [String: Int], after now: Date, zone: TimeZone, in db: Connection) throws
        -> [String]
    {
        try overfilledSlots(since: before, after: now, in: db).map { slot in
            guard let date = PickupTime.fromUTC(slot.pickupAt) else {
                throw DataError.damagedRow(
                    table: "slot_loads", id: slot.pickupAt, problem: "pickup_at is not a UTC time")
            }
            return "\(PickupTime.local(date, in: zone)) (\(slot.booked) pizzas booked)"
        }
    }

    /// Writes the pause (or none).
    static func setPause(_ pause: Pause?, at now: Date, in db: Connection) throws {
        try db.run(
            "UPDATE settings SET paused = ?, paused_until = ?, pause_reason = ?, updated_at = ? WHERE id = 1",
            [
                pause == nil ? 0 : 1, pause?.until.map(Timestamp.string(from:)), pause?.reason,
                Timestamp.string(from: now),
            ])
    }

    /// Writes the rush (or none).
    static func setRush(_ rush: Rush?, at now: Date, in db: Connection) throws {
        try db.run(
            "UPDATE settings SET busy_minutes = ?, busy_until = ?, updated_at = ? WHERE id = 1",
            [rush?.minutes ?? 0, rush?.until.map(Timestamp.string(from:)), Timestamp.string(from: now)])
    }
}
