import Foundation
import PizzeriaStorage

/// A party: one customer's pizzas spread over consecutive slots of one service day as linked
/// orders, booked in one transaction, with one total (and one receipt: ``Receipt/party``).
///
/// Each order is an order like any other — its own slot, capacity, moves, kitchen state and
/// payments — linked by ``Order/partyID``, the id of the party's first order.
///
/// JSON: `{"party_id", "orders": […], "pizzas", "other_items", "total", "total_cents", "currency"}`
/// (pizzas, other items and the total of the orders that are not cancelled).
public struct Party: Sendable, Hashable, Encodable {
    /// The id of the party's first order (its ``Order/partyID``, and the other orders').
    public let id: Order.ID
    /// Its orders, in pickup order.
    public let orders: [Order]

    /// The pizzas of its orders that are not cancelled: what takes slot capacity (drinks do not).
    public var pizzaCount: Int { live.reduce(0) { $0 + $1.lines.reduce(0) { $0 + $1.slotUnits } } }
    /// Its other items (drinks, desserts) of the orders that are not cancelled.
    public var otherItemCount: Int { live.reduce(0) { $0 + $1.pizzaCount } - pizzaCount }
    /// What the whole party costs: the sum of its orders' totals, but the cancelled ones'.
    public var total: Money { Money(cents: live.reduce(0) { $0 + $1.total.cents }) }
    /// Its orders that are not cancelled.
    var live: [Order] { orders.filter { $0.status != .cancelled } }

    private enum CodingKeys: String, CodingKey {
        case id = "party_id", orders, pizzas, otherItems = "other_items", total, totalCents = "total_cents", currency
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(orders, forKey: .orders)
        try container.encode(pizzaCount, forKey: .pizzas)
        try container.encode(otherItemCount, forKey: .otherItems)
        try container.encode(total.plain, forKey: .total)
        try container.encode(total.cents, forKey: .totalCents)
        try container.encode("EUR", forKey: .currency)
    }
}

extension OrderService {
    /// The most consecutive slots a party spreads over.
    public static let maximumPartySlots = 8

    /// Books a party too large for one slot: its pizzas fill the slot at `request.pickup` and the
    /// slots right after it on the same service day (no gap, at most ``maximumPartySlots``), each
    /// up to its capacity, as linked orders in one transaction; the items of a station with a
    /// capacity (the fryer's) spread over the same run of slots up to that station's room; the
    /// rest (drinks) go with the first order. A party that fits one slot is one order. Every order is
    /// checked as a booking (hours, lead time, pause, capacity — `override` passes the lead time
    /// and the pause, as for ``place(_:by:override:)``), and a retry under the same key returns
    /// the party booked first.
    /// - Throws: what ``place(_:by:override:)`` throws, and ``OrderError/partyDoesNotFit(requested:fits:from:slots:)``
    ///   when the consecutive slots cannot take all its pizzas, and
    ///   ``OrderError/partyStationDoesNotFit(station:requested:fits:from:slots:)`` when they cannot
    ///   take a station's pieces. Nothing is written when it throws.
    @discardableResult
    public func placeParty(_ request: OrderRequest, by actor: String? = nil, override: StaffOverride? = nil) throws
        -> (party: Party, created: Bool)
    {
        let problems = request.problems() + Self.actorProblems(actor, override: override)
        guard problems.isEmpty else { throw ValidationError(problems) }
        let now = now()
        return try database.write { db in
            if let key = request.idempotencyKey, let existing = try OrderStore.header(key: key, in: db) {
                // The first order answers for the party (and refuses a key reused with other content).
                let (first, _) = try Self.place(request, actor: actor, override: override, now: now, in: db)
                return (try Self.party(of: existing.partyID ?? first.id, first: first, now: now, in: db), false)
            }
            let settings = try SettingsStore.current(in: db)
            let schedule = ScheduleStore.schedule(settings, in: db)
            let items = try Self.merged(request.items)
            let lines = try Self.snapshot(items, for: request.pickup, zone: settings.timeZone, in: db)
            let pizzas = lines.reduce(0) { $0 + $1.slotUnits }
            let first = try Self.checkPickup(
                request.pickup, pizzas: pizzas, override: override != nil, settings: settings, schedule: schedule,
                now: now, in: db)
            let shares = try Self.shares(
                of: lines, from: first, settings: settings, schedule: schedule, override: override != nil, now: now,
                in: db)
            guard shares.count > 1 else {
                let (order, created) = try Self.place(request, actor: actor, override: override, now: now, in: db)
                return (Party(id: order.id, orders: [order]), created)
            }
            var orders: [Order] = []
            for (index, share) in shares.enumerated() {
                var part = request
                part.pickup = share.slot.start
                part.items = share.lines.map {
                    OrderRequest.Item(
                        pizza: $0.pizzaID, quantity: $0.quantity, variant: $0.variantID,
                        modifiers: $0.modifiers.map(\.id))
                }
                if index > 0 { part.idempotencyKey = nil }
                orders.append(
                    try Self.place(
                        part, actor: actor, override: override,
                        party: orders.first.map { .member(of: $0.id) } ?? .first, fingerprintOf: request, now: now,
                        in: db
                    ).order)
            }
            return (Party(id: orders[0].id, orders: orders), true)
        }
    }

