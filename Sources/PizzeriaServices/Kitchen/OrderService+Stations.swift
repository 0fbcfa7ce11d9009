import Foundation
import PizzeriaStorage

// A station's capacity per slot, for every change that puts pieces in a slot: a booking, a move, a
// delay, an edit that adds, an undone cancellation. The oven's is the slot's (``requireRoom``);
// this is every other station's. The schema's `station_loads` refuses the same.
extension OrderService {
    /// Refuses `lines` when a station other than the oven cannot make their pieces in the slot at
    /// `pickup` on top of what it already has there, naming the station, what is left and what
    /// to do instead.
    static func requireStationRoom(for lines: [OrderLine], at pickup: Date, zone: TimeZone, in db: Connection) throws {
        var wanted: [Station.ID: Int] = [:]
        for line in lines where !line.usesOven {
            if let station = line.stationID { wanted[station, default: 0] += line.quantity }
        }
        guard !wanted.isEmpty else { return }
        let loads = try StationStore.loads(pickupAt: PickupTime.utc(pickup), in: db)
        for (id, requested) in wanted.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            guard let station = try StationStore.station(id: id, in: db), let capacity = station.capacity else {
                continue
            }
            let booked = loads[id] ?? 0
            guard booked + requested > capacity else { continue }
            throw OrderError.stationFull(
                station: station.name, slot: PickupTime.local(pickup, in: zone),
                remaining: max(0, capacity - booked), requested: requested)
        }
    }
}
