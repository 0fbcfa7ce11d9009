import Foundation
import PizzeriaStorage

/// Booking orders for pickup slots, their lifecycle, and the reports built on them.
///
/// A booking is one `BEGIN IMMEDIATE` transaction: the capacity check and the insert see the
/// same state, so processes booking at once can never overbook a slot (and the schema's
/// trigger refuses an overbooking line whoever writes it).
public final class OrderService: Sendable {
    let database: Database
    let now: @Sendable () -> Date
    /// The picker's configuration, kept between calls (shared by every handle on the database).
    let pickerConfiguration: PickerConfigurationCache

    init(database: Database, now: @escaping @Sendable () -> Date, pickerConfiguration: PickerConfigurationCache) {
        self.database = database
        self.now = now
        self.pickerConfiguration = pickerConfiguration
    }

    // MARK: - Booking

    /// Books an order, or returns the order already booked under the same idempotency key.
    ///
    /// - Throws: ``ValidationError`` for malformed input (no items, quantity outside 1–20, bad
    ///   key); ``UserError/notFound(_:)`` and ``MenuError/notFound(_:)`` for unknown ids;
    ///   ``OrderError`` when the state refuses it (archived pizza, pickup in the past or beyond
    ///   the horizon, outside opening hours, not on a slot boundary, not enough capacity, key
    ///   reused with other content). Nothing is written when it throws.
    /// - Parameter actor: who books, for the order's history (staff at the counter, the app).
    /// - Parameter override: staff's exception to the lead time and a pause (a walk-in), with its
    ///   reason, recorded in the order's history; it needs an `actor`.
    @discardableResult
    public func place(_ request: OrderRequest, by actor: String? = nil, override: StaffOverride? = nil) throws -> (
        order: Order, created: Bool
    ) {
        let problems = request.problems() + Self.actorProblems(actor, override: override)
        guard problems.isEmpty else { throw ValidationError(problems) }
        let now = now()
        return try database.write { db in try Self.place(request, actor: actor, override: override, now: now, in: db) }
    }

    /// The transactional half of ``place(_:)``: the fewest statements that keep its guarantees —
    /// the settings row, the user, each pizza once, the key (if any), the slot's load, then the
    /// inserts; nothing is read back that is already known.
    /// - Parameter party: the party's first order for a later order of a party; the order's own
    ///   id (``PartyRole/first``) for the first one.
    /// - Parameter whole: the request the key's fingerprint is of (a party's, for its first order).
    static func place(
        _ request: OrderRequest, actor: String?, override: StaffOverride? = nil, party: PartyRole = .alone,
        fingerprintOf whole: OrderRequest? = nil, now: Date, in db: Connection
    ) throws -> (order: Order, created: Bool) {
        let settings = try SettingsStore.current(in: db)
        let (handle, contact) = try UserStore.booking(request.user, in: db)
        let items = try merged(request.items)
        let pickupAt = PickupTime.utc(request.pickup)
        // What was asked for under a key, so a reuse of the key with other content is refused.
        let asked = whole ?? request
        let askedItems = whole == nil ? items : try merged(asked.items)
        var fingerprint: String {
            "user=\(asked.user);pickup=\(PickupTime.utc(asked.pickup));lines="
                + askedItems.map(\.fingerprint).sorted().joined(separator: ",")
        }
        // A retry with the same key returns the first order, whatever changed since (an archived pizza, a full slot).
        if let key = request.idempotencyKey, let existing = try OrderStore.header(key: key, in: db) {
            guard existing.fingerprint == fingerprint else {
                throw OrderError.keyReused(key: key, orderID: existing.id)
            }
            return (try OrderAssembler(now: now, in: db).order(existing), false)
        }
        let lines = try mergedByChoice(snapshot(items, for: request.pickup, zone: settings.timeZone, in: db))
        let schedule = ScheduleStore.schedule(settings, in: db)
        // What takes the oven's capacity: drinks and desserts do not (their category says so).
        let pizzas = lines.reduce(0) { $0 + $1.slotUnits }
        let slot = try checkPickup(
            request.pickup, pizzas: pizzas, override: override != nil, settings: settings, schedule: schedule,
            now: now, in: db)
        let room = try requireRoom(
            for: pizzas, at: request.pickup, slot: slot, override: override, settings: settings, schedule: schedule,
            now: now, in: db)
        let stationsOver = try requireStationRoom(
            for: lines, in: slot, zone: settings.timeZone, override: override, in: db)
        let capacity = room.capacity
        let id = Order.ID.timeOrdered(at: now)
        try OrderStore.insert(
            id: id, userID: request.user, pickupAt: pickupAt, serviceDay: slot.serviceDay,
            pickupLocal: schedule.clock.localText(request.pickup), key: request.idempotencyKey,
            fingerprint: request.idempotencyKey == nil ? nil : fingerprint, lines: lines, actor: actor,
            historyNote: override?.historyText, party: party.id(of: id), at: now, in: db
        ) {
            try admit(
                room, stations: stationsOver, order: id, at: request.pickup, override: override, actor: actor,
                now: now, in: db)
        }
        let created = Timestamp.date(from: Timestamp.string(from: now)) ?? now  // as stored: to the millisecond
        let order = Order(
            id: id, userID: request.user, handle: handle, customer: contact, pickupAt: request.pickup,
            serviceDay: slot.serviceDay,
            status: .placed, lines: lines,
            total: Money(cents: lines.reduce(0) { $0 + $1.total.cents }), idempotencyKey: request.idempotencyKey,
            createdAt: created, updatedAt: created,
            history: [
                OrderStatusChange(
                    kind: .placed, from: nil, to: .placed, at: created,
                    detail: override?.historyText, actor: actor)
            ],
            timeZone: settings.timeZone, slotCapacity: capacity, partyID: party.id(of: id))
        return (order, true)
    }

