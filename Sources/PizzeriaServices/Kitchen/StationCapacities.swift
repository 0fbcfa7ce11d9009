import Foundation
import PizzeriaStorage

/// Every station's capacity through the week, resolved for one slot at a time: a station's rule
/// for the slot's date, else for its weekday (the narrower range winning, as ``CapacityRules``
/// decides for the oven), else the station's own `capacity` (`nil`: no limit). The one definition
/// in Swift; `station_capacity_candidates` and the `station_loads_capacity` trigger are the same
/// in SQL. The oven (the station holding the slot capacity) is not here: its capacity is the slot's.
struct StationCapacities: Sendable {
    /// The stations other than the oven, in the stations' order.
    let listed: [Station]
    /// The same, by id.
    let stations: [Station.ID: Station]
    /// Each station's rules.
    let rules: [Station.ID: CapacityRules]

    /// Reads the stations and their rules (small tables: at most 100 stations and 1,000 rules).
    static func read(in db: Connection) throws -> StationCapacities {
        let stations = try StationStore.list(in: db).filter { !$0.holdsSlotCapacity }
        let rules = try StationCapacityStore.rules(in: db)
        return StationCapacities(
            listed: stations,
            stations: Dictionary(uniqueKeysWithValues: stations.map { ($0.id, $0) }),
            rules: rules.mapValues { CapacityRules($0, defaultCapacity: 0) })
    }

    /// `id`'s capacity in the slot starting `wallMinute` after `day`'s midnight, and the rule it
    /// came from (`nil`: the station's own); a `nil` capacity is no limit.
    func capacity(of id: Station.ID, on day: LocalDate, wallMinute: Int) -> (capacity: Int?, rule: String?) {
        if let ruled = rules[id]?.ruled(on: day, wallMinute: wallMinute) { return (ruled.capacity, ruled.rule) }
        return (stations[id]?.capacity, nil)
    }

    /// The most pieces `id` makes in any slot; `nil` when some slot has no limit.
    func largest(of id: Station.ID) -> Int? {
        guard let own = stations[id]?.capacity else { return nil }
        return max(own, rules[id]?.rules.map(\.capacity).max() ?? own)
    }
}

extension StationCapacities {
    /// Refuses a change to `station`'s capacity that leaves a future slot holding more pieces than
    /// its new capacity there, where it held no more before (`before`:
    /// ``StationCapacityStore/futureCapacities(of:after:in:)`` read ahead of the change), naming
    /// the slots — as a lower slot capacity is refused for the oven.
    static func refuseOverfilling(
        _ station: Station, since before: [String: Int?], after now: Date, zone: TimeZone, in db: Connection
    ) throws {
        let over = try StationCapacityStore.overbooked(after: PickupTime.utc(now), station: station.id, in: db)
            .filter { $0.capacity < ((before[$0.pickupAt] ?? nil) ?? Int.max) }
        guard !over.isEmpty else { return }
        let named = over.prefix(5).map { slot in
            let local = PickupTime.fromUTC(slot.pickupAt).map { PickupTime.local($0, in: zone) } ?? slot.pickupAt
            return "\(local) (\(slot.booked) booked, capacity \(slot.capacity))"
        }
        throw MenuError.partRefused(
            "capacity: \(station.name) would make fewer pieces than \(over.count) future slot"
                + (over.count == 1 ? "" : "s") + " already hold" + (over.count == 1 ? "s" : "") + ": "
                + named.joined(separator: ", ") + (over.count > 5 ? ", and \(over.count - 5) more" : "")
                + "; move or cancel those orders first, or choose a capacity they fit")
    }
}