    /// The party of the order `id` (any of its orders), all its orders in pickup order; `nil`
    /// when there is no such order. An order on its own is a party of one.
    public func party(of id: Order.ID) throws -> Party? {
        let now = now()
        return try database.read { db in
            guard let header = try OrderStore.header(id: id, in: db) else { return nil }
            let first = try OrderAssembler(now: now, in: db).order(header)
            return try Self.party(of: header.partyID ?? id, first: first, now: now, in: db)
        }
    }

    /// The party whose first order is `id`, read back (`first` when it has no other orders).
    static func party(of id: Order.ID, first: Order, now: Date, in db: Connection) throws -> Party {
        let headers = try OrderStore.partyHeaders(id, in: db)
        guard !headers.isEmpty else { return Party(id: first.id, orders: [first]) }
        let assembler = try OrderAssembler(now: now, in: db)
        return Party(id: id, orders: try headers.map { try assembler.order($0) })
    }

    /// Which lines go to which slot: oven lines fill each consecutive slot up to its free
    /// capacity, and so do the lines of each other station with a capacity (the fryer's), up to
    /// that station's free capacity there (a line split between two slots when it must be); the
    /// rest (drinks, a station with no limit) ride with the first. A party that needs no room at
    /// all is the first slot alone.
    static func shares(
        of lines: [OrderLine], from first: Slot, settings: Settings, schedule: Schedule, override: Bool, now: Date,
        in db: Connection
    ) throws -> [(slot: Slot, lines: [OrderLine])] {
        let stations = try StationCapacities.read(in: db)
        // What each kind of room is asked for: the oven (nil) and each station with a capacity.
        var requested: [Station.ID?: Int] = [nil: lines.reduce(0) { $0 + $1.slotUnits }]
        for line in lines where !line.usesOven {
            if let id = line.stationID, stations.stations[id] != nil { requested[id, default: 0] += line.quantity }
        }
        let finder = SlotFinder(settings: settings, schedule: schedule, now: now, db: db)
        let window = BookingWindow(settings: settings, now: now)
        let step = Double(settings.slotMinutes * 60)
        // A station with no limit in a slot: more room than any party asks for, small enough that
        // the room of every slot of a run adds up without overflowing (Int.max / 2 did, and trapped).
        let unlimited = 1 << 40
        var slots: [(slot: Slot, free: [Station.ID?: Int])] = []
        var room: [Station.ID?: Int] = [:]
        func short() -> [Station.ID?] { requested.keys.filter { (room[$0] ?? 0) < (requested[$0] ?? 0) } }
        for slot in try schedule.slots(of: first.serviceDay) where slot.start >= first.start {
            let needed = short()
            guard !needed.isEmpty, slots.count < maximumPartySlots,
                slot.start == first.start.addingTimeInterval(step * Double(slots.count)),
                window.refusal(at: slot.start, .place, override: override) == nil
            else { break }
            let pickupAt = PickupTime.utc(slot.start)
            let load = try OrderStore.slotLoad(pickupAt: pickupAt, in: db)
            let capacity = try load?.capacity ?? finder.rules(on: slot.serviceDay).capacity(of: slot)
            var free: [Station.ID?: Int] = [nil: max(0, capacity.capacity - (load?.booked ?? 0))]
            let loads = requested.count > 1 ? try StationStore.loads(pickupAt: pickupAt, in: db) : [:]
            for case let id? in requested.keys {
                let ruled = stations.capacity(of: id, on: slot.serviceDay, wallMinute: slot.wallMinute).capacity
                free[id] = ruled.map { max(0, $0 - (loads[id] ?? 0)) } ?? unlimited
            }
            // A slot with no room for anything still needed ends the run: a party has no gap.
            guard needed.contains(where: { (free[$0] ?? 0) > 0 }) else { break }
            slots.append((slot, free))
            for (kind, more) in free { room[kind, default: 0] += more }
        }
        let zone = settings.timeZone
        if let missing = short().sorted(by: { ($0?.rawValue ?? 0) < ($1?.rawValue ?? 0) }).first {
            let from = PickupTime.local(first.start, in: zone)
            guard let station = missing, let name = stations.stations[station]?.name else {
                throw OrderError.partyDoesNotFit(
                    requested: requested[nil] ?? 0, fits: room[nil] ?? 0, from: from, slots: slots.count)
            }
            throw OrderError.partyStationDoesNotFit(
                station: name, requested: requested[station] ?? 0, fits: room[station] ?? 0, from: from,
                slots: slots.count)
        }
        guard !slots.isEmpty else { return [(first, lines)] }
        var shares: [(slot: Slot, lines: [OrderLine])] = slots.map { ($0.slot, []) }
        // Where each kind of room is being filled: the slot, and what is left there.
        var cursor: [Station.ID?: (index: Int, left: Int)] = [:]
        for line in lines {
            let kind: Station.ID?
            if line.usesOven {
                kind = nil
            } else if let id = line.stationID, requested[id] != nil {
                kind = id
            } else {
                shares[0].lines.append(line)
                continue
            }
            var (index, left) = cursor[kind] ?? (0, slots[0].free[kind] ?? 0)
            var quantity = line.quantity
            while quantity > 0 {
                while left == 0, index + 1 < slots.count {
                    index += 1
                    left = slots[index].free[kind] ?? 0
                }
                // The run has room for every piece (checked above); were it short, the booking
                // of the last slot refuses the rest by name.
                let part = left > 0 ? min(quantity, left) : quantity
                shares[index].lines.append(line.with(quantity: part))
                (quantity, left) = (quantity - part, max(0, left - part))
            }
            cursor[kind] = (index, left)
        }
        return shares.filter { !$0.lines.isEmpty }
    }
}
