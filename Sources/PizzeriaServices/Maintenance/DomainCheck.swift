import Foundation
import PizzeriaStorage

/// A problem in the shop's data that SQLite's own checks cannot see: a derived value that
/// disagrees with its source, a slot over its capacity, a future order outside the hours that
/// no one kept, an erasure not carried through.
public struct DomainProblem: Sendable, Hashable, Codable {
    /// The table the problem is in.
    public let table: String
    /// The row: an order id, a slot's UTC start, a user id, a date.
    public let id: String
    /// What is wrong: `booked is 5`.
    public let problem: String
    /// What it should be, where that is known: `10 (the sum of its orders)`.
    public let expected: String?
    /// Whether `check --repair` can put it right (derived data); an overbooked slot or an order
    /// outside the hours needs a person.
    public let repairable: Bool

    /// `slot_loads 2026-12-01T18:00:00Z: booked is 5, expected 10 (the sum of its orders)`.
    public var description: String { "\(table) \(id): \(problem)" + (expected.map { ", expected \($0)" } ?? "") }

    private enum CodingKeys: String, CodingKey { case table, id, problem, expected, repairable }
}

/// `check`'s domain checks and `check --repair`: every derived value recomputed from its source.
enum DomainCheck {
    /// A repair of derived data, applied by ``apply(_:in:)``.
    enum Repair: Hashable {
        case load(pickupAt: String)
        /// A station's load at a slot again from its lines.
        case stationLoad(station: Int64, pickupAt: String)
        case slotTimes(pickupAt: String, serviceDay: String, localMinute: Int)
        case capacity(pickupAt: String)
        case total(orderID: String)
        case orderTimes(orderID: String, serviceDay: String, pickupLocal: String)
        case erasure(userID: String)
        /// Rewrite the pizzas' view counters from the navigation history.
        case viewCounts
        /// The item's default variant made again from its price (one default, at the item's price).
        case defaultVariant(pizzaID: String)
        /// The item's key written again on its variants and groups (`pizza_name_key`).
        case menuKeys(pizzaID: String)
        /// The user's latest stack change written again (`users.last_stack_change`).
        case lastStackChange(userID: String)
        /// Cancel an erased customer's future booking.
        case cancelErased(orderID: String, at: Date)
        /// Empty the WAL after erasures (outside any transaction: ``Maintenance/repair(path:configuration:now:)``).
        case clearWAL
    }

