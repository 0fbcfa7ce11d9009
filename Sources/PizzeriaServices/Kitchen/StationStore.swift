import Foundation
import PizzeriaStorage

/// The SQL of stations and their loads. Functions take the connection of an open transaction.
enum StationStore {
    /// The columns ``Decoder`` reads.
    static let columns = "id, name, capacity, holds_slot_capacity, position"
    typealias Decoder = StoredDecoder<Station>

    /// Every station, in position order.
    static func list(in db: Connection) throws -> [Station] {
        try db.fetchAll(
            "SELECT " + columns + " FROM stations ORDER BY position, name COLLATE NOCASE, id", [], Decoder.self)
    }

    static func station(id: Station.ID, in db: Connection) throws -> Station? {
        try db.fetchOne("SELECT " + columns + " FROM stations WHERE id = ?", [id], Decoder.self)
    }

    /// The station whose load is the slot's.
    static func slotStation(in db: Connection) throws -> Station? {
        try db.fetchOne("SELECT " + columns + " FROM stations WHERE holds_slot_capacity = 1", [], Decoder.self)
    }

    static func insert(name: String, capacity: Int?, position: Int, in db: Connection) throws -> Station {
        let inserted = try db.fetchOne(
            "INSERT INTO stations (name, capacity, position) VALUES (?, ?, ?) RETURNING " + columns,
            [name, capacity, position], Decoder.self)
        guard let inserted else { throw DataError.damagedRow(table: "stations", id: name, problem: "not inserted") }
        return inserted
    }

    static func update(_ station: Station, in db: Connection) throws {
        try db.run(
            "UPDATE stations SET name = ?, capacity = ?, position = ? WHERE id = ?",
            [station.name, station.capacity, station.position, station.id])
    }

    static func delete(id: Station.ID, in db: Connection) throws {
        try db.run("DELETE FROM stations WHERE id = ?", [id])
    }

    /// What uses the station: its categories' names, and whether any line was booked at it.
    static func uses(of id: Station.ID, in db: Connection) throws -> (categories: [String], booked: Bool) {
        let categories = try db.fetchAll(
            "SELECT name FROM categories WHERE station_id = ? ORDER BY position, name", [id]
        ) { try $0.string("name") }
        let booked =
            try db.fetchOne(
                """
                SELECT EXISTS (SELECT 1 FROM order_lines WHERE station_id = ? AND uses_oven = 0 AND station_id IS NOT NULL)
                       AS used
                """, [id]
            ) {
                try $0.int("used") == 1
            } ?? false
        return (categories, booked)
    }

    /// The pieces booked at each station (other than the slot's) in the slot at `pickupAt`.
    static func loads(pickupAt: String, in db: Connection) throws -> [Station.ID: Int] {
        var loads: [Station.ID: Int] = [:]
        try db.forEach("SELECT station_id, booked FROM station_loads WHERE pickup_at = ?", [pickupAt]) { row in
            loads[Station.ID(try row.int64("station_id"))] = try row.int("booked")
        }
        return loads
    }

    /// Every station's load per slot from `from` to `to` (UTC pickup times, `to` excluded).
    static func loads(from: String, to: String, in db: Connection) throws -> [String: [Station.ID: Int]] {
        var loads: [String: [Station.ID: Int]] = [:]
        try db.forEach(
            "SELECT station_id, pickup_at, booked FROM station_loads WHERE pickup_at >= ? AND pickup_at < ?",
            [from, to]
        ) { row in
            loads[try row.string("pickup_at"), default: [:]][Station.ID(try row.int64("station_id"))] = try row.int(
                "booked")
        }
        return loads
    }

    /// Marks `station`'s part of the order done; `false` when it already was.
    static func bump(order id: Order.ID, station: Station.ID, actor: String?, at: Date, in db: Connection) throws
        -> Bool
    {
        try db.run(
            "INSERT INTO station_bumps (order_id, station_id, at, actor) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
            [id, station, Timestamp.string(from: at), actor])
        return db.changes > 0
    }

    /// The stations whose part of each order is done.
    static func bumps(of ids: [Order.ID], in db: Connection) throws -> [Order.ID: Set<Station.ID>] {
        guard !ids.isEmpty else { return [:] }
        var done: [Order.ID: Set<Station.ID>] = [:]
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        try db.forEach(
            "SELECT order_id, station_id FROM station_bumps WHERE order_id IN (" + marks + ")", ids
        ) { row in
            done[try row.id("order_id"), default: []].insert(Station.ID(try row.int64("station_id")))
        }
        return done
    }
}
