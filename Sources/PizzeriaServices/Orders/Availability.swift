import Foundation
import PizzeriaStorage

/// A pickup slot that can take an order now: what the app's pickup-time picker offers.
///
/// JSON: `{"start": UTC, "service_day", "local": "2026-12-04 19:30", "time": "19:30", "offset":
/// "+01:00", "offset_seconds": 3600, "remaining", "capacity", "capacity_rule": "fri 18:30-21:00" | null}`.
public struct AvailableSlot: Sendable, Hashable, Record {
    /// Its start.
    public internal(set) var start: Date = Date(timeIntervalSince1970: 0)
    /// The service day it belongs to (a night slot after midnight belongs to the day before).
    public internal(set) var serviceDay = LocalDate(days: 0)
    /// The zone's offset at its start, in seconds east of UTC.
    public internal(set) var offsetSeconds: Int = 0
    /// Pizzas it can still take.
    public internal(set) var remaining: Int = 0
    /// Its capacity.
    public internal(set) var capacity: Int = 0
    /// The rule its capacity came from (`fri 18:30-21:00`), or `nil` for `slot-capacity`.
    public internal(set) var capacityRule: String?
    /// Minutes after its service day's midnight.
    private(set) var wallMinute = 0

    /// Its local start as minutes and date (arithmetic on the offset: no zone lookup).
    private var localParts: (date: LocalDate, minutes: Int) { ZonedClock.wallClock(start, offset: offsetSeconds) }
    /// The local date and time of its start, `2026-12-05 00:30`.
    public var local: String { let (date, minutes) = localParts; return "\(date) \(LocalTime.clock(minutes))" }
    /// The local time of its start, `00:30`.
    public var time: String { LocalTime.clock(localParts.minutes) }
    /// The zone's offset at its start, `+01:00`.
    public var offset: String { PickupTime.offsetText(offsetSeconds) }

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members: the documented JSON shape, declared once (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.member("capacity", &capacity)
        try visitor.member("capacity_rule", &capacityRule)
        try visitor.derived("local", local)
        try visitor.derived("offset", offset)
        try visitor.member("offset_seconds", &offsetSeconds)
        try visitor.member("remaining", &remaining)
        try visitor.member("service_day", text: &serviceDay)
        try visitor.member("start", minute: &start)
        try visitor.derived("time", time)
    }

    /// Its wall minute, from its start, offset and service day.
    public mutating func didReadMembers() {
        let (date, minutes) = ZonedClock.wallClock(start, offset: offsetSeconds)
        wallMinute = minutes + Int(date.daysSinceEpoch - serviceDay.daysSinceEpoch) * 1440
    }

    init(_ slot: Slot, offsetSeconds: Int, remaining: Int, capacity: SlotCapacity) {
        (start, serviceDay, wallMinute, self.offsetSeconds) = (
            slot.start, slot.serviceDay, slot.wallMinute, offsetSeconds
        )
        (self.remaining, self.capacity, self.capacityRule) = (remaining, capacity.capacity, capacity.rule)
    }

    /// The schedule's slot.
    var slot: Slot { Slot(start: start, serviceDay: serviceDay, wallMinute: wallMinute) }
}

/// What the picker found: the slots, or why there are none.
///
/// JSON: `{"slots": […], "reason": null | "paused" | "too_large" | "none_within_horizon",
/// "message": "not taking orders until 21:00: oven repair" | null, "largest_order": 30,
/// "first_after_pause": slot | null}`.
public struct SlotAvailability: Sendable, Hashable, Encodable {
    /// Why no slot was offered.
    public enum Reason: String, Sendable, Hashable, Codable {
        /// Bookings are paused: nothing can be booked until the pause ends.
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
    /// While paused with an end: the first slot that can take the order once the pause is over.
    public let firstAfterPause: AvailableSlot?

    init(
        slots: [AvailableSlot], reason: Reason?, message: String?, largestOrder: Int,
        firstAfterPause: AvailableSlot? = nil
    ) {
        (self.slots, self.reason, self.message, self.largestOrder, self.firstAfterPause) = (
            slots, reason, message, largestOrder, firstAfterPause
        )
    }

    private enum CodingKeys: String, CodingKey {
        case slots, reason, message, largestOrder = "largest_order", firstAfterPause = "first_after_pause"
    }
}

/// The pickup-time picker's search: the next slots, from a moment, that can take an order of a
/// size now — the week, exceptions, service days, lead time and rush, a pause, capacity rules and
/// what is already booked.
///
/// With a ``PickerConfiguration`` (the picker's way) it walks forward once: the configuration
/// from memory, the booked slots through one cursor over `slot_loads` from the first instant on.
/// Without one (`--picker-before` in the bench, kept to measure against) it reads each service
/// day's loads and rules as it reaches the day.
struct SlotFinder {
    /// The settings, behind one reference: a finder is made for every picker call, and copying
    /// the settings' fields (the week, the zone, a pause's reason) into it cost more than its walk.
    private let held: HeldSettings
    private let layout: Layout
    let now: Date
    let db: Connection
    /// The time rules the booking applies too (``BookingWindow``): one predicate for both, worked
    /// out once per finder (its settings and its now do not change).
    let window: BookingWindow