    /// Every problem found, and the repairs that would fix the repairable ones.
    static func run(now: Date, in db: Connection) throws -> (problems: [DomainProblem], repairs: [Repair]) {
        var problems: [DomainProblem] = []
        var repairs: [Repair] = []
        func found(_ table: String, _ id: String, _ problem: String, expected: String? = nil, repair: Repair? = nil) {
            problems.append(
                DomainProblem(table: table, id: id, problem: problem, expected: expected, repairable: repair != nil))
            if let repair { repairs.append(repair) }
        }
        let settings = try SettingsStore.current(in: db)
        let schedule = ScheduleStore.schedule(settings, in: db)
        let clock = schedule.clock

        // Orders: local time, service day, totals, the hours. What each order's service day and
        // local time should be, from its pickup (the source), is kept for its slot's check below:
        // a slot is checked against its orders' true times, never against a drifted order's.
        var expectedTimes: [String: (day: String, local: String)] = [:]
        try DomainStore.orderTimes(in: db) { order in
            guard let pickup = PickupTime.fromUTC(order.pickupAt) else {
                found("orders", order.id, "pickup_at '\(order.pickupAt)' is not a UTC time")
                return
            }
            let local = clock.localText(pickup)
            var day = clock.local(pickup).date
            let booked = ["placed", "preparing", "ready"].contains(order.status) && pickup > now
            var inHours = true
            if case .slot(let slot) = try schedule.locate(pickup) { day = slot.serviceDay } else { inHours = false }
            // Past and finished orders keep the service day they had; their local time follows the zone.
            let expectedDay = booked ? day.description : order.serviceDay
            expectedTimes[order.id] = (expectedDay, local)
            if local != order.pickupLocal || expectedDay != order.serviceDay {
                let what = [
                    local != order.pickupLocal ? "pickup_local is \(order.pickupLocal)" : nil,
                    expectedDay != order.serviceDay ? "service_day is \(order.serviceDay)" : nil,
                ].compactMap { $0 }
                let expected = [
                    local != order.pickupLocal ? local : nil, expectedDay != order.serviceDay ? expectedDay : nil,
                ].compactMap { $0 }
                found(
                    "orders", order.id, what.joined(separator: " and "),
                    expected: expected.joined(separator: " and ") + " (from its pickup and the week)",
                    repair: .orderTimes(orderID: order.id, serviceDay: expectedDay, pickupLocal: local))
            }
            if booked, !inHours, !order.kept {
                found(
                    "orders", order.id, "booked for \(local), outside the hours, and not kept by staff",
                    expected:
                        "a pickup within the hours (move it, or keep it with --keep-orders on the change that closed it)"
                )
            }
        }
        for drift in try DomainStore.driftedTotals(in: db) {
            found(
                "orders", drift.id, "total_cents is \(drift.total)", expected: "\(drift.actual) (the sum of its lines)",
                repair: .total(orderID: drift.id))
        }

        // Slots: load, service day and local minute, capacity, overbooking.
        let drifted = try DomainStore.driftedLoads(in: db)
        for drift in drifted {
            found(
                "slot_loads", drift.pickupAt, drift.booked.map { "booked is \($0)" } ?? "no row for a booked pickup",
                expected: "\(drift.actual) (the sum of its orders)", repair: .load(pickupAt: drift.pickupAt))
        }
        let actual = Dictionary(drifted.map { ($0.pickupAt, $0.actual) }, uniquingKeysWith: { first, _ in first })
        var rulesByDay: [String: CapacityRules] = [:]
        let nowText = PickupTime.utc(now)
        for slot in try DomainStore.slots(in: db) {
            var serviceDay = slot.serviceDay, minute = slot.localMinute
            let truth = slot.orderID.flatMap { expectedTimes[$0] }
            if let orderDay = truth?.day ?? slot.orderDay, let orderLocal = truth?.local ?? slot.orderLocal,
                let day = LocalDate(orderDay),
                let date = LocalDate(String(orderLocal.prefix(10))),
                let time = LocalTime(String(orderLocal.dropFirst(11).prefix(5)))
            {
                let expectedMinute = Int(date.daysSinceEpoch - day.daysSinceEpoch) * 1440 + time.minutes
                if orderDay != slot.serviceDay || expectedMinute != slot.localMinute {
                    found(
                        "slot_loads", slot.pickupAt, "service_day \(slot.serviceDay), local_minute \(slot.localMinute)",
                        expected: "\(orderDay), \(expectedMinute) (from its orders)",
                        repair: .slotTimes(pickupAt: slot.pickupAt, serviceDay: orderDay, localMinute: expectedMinute))
                    (serviceDay, minute) = (orderDay, expectedMinute)
                }
            }
            guard let day = LocalDate(serviceDay) else { continue }
            if rulesByDay[serviceDay] == nil {
                rulesByDay[serviceDay] = CapacityRules(
                    try CapacityStore.rules(on: day, in: db), defaultCapacity: settings.slotCapacity)
            }
            let capacity =
                rulesByDay[serviceDay]?.capacity(on: day, wallMinute: minute)
                ?? SlotCapacity(capacity: settings.slotCapacity, rule: nil)
            if capacity.capacity != slot.capacity || capacity.rule != slot.rule {
                found(
                    "slot_loads", slot.pickupAt, "capacity \(slot.capacity) (\(slot.rule ?? "slot-capacity"))",
                    expected: "\(capacity.capacity) (\(capacity.rule ?? "slot-capacity"))",
                    repair: .capacity(pickupAt: slot.pickupAt))
            }
            let booked = actual[slot.pickupAt] ?? slot.booked
            // Staff overrides let a slot past its capacity by what they took, at most the margin.
            let allowed = capacity.capacity + min(capacity.overrideMargin, slot.allowance)
            if slot.pickupAt > nowText, booked > allowed {
                found(
                    "slot_loads", slot.pickupAt,
                    "overbooked: \(booked) pizzas booked, capacity \(capacity.capacity)"
                        + (allowed > capacity.capacity
                            ? " and \(allowed - capacity.capacity) let in by staff overrides" : ""),
                    expected: "at most \(allowed) (move or cancel orders: check --repair never cancels)")
            }
        }

        // Stations other than the oven: their loads per slot, and their capacity ahead.
        for drift in try DomainStore.driftedStationLoads(in: db) {
            found(
                "station_loads", "\(drift.station) \(drift.pickupAt)",
                drift.booked.map { "booked is \($0)" } ?? "no row for a booked pickup",
                expected: "\(drift.actual) (the sum of its lines at the station)",
                repair: .stationLoad(station: drift.station, pickupAt: drift.pickupAt))
        }
        for over in try StationCapacityStore.overbooked(after: nowText, in: db) {
            // As for the slot: staff overrides let a station past its capacity by what they took, at most the margin.
            let allowed = over.capacity + min(SlotCapacity.overrideMargin(of: over.capacity), over.allowance)
            guard over.booked > allowed else { continue }
            found(
                "station_loads", "\(over.station) \(over.pickupAt)",
                "overbooked: \(over.booked) pieces at \(over.name), capacity \(over.capacity)"
                    + (allowed > over.capacity ? " and \(allowed - over.capacity) let in by staff overrides" : ""),
                expected: "at most \(allowed) (move or cancel orders, or raise the station's capacity)")
        }

        // Nights that run into the next day's hours make one instant two slots.
        let today = clock.local(now).date
        for offset in 0...max(1, settings.bookingHorizonDays) {
            let date = today.adding(days: offset)
            let hours = try schedule.hours(of: date), next = try schedule.hours(of: date.adding(days: 1))
            if let last = hours.open.last, let first = next.open.first, last.end - 1440 > first.start {
                found(
                    "schedule_exceptions", date.description, "\(last) runs into \(date.adding(days: 1)) \(first)",
                    expected: "a night that ends by the next day's opening")
            }
        }

        // Erasures carried through; routes only to one's own orders.
        for leftover in try DomainStore.erasureLeftovers(in: db) {
            let what = [
                leftover.identity ? "name, phone or handle filled in again" : nil,
                leftover.navigation > 0 ? "\(leftover.navigation) navigation rows" : nil,
                leftover.text > 0 ? "\(leftover.text) notes, references or reasons of theirs" : nil,
            ].compactMap { $0 }
            found(
                "users", leftover.id, "erased, but " + what.joined(separator: " and "),
                expected: "nothing of them but the pseudonym",
                repair: .erasure(userID: leftover.id))
        }
        for id in try DomainStore.erasedCustomersBookings(after: now, in: db) {
            found(
                "orders", id, "a future booking of an erased customer", expected: "cancelled, as their erasure does",
                repair: .cancelErased(orderID: id, at: now))
        }
        for id in try UserStore.erasuresPendingInWAL(in: db) {
            found(
                "user_erasures", id.description,
                "erasure pending in the WAL: the -wal was not emptied after it (a reader held it, or the erasure predates migration 9)",
                expected: "the -wal emptied (check --repair empties it once no reader holds it)", repair: .clearWAL)
        }
        // A party's payment is its shares (written in one transaction; the schema refuses more).
        for party in try PartyPaymentStore.unbalanced(in: db) {
            found(
                "party_payments", String(party.id), "its shares in payments add up to \(party.shares) cents",
                expected: "\(party.amount) cents, the payment taken (payments are append-only: reported)")
        }
        // The view counters `nav stats` reads, against the history they count.
        for drift in try DomainStore.driftedViewCounts(in: db) {
            found(
                "pizza_view_counts", drift.id, "views/pushed/random/deep_links/imported are \(drift.stored)",
                expected: "\(drift.actual) (counted from the navigation history)",
                repair: .viewCounts)
        }
        // One default variant per item, storing no price: it costs the item's (migration 36).
        for drift in try DomainStore.variantDrift(in: db) {
            found(
                "pizza_variants", drift.pizzaID, drift.problem,
                expected: "one default variant, with no price of its own (it costs the item's \(drift.price) cents)",
                repair: .defaultVariant(pizzaID: drift.pizzaID))
        }
        // Each variant and group row carries its item's key, the menu read's order (migration 31).
        for drift in try DomainStore.menuKeyDrift(in: db) {
            found(
                drift.table, drift.pizzaID, "pizza_name_key is \(drift.stored.map { "'\($0)'" } ?? "NULL")",
                expected: "\(drift.actual.map { "'\($0)'" } ?? "NULL") (the item's name_key)",
                repair: .menuKeys(pizzaID: drift.pizzaID))
        }
        // Each user's latest stack change, which the previous route is read from (migration 33).
        for drift in try DomainStore.lastStackChangeDrift(in: db) {
            found(
                "users", drift.userID, "last_stack_change is \(drift.stored.map(String.init) ?? "NULL")",
                expected:
                    "\(drift.actual.map(String.init) ?? "NULL") (the user's latest navigation event that changed the stack)",
                repair: .lastStackChange(userID: drift.userID))
        }
        // Each item's history is a chain from its row (migration 35). The triggers keep it on every
        // path; a drift means one of them was dropped, and the history is append-only: reported.
        for drift in try DomainStore.lastChangeDrift(in: db) {
            found(
                "pizzas", drift.pizzaID, "last_change is \(drift.stored.map(String.init) ?? "NULL")",
                expected: "\(drift.actual.map(String.init) ?? "NULL") (the item's latest pizza_history row)")
        }
        for drift in try DomainStore.historyChainDrift(in: db) {
            found(
                "pizza_history", String(drift.id), "previous_change is \(drift.stored.map(String.init) ?? "NULL")",
                expected: "\(drift.actual.map(String.init) ?? "NULL") (the item's change before it)")
        }
        // An item's name, price and archive entries are listed through their history row (migration 34).
        for entry in try DomainStore.misfiledAuditEntries(in: db) {
            found(
                "audit_log", String(entry.id),
                "history_id \(entry.history) names "
                    + (entry.historyObject.map { "a history row of " + $0 } ?? "no history row"),
                expected: "a history row of \(entry.object), or NULL (the log is append-only: not repaired)")
        }
        for route in try NavigationStore.foreignOrderRoutes(in: db) {
            found(
                "navigation_stack", route, "a route to another customer's order (never shown)",
                expected: "only the user's own orders")
        }
        return (problems, repairs)
    }

