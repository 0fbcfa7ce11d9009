import Foundation
import PizzeriaStorage

/// A pickup slot that can take an order now: what the app's pickup-time picker offers.
///
/// JSON: `{"start": UTC, "service_day", "local": "2026-12-04 19:30", "time": "19:30", "offset":
/// "+01:00", "remaining", "capacity", "capacity_rule": "fri 18:30-21:00" | null}`.
public struct AvailableSlot: Sendable, Hashable, Codable {
    /// Its start.
    public let start: Date
    /// The service day it belongs to (a night slot after midnight belongs to the day before).
    public let serviceDay: LocalDate
    /// The local date and time of its start, `2026-12-05 00:30`.
    public let local: String
    /// The local time of its start, `00:30`.
    public let time: String
    /// The zone's offset at its start, `+01:00`.
    public let offset: String
    /// Pizzas it can still take.
    public let remaining: Int
    /// Its capacity.
    public let capacity: Int
    /// The rule its capacity came from (`fri 18:30-21:00`), or `nil` for `slot-capacity`.
    public let capacityRule: String?

    private enum CodingKeys: String, CodingKey {
        case start, serviceDay = "service_day", local, time, offset, remaining, capacity, capacityRule = "capacity_rule"
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(PickupTime.utc(start), forKey: .start)
        try container.encode(serviceDay, forKey: .serviceDay)
        try container.encode(local, forKey: .local)
        try container.encode(time, forKey: .time)
        try container.encode(offset, forKey: .offset)
        try container.encode(remaining, forKey: .remaining)
        try container.encode(capacity, forKey: .capacity)
        try container.encode(capacityRule, forKey: .capacityRule)
    }

    /// Reads the JSON shape.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        start = try container.decodeTimestamp(forKey: .start)
        serviceDay = try container.decode(LocalDate.self, forKey: .serviceDay)
        local = try container.decode(String.self, forKey: .local)
        time = try container.decode(String.self, forKey: .time)
        offset = try container.decode(String.self, forKey: .offset)
        remaining = try container.decode(Int.self, forKey: .remaining)
        capacity = try container.decode(Int.self, forKey: .capacity)
        capacityRule = try container.decodeIfPresent(String.self, forKey: .capacityRule)
        let parts = time.split(separator: ":").compactMap { Int($0) }
        let minutes = parts.count == 2 ? parts[0] * 60 + parts[1] : 0
        // After midnight, the time belongs to the service day before.
        wallMinute = local.hasPrefix(serviceDay.description) ? minutes : minutes + 1440
    }

    init(_ slot: Slot, local: String, time: String, offset: String, remaining: Int, capacity: SlotCapacity) {
        (self.start, self.serviceDay, self.wallMinute, self.local, self.time, self.offset) = (slot.start, slot.serviceDay, slot.wallMinute, local, time, offset)
        (self.remaining, self.capacity, self.capacityRule) = (remaining, capacity.capacity, capacity.rule)
    }

    /// Minutes after its service day's midnight (not encoded: `time` says it for people).
    let wallMinute: Int

    /// The schedule's slot.
    var slot: Slot { Slot(start: start, serviceDay: serviceDay, wallMinute: wallMinute) }
}

/// What the picker found: the slots, or why there are none.
///
/// JSON: `{"slots": […], "reason": null | "paused" | "too_large" | "none_within_horizon",
/// "message": "not taking orders until 21:00: oven repair" | null, "largest_order": 30}`.
public struct SlotAvailability: Sendable, Hashable, Encodable {
    /// Why no slot was offered.
    public enum Reason: String, Sendable, Hashable, Codable {
        /// Bookings are paused (with no end, or one past the horizon).
        case paused
        /// The order is larger than any slot can take.
        case tooLarge = "too_large"
        /// Every slot within the booking horizon is closed, too soon or too full.
        case noneWithinHorizon = "none_within_horizon"
    }

    /// The slots, earliest first (at most the limit asked for).
    public let slots: [AvailableSlot]
    /// Why the list is empty, if it is.
    public let reason: Reason?
    /// The reason for people.
    public let message: String?
    /// The most pizzas one slot can take.
    public let largestOrder: Int

