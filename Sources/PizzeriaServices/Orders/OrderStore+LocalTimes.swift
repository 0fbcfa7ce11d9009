import Foundation
import PizzeriaStorage

/// Orders' local pickup times and service days, recomputed when the zone or the week changes, and
/// migration 6's data step that first filled them.
extension OrderStore {
    /// After a change of time zone: the local pickup time and service day again, in `schedule`'s
    /// zone, of every order that ``Rehoming`` did not re-home — past and finished ones (a pickup
    /// that is a slot of the new schedule takes that slot's service day; any other, its local date).
    static func relocalize(under schedule: Schedule, before now: Date, in db: Connection) throws {
        let orders = try db.fetchAll(
            """
            SELECT id, pickup_at FROM orders WHERE NOT (pickup_at > ? AND status IN ('placed', 'preparing', 'ready'))
            """, [PickupTime.utc(now)]
        ) { (try $0.string("id"), try $0.string("pickup_at")) }
        for (id, text) in orders {
            guard let pickup = PickupTime.fromUTC(text) else {
                throw DataError.damagedRow(table: "orders", id: id, problem: "pickup_at '\(text)' is not a UTC time")
            }
            var day = schedule.clock.local(pickup).date
            if case .slot(let slot) = try schedule.locate(pickup) { day = slot.serviceDay }
            try db.run(
                "UPDATE orders SET service_day = ?, pickup_local = ? WHERE id = ?",
                [day.description, schedule.clock.localText(pickup), id])
        }
    }

    // MARK: - Migration 6

    /// Migration 6's data step: each existing order gets its service day and its local pickup
    /// time with offset, in the pizzeria's zone (SQL cannot convert zones). The hours before
    /// migration 6 never passed midnight, so the service day is the local date.
    @Sendable static func fillLocalTimes(_ db: Connection) throws {
        let stored =
            try db.fetchOne("SELECT time_zone FROM settings WHERE id = 1") { try $0.optionalString("time_zone") } ?? nil
        guard let zone = ZonedClock.zone(stored: stored) else {
            throw DataError.damagedRow(
                table: "settings", id: "1", problem: "time_zone '\(stored ?? "")' is not a known time zone")
        }
        let clock = ZonedClock(zone: zone)
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
}