    /// Applies the repairs, in the caller's write transaction.
    static func apply(_ repairs: [Repair], in db: Connection) throws {
        var loads: [String] = [], stationLoads: [(Int64, String)] = []
        var countsDrifted = false
        for repair in repairs {
            switch repair {
            case .orderTimes(let id, let day, let local):
                try DomainStore.setOrderTimes(id, serviceDay: day, pickupLocal: local, in: db)
            case .total(let id): try DomainStore.recomputeTotal(id, in: db)
            case .slotTimes(let pickup, let day, let minute):
                try DomainStore.setSlotTimes(pickup, serviceDay: day, localMinute: minute, in: db)
            case .capacity(let pickup): try DomainStore.recomputeCapacity(pickup, in: db)
            case .erasure(let id): try DomainStore.reapplyErasure(id, in: db)
            case .load(let pickup): loads.append(pickup)
            case .stationLoad(let station, let pickup): stationLoads.append((station, pickup))
            case .cancelErased(let id, let now): try DomainStore.cancelErased(id, at: now, in: db)
            case .viewCounts: countsDrifted = true
            case .defaultVariant(let id): try DomainStore.repairDefaultVariant(id, in: db)
            case .menuKeys(let id): try DomainStore.rewriteMenuKeys(id, in: db)
            case .lastStackChange(let id): try DomainStore.rewriteLastStackChange(id, in: db)
            case .clearWAL: break
            }
        }
        try DomainStore.recomputeLoads(loads, in: db)
        try DomainStore.recomputeStationLoads(stationLoads, in: db)
        // One rewrite of every counter, however many pizzas drifted.
        if countsDrifted { try DomainStore.recomputeViewCounts(in: db) }
    }
}