    /// Where the slots come from.
    private enum Layout {
        /// A schedule read for this search (the booking's checks, `--picker-before`).
        case schedule(Schedule)
        /// The picker's kept configuration: a schedule is made only to plan a day not planned yet.
        case kept(PickerConfiguration)
    }

    /// A finder over a schedule read for this search.
    init(settings: Settings, schedule: Schedule, now: Date, db: Connection) {
        (held, layout, self.now, self.db) = (HeldSettings(settings), .schedule(schedule), now, db)
        window = BookingWindow(settings: settings, now: now)
    }

    /// The picker's finder over its kept configuration.
    init(configuration: PickerConfiguration, now: Date, db: Connection) {
        (held, layout, self.now, self.db) = (configuration.held, .kept(configuration), now, db)
        window = BookingWindow(settings: configuration.held.settings, now: now)
    }

    /// The settings the search applies.
    var settings: Settings { held.settings }

    /// The kept configuration, for the picker's walk.
    var configuration: PickerConfiguration? {
        if case .kept(let configuration) = layout { return configuration }
        return nil
    }

    /// The schedule: the one read for this search, or one over the kept configuration.
    var schedule: Schedule {
        switch layout {
        case .schedule(let schedule): schedule
        case .kept(let configuration): configuration.schedule(in: db)
        }
    }

    /// The most slots one search returns.
    static let maximumLimit = 100

    /// The earliest instant a new booking may start at: after now, the lead time (with a rush).
    var earliest: Date { window.firstStart }

    /// The last instant a booking may start at.
    var horizon: Date { window.horizon }

    /// The most pizzas one slot can take, and the rule that allows it.
    func largest() throws -> SlotCapacity {
        if let configuration { return configuration.largest }
        guard let top = try CapacityStore.largest(in: db), top.capacity > settings.slotCapacity else {
            return SlotCapacity(capacity: settings.slotCapacity, rule: nil)
        }
        return top
    }

    /// The capacity rules of a service day.
    func rules(on day: LocalDate) throws -> CapacityRules {
        if let configuration { return configuration.rules }
        return CapacityRules(try CapacityStore.rules(on: day, in: db), defaultCapacity: settings.slotCapacity)
    }

    /// Up to `limit` slots at or after `from` that can take `pizzas` more pizzas now: none while
    /// bookings are paused (unless `ignoringPause`, for the first slot after a pause ends).
    func available(pizzas: Int, from: Date, limit: Int, ignoringPause: Bool = false) throws -> [AvailableSlot] {
        var start = max(from, window.firstStart)
        if let pause = window.pause {
            guard ignoringPause, let until = pause.until else { return [] }
            start = max(start, until)
        }
        if configuration != nil { return try walk(pizzas: pizzas, from: start, limit: limit) }
        // The walk goes forward day by day and slot by slot: each service day's booked slots are
        // read once, in start order, and matched as the walk passes them; the day's rules only when
        // a slot is not booked yet.
        var day: LocalDate?
        var loads: [(start: Int64, load: OrderStore.SlotLoad)] = [], next = 0
        var rules: CapacityRules?
        var found: [AvailableSlot] = []
        _ = try schedule.slots(from: start, through: horizon, limit: limit) { slot in
            if slot.serviceDay != day {
                (day, loads, next, rules) = (slot.serviceDay, try OrderStore.loads(of: slot.serviceDay, in: db), 0, nil)
            }
            let seconds = Int64(slot.start.timeIntervalSince1970)
            while next < loads.count, loads[next].start < seconds { next += 1 }
            let load = next < loads.count && loads[next].start == seconds ? loads[next].load : nil
            let capacity: SlotCapacity
            if let load {
                capacity = load.capacity
            } else {
                if rules == nil { rules = try self.rules(on: slot.serviceDay) }
                capacity = rules?.capacity(of: slot) ?? SlotCapacity(capacity: settings.slotCapacity, rule: nil)
            }
            let remaining = capacity.capacity - (load?.booked ?? 0)
            guard remaining >= pizzas else { return false }
            // The wall minute and the service day give the offset without a zone lookup.
            let offset = ZonedClock.offset(of: slot.start, showing: slot.serviceDay, minutes: slot.wallMinute)
            found.append(AvailableSlot(slot, offsetSeconds: offset, remaining: remaining, capacity: capacity))
            return true
        }
        return found
    }

    /// The forward walk over the finder's configuration, in the finder's transaction (see
    /// ``walk(_:window:pizzas:from:limit:expecting:in:)``).
    private func walk(pizzas: Int, from start: Date, limit: Int) throws -> [AvailableSlot] {
        guard let configuration else { return [] }
        return try Self.walk(
            configuration, window: window, pizzas: pizzas, from: start, limit: limit, expecting: nil, in: db)
    }

