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
    static func place(
        _ request: OrderRequest, actor: String?, override: StaffOverride? = nil, now: Date,
        in db: Connection
    ) throws -> (order: Order, created: Bool) {
        let settings = try SettingsStore.current(in: db)
        let (handle, contact) = try UserStore.booking(request.user, in: db)
        let items = try merged(request.items)
        let pickupAt = PickupTime.utc(request.pickup)
        // What was asked for under a key, so a reuse of the key with other content is refused.
        var fingerprint: String {
            "user=\(request.user);pickup=\(pickupAt);lines="
                + items.map(Self.fingerprint(of:)).sorted().joined(separator: ",")
        }
        // A retry with the same key returns the first order, whatever changed since (an archived pizza, a full slot).
        if let key = request.idempotencyKey, let existing = try OrderStore.header(key: key, in: db) {
            guard existing.fingerprint == fingerprint else {
                throw OrderError.keyReused(key: key, orderID: existing.id)
            }
            return (try OrderAssembler(now: now, in: db).order(existing), false)
        }
        let lines = try snapshot(items, for: request.pickup, zone: settings.timeZone, in: db)
        let schedule = ScheduleStore.schedule(settings, in: db)
        // What takes the oven's capacity: drinks and desserts do not (their category says so).
        let pizzas = lines.reduce(0) { $0 + $1.slotUnits }
        let slot = try checkPickup(
            request.pickup, pizzas: pizzas, override: override != nil, settings: settings, schedule: schedule,
            now: now, in: db)
        let capacity = try requireRoom(
            for: pizzas, at: request.pickup, slot: slot, settings: settings, schedule: schedule, now: now, in: db)
        let id = Order.ID.random()
        try OrderStore.insert(
            id: id, userID: request.user, pickupAt: pickupAt, serviceDay: slot.serviceDay,
            pickupLocal: schedule.clock.localText(request.pickup), key: request.idempotencyKey,
            fingerprint: request.idempotencyKey == nil ? nil : fingerprint, lines: lines, actor: actor,
            historyNote: override?.historyText, at: now, in: db)
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
            timeZone: settings.timeZone, slotCapacity: capacity)
        return (order, true)
    }

    /// Refuses `requested` more pizzas in the slot at `pickup` when its capacity cannot take them
    /// (the schema's `slot_loads` refuses it too; this says how many are left and where the order
    /// fits instead). The capacity is the slot's row when it has one, else the rules'.
    /// - Returns: the slot's capacity and the rule it comes from.
    @discardableResult
    static func requireRoom(
        for requested: Int, at pickup: Date, slot: Slot?, settings: Settings, schedule: Schedule,
        now: Date, in db: Connection
    ) throws -> SlotCapacity {
        let load = try OrderStore.slotLoad(pickupAt: PickupTime.utc(pickup), in: db)
        let booked = load?.booked ?? 0
        if let capacity = load?.capacity, booked + requested <= capacity.capacity || requested <= 0 { return capacity }
        let finder = SlotFinder(settings: settings, schedule: schedule, now: now, db: db)
        var capacity = load?.capacity
        if capacity == nil,
            let slot = try slot ?? { if case .slot(let found) = try schedule.locate(pickup) { found } else { nil } }()
        {
            capacity = try finder.rules(on: slot.serviceDay).capacity(of: slot)
        }
        let total = capacity?.capacity ?? settings.slotCapacity
        guard booked + requested > total else { return capacity ?? SlotCapacity(capacity: total, rule: nil) }
        let local = PickupTime.local(pickup, in: settings.timeZone)
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