    /// An order's place in a party as it is booked.
    enum PartyRole {
        /// An order on its own.
        case alone
        /// The party's first order: its `party_id` is its own id.
        case first
        /// A later order of the party whose first order is this.
        case member(of: Order.ID)

        /// The `party_id` of the order `id`.
        func id(of id: Order.ID) -> Order.ID? {
            switch self {
            case .alone: nil
            case .first: id
            case .member(let first): first
            }
        }
    }

    /// Where a change's pizzas go: the slot's capacity, and how many pizzas over it a staff
    /// override takes (0 within the capacity), to be recorded by ``admit(_:order:at:override:actor:now:in:)``.
    struct Room {
        let capacity: SlotCapacity
        let overCapacity: Int
    }

    /// Refuses `requested` more pizzas in the slot at `pickup` when its capacity cannot take them
    /// (the schema's `slot_loads` refuses it too; this says how many are left and where the order
    /// fits instead). The capacity is the slot's row when it has one, else the rules'. With a
    /// staff `override`, the slot may go over its capacity by at most its margin
    /// (``SlotCapacity/overrideMargin``), counting what earlier overrides there already took.
    static func requireRoom(
        for requested: Int, at pickup: Date, slot: Slot?, override: StaffOverride? = nil, settings: Settings,
        schedule: Schedule, now: Date, in db: Connection
    ) throws -> Room {
        let pickupAt = PickupTime.utc(pickup)
        let load = try OrderStore.slotLoad(pickupAt: pickupAt, in: db)
        let booked = load?.booked ?? 0
        if let capacity = load?.capacity, booked + requested <= capacity.capacity || requested <= 0 {
            return Room(capacity: capacity, overCapacity: 0)
        }
        let finder = SlotFinder(settings: settings, schedule: schedule, now: now, db: db)
        var capacity = load?.capacity
        if capacity == nil,
            let slot = try slot ?? { if case .slot(let found) = try schedule.locate(pickup) { found } else { nil } }()
        {
            capacity = try finder.rules(on: slot.serviceDay).capacity(of: slot)
        }
        let slotCapacity = capacity ?? SlotCapacity(capacity: settings.slotCapacity, rule: nil)
        let total = slotCapacity.capacity
        guard booked + requested > total else { return Room(capacity: slotCapacity, overCapacity: 0) }
        let local = PickupTime.local(pickup, in: settings.timeZone)
        if override != nil {
            let needed = booked + requested - total
            guard needed <= slotCapacity.overrideMargin else {
                throw OrderError.overMargin(
                    slot: local, capacity: total, booked: booked, requested: requested,
                    margin: slotCapacity.overrideMargin)
            }
            // What earlier overrides took counts only while the slot is still over its capacity by
            // it: an allowance left over after cancellations (the slot back within its capacity)
            // is not this order's. Every order let past the capacity holds an override of its own
            // (at least one pizza), which the schema's load triggers ask for (migration 38).
            let granted = try OrderStore.overrideAllowance(pickupAt: pickupAt, in: db)
            return Room(capacity: slotCapacity, overCapacity: needed - min(granted, max(0, booked - total)))
        }
        guard requested <= total else {
            let largest = try finder.largest()
            let fits = requested > largest.capacity ? [] : try finder.available(pizzas: requested, from: now, limit: 3)
            throw OrderError.orderTooLarge(
                requested: requested, slot: local, slotCapacity: total, largest: largest,
                fitsAt: fits.map(\.local))
        }
        let first =
            try finder.available(pizzas: requested, from: pickup, limit: 1).first
            ?? finder.available(pizzas: requested, from: now, limit: 1).first
        throw OrderError.slotFull(
            slot: local, remaining: max(0, total - booked), requested: requested, firstAvailable: first?.local)
    }

