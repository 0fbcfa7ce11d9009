import Foundation
import PizzeriaStorage

/// Reading orders, slots, the picker and sales.
extension OrderService {
    /// The order with this id, with its lines and history, or `nil`.
    public func order(id: Order.ID) throws -> Order? {
        try database.read { db in
            guard let header = try OrderStore.header(id: id, in: db) else { return nil }
            return try OrderAssembler(now: now(), in: db).order(header)
        }
    }

    /// Up to `limit` orders matching `filter`, by pickup time, starting after `cursor`. The
    /// page's lines and histories come in one query each, however many orders it holds.
    public func page(_ filter: OrderFilter = OrderFilter(), limit: Int = 100, after cursor: PageCursor? = nil) throws
        -> Page<Order>
    {
        let after = try cursor.map { try $0.parts(2) }.map { ($0[0], $0[1]) }
        let size = min(max(1, limit), 10_000)
        let orders = try database.read { db in
            let headers = try OrderStore.headers(filter, after: after, limit: size, in: db)
            let (lines, history) = try OrderStore.attach(to: headers, filter: filter, in: db)
            let assembler = try OrderAssembler(now: now(), in: db)
            return try headers.indices.map { try assembler.order(headers[$0], lines: lines[$0], history: history[$0]) }
        }
        let next =
            orders.count < size
            ? nil : orders.last.map { PageCursor([PickupTime.utc($0.pickupAt), $0.id.description]) }
        return Page(items: orders, next: next)
    }

    /// Every order matching `filter`, by pickup time (page by page, each page in three queries).
    public func list(_ filter: OrderFilter = OrderFilter()) throws -> [Order] {
        var all: [Order] = []
        try forEach(filter) { all.append($0) }
        return all
    }

    /// Calls `body` with every order matching `filter`, by pickup time, a page of 1,000 at a
    /// time: memory stays that of one page however many orders there are. Each page is read
    /// in its own transaction, so an order booked meanwhile may or may not be seen, but none is
    /// seen twice.
    public func forEach(_ filter: OrderFilter = OrderFilter(), _ body: (Order) throws -> Void) throws {
        try Page.forEach({ try page(filter, limit: 1_000, after: $0) }, body)
    }

    /// Every slot of a service day (today in the pizzeria's zone when `nil`) with its load, in
    /// time order: a night interval's slots after midnight belong to the day it opened. On a
    /// night the clocks change, each real slot appears once (a time that happens twice shows
    /// twice, with its offset), and every booking counts in exactly one slot.
    public func slots(on day: LocalDate? = nil) throws -> [SlotUsage] {
        let now = now()
        return try database.read { db in
            let settings = try SettingsStore.current(in: db)
            let schedule = ScheduleStore.schedule(settings, in: db)
            let date = try day ?? schedule.today(at: now)
            let slots = try schedule.slots(of: date)
            guard !slots.isEmpty else { return [] }
            let finder = SlotFinder(settings: settings, schedule: schedule, now: now, db: db)
            let loads = Dictionary(try OrderStore.loads(of: date, in: db), uniquingKeysWith: { first, _ in first })
            let rules = try finder.rules(on: date)
            let window = finder.window
            // The stations other than the oven, with what each holds per slot of the day.
            let capacities = try StationCapacities.read(in: db)
            let stations = capacities.listed
            let stationLoads =
                stations.isEmpty
                ? [:]
                : try StationStore.loads(
                    from: PickupTime.utc(slots[0].start),
                    to: PickupTime.utc(slots[slots.count - 1].start.addingTimeInterval(60)), in: db)
            return slots.map { slot in
                let load = loads[Int64(slot.start.timeIntervalSince1970)]
                let capacity = load?.capacity ?? rules.capacity(of: slot), booked = load?.booked ?? 0
                // The booking's own time rules (a slot beyond the horizon is shown by its room).
                let state: SlotState =
                    switch window.refusal(at: slot.start, .place) {
                    case .past?: .past
                    case .paused?: .paused
                    case .tooSoon?: .tooSoon
                    case .beyondHorizon?, nil: booked >= capacity.capacity ? .full : .open
                    }
                return SlotUsage(
                    start: slot.start, serviceDay: date, local: Self.slotLabel(slot, schedule: schedule),
                    booked: booked, capacity: capacity.capacity, state: state, capacityRule: capacity.rule,
                    stations: stations.map { station in
                        StationLoad(
                            station: station.name, booked: stationLoads[PickupTime.utc(slot.start)]?[station.id] ?? 0,
                            capacity: capacities.capacity(of: station.id, on: date, wallMinute: slot.wallMinute)
                                .capacity)
                    })
            }
        }
    }

    /// The pickup-time picker: up to `limit` (1–100) slots from `after` (default: now) that can
    /// take an order of `pizzas` now — the week, exceptions, service days, lead time and rush,
    /// a pause, capacity rules and what is booked — across closed days, within the booking
    /// horizon. An empty answer says why (paused, an order larger than any slot, nothing left).
    /// - Throws: ``ValidationError`` for `pizzas` outside 1–``OrderRequest/maximumPizzas`` or a
    ///   `limit` outside 1–100.
    public func availableSlots(pizzas: Int = 1, after: Date? = nil, limit: Int = 10) throws -> SlotAvailability {
        try availableSlots(pizzas: pizzas, after: after, limit: limit, reading: .kept)
    }

