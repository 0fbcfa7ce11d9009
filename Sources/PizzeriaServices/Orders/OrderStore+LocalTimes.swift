import Foundation
import PizzeriaStorage

/// Orders' local pickup times and service days, recomputed when the zone or the week changes.
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
}
