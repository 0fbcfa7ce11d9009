import Foundation
import PizzeriaStorage

// A station's capacity per slot, for every change that puts pieces in a slot: a booking, a move, a
// delay, an edit that adds, an undone cancellation. The oven's is the slot's (``requireRoom``);
// this is every other station's, by its capacity rules for the slot (``StationCapacities``). The
// schema's `station_loads_capacity` refuses the same. A staff override passes the oven's capacity
// by its margin, never a station's: a fryer's baskets do not stretch.
extension OrderService {
    /// Refuses `lines` when a station other than the oven cannot make their pieces in `slot` on
    /// top of what it already has there, naming the station, what is left and what to do instead.
    static func requireStationRoom(for lines: [OrderLine], in slot: Slot, zone: TimeZone, in db: Connection) throws {
        var wanted: [Station.ID: Int] = [:]
        for line in lines where !line.usesOven {
            if let station = line.stationID { wanted[station, default: 0] += line.quantity }
        }
        guard !wanted.isEmpty else { return }
        let capacities = try StationCapacities.read(in: db)
        let loads = try StationStore.loads(pickupAt: PickupTime.utc(slot.start), in: db)
        for (id, requested) in wanted.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let ruled = capacities.capacity(of: id, on: slot.serviceDay, wallMinute: slot.wallMinute)
            guard let station = capacities.stations[id], let capacity = ruled.capacity else { continue }
            let booked = loads[id] ?? 0
            guard booked + requested > capacity else { continue }
            throw OrderError.stationFull(
                station: station.name, slot: PickupTime.local(slot.start, in: zone),
                remaining: max(0, capacity - booked), requested: requested, rule: ruled.rule)
        }
    }
}
