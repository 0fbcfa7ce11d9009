import Foundation
import PizzeriaStorage

// A station's capacity per slot, for every change that puts pieces in a slot: a booking, a move, a
// delay, an edit that adds, an undone cancellation. The oven's is the slot's (``requireRoom``);
// this is every other station's, by its capacity rules for the slot (``StationCapacities``). The
// schema's `station_loads_capacity` refuses the same. A staff override passes a station's capacity
// by the slot's rule: at most a quarter of it, rounded up, counting what earlier overrides took.
extension OrderService {
    /// Refuses `lines` when a station other than the oven cannot make their pieces in `slot` on
    /// top of what it already has there, naming the station, what is left and what to do instead.
    /// With a staff `override`, a station may go over its capacity by at most its margin; the
    /// answer is the pieces over each station's capacity the override takes, to be recorded by
    /// ``admit(_:stations:order:at:override:actor:now:in:)``.
    @discardableResult
    static func requireStationRoom(
        for lines: [OrderLine], in slot: Slot, zone: TimeZone, override: StaffOverride? = nil, in db: Connection
    ) throws -> [Station.ID: Int] {
        var wanted: [Station.ID: Int] = [:]
        for line in lines where !line.usesOven {
            if let station = line.stationID { wanted[station, default: 0] += line.quantity }
        }
        guard !wanted.isEmpty else { return [:] }
        let capacities = try StationCapacities.read(in: db)
        let pickupAt = PickupTime.utc(slot.start)
        let loads = try StationStore.loads(pickupAt: pickupAt, in: db)
        var over: [Station.ID: Int] = [:]
        for (id, requested) in wanted.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let ruled = capacities.capacity(of: id, on: slot.serviceDay, wallMinute: slot.wallMinute)
            guard let station = capacities.stations[id], let capacity = ruled.capacity else { continue }
            let booked = loads[id] ?? 0
            guard booked + requested > capacity else { continue }
            let local = PickupTime.local(slot.start, in: zone)
            guard override != nil else {
                throw OrderError.stationFull(
                    station: station.name, slot: local, remaining: max(0, capacity - booked), requested: requested,
                    rule: ruled.rule)
            }
            let needed = booked + requested - capacity
            let margin = SlotCapacity.overrideMargin(of: capacity)
            guard needed <= margin else {
                throw OrderError.stationOverMargin(
                    station: station.name, slot: local, capacity: capacity, booked: booked, requested: requested,
                    margin: margin)
            }
            // As for the oven: what earlier overrides took counts only while the station is still
            // over its capacity by it; every order let past it holds an override of its own.
            let granted = try OrderStore.overrideAllowance(pickupAt: pickupAt, station: id, in: db)
            over[id] = needed - min(granted, max(0, booked - capacity))
        }
        return over
    }
}
