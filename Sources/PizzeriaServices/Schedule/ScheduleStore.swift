import Foundation
import PizzeriaStorage

/// The SQL of the week and its exceptions. Functions take the connection of an open
/// transaction; values are always bound.
enum ScheduleStore {
    /// The week's rows in order, with their times as minutes: SQLite does the digit arithmetic
    /// (the schema's `CHECK`s guarantee `HH:MM`), so no text is decoded — every booking reads it.
    static let weekSQL = """
        SELECT weekday, \
        CAST(substr(opens_at, 1, 2) AS INTEGER) * 60 + CAST(substr(opens_at, 4, 2) AS INTEGER) AS opens_minute, \
        CAST(substr(closes_at, 1, 2) AS INTEGER) * 60 + CAST(substr(closes_at, 4, 2) AS INTEGER) AS closes_minute \
        FROM weekly_hours ORDER BY weekday, opens_at
        """

    /// The weekly hours.
    static func week(in db: Connection) throws -> Week {
        var days: [Weekday: [OpeningInterval]] = [:]
        try db.forEach(weekSQL, [], IntervalDecoder.self) { row in days[row.weekday, default: []].append(row.interval) }
        return Week(sorted: days)
    }

    /// A row of `weekly_hours`.
    struct IntervalDecoder: RowDecoder {
        let weekday, opensMinute, closesMinute: Column

        init(columns: ColumnResolver) throws {
            (weekday, opensMinute, closesMinute) = (
                try columns("weekday"), try columns("opens_minute"), try columns("closes_minute")
            )
        }

        func decode(_ row: Row) throws -> (weekday: Weekday, interval: OpeningInterval) {
            let number = try row.int(weekday), opens = try row.int(opensMinute), closes = try row.int(closesMinute)
            guard let day = Weekday(rawValue: number), (0..<1440).contains(opens), (0...1440).contains(closes),
                let interval = OpeningInterval(
                    opens: LocalTime(uncheckedMinutes: opens), closes: LocalTime(uncheckedMinutes: closes))
            else {
                throw DataError.damagedRow(
                    table: "weekly_hours", id: "\(number) \(opens)",
                    problem: "minutes \(opens)-\(closes) on weekday \(number) are not an interval")
            }
            return (day, interval)
        }
    }

    /// Replaces the intervals of `days` with the week's.
    static func replace(_ days: Set<Weekday>, with week: Week, in db: Connection) throws {
        for day in days.sorted() { try db.run("DELETE FROM weekly_hours WHERE weekday = ?", [day.rawValue]) }
        for day in days.sorted() {
            for interval in week[day] {
                try db.run(
                    "INSERT INTO weekly_hours (weekday, opens_at, closes_at) VALUES (?, ?, ?)",
                    [day.rawValue, interval.opens.description, interval.closes.description])
            }
        }
    }

    // MARK: - Exceptions

    static let exceptionsSQL = """
        SELECT day, kind, opens_at, closes_at, reason FROM schedule_exceptions
        WHERE day >= ? AND day <= ? ORDER BY day, kind, opens_at
        """

    /// Every exception from the service day `first` on.
    static func exceptions(from first: LocalDate, db: Connection) throws -> [ScheduleException] {
        try db.fetchAll(
            exceptionsSQL, [first.description, LocalDate.supported.upperBound.description], ExceptionDecoder.self)
    }

    /// The exceptions of the days in `range`.
    static func exceptions(in range: LocalDateRange, db: Connection) throws -> [ScheduleException] {
        try db.fetchAll(exceptionsSQL, [range.first.description, range.last.description], ExceptionDecoder.self)
    }

    /// A row of `schedule_exceptions`.
    struct ExceptionDecoder: RowDecoder {
        let day, kind, opensAt, closesAt, reason: Column

        init(columns: ColumnResolver) throws {
            (day, kind, opensAt, closesAt, reason) = (
                try columns("day"), try columns("kind"), try columns("opens_at"),
                try columns("closes_at"), try columns("reason")
            )
        }

        func decode(_ row: Row) throws -> ScheduleException {
            let dayText = try row.string(day), kindText = try row.string(kind)
            let opens = try row.optionalString(opensAt).flatMap(LocalTime.init),
                closes = try row.optionalString(closesAt).flatMap(LocalTime.init)
            let interval = opens.flatMap { o in closes.flatMap { OpeningInterval(opens: o, closes: $0) } }
            guard let date = LocalDate(dayText), let kind = ScheduleException.Kind(rawValue: kindText),
                let exception = ScheduleException(
                    date: date, kind: kind, interval: interval, reason: try row.optionalString(reason))
            else {
                throw DataError.damagedRow(
                    table: "schedule_exceptions", id: dayText,
                    problem: "'\(kindText)' on \(dayText) is not an exception the schedule can read")
            }
            return exception
        }
    }

