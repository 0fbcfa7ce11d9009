import Foundation
import PizzeriaStorage

// Capacity by time for the stations other than the oven: the same rules as the oven's (weekday or
// date, a time range, the narrower winning), over the station's own capacity. The oven's rules
// are ``CapacityService/set(_:_:capacity:)``'s; naming the oven here sets those. A change that
// leaves a future slot holding more than its new capacity is refused naming the slots, for a
// station as for the oven (``StationCapacities/refuseOverfilling(_:since:after:zone:in:)``).
extension CapacityService {
    /// `station`'s capacity rules (the oven's: ``rules()``): weekday rules first, then date rules.
    /// - Throws: ``MenuError/partNotFound(part:name:place:known:)`` for no such station.
    public func rules(at station: Station.ID) throws -> [CapacityRule] {
        try database.read { db in
            let found = try MenuService.requiredStation(station, in: db)
            if found.holdsSlotCapacity { return try CapacityStore.all(in: db) }
            return try StationCapacityStore.rules(in: db)[station] ?? []
        }
    }

    /// Sets `station`'s capacity for a time range on some days (pieces per slot; one rule per
    /// weekday or date, the same days and range again changing its capacity). For the oven this
    /// is ``set(_:_:capacity:)``.
    /// - Throws: ``ValidationError`` (capacity out of 1–10000, a range that partly overlaps another
    ///   rule of the station's on the same days, too many rules); ``MenuError`` for no such station,
    ///   or (`partRefused`) a capacity below what a future slot holds. Nothing changes when it throws.
    @discardableResult
    public func set(_ days: [CapacityRule.Days], _ range: OpeningInterval, capacity: Int, at station: Station.ID)
        throws -> [CapacityRule]
    {
        let oven = try database.read { db in try MenuService.requiredStation(station, in: db).holdsSlotCapacity }
        if oven { return try set(days, range, capacity: capacity) }
        let rules = try Self.newRules(days, range, capacity: capacity, unit: "pieces")
        let now = now()
        return try database.audited(acting, at: now) { db in
            let found = try MenuService.requiredStation(station, in: db)
            try Self.requireRoom(for: rules, besides: try StationCapacityStore.rules(in: db)[station] ?? [], in: db)
            let before = try StationCapacityStore.futureCapacities(of: station, after: PickupTime.utc(now), in: db)
            for rule in rules { try StationCapacityStore.upsert(rule, station: station, in: db) }
            let zone = try SettingsStore.current(in: db).timeZone
            try StationCapacities.refuseOverfilling(found, since: before, after: now, zone: zone, in: db)
            return rules
        }
    }

    /// Removes `station`'s rules of some days (only those with this range, when given); how many
    /// went. For the oven this is ``clear(_:range:)``.
    /// - Throws: ``MenuError`` for no such station, or (`partRefused`) when the capacity that
    ///   applies instead is below what a future slot holds; for the oven, ``clear(_:range:)``'s refusals.
    @discardableResult
    public func clear(_ days: [CapacityRule.Days], range: OpeningInterval? = nil, at station: Station.ID) throws
        -> Int
    {
        let oven = try database.read { db in try MenuService.requiredStation(station, in: db).holdsSlotCapacity }
        if oven { return try clear(days, range: range) }
        let now = now()
        return try database.audited(acting, at: now) { db in
            let found = try MenuService.requiredStation(station, in: db)
            let before = try StationCapacityStore.futureCapacities(of: station, after: PickupTime.utc(now), in: db)
            var removed = 0
            for day in days { removed += try StationCapacityStore.delete(day, range: range, station: station, in: db) }
            let zone = try SettingsStore.current(in: db).timeZone
            try StationCapacities.refuseOverfilling(found, since: before, after: now, zone: zone, in: db)
            return removed
        }
    }
}
