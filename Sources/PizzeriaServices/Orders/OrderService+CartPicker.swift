import Foundation
import PizzeriaStorage

// The pickup-time picker for a cart: what the checkout asks. The oven's pieces are the picker's
// `pizzas`; every other station with a capacity has its own pieces to fit in the same slot, the
// rule booking applies (``requireStationRoom(for:in:zone:override:in:)``) and the schema's `station_loads`.
extension OrderService {
    /// What a cart asks of each station other than the oven that has a capacity in some slot.
    struct StationNeed: Sendable, Hashable {
        let station: Station.ID
        let name: String
        /// The most it makes in any slot (`nil`: some slot has no limit).
        let largest: Int?
        let pieces: Int
    }

    /// The pickup-time picker for a cart: up to `limit` (1–100) slots from `after` (default: now)
    /// that can take `items` now — the oven's pieces against the slot's capacity, as
    /// ``availableSlots(pizzas:after:limit:)`` does, and each other station's pieces (a fryer's)
    /// against that station's capacity in the slot. The items are read as a booking reads them
    /// (variants, modifiers, archived and sold-out items refused alike); a slot offered is one
    /// the cart can be booked in now. `remaining` and `capacity` of each slot are the oven's.
    /// - Throws: ``ValidationError`` for no items, a `limit` outside 1–100 or an `after` in the
    ///   past; the booking's refusals of an item (``MenuError/notFound(_:)``,
    ///   ``OrderError/soldOut(name:left:requested:until:)`` …).
    public func availableSlots(for items: [OrderRequest.Item], after: Date? = nil, limit: Int = 10) throws
        -> SlotAvailability
    {
        let now = now()
        let afterTooEarly = after.map { $0 < now.addingTimeInterval(-60) } ?? false
        var problems: [FieldError] = []
        if items.isEmpty { problems.append(FieldError(field: "items", message: "name at least one item of the cart")) }
        if items.count > OrderRequest.maximumItems {
            problems.append(
                FieldError(field: "items", message: "at most \(OrderRequest.maximumItems) lines, not \(items.count)"))
        }
        if !(1...SlotFinder.maximumLimit).contains(limit) || afterTooEarly {
            problems += Self.pickerRefusal(pizzas: 1, limit: limit, afterTooEarly: afterTooEarly).errors
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        let from = after ?? now
        let (pizzas, needs, capacities) = try database.read { db in
            try Self.cartNeeds(items, at: max(from, now), in: db)
        }
        guard pizzas <= OrderRequest.maximumPizzas else {
            throw ValidationError([
                FieldError(
                    field: "items",
                    message: "an order takes at most \(OrderRequest.maximumPizzas) pizzas, not \(pizzas)")
            ])
        }
        guard !needs.isEmpty else {
            return try pick(pizzas: pizzas, from: from, now: now, limit: limit, reading: .kept)
        }
        if let over = needs.first(where: { need in need.largest.map { need.pieces > $0 } ?? false }),
            let largest = over.largest
        {
            return SlotAvailability(
                slots: [], reason: .tooLarge,
                message: "\(over.name) makes at most \(largest) pieces per slot; the cart has \(over.pieces)",
                largestOrder: try pick(pizzas: pizzas, from: from, now: now, limit: 1, reading: .kept).largestOrder)
        }
        // The oven's picker in batches, each slot then held to every station's room, until enough
        // are found or the oven's picker has no more.
        var found: [AvailableSlot] = []
        var cursor = from
        while true {
            let batch = try pick(pizzas: pizzas, from: cursor, now: now, limit: SlotFinder.maximumLimit, reading: .kept)
            guard let first = batch.slots.first, let last = batch.slots.last else {
                if found.isEmpty && batch.reason != .noneWithinHorizon { return batch }
                break
            }
            let loads = try database.read { db in
                try StationStore.loads(
                    from: PickupTime.utc(first.start), to: PickupTime.utc(last.start.addingTimeInterval(1)), in: db)
            }
            for slot in batch.slots {
                let booked = loads[PickupTime.utc(slot.start)] ?? [:]
                let fits = needs.allSatisfy { need in
                    guard
                        let capacity = capacities.capacity(
                            of: need.station, on: slot.serviceDay, wallMinute: slot.wallMinute
                        ).capacity
                    else { return true }
                    return (booked[need.station] ?? 0) + need.pieces <= capacity
                }
                guard fits else { continue }
                found.append(slot)
                if found.count == limit { break }
            }
            if found.count == limit || batch.slots.count < SlotFinder.maximumLimit { break }
            cursor = last.start.addingTimeInterval(1)
        }
        let largest = try pick(pizzas: pizzas, from: from, now: now, limit: 1, reading: .kept).largestOrder
        guard found.isEmpty else {
            return SlotAvailability(slots: found, reason: nil, message: nil, largestOrder: largest)
        }
        let asked = needs.map { "\($0.pieces) at \($0.name)" }.joined(separator: ", ")
        return SlotAvailability(
            slots: [], reason: .noneWithinHorizon,
            message: "no slot within the booking horizon has room for \(pizzas) pizzas and \(asked)",
            largestOrder: largest)
    }

    /// The cart's lines as a booking reads them: the oven's pieces, each other station's (those
    /// with a capacity in some slot) with its name, and the stations' capacities.
    static func cartNeeds(_ items: [OrderRequest.Item], at pickup: Date, in db: Connection) throws
        -> (pizzas: Int, needs: [StationNeed], capacities: StationCapacities)
    {
        let settings = try SettingsStore.current(in: db)
        let lines = try snapshot(try merged(items), for: pickup, zone: settings.timeZone, in: db)
        var pieces: [Station.ID: Int] = [:]
        for line in lines where !line.usesOven {
            if let station = line.stationID { pieces[station, default: 0] += line.quantity }
        }
        let capacities = try StationCapacities.read(in: db)
        var needs: [StationNeed] = []
        for (id, count) in pieces.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            guard let station = capacities.stations[id], station.capacity != nil || capacities.rules[id] != nil else {
                continue
            }
            needs.append(
                StationNeed(station: id, name: station.name, largest: capacities.largest(of: id), pieces: count))
        }
        return (lines.reduce(0) { $0 + $1.slotUnits }, needs, capacities)
    }
}
