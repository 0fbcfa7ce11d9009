import Foundation
import PizzeriaStorage

/// The SQL of slot loads: what a slot holds and what it may hold.
extension OrderStore {
    /// A slot's booked pizzas and capacity, kept by the schema's triggers (`slot_loads`).
    static let slotLoadSQL = "SELECT booked, capacity, capacity_rule FROM slot_loads WHERE pickup_at = ?"

    /// A booked slot's pizzas and the capacity that applies.
    struct SlotLoad {
        let booked: Int
        let capacity: SlotCapacity

        /// From a row with `booked`, `capacity` and `capacity_rule` (every query of `slot_loads`).
        init(_ row: Row) throws {
            booked = try row.int("booked")
            capacity = SlotCapacity(capacity: try row.int("capacity"), rule: try row.optionalString("capacity_rule"))
        }
    }

    /// The orders whose pizzas count against their slot's capacity: all but cancelled ones (a
    /// constant SQL condition on `orders o`).
    static let holdsCapacity = " o.status <> 'cancelled'"

    /// The pizzas booked in the slot and its capacity; `nil` for a slot no order has taken yet.
    static func slotLoad(pickupAt: String, in db: Connection) throws -> SlotLoad? {
        try db.fetchOne(slotLoadSQL, [pickupAt], SlotLoad.init)
    }

    /// A service day's booked slots in start order (seconds since 1970), from `slot_loads` by its
    /// service-day index; SQLite turns the stored text into seconds.
    static func loads(of day: LocalDate, in db: Connection) throws -> [(start: Int64, load: SlotLoad)] {
        var loads: [(start: Int64, load: SlotLoad)] = []
        try db.forEach(
            """
            SELECT CAST(strftime('%s', pickup_at) AS INTEGER) AS start, booked, capacity, capacity_rule FROM slot_loads
            WHERE service_day = ? ORDER BY pickup_at
            """, [day.description]
        ) { row in
            loads.append((try row.int64("start"), try OrderStore.SlotLoad(row)))
        }
        return loads
    }
}
