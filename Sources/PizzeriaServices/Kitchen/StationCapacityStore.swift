import Foundation
import PizzeriaStorage

/// The SQL of stations' capacity rules (`station_capacity_rules`, the shape of `capacity_rules`)
/// and of each station's capacity in its booked slots (view `station_slot_capacity`).
enum StationCapacityStore {
    static let columns = "station_id, " + CapacityStore.columns

    /// Every station's rules, by station: weekday rules by weekday and time, then date rules.
    static func rules(in db: Connection) throws -> [Station.ID: [CapacityRule]] {
        var rules: [Station.ID: [CapacityRule]] = [:]
        try db.forEachRow(
            "SELECT " + columns + " FROM station_capacity_rules ORDER BY day IS NOT NULL, weekday, day, starts_at", [],
            CapacityStore.Decoder.self
        ) { row, decoder in
            rules[Station.ID(try row.int64("station_id")), default: []].append(try decoder.decode(row))
        }
        return rules
    }

    /// Adds a rule for `station`, or sets the capacity of its rule with the same days and range.
    static func upsert(_ rule: CapacityRule, station: Station.ID, in db: Connection) throws {
        let (weekday, day) = CapacityStore.keys(of: rule.days)
        let updated = try db.run(
            """
            UPDATE station_capacity_rules SET capacity = ?
            WHERE station_id = ? AND weekday IS ? AND day IS ? AND starts_at = ? AND ends_at = ?
            """,
            [rule.capacity, station, weekday, day, rule.range.opens.description, rule.range.closes.description])
        guard updated == 0 else { return }
        try db.run(
            """
            INSERT INTO station_capacity_rules (station_id, weekday, day, starts_at, ends_at, capacity)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [station, weekday, day, rule.range.opens.description, rule.range.closes.description, rule.capacity])
    }

    /// Removes `station`'s rules of these days (with exactly this range, when given); how many went.
    static func delete(_ days: CapacityRule.Days, range: OpeningInterval?, station: Station.ID, in db: Connection)
        throws -> Int
    {
        let (weekday, day) = CapacityStore.keys(of: days)
        return try db.run(
            """
            DELETE FROM station_capacity_rules
            WHERE station_id = ? AND weekday IS ? AND day IS ? AND (? IS NULL OR (starts_at = ? AND ends_at = ?))
            """,
            [station, weekday, day, range?.description, range?.opens.description, range?.closes.description])
    }

    /// How many rules all stations have.
    static func count(in db: Connection) throws -> Int {
        try db.fetchOne("SELECT count(*) AS n FROM station_capacity_rules") { try $0.int("n") } ?? 0
    }

    /// `station`'s capacity in every future slot it holds pieces in, by pickup (UTC text); `nil`: no limit.
    static func futureCapacities(of station: Station.ID, after now: String, in db: Connection) throws
        -> [String: Int?]
    {
        var capacities: [String: Int?] = [:]
        try db.forEach(
            "SELECT pickup_at, capacity FROM station_slot_capacity WHERE station_id = ? AND pickup_at > ? AND booked > 0",
            [station, now]
        ) { row in
            capacities[try row.string("pickup_at")] = .some(try row.optionalInt64("capacity").map { Int($0) })
        }
        return capacities
    }

    /// Future slots where `station` (every station, when `nil`) holds more pieces than its
    /// capacity there: the station, its name, the pickup (UTC text), what is booked, the capacity
    /// and the pieces over it the slot's live staff overrides granted (`station_override_allowance`).
    static func overbooked(after now: String, station: Station.ID? = nil, in db: Connection) throws -> [(
        station: Station.ID, name: String, pickupAt: String, booked: Int, capacity: Int, allowance: Int
    )] {
        try db.fetchAll(
            """
            SELECT c.station_id, c.station, c.pickup_at, c.booked, c.capacity,
                   coalesce((SELECT a.pieces FROM station_override_allowance a
                             WHERE a.station_id = c.station_id AND a.pickup_at = c.pickup_at), 0) AS allowance
            FROM station_slot_capacity c
            JOIN stations t ON t.id = c.station_id
            WHERE c.pickup_at > ? AND (? IS NULL OR c.station_id = ?) AND c.booked > c.capacity
            ORDER BY c.pickup_at, t.position
            """, [now, station, station]
        ) {
            (
                Station.ID(try $0.int64("station_id")), try $0.string("station"), try $0.string("pickup_at"),
                try $0.int("booked"), try $0.int("capacity"), try $0.int("allowance")
            )
        }
    }
}
