import Foundation
import PizzeriaStorage

/// `check`'s SQL for stations: each station's load per slot beside the lines it derives from.
extension DomainStore {
    /// The pieces of a station's live lines in a slot (a constant subquery on `station_loads s`).
    static let stationSum = """
        (SELECT coalesce(sum(l.quantity), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id \
        WHERE o.pickup_at = s.pickup_at AND o.status <> 'cancelled' AND l.station_id = s.station_id)
        """

    /// Station loads whose stored value is not the sum of their lines, and booked (station, pickup)
    /// pairs with no row (`booked` NULL). `stationSum` is a constant, spliced in.
    static func driftedStationLoads(in db: Connection) throws -> [(
        station: Int64, pickupAt: String, booked: Int?, actual: Int
    )] {
        // `stationSum` is a constant subquery (no value in it); the statement binds nothing.
        try db.fetchAll(
            """
            SELECT s.station_id, s.pickup_at, s.booked, \(stationSum) AS actual FROM station_loads s
            WHERE s.booked IS NOT \(stationSum)
            UNION ALL
            SELECT l.station_id, o.pickup_at, NULL AS booked, sum(l.quantity) AS actual
            FROM orders o JOIN order_lines l ON l.order_id = o.id
            WHERE o.status <> 'cancelled' AND l.station_id IS NOT NULL AND l.uses_oven = 0
              AND NOT EXISTS (SELECT 1 FROM station_loads s WHERE s.station_id = l.station_id AND s.pickup_at = o.pickup_at)
            GROUP BY l.station_id, o.pickup_at
            ORDER BY 2, 1
            """
        ) {
            (
                try $0.int64("station_id"), try $0.string("pickup_at"), try $0.optionalInt64("booked").map { Int($0) },
                try $0.int("actual")
            )
        }
    }

    /// Each station's load at a slot again from its lines, a missing row created first. The
    /// capacity trigger is set aside for the statement (its own text, read back from the schema,
    /// recreates it): a drifted load may really hold more than the capacity, which is reported.
    static func recomputeStationLoads(_ loads: [(station: Int64, pickupAt: String)], in db: Connection) throws {
        guard !loads.isEmpty else { return }
        let saved = try db.fetchOne(
            "SELECT sql FROM sqlite_schema WHERE type = 'trigger' AND name = 'station_loads_capacity'"
        ) { try $0.string("sql") }
        if saved != nil { try db.run("DROP TRIGGER station_loads_capacity") }
        for (station, pickup) in loads {
            try db.run(
                """
                INSERT INTO station_loads (station_id, pickup_at) SELECT ?1, ?2
                WHERE NOT EXISTS (SELECT 1 FROM station_loads WHERE station_id = ?1 AND pickup_at = ?2)
                """, [station, pickup])
            try db.run(
                "UPDATE station_loads AS s SET booked = " + stationSum + " WHERE s.station_id = ? AND s.pickup_at = ?",
                [station, pickup])
        }
        // The trigger's text as the schema holds it (a definition wrote it): not input.
        if let saved { try db.run(saved) }
    }
}