    /// Records the pizzas a staff override takes over the slot's capacity and the pieces it takes
    /// over each station's (`capacity_overrides`), before the write that puts the order's items in
    /// the slot: the schema's capacity triggers let the loads past the capacities by what is recorded there.
    static func admit(
        _ room: Room, stations: [Station.ID: Int] = [:], order id: Order.ID, at pickup: Date,
        override: StaffOverride?, actor: String?, now: Date, in db: Connection
    ) throws {
        guard let override, let actor else { return }
        let pickupAt = PickupTime.utc(pickup)
        if room.overCapacity > 0 {
            try OrderStore.recordOverride(
                order: id, pickupAt: pickupAt, pizzas: room.overCapacity, reason: override.reason, actor: actor,
                at: now, in: db)
        }
        for (station, pieces) in stations.sorted(by: { $0.key < $1.key }) where pieces > 0 {
            try OrderStore.recordOverride(
                order: id, pickupAt: pickupAt, pizzas: pieces, station: station, reason: override.reason,
                actor: actor, at: now, in: db)
        }
    }

    /// The longest name of who makes a change, in Unicode scalars (as the schema counts).
    public static let maximumActorLength = 64

    /// Who made a change: 1 to 64 Unicode scalars without control characters, when given; an
    /// override needs one, and a valid reason.
    static func actorProblems(_ actor: String?, override: StaffOverride? = nil) -> [FieldError] {
        var problems = actor.map { TextLimit.problems($0, field: "by", maximum: maximumActorLength) } ?? []
        if let override {
            problems += override.problems()
            if actor == nil {
                problems.append(
                    FieldError(
                        field: "by", message: "an override must name who gives it (--by NAME or $PIZZERIA_STAFF)"))
            }
        }
        return problems
    }

