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

    init(database: Database, now: @escaping @Sendable () -> Date) {
        self.database = database
        self.now = now
    }

    // MARK: - Booking

    /// Books an order, or returns the order already booked under the same idempotency key.
    ///
    /// - Throws: ``ValidationError`` for malformed input (no items, quantity outside 1–20, bad
    ///   key); ``UserError/notFound(handle:)`` and ``MenuError/notFound(query:)`` for unknown
    ///   names; ``OrderError`` when the state refuses it (archived pizza, pickup in the past,
    ///   outside opening hours, not on a slot boundary, not enough capacity, key reused with
    ///   other content). Nothing is written when it throws.
    @discardableResult
    public func place(_ request: OrderRequest) throws -> (order: Order, created: Bool) {
        let problems = request.problems()
        guard problems.isEmpty else { throw ValidationError(problems) }
        let now = now()
        return try database.write { db in
            let user = try UserStore.required(handle: request.user, in: db)
            let lines = try Self.resolveLines(request.items, in: db)
            let pickupAt = PickupTime.utc(request.pickup)
            let fingerprint = "user=\(user.id);pickup=\(pickupAt);lines="
                + lines.sorted { $0.pizzaID < $1.pizzaID }.map { "\($0.pizzaID)x\($0.quantity)" }.joined(separator: ",")

            let settings = try SettingsService.current(in: db)
            if let key = request.idempotencyKey, let existing = try OrderStore.header(key: key, in: db) {
                guard existing.fingerprint == fingerprint else { throw OrderError.keyReused(key: key, orderID: existing.id) }
                return (try Self.order(existing, settings: settings, in: db), false)
            }
            if let archived = try lines.first(where: { try PizzaStore.pizza(id: $0.pizzaID, in: db)?.isArchived ?? true }) {
                throw OrderError.archivedPizza(name: archived.pizzaName)
            }
            try Self.checkSlot(request.pickup, settings: settings, now: now)

            let requested = lines.reduce(0) { $0 + $1.quantity }
            let booked = try OrderStore.slotLoad(pickupAt: pickupAt, in: db)
            guard booked + requested <= settings.slotCapacity else {
                throw OrderError.slotFull(slot: PickupTime.local(request.pickup, in: settings.timeZone),
                                          remaining: max(0, settings.slotCapacity - booked), requested: requested)
            }
            let id = UUID().uuidString.lowercased()
            try OrderStore.insert(id: id, userID: user.id, pickupAt: pickupAt, key: request.idempotencyKey,
                                  fingerprint: request.idempotencyKey == nil ? nil : fingerprint, lines: lines, in: db)
            guard let header = try OrderStore.header(id: id, in: db) else { throw OrderError.notFound(query: id) }
            return (try Self.order(header, settings: settings, in: db), true)
        }
    }

    /// Resolves each item to a pizza and merges repeats, keeping first-mention order; each line
    /// snapshots the pizza's current name and price.
    static func resolveLines(_ items: [OrderRequest.Item], in db: Connection) throws -> [OrderLine] {
        var lines: [OrderLine] = []
        for item in items {
            let pizza = try MenuService.find(item.pizza, in: db)
            if let index = lines.firstIndex(where: { $0.pizzaID == pizza.id }) {
                let quantity = lines[index].quantity + item.quantity
                guard quantity <= OrderRequest.maximumQuantity else { throw OrderError.tooMany(name: pizza.name, quantity: quantity) }
                lines[index] = OrderLine(pizzaID: pizza.id, pizzaName: pizza.name, unitPrice: pizza.price, quantity: quantity)
            } else {
                lines.append(OrderLine(pizzaID: pizza.id, pizzaName: pizza.name, unitPrice: pizza.price, quantity: item.quantity))
            }
        }
        return lines
    }

    /// Refuses a pickup time in the past, beyond the booking horizon, off a slot boundary, or
    /// outside the opening hours.
    static func checkSlot(_ pickup: Date, settings: Settings, now: Date) throws {
        let zone = settings.timeZone
        let local = PickupTime.local(pickup, in: zone)
        guard pickup > now else { throw OrderError.pickupInPast(local: local) }
        guard pickup <= now.addingTimeInterval(Double(settings.bookingHorizonDays) * 86_400) else {
            throw OrderError.beyondHorizon(local: local, days: settings.bookingHorizonDays)
        }
        let minutes = PickupTime.minutesOfDay(pickup, in: zone)
        let slot = settings.slotMinutes
        guard minutes % slot == 0, PickupTime.secondsPastMinute(pickup) == 0 else {
            let before = minutes - minutes % slot
            let nearest = [before, before + slot].filter { settings.isOpen(minutes: $0) }.map(Settings.clock)
            throw OrderError.notOnSlotBoundary(local: local, slotMinutes: slot, nearest: nearest)
        }
        guard settings.isOpen(minutes: minutes) else {
            throw OrderError.outsideOpeningHours(local: local, openingHours: settings.openingHours)
        }
    }

    /// The pickup instant a person typed (`HH:MM`, `YYYY-MM-DDTHH:MM` in the pizzeria's zone, or
    /// ISO-8601 with an offset), as the CLI and the app's forms take it.
    /// - Throws: ``ValidationError`` for the field `pickup`: malformed, with seconds, a local time
    ///   the clocks skip (naming the nearest slots) or one they pass twice without an offset
    ///   (naming both instants).
    public func pickup(parsing text: String) throws -> Date {
        let settings = try settings()
        switch PickupTime.parse(text, timeZone: settings.timeZone, now: now()) {
        case .success(let date):
            return date
        case .failure(let error):
            var message = error.message
            if case .nonexistent = error, let nearest = Self.nearestSlots(to: text, settings: settings), !nearest.isEmpty {
                message += "; nearest slots: " + nearest.joined(separator: ", ")
            }
            throw ValidationError([FieldError(field: "pickup", message: message)])
        }
    }

    private func settings() throws -> Settings { try database.read { try SettingsService.current(in: $0) } }

    /// The open slots on either side of a local time the clocks skip: the last one before the
    /// gap and the first one after it, as local times.
    static func nearestSlots(to text: String, settings: Settings) -> [String]? {
        let input = text.trimmingWhitespace()
        guard input.count >= 16, let day = PickupTime.day(String(input.prefix(10)), timeZone: settings.timeZone),
              let minutes = Settings.minutes(String(input.dropFirst(11).prefix(5))) else { return nil }
        let zone = settings.timeZone
        let slots = Self.slotStarts(from: day.start, to: day.end, settings: settings)
        let before = slots.last { PickupTime.minutesOfDay($0, in: zone) < minutes }
        let after = slots.first { PickupTime.minutesOfDay($0, in: zone) > minutes }
        return [before, after].compactMap { $0 }.map { PickupTime.clock($0, in: zone) }
    }

    /// Every slot start in `[from, to)` that lies on the slot grid of local time and within the
    /// opening hours: each real instant once, so a day has 23 or 25 hours of slots when the
    /// clocks change.
    static func slotStarts(from start: Date, to end: Date, settings: Settings) -> [Date] {
        let zone = settings.timeZone
        let step = Double(settings.slotMinutes * 60)
        var starts: [Date] = []
        var instant = start
        while instant < end {
            let minutes = PickupTime.minutesOfDay(instant, in: zone)
            let offGrid = minutes % settings.slotMinutes
            if offGrid != 0 {
                // A clock change by a part of a slot: move to the next start on the local grid.
                instant = instant.addingTimeInterval(Double((settings.slotMinutes - offGrid) * 60))
                continue
            }
            if settings.isOpen(minutes: minutes) { starts.append(instant) }
            instant = instant.addingTimeInterval(step)
        }
        return starts
    }

    // MARK: - Reading

    /// The order with this id or unique id prefix (4+ characters), with lines and history.
    public func find(_ query: String) throws -> Order {
        try database.read { db in
            let settings = try SettingsService.current(in: db)
            return try Self.order(try Self.findHeader(query, in: db), settings: settings, in: db)
        }
    }

    /// Orders matching every filter given, by pickup time.
    /// - Parameters:
    ///   - user: a handle (unknown → ``UserError/notFound(handle:)``).
    ///   - day: `YYYY-MM-DD` in the pizzeria's time zone.
    public func list(user: String? = nil, status: OrderStatus? = nil, day: String? = nil) throws -> [Order] {
        try database.read { db in
            let settings = try SettingsService.current(in: db)
            let userID = try user.map { try UserStore.required(handle: $0, in: db).id }
            var range: (String, String)?
            if let day {
                guard let bounds = PickupTime.day(day, timeZone: settings.timeZone) else {
                    throw ValidationError([FieldError(field: "date", message: "must be a date YYYY-MM-DD, not '\(day)'")])
                }
                range = (PickupTime.utc(bounds.start), PickupTime.utc(bounds.end))
            }
            return try OrderStore.headers(userID: userID, status: status, from: range?.0, to: range?.1, in: db)
                .map { try Self.order($0, settings: settings, in: db) }
        }
    }

    /// Every slot of a day (`YYYY-MM-DD`, pizzeria time; today when `nil`) with its load. On a
    /// day the clocks change, each real slot appears once (an hour that happens twice shows
    /// twice, with its offset), and every booking counts in exactly one slot.
    public func slots(day: String? = nil) throws -> [SlotUsage] {
        try database.read { db in
            let settings = try SettingsService.current(in: db)
            let zone = settings.timeZone
            let dayText = day ?? PickupTime.dayString(now(), in: zone)
            guard let bounds = PickupTime.day(dayText, timeZone: zone) else {
                throw ValidationError([FieldError(field: "date", message: "must be a date YYYY-MM-DD, not '\(dayText)'")])
            }
            let loads = try OrderStore.slotLoads(from: PickupTime.utc(bounds.start), to: PickupTime.utc(bounds.end), in: db)
            return Self.slotStarts(from: bounds.start, to: bounds.end, settings: settings).map { start in
                let label = PickupTime.clock(start, in: zone)
                return SlotUsage(start: start,
                                 local: PickupTime.isAmbiguous(start, in: zone) ? label + " " + String(PickupTime.withOffset(start, in: zone).suffix(6)) : label,
                                 booked: loads[PickupTime.utc(start)] ?? 0, capacity: settings.slotCapacity)
            }
        }
    }

    /// Quantity and revenue per pizza for pickups between two days (inclusive, pizzeria time).
    public func sales(from: String? = nil, to: String? = nil) throws -> SalesReport {
        try database.read { db in
            let zone = try SettingsService.current(in: db).timeZone
            func bound(_ text: String?, field: String, end: Bool) throws -> String? {
                guard let text else { return nil }
                guard let day = PickupTime.day(text, timeZone: zone) else {
                    throw ValidationError([FieldError(field: field, message: "must be a date YYYY-MM-DD, not '\(text)'")])
                }
                return PickupTime.utc(end ? day.end : day.start)
            }
            let lower = try bound(from, field: "from", end: false) ?? "0000"
            let upper = try bound(to, field: "to", end: true) ?? "9999"
            guard lower < upper else {
                throw ValidationError([FieldError(field: "from", message: "must not be after --to (\(from ?? "") is after \(to ?? ""))")])
            }
            return SalesReport(from: from, to: to, rows: try OrderStore.sales(from: lower, to: upper, in: db))
        }
    }

    // MARK: - Lifecycle

    /// Moves the order to its next status: placed → preparing → ready → collected.
    /// - Throws: ``OrderError/illegalTransition(orderID:from:action:)`` naming the current status.
    public func advance(_ query: String) throws -> Order {
        try change(query, action: "advance") { $0.next }
    }

    /// Cancels a placed or preparing order, which frees its pizzas' capacity.
    /// - Throws: ``OrderError/illegalTransition(orderID:from:action:)`` naming the current status.
    public func cancel(_ query: String) throws -> Order {
        try change(query, action: "cancel") { $0.isCancellable ? .cancelled : nil }
    }

    private func change(_ query: String, action: String, target: (OrderStatus) -> OrderStatus?) throws -> Order {
        try database.write { db in
            let header = try Self.findHeader(query, in: db)
            guard let next = target(header.status), header.status.canChange(to: next),
                  try OrderStore.setStatus(id: header.id, from: header.status, to: next, in: db),
                  let updated = try OrderStore.header(id: header.id, in: db) else {
                throw OrderError.illegalTransition(orderID: header.id, from: header.status, action: action)
            }
            return try Self.order(updated, settings: try SettingsService.current(in: db), in: db)
        }
    }

    // MARK: - Helpers

    static func findHeader(_ query: String, in db: Connection) throws -> OrderStore.Header {
        let text = query.trimmingWhitespace().lowercased()
        if let exact = try OrderStore.header(id: text, in: db) { return exact }
        if text.count >= 4 {
            let ids = try OrderStore.ids(withPrefix: text, in: db)
            if ids.count > 1 { throw OrderError.ambiguous(query: query, candidates: ids) }
            if let id = ids.first, let header = try OrderStore.header(id: id, in: db) { return header }
        }
        throw OrderError.notFound(query: query)
    }

    static func order(_ header: OrderStore.Header, settings: Settings, in db: Connection) throws -> Order {
        guard let pickupAt = PickupTime.fromUTC(header.pickupAt) else {
            throw DataError.damagedRow(table: "orders", id: header.id, problem: "pickup_at '\(header.pickupAt)' is not a real UTC time")
        }
        return Order(id: header.id, handle: header.handle, pickupAt: pickupAt,
              status: header.status, lines: try OrderStore.lines(of: header.id, in: db),
              total: Money(cents: header.totalCents), idempotencyKey: header.key,
              createdAt: header.createdAt, updatedAt: header.updatedAt,
              history: try OrderStore.history(of: header.id, in: db), timeZone: settings.timeZone)
    }
}