    /// ``availableSlots(pizzas:after:limit:)`` read the way `reading` says: the same answers.
    @_spi(Benchmark) public func availableSlots(
        pizzas: Int = 1, after: Date? = nil, limit: Int = 10, reading: PickerReading
    )
        throws -> SlotAvailability
    {
        let now = now()
        // Honoured or refused, never ignored: the picker lists what can be booked from now on.
        let afterTooEarly = after.map { $0 < now.addingTimeInterval(-60) } ?? false
        if !(1...OrderRequest.maximumPizzas).contains(pizzas) || !(1...SlotFinder.maximumLimit).contains(limit)
            || afterTooEarly
        {
            throw Self.pickerRefusal(pizzas: pizzas, limit: limit, afterTooEarly: afterTooEarly)
        }
        return try pick(pizzas: pizzas, from: after ?? now, now: now, limit: limit, reading: reading)
    }

    /// The picker's search once its arguments hold: `pizzas` may be 0 (a cart with nothing for
    /// the oven still needs an open slot within the window).
    func pick(pizzas: Int, from: Date, now: Date, limit: Int, reading: PickerReading) throws -> SlotAvailability {
        // The picker's way, while its kept configuration holds: one statement reads the generation
        // and the bookings in one snapshot (no transaction to begin and commit); a pause, an order
        // larger than any slot or a configuration that moved take the transaction below.
        // An empty answer (and its reason) comes from the transaction's finder as well.
        if reading == .kept, let kept = pickerConfiguration.kept(from: min(from, now)),
            pizzas <= kept.largest.capacity
        {
            let window = BookingWindow(settings: kept.held.settings, now: now)
            if window.pause == nil {
                do {
                    let slots = try database.readStatement { db in
                        try SlotFinder.walk(
                            kept, window: window, pizzas: pizzas, from: max(from, window.firstStart), limit: limit,
                            expecting: kept.generation, in: db)
                    }
                    if !slots.isEmpty {
                        return SlotAvailability(
                            slots: slots, reason: nil, message: nil, largestOrder: kept.largest.capacity)
                    }
                } catch is PickerConfiguration.Stale {}
            }
        }
        return try database.read { db in
            if reading == .everyCall {
                let settings = try SettingsStore.current(in: db)
                let finder = SlotFinder(
                    settings: settings, schedule: ScheduleStore.schedule(settings, in: db), now: now, db: db)
                return try finder.availability(pizzas: pizzas, from: from, limit: limit)
            }
            let configuration = try pickerConfiguration.configuration(from: min(from, now), in: db)
            let finder = SlotFinder(configuration: configuration, now: now, db: db)
            return try finder.availability(pizzas: pizzas, from: from, limit: limit)
        }
    }

    /// The picker's refusal of its arguments, every field at fault named: built out of the
    /// picker's line (its messages are code every call would otherwise carry past).
    @inline(never)
    static func pickerRefusal(pizzas: Int, limit: Int, afterTooEarly: Bool) -> ValidationError {
        var problems: [FieldError] = []
        if !(1...OrderRequest.maximumPizzas).contains(pizzas) {
            problems.append(
                FieldError(field: "pizzas", message: "must be from 1 to \(OrderRequest.maximumPizzas), not \(pizzas)"))
        }
        if !(1...SlotFinder.maximumLimit).contains(limit) {
            problems.append(
                FieldError(field: "limit", message: "must be from 1 to \(SlotFinder.maximumLimit), not \(limit)"))
        }
        if afterTooEarly {
            problems.append(
                FieldError(
                    field: "after",
                    message: "must not be before now: the picker lists slots that can be booked from now on"))
        }
        return ValidationError(problems)
    }

    /// How the picker reads what it needs besides the bookings.
    @_spi(Benchmark) public enum PickerReading: Sendable {
        /// The configuration kept between calls while its generation holds, the bookings through
        /// one forward cursor: the picker.
        case kept
        /// Everything read again on every call, the bookings and rules day by day: the picker
        /// before migration 11, kept so that `pizzeria-bench --picker-before` can measure both.
        case everyCall
    }

    /// `19:30`; `Sat 00:30` after midnight; `02:30 +01:00` for a time that happens twice.
    static func slotLabel(_ slot: Slot, schedule: Schedule) -> String {
        let (date, minutes, offset) = schedule.clock.local(slot.start)
        var text = LocalTime.clock(minutes)
        if date != slot.serviceDay { text = date.weekday.name.prefix(3) + " " + text }
        if schedule.clock.instants(date, minutes: minutes).count > 1 { text += " " + PickupTime.offsetText(offset) }
        return text
    }

    /// Today: the service day that is open or most recently opened (a night past midnight is
    /// still its day's until 06:00), in the pizzeria's zone (see ``ScheduleService/today()``).
    public func today() throws -> LocalDate {
        try database.read { try ScheduleService.today(at: now(), in: $0) }
    }

    /// Revenue from collected orders, and what is still booked, no-shows and cancellations, by
    /// pizza and by service day, for the service days `from` through `to` (inclusive; open ends
    /// when `nil`).
    /// - Throws: ``ValidationError`` for the field `from` when it is after `to`.
    public func sales(from: LocalDate? = nil, to: LocalDate? = nil) throws -> SalesReport {
        let (lower, upper) = try Self.period(from: from, to: to)
        return try database.read { db in
            SalesReport(
                from: from, to: to, rows: try OrderStore.sales(from: lower, to: upper, in: db),
                days: try OrderStore.salesByDay(from: lower, to: upper, in: db))
        }
    }

    /// A report's service days as the stores take them (`YYYY-MM-DD`, open ends the supported
    /// range's), or the refusal of a `from` after `to`.
    static func period(from: LocalDate?, to: LocalDate?) throws -> (lower: String, upper: String) {
        if let from, let to, from > to {
            throw ValidationError([
                FieldError(field: "from", message: "must not be after --to (\(from) is after \(to))")
            ])
        }
        return (
            (from ?? LocalDate.supported.lowerBound).description, (to ?? LocalDate.supported.upperBound).description
        )
    }
}