    /// The slot `pickup` starts, or the refusal a customer can act on: paused, in the past,
    /// beyond the booking horizon, on a closed weekday or date (naming the next opening), outside
    /// the day's hours or off the slot grid (naming the nearest bookable slots), or too soon for
    /// the lead time (naming the earliest bookable slot). Which rules apply is `claim`'s row of
    /// the rule table (``SlotClaim``); `override` passes the lead time and the pause.
    static func checkPickup(
        _ pickup: Date, pizzas: Int, claim: SlotClaim = .place, override: Bool = false, settings: Settings,
        schedule: Schedule, now: Date, in db: Connection
    ) throws -> Slot {
        let zone = settings.timeZone
        // The local time is formatted only for an error: the checks themselves are arithmetic.
        var local: String { PickupTime.local(pickup, in: zone) }
        let window = BookingWindow(settings: settings, now: now)
        let refusal = window.refusal(at: pickup, claim, override: override)
        switch refusal {
        case .paused(let pause)?: throw OrderError.paused(pause: pause, zone: zone)
        case .past?: throw OrderError.pickupInPast(local: local)
        case .beyondHorizon?: throw OrderError.beyondHorizon(local: local, days: window.horizonDays)
        case .tooSoon?, nil: break  // a closed day or a time off the grid says so first
        }
        /// The first slot that can take this order instead, from `from` on: bookable now, with room.
        func next(from: Date) throws -> String? {
            let finder = SlotFinder(settings: settings, schedule: schedule, now: now, db: db)
            return try finder.available(pizzas: pizzas, from: from, limit: 1).first
                .map { schedule.describe($0.slot, near: pickup) }
        }
        func bookable(_ nearest: [Slot]) -> [String] {
            nearest.filter { window.refusal(at: $0.start, claim, override: override) == nil }
                .map { schedule.label($0, relativeTo: schedule.clock.local(pickup).date) }
        }
        switch try schedule.locate(pickup) {
        case .slot(let slot):
            guard refusal != .tooSoon else {
                throw OrderError.tooSoon(
                    local: local, leadMinutes: window.leadMinutes, earliest: try next(from: window.earliest))
            }
            return slot
        case .closedWeekday(let date):
            throw OrderError.closedWeekday(weekday: date.weekday, nextOpen: try next(from: pickup))
        case .closedDate(let date, let reasons):
            throw OrderError.closedDate(date: date, reasons: reasons, nextOpen: try next(from: pickup))
        case .outside(let hours, let nearest):
            throw OrderError.outsideOpeningHours(
                local: local, day: Schedule.dayName(hours.date),
                hours: hours.summary, nearest: bookable(nearest))
        case .offGrid(_, let nearest):
            throw OrderError.notOnSlotBoundary(
                local: local, slotMinutes: settings.slotMinutes, nearest: bookable(nearest))
        }
    }

    /// The pickup instant a person typed (`HH:MM`, `YYYY-MM-DDTHH:MM` in the pizzeria's zone, or
    /// ISO-8601 with an offset), as the CLI and the app's forms take it.
    /// - Throws: ``ValidationError`` for the field `pickup`: malformed, with seconds, a local time
    ///   the clocks skip (naming the nearest slots) or one they pass twice without an offset
    ///   (naming both instants).
    public func pickup(parsing text: String) throws -> Date {
        try database.read { db in
            let settings = try SettingsStore.current(in: db)
            let now = now()
            var text = text
            // A time without a date is its next occurrence within the current or next service.
            let typed = text.trimmingWhitespace()
            if typed.utf8.count == 5, let time = LocalTime(typed), time.minutes < 1440,
                let date = try ScheduleStore.schedule(settings, in: db).nextOccurrence(
                    ofMinutes: time.minutes, after: now)
            {
                text = "\(date)T\(typed)"
            }
            switch PickupTime.parse(text, timeZone: settings.timeZone, now: now) {
            case .success(let date):
                return date
            case .failure(let error):
                var message = error.message
                if case .nonexistent = error,
                    let nearest = try Self.nearestSlots(to: text, schedule: ScheduleStore.schedule(settings, in: db)),
                    !nearest.isEmpty
                {
                    message += "; nearest slots: " + nearest.joined(separator: ", ")
                }
                throw ValidationError([FieldError(field: "pickup", message: message)])
            }
        }
    }

    /// The slots on either side of a local time the clocks skip: the last one before the gap and
    /// the first one after it.
    static func nearestSlots(to text: String, schedule: Schedule) throws -> [String]? {
        let input = text.trimmingWhitespace()
        guard input.count >= 16, let date = LocalDate(String(input.prefix(10))),
            let time = LocalTime(String(input.dropFirst(11).prefix(5)))
        else { return nil }
        // Compared by local time: the skipped time has no instant to compare with.
        let slots = try (-1...1).flatMap { try schedule.slots(of: date.adding(days: $0)) }
        func local(_ slot: Slot) -> (Int64, Int) {
            let l = schedule.clock.local(slot.start); return (l.date.daysSinceEpoch, l.minutes)
        }
        let typed = (date.daysSinceEpoch, time.minutes)
        let before = slots.last { local($0) < typed }, after = slots.first { local($0) > typed }
        return [before, after].compactMap { $0 }.map { schedule.label($0, relativeTo: date) }
    }
}