    static func insert(_ exception: ScheduleException, at now: Date = Date(), in db: Connection) throws {
        try db.run(
            "INSERT INTO schedule_exceptions (day, kind, opens_at, closes_at, reason, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            [
                exception.date.description, exception.kind.rawValue, exception.interval?.opens.description,
                exception.interval?.closes.description, exception.reason, Timestamp.string(from: now),
            ])
    }

    /// Removes the exceptions of `range` (of one kind, or all): how many rows went.
    @discardableResult
    static func delete(_ range: LocalDateRange, kind: ScheduleException.Kind? = nil, in db: Connection) throws -> Int {
        if let kind {
            return try db.run(
                "DELETE FROM schedule_exceptions WHERE day >= ? AND day <= ? AND kind = ?",
                [range.first.description, range.last.description, kind.rawValue])
        }
        return try db.run(
            "DELETE FROM schedule_exceptions WHERE day >= ? AND day <= ?",
            [range.first.description, range.last.description])
    }

    /// How many exception rows the file holds.
    static func exceptionCount(in db: Connection) throws -> Int {
        try db.fetchOne("SELECT count(*) AS n FROM schedule_exceptions") { try $0.int("n") } ?? 0
    }

    /// The schedule of `settings`, reading exceptions through `db` as it needs them.
    static func schedule(_ settings: Settings, in db: Connection) -> Schedule {
        Schedule(week: settings.week, slotMinutes: settings.slotMinutes, zone: settings.timeZone) { range in
            try exceptions(in: range, db: db)
        }
    }

    // MARK: - Future bookings under a changed schedule

    /// A future booked order as a schedule change re-homes it.
    struct FutureBooking {
        let id: Order.ID
        let handle: String
        let pickupAt: Date
        let serviceDay: String
        let pickupLocal: String
        let kept: Bool
    }

    /// Booked (placed, preparing, ready) orders with a pickup after `now`, by pickup.
    static func futureBookings(after now: Date, in db: Connection) throws -> [FutureBooking] {
        try db.fetchAll(
            """
            SELECT o.id, u.handle, o.pickup_at, o.service_day, o.pickup_local, o.kept_outside_hours_at
            FROM orders o JOIN users u ON u.id = o.user_id
            WHERE o.pickup_at > ? AND o.status IN ('placed', 'preparing', 'ready') ORDER BY o.pickup_at, o.id
            """, [PickupTime.utc(now)]
        ) { row in
            let text = try row.string("pickup_at")
            guard let pickup = PickupTime.fromUTC(text) else {
                throw DataError.damagedRow(table: "orders", id: text, problem: "pickup_at is not a UTC time")
            }
            return FutureBooking(
                id: try row.id("id"), handle: try row.string("handle"), pickupAt: pickup,
                serviceDay: try row.string("service_day"),
                pickupLocal: try row.string("pickup_local"),
                kept: try row.optionalString("kept_outside_hours_at") != nil)
        }
    }

    /// Marks an order kept outside the hours (it was booked before the change that left it there).
    static func keep(_ id: Order.ID, at now: Date, in db: Connection) throws {
        try db.run(
            "UPDATE orders SET kept_outside_hours_at = ? WHERE id = ? AND kept_outside_hours_at IS NULL",
            [Timestamp.string(from: now), id])
    }

    /// An order's service day, local time and kept mark after a schedule change.
    static func rehome(_ id: Order.ID, serviceDay: LocalDate, pickupLocal: String, keptAt: Date?, in db: Connection)
        throws
    {
        try db.run(
            "UPDATE orders SET service_day = ?, pickup_local = ?, kept_outside_hours_at = ? WHERE id = ?",
            [serviceDay.description, pickupLocal, keptAt.map(Timestamp.string(from:)), id])
    }

    /// The future booked orders of the slots at these pickups (UTC text), by pickup.
    static func bookings(at pickups: [String], in db: Connection) throws -> [(
        id: Order.ID, handle: String, pickupAt: String, local: String
    )] {
        try pickups.flatMap { pickup in
            try db.fetchAll(
                """
                SELECT o.id, u.handle, o.pickup_at, o.pickup_local FROM orders o JOIN users u ON u.id = o.user_id
                WHERE o.pickup_at = ? AND o.status IN ('placed', 'preparing', 'ready') ORDER BY o.id
                """, [pickup]
            ) { (try $0.id("id"), try $0.string("handle"), try $0.string("pickup_at"), try $0.string("pickup_local")) }
        }
    }
}

/// A booked order a schedule change would affect: left outside the hours, moved to another
/// service day than it was booked for, or in a slot the change takes past its capacity.
public struct OrphanedOrder: Sendable, Hashable, Record {
    /// How the change would affect it.
    public enum Problem: String, Sendable, Hashable, Codable, CaseIterable {
        /// Its pickup would no longer be a slot of the hours.
        case outsideHours = "outside_hours"
        /// Its pickup would belong to another service day than the one it was booked for.
        case otherServiceDay = "other_service_day"
        /// Its slot would hold more pizzas than its capacity.
        case overCapacity = "over_capacity"
    }

    /// The order.
    public internal(set) var id: Order.ID = .blank
    /// Its user's handle.
    public internal(set) var handle: String = ""
    /// Its pickup.
    public internal(set) var pickupAt: Date = Date(timeIntervalSince1970: 0)
    /// Its pickup in the pizzeria's time (as it was when booked: the zone may be what changes).
    public internal(set) var pickupLocal: String = ""
    /// How the change would affect it.
    public internal(set) var problem: Problem = .outsideHours

    /// `1a2b3c4d anna 2026-12-04 19:30`, and the problem unless it is the hours.
    public var summary: String {
        let base = "\(id.short) \(handle) \(pickupLocal)"
        switch problem {
        case .outsideHours: return base
        case .otherServiceDay: return base + " (would belong to another service day)"
        case .overCapacity: return base + " (its slot would be over capacity)"
        }
    }

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members: `{"id", "pickup_at", "pickup_local", "problem", "user"}`, declared once (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.member("id", &id)
        try visitor.member("pickup_at", minute: &pickupAt)
        try visitor.member("pickup_local", &pickupLocal)
        try visitor.member("problem", raw: &problem, absent: .outsideHours)
        try visitor.member("user", &handle)
    }

    init(id: Order.ID, handle: String, pickupAt: Date, pickupLocal: String, problem: Problem = .outsideHours) {
        self.id = id
        self.handle = handle
        self.pickupAt = pickupAt
        self.pickupLocal = pickupLocal
        self.problem = problem
    }
}