    private enum CodingKeys: String, CodingKey { case slots, reason, message, largestOrder = "largest_order" }
}

/// The pickup-time picker's search: the next slots, from a moment, that can take an order of a
/// size now — the week, exceptions, service days, lead time and rush, a pause, capacity rules and
/// what is already booked. Reads each service day's loads and rules once, as it walks.
struct SlotFinder {
    let settings: Settings
    let schedule: Schedule
    let now: Date
    let db: Connection

    /// The most slots one search returns.
    static let maximumLimit = 100

    /// The earliest instant a new booking may start at: the lead time (with a rush), after a pause.
    var earliest: Date {
        let lead = now.addingTimeInterval(Double(settings.effectiveLeadMinutes(at: now) * 60))
        guard let pause = settings.activePause(at: now), let until = pause.until else { return lead }
        return max(lead, until)
    }

    /// The last instant a booking may start at.
    var horizon: Date { now.addingTimeInterval(Double(settings.bookingHorizonDays) * 86_400) }

    /// All rules (the largest order needs them all; there are at most a thousand).
    func rules() throws -> CapacityRules { CapacityRules(try CapacityStore.all(in: db), defaultCapacity: settings.slotCapacity) }

    /// Up to `limit` slots at or after `from` that can take `pizzas` more pizzas now.
    func available(pizzas: Int, from: Date, limit: Int, rules: CapacityRules) throws -> [AvailableSlot] {
        let start = max(from, earliest)
        if let pause = settings.activePause(at: now), pause.until == nil { return [] }
        var loads: [LocalDate: [String: OrderStore.SlotLoad]] = [:]
        var found: [AvailableSlot] = []
        _ = try schedule.slots(from: start, through: horizon, limit: limit) { slot in
            if loads[slot.serviceDay] == nil { loads[slot.serviceDay] = try Self.loads(of: slot.serviceDay, in: db) }
            let key = PickupTime.utc(slot.start)
            let load = loads[slot.serviceDay]?[key]
            let capacity = load?.capacity ?? rules.capacity(of: slot)
            let remaining = capacity.capacity - (load?.booked ?? 0)
            guard remaining >= pizzas else { return false }
            let (date, minutes, offset) = schedule.clock.local(slot.start)
            found.append(AvailableSlot(slot, local: "\(date) \(LocalTime.clock(minutes))", time: LocalTime.clock(minutes),
                                       offset: PickupTime.offsetText(offset), remaining: remaining, capacity: capacity))
            return true
        }
        return found
    }

    /// The whole answer, with the reason when it is empty.
    func availability(pizzas: Int, from: Date, limit: Int) throws -> SlotAvailability {
        let rules = try rules()
        let largest = rules.largest.capacity
        if let pause = settings.activePause(at: now), pause.until.map({ $0 > horizon }) ?? true {
            return SlotAvailability(slots: [], reason: .paused, message: OrderError.paused(pause: pause, zone: settings.timeZone).description,
                                    largestOrder: largest)
        }
        if pizzas > largest {
            return SlotAvailability(slots: [], reason: .tooLarge,
                                    message: "an order of \(pizzas) pizzas is more than any slot takes (at most \(largest))", largestOrder: largest)
        }
        let slots = try available(pizzas: pizzas, from: from, limit: limit, rules: rules)
        return SlotAvailability(slots: slots, reason: slots.isEmpty ? .noneWithinHorizon : nil,
                                message: slots.isEmpty ? "no slot within the booking horizon (\(settings.bookingHorizonDays) days) can take \(pizzas) pizzas" : nil,
                                largestOrder: largest)
    }

    /// A service day's booked slots (`slot_loads`, by its service-day index).
    static func loads(of day: LocalDate, in db: Connection) throws -> [String: OrderStore.SlotLoad] {
        var loads: [String: OrderStore.SlotLoad] = [:]
        try db.forEach("SELECT pickup_at, booked, capacity, capacity_rule FROM slot_loads WHERE service_day = ?", [day.description]) { row in
            loads[try row.string("pickup_at")] = OrderStore.SlotLoad(
                booked: try row.int("booked"), capacity: SlotCapacity(capacity: try row.int("capacity"), rule: try row.optionalString("capacity_rule")))
        }
        return loads
    }
}
