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
    /// up to its capacity, as linked orders in one transaction; items that take no oven room
    /// (drinks) go with the first order. A party that fits one slot is one order. Every order is
    /// checked as a booking (hours, lead time, pause, capacity — `override` passes the lead time
    /// and the pause, as for ``place(_:by:override:)``), and a retry under the same key returns
    /// the party booked first.
    /// - Throws: what ``place(_:by:override:)`` throws, and ``OrderError/partyDoesNotFit(requested:fits:from:slots:)``
    ///   when the consecutive slots cannot take all its pizzas. Nothing is written when it throws.
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
    /// capacity (a line split between two slots when it must be), the rest ride with the first.
    static func shares(
        of lines: [OrderLine], from first: Slot, settings: Settings, schedule: Schedule, override: Bool, now: Date,
        in db: Connection
    ) throws -> [(slot: Slot, lines: [OrderLine])] {
        let requested = lines.reduce(0) { $0 + $1.slotUnits }
        let finder = SlotFinder(settings: settings, schedule: schedule, now: now, db: db)
        let window = BookingWindow(settings: settings, now: now)
        let step = Double(settings.slotMinutes * 60)
        var slots: [(slot: Slot, free: Int)] = []
        var room = 0
        for slot in try schedule.slots(of: first.serviceDay) where slot.start >= first.start {
            guard room < requested, slots.count < maximumPartySlots,
                slot.start == first.start.addingTimeInterval(step * Double(slots.count)),
                window.refusal(at: slot.start, .place, override: override) == nil
            else { break }
            let load = try OrderStore.slotLoad(pickupAt: PickupTime.utc(slot.start), in: db)
            let capacity = try load?.capacity ?? finder.rules(on: slot.serviceDay).capacity(of: slot)
            let free = max(0, capacity.capacity - (load?.booked ?? 0))
            guard free > 0 else { break }
            slots.append((slot, free))
            room += free
        }
        guard room >= requested || requested == 0 else {
            throw OrderError.partyDoesNotFit(
                requested: requested, fits: room, from: PickupTime.local(first.start, in: settings.timeZone),
                slots: slots.count)
        }
        var shares: [(slot: Slot, lines: [OrderLine])] = slots.map { ($0.slot, []) }
        var index = 0, left = slots.first?.free ?? 0
        for line in lines {
            guard line.usesOven else {
                shares[0].lines.append(line)
                continue
            }
            var quantity = line.quantity
            while quantity > 0 {
                while left == 0, index + 1 < slots.count {
                    index += 1
                    left = slots[index].free
                }
                let part = min(quantity, left)
                shares[index].lines.append(line.with(quantity: part))
                (quantity, left) = (quantity - part, left - part)
            }
        }
        return shares.filter { !$0.lines.isEmpty }
    }
}