    /// The forward walk: slots in time order from `start` (already past the window's first start
    /// and any pause), each matched against one stream over the booked slots from `start` on
    /// (stepped only as far as the walk goes), capacity from the configuration's rules where no
    /// order has taken the slot yet. With `expected`, the stream's generation must be that one or
    /// the walk throws ``PickerConfiguration/Stale``.
    ///
    /// Static, with every reference a parameter: the picker calls it on every checkout, and a
    /// finder holding them (or a closure copying it) retained and released each of them per
    /// call — atomic operations that cost more time than their instructions show.
    static func walk(
        _ configuration: PickerConfiguration, window: borrowing BookingWindow, pizzas: Int, from start: Date,
        limit: Int, expecting expected: Int64?, in db: Connection
    ) throws -> [AvailableSlot] {
        let horizon = window.horizon
        guard limit > 0, start <= horizon else { return [] }
        // Day by day from the one before the start's date (its night), each day's slots
        // planned once for the configuration, matched against the stream as the walk passes them.
        let first = Int64(start.timeIntervalSince1970.rounded(.up)), latest = Int64(horizon.timeIntervalSince1970)
        let (firstDay, lastDay) = (configuration.date(of: start).adding(days: -1), configuration.date(of: horizon))
        return try OrderStore.withLoads(from: start, in: db) { rows in
            var found: [AvailableSlot] = []
            found.reserveCapacity(limit)
            var loads = BookedSlots()
            let generation = try loads.generation(&rows)
            if let expected, generation != expected { throw PickerConfiguration.Stale() }
            var day = firstDay
            while day <= lastDay, found.count < limit {
                try configuration.withPlan(of: day, in: db) { plan in
                    // The day's first slot at or after the start (slots are in time order).
                    var low = 0, high = plan.count
                    while low < high {
                        let middle = (low + high) / 2
                        if plan[middle].seconds < first { low = middle + 1 } else { high = middle }
                    }
                    for index in low..<plan.count {
                        let seconds = plan[index].seconds
                        guard seconds <= latest else { break }
                        let booked = try loads.load(at: seconds, from: &rows, in: db)
                        let remaining = booked.map { $0.capacity - $0.booked } ?? plan[index].ruled.capacity
                        guard remaining >= pizzas else { continue }
                        let capacity =
                            try booked.map { try loads.capacity($0, at: seconds, planned: plan[index].ruled, in: db) }
                            ?? plan[index].ruled
                        let slot = plan[index].slot
                        let offset = ZonedClock.offset(
                            ofSecond: seconds, showing: slot.serviceDay, minutes: slot.wallMinute)
                        found.append(
                            AvailableSlot(slot, offsetSeconds: offset, remaining: remaining, capacity: capacity))
                        if found.count == limit { break }
                    }
                }
                day = day.adding(days: 1)
            }
            return found
        }
    }

    /// The whole answer, with the reason when it is empty. While bookings are paused no slot can
    /// be booked (the booking says "not taking orders"): the answer is empty with the reason
    /// `paused` and, when the pause has an end, the first slot after it.
    func availability(pizzas: Int, from: Date, limit: Int) throws -> SlotAvailability {
        let largest = try largest().capacity
        if window.pause != nil || pizzas > largest {
            return try unavailable(pizzas: pizzas, from: from, largest: largest)
        }
        let slots = try available(pizzas: pizzas, from: from, limit: limit)
        if slots.isEmpty { return noneWithinHorizon(pizzas: pizzas, largest: largest) }
        return SlotAvailability(slots: slots, reason: nil, message: nil, largestOrder: largest)
    }

    /// ``availability(pizzas:from:limit:)`` while bookings are paused or for an order larger than
    /// any slot. This and ``noneWithinHorizon(pizzas:largest:)`` word the answers without slots out
    /// of the picker's line (its code shares the instruction cache with SQLite's on every call).
    @inline(never)
    private func unavailable(pizzas: Int, from: Date, largest: Int) throws -> SlotAvailability {
        if let pause = window.pause {
            let after =
                pizzas > largest ? nil : try available(pizzas: pizzas, from: from, limit: 1, ignoringPause: true).first
            return SlotAvailability(
                slots: [], reason: .paused,
                message: OrderError.paused(pause: pause, zone: settings.timeZone).description,
                largestOrder: largest, firstAfterPause: after)
        }
        return SlotAvailability(
            slots: [], reason: .tooLarge,
            message: "an order of \(pizzas) pizzas is more than any slot takes (at most \(largest))",
            largestOrder: largest)
    }

    /// The answer when no slot within the booking horizon can take the order.
    @inline(never)
    private func noneWithinHorizon(pizzas: Int, largest: Int) -> SlotAvailability {
        SlotAvailability(
            slots: [], reason: .noneWithinHorizon,
            message:
                "no slot within the booking horizon (\(settings.bookingHorizonDays) days) can take \(pizzas) pizzas",
            largestOrder: largest)
    }
}
