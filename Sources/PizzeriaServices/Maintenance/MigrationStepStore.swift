import Foundation
import PizzeriaStorage

/// The Swift that completes three early migrations, for what SQL cannot compute: full Unicode case
/// folding, a time zone's rules, the opening hours. A file upgrading from an old version runs each
/// right after its migration's SQL, on that version's tables, so each step reads and writes with
/// its own SQL, written against its migration's schema and never changed with today's stores; it
/// calls no store and computes only with value types (``PizzaName``, ``ZonedClock``, ``Schedule``).
/// A new file has nothing for them to do (it is made from the baseline).
enum MigrationSteps {
    /// The steps, by the migration file each completes.
    static let all: [String: SchemaMigrator.DataStep] = [
        "0005_edges.sql": nameKeys,
        "0006_week.sql": localTimes,
        "0009_every_path.sql": keptOutsideHours,
    ]

    /// Migration 5: each pizza's `name_key` (its name case-folded, for uniqueness ignoring case),
    /// for the names SQL's ASCII `lower()` cannot fold.
    @Sendable static func nameKeys(_ db: Connection) throws {
        let names = try db.fetchAll("SELECT id, name FROM pizzas WHERE name GLOB '*[^ -~]*'") {
            (try $0.string("id"), try $0.string("name"))
        }
        for (id, name) in names {
            do {
                try db.run("UPDATE pizzas SET name_key = ? WHERE id = ?", [PizzaName.foldKey(name), id])
            } catch let error as DatabaseError where error.constraint == .unique(table: "pizzas", columns: ["name_key"])
            {
                throw DatabaseError(
                    extendedResultCode: ResultCode.SQLITE_CONSTRAINT_UNIQUE.rawValue,
                    message:
                        "pizza '\(name)' (\(id)) has the same name as another pizza ignoring case; rename one of them, then migrate again"
                )
            }
        }
    }

    /// Migration 6: each order's service day and local pickup time, in the shop's zone.
    @Sendable static func localTimes(_ db: Connection) throws {
        let clock = ZonedClock(zone: try zone(in: db))
        let pending = try db.fetchAll("SELECT id, pickup_at FROM orders WHERE service_day IS NULL") {
            (try $0.string("id"), try $0.string("pickup_at"))
        }
        for (id, text) in pending {
            guard let pickup = PickupTime.fromUTC(text) else {
                throw DataError.damagedRow(table: "orders", id: id, problem: "pickup_at '\(text)' is not a UTC time")
            }
            try db.run(
                "UPDATE orders SET service_day = ?, pickup_local = ? WHERE id = ?",
                [clock.local(pickup).date.description, clock.localText(pickup), id])
        }
    }

    /// Migration 9: future bookings already outside the hours were kept by staff before the mark
    /// existed; they get it (`kept_outside_hours_at`, now), so they block no later change.
    @Sendable static func keptOutsideHours(_ db: Connection) throws {
        let now = Date()
        let slotMinutes = try db.fetchOne("SELECT slot_minutes FROM settings WHERE id = 1") {
            try $0.int("slot_minutes")
        }
        var days: [Weekday: [OpeningInterval]] = [:]
        try db.forEach("SELECT weekday, opens_at, closes_at FROM weekly_hours ORDER BY weekday, opens_at", []) { row in
            let number = try row.int("weekday")
            guard let day = Weekday(rawValue: number),
                let opens = LocalTime(try row.string("opens_at")), let closes = LocalTime(try row.string("closes_at")),
                let interval = OpeningInterval(opens: opens, closes: closes)
            else {
                throw DataError.damagedRow(
                    table: "weekly_hours", id: "\(number)",
                    problem: "its hours on weekday \(number) are not an interval")
            }
            days[day, default: []].append(interval)
        }
        let exceptions = try db.fetchAll(
            "SELECT day, kind, opens_at, closes_at, reason FROM schedule_exceptions ORDER BY day, kind, opens_at"
        ) { row -> ScheduleException in
            let dayText = try row.string("day"), kindText = try row.string("kind")
            let opens = try row.optionalString("opens_at").flatMap(LocalTime.init)
            let closes = try row.optionalString("closes_at").flatMap(LocalTime.init)
            let interval = opens.flatMap { o in closes.flatMap { OpeningInterval(opens: o, closes: $0) } }
            guard let date = LocalDate(dayText), let kind = ScheduleException.Kind(rawValue: kindText),
                let exception = ScheduleException(
                    date: date, kind: kind, interval: interval, reason: try row.optionalString("reason"))
            else {
                throw DataError.damagedRow(
                    table: "schedule_exceptions", id: dayText, problem: "'\(kindText)' on \(dayText) cannot be read")
            }
            return exception
        }
        let schedule = Schedule(week: Week(sorted: days), slotMinutes: slotMinutes ?? 15, zone: try zone(in: db)) {
            range in exceptions.filter { range.first <= $0.date && $0.date <= range.last }
        }
        let future = try db.fetchAll(
            """
            SELECT id, pickup_at FROM orders
            WHERE pickup_at > ? AND status IN ('placed', 'preparing', 'ready') ORDER BY pickup_at, id
            """, [PickupTime.utc(now)]
        ) { (id: try $0.string("id"), pickupAt: try $0.string("pickup_at")) }
        for booking in future {
            guard let pickup = PickupTime.fromUTC(booking.pickupAt) else {
                throw DataError.damagedRow(table: "orders", id: booking.id, problem: "pickup_at is not a UTC time")
            }
            if case .slot = try schedule.locate(pickup) { continue }
            try db.run(
                "UPDATE orders SET kept_outside_hours_at = ? WHERE id = ?", [Timestamp.string(from: now), booking.id])
        }
    }

    /// The shop's zone as settings stored it (`nil`: the machine's).
    private static func zone(in db: Connection) throws -> TimeZone {
        let stored =
            try db.fetchOne("SELECT time_zone FROM settings WHERE id = 1") { try $0.optionalString("time_zone") } ?? nil
        guard let zone = ZonedClock.zone(stored: stored) else {
            throw DataError.damagedRow(
                table: "settings", id: "1", problem: "time_zone '\(stored ?? "")' is not a known time zone")
        }
        return zone
    }
}
