import CPizzeriaSQLite
import Foundation
import PizzeriaServices

/// The workload as a competent C programmer writes it on the same schema: statements prepared
/// once, values bound, the fewest statements that keep the same semantics (the checks the
/// project makes, the rows it writes, the triggers it fires), `RETURNING` where it saves a
/// statement, nothing read back that is already known, the same pragmas and durability.
final class Baseline {
    let database: CDatabase
    /// The ids, shared with the project's side (one array each), bound as text from a stack buffer.
    let pizzaIDs: DataSet.PizzaIDs
    let userIDs: [User.ID]
    /// Each item's `Normale` and `Maxi`, and the extras, as the data set numbered them.
    let variants: DataSet.VariantIDs, extraIDs: [Int64]

    private let begin, commit, rollback: CStatement
    private let settings, hours, exceptions, pizza, slotLoad, insertOrder, insertLine: CStatement
    private let week, exceptionsFrom, loadsFrom, allRules, generation, beginRead: CStatement
    private let top, pushRow, popRow, popAll, insertEvent: CStatement
    private let groupsOf, modifier: CStatement
    private let path, menuCategories, menuGroups, menuPrices, menuVariants, menuAttachments, menuItems, pizzaForEdit,
        updatePrice, enterAudit, leaveAudit: CStatement

    init(
        path file: String, synchronous: String, cacheKiB: Int?, checkpointPages: Int, dataSet: DataSet
    ) throws {
        database = try CDatabase(
            path: file, synchronous: synchronous, cacheKiB: cacheKiB, checkpointPages: checkpointPages)
        pizzaIDs = dataSet.pizzaIDs
        userIDs = dataSet.userIDs
        variants = dataSet.variants
        extraIDs = dataSet.extraIDs.map(\.rawValue)
        let db = database
        begin = try db.prepare("BEGIN IMMEDIATE")
        commit = try db.prepare("COMMIT")
        rollback = try db.prepare("ROLLBACK")
        settings = try db.prepare(
            """
            SELECT slot_minutes, slot_capacity, lead_minutes, booking_horizon_days, paused, paused_until, busy_minutes, busy_until
            FROM settings WHERE id = 1
            """)
        // The week of the pickup's date and of the day before (a night interval runs past midnight).
        hours = try db.prepare("SELECT weekday, opens_at, closes_at FROM weekly_hours WHERE weekday IN (?, ?)")
        exceptions = try db.prepare(
            "SELECT day, kind, opens_at, closes_at FROM schedule_exceptions WHERE day IN (?, ?)")
        // The item with the variant the line chose: its name, whether it is on the menu and not
        // counted out, whether it uses the oven, its allergens; the variant's name and price and
        // whether the item has others (the line then names its variant) — one row. The default
        // variant stores no price: it costs the item's (migration 36).
        pizza = try db.prepare(
            """
            SELECT p.name, p.archived_at IS NULL AND p.stock_left IS NULL, k.uses_oven, p.allergens, v.name,
                   coalesce(v.price_cents, p.price_cents), EXISTS (SELECT 1 FROM pizza_variants o WHERE o.pizza_id = p.id AND o.id <> v.id),
                   coalesce(k.vat_rate_bp, s.vat_rate_bp), k.station_id
            FROM pizzas p JOIN categories k ON k.id = p.category_id JOIN pizza_variants v ON v.id = ? AND v.pizza_id = p.id
                 JOIN shop s ON s.id = 1
            WHERE p.id = ?
            """)
        // The item's groups and their bounds, which every line keeps (a plain one too).
        groupsOf = try db.prepare(
            """
            SELECT g.id, g.min_selected, g.max_selected FROM pizza_modifier_groups a JOIN modifier_groups g ON g.id = a.group_id
            WHERE a.pizza_id = ?
            """)
        // A chosen modifier: its group, names, price on the line's variant, allergens, whether it is offered.
        modifier = try db.prepare(
            """
            SELECT m.group_id, g.name, m.name, coalesce(mp.price_cents, m.price_cents), m.allergens,
                   m.archived_at IS NULL AND m.stock_left IS NULL
            FROM modifiers m JOIN modifier_groups g ON g.id = m.group_id
            LEFT JOIN modifier_prices mp ON mp.modifier_id = m.id AND mp.variant_name = ?
            WHERE m.id = ?
            """)
        // The schema keeps each booked slot's pizzas and effective capacity (slot_loads); a slot
        // not booked yet gets its capacity from the triggers that open it (capacity_candidates).
        slotLoad = try db.prepare("SELECT booked, capacity FROM slot_loads WHERE pickup_at = ?")
        week = try db.prepare("SELECT weekday, opens_at, closes_at FROM weekly_hours")
        beginRead = try db.prepare("BEGIN")
        generation = try db.prepare("SELECT generation FROM config_generation WHERE id = 1")
        exceptionsFrom = try db.prepare("SELECT day, kind, opens_at, closes_at FROM schedule_exceptions WHERE day >= ?")
        // The stored text is bound and parsed here at fixed offsets (no strftime in SQL, per row or per
        // call); the generation comes with the rows, so one statement is one call's snapshot.
        loadsFrom = try db.prepare(
            """
            SELECT g.generation, s.pickup_at, s.booked, s.capacity
            FROM config_generation g LEFT JOIN slot_loads s ON s.pickup_at >= ?
            WHERE g.id = 1 ORDER BY s.pickup_at
            """)
        allRules = try db.prepare(
            "SELECT capacity, start_minute, end_minute, day, weekday, length(rule) AS rule_length FROM capacity_rules")
        insertOrder = try db.prepare(
            "INSERT INTO orders (id, user_id, pickup_at, service_day, pickup_local) VALUES (?, ?, ?, ?, ?)")
        insertLine = try db.prepare(
            """
            INSERT INTO order_lines (order_id, line_no, pizza_id, pizza_name, unit_price_cents, quantity, uses_oven,
                                     variant_id, variant_name, base_price_cents, modifiers, allergens, vat_rate_bp,
                                     station_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        top = try db.prepare(
            "SELECT depth, kind, pizza_id, order_id FROM navigation_stack WHERE user_id = ? ORDER BY depth DESC LIMIT 1"
        )
        pushRow = try db.prepare(
            "INSERT INTO navigation_stack (user_id, depth, kind, pizza_id) VALUES (?, ?, 'pizza', ?)")
        popRow = try db.prepare("DELETE FROM navigation_stack WHERE user_id = ? AND depth = ?")
        popAll = try db.prepare(
            "DELETE FROM navigation_stack WHERE user_id = ? RETURNING depth, kind, pizza_id, order_id")
        insertEvent = try db.prepare(
            """
            INSERT INTO navigation_events (user_id, action, routes, depth_after, top_before) VALUES (?, ?, ?, ?, ?)
            """)
        self.path = try db.prepare(
            """
            SELECT s.kind, s.pizza_id, s.order_id, s.opaque_type, s.opaque_json
            FROM users u LEFT JOIN navigation_stack s ON s.user_id = u.id
            WHERE u.id = ? ORDER BY s.depth
            """)
        menuCategories = try db.prepare("SELECT id, name, position, uses_oven FROM categories ORDER BY position, name")
        menuGroups = try db.prepare(
            """
            SELECT g.id, g.name, g.min_selected, g.max_selected, g.position, m.id, m.name, m.price_cents, m.allergens,
                   m.position, m.archived_at, m.stock_left, m.stock_until
            FROM modifier_groups g LEFT JOIN modifiers m ON m.group_id = g.id
            ORDER BY g.position, g.name, g.id, m.position, m.name, m.id
            """)
        menuPrices = try db.prepare("SELECT modifier_id, variant_name, price_cents FROM modifier_prices")
        // The menu one item at a time, as the project's `forEachEntry` reads it: three statements
        // in name order stepped side by side, each item's variants and groups found by the item's
        // key in their menu-order index (the schema's, migration 31: the lookups walk it in order)
        // (CROSS JOIN keeps the items the outer loop: no statement sorts), nothing held but one
        // item's rows — flat in memory however many items there are.
        menuVariants = try db.prepare(
            """
            SELECT v.pizza_id, v.id, v.name, coalesce(v.price_cents, p.price_cents), v.position, v.is_default
            FROM pizzas p CROSS JOIN pizza_variants v INDEXED BY pizza_variants_in_menu_order
                ON v.pizza_name_key IS p.name_key AND v.pizza_id = p.id
            WHERE p.archived_at IS NULL ORDER BY p.name_key
            """)
        menuAttachments = try db.prepare(
            """
            SELECT a.pizza_id, a.group_id
            FROM pizzas p CROSS JOIN pizza_modifier_groups a INDEXED BY pizza_modifier_groups_in_menu_order
                ON a.pizza_name_key IS p.name_key AND a.pizza_id = p.id
            WHERE p.archived_at IS NULL ORDER BY p.name_key
            """)
        menuItems = try db.prepare(
            """
            SELECT id, name, price_cents, archived_at, version, created_at, updated_at, category_id, allergens, stock_left,
                   stock_until
            FROM pizzas WHERE archived_at IS NULL ORDER BY name_key
            """)
        pizzaForEdit = try db.prepare("SELECT name, price_cents, version FROM pizzas WHERE id = ?")
        updatePrice = try db.prepare("UPDATE pizzas SET price_cents = ? WHERE id = ? AND version = ?")
        // Who changes the menu, for the audit log's triggers — set and cleared in each edit's
        // transaction, as the project's library does (the row at rest is empty).
        enterAudit = try db.prepare(
            "UPDATE audit_context SET actor = NULL, source = 'library', at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = 1"
        )
        leaveAudit = try db.prepare("UPDATE audit_context SET actor = NULL, source = NULL, at = NULL WHERE id = 1")
    }

    private func transaction(_ body: () throws -> Bool) throws {
        try begin.bind().run()
        do {
            if try body() { try commit.bind().run() } else { try rollback.bind().run() }
        } catch {
            if sqlite3_get_autocommit(database.db) == 0 { try rollback.bind().run() }
            throw error
        }
    }

    // MARK: - Orders

    /// Books each booking in its own transaction: the rules the project checks (the pizza is on
    /// the menu; the pickup is not past, within the horizon and the lead time, and a slot of its
    /// service day — the week's intervals or the date's special hours, less closures and cuts,
    /// a night interval of the day before included — the capacity), then the order and its lines
    /// with their service day and local time. The shop's zone is UTC, so local time is UTC.
    /// - Returns: bookings refused for capacity.
    func placeOrders(_ bookings: [Workload.Booking], pickup: (Workload.Booking) -> (utc: String, minutes: Int)) throws
        -> Int
    {
        var refused = 0
        for booking in bookings {
            let (at, minutes) = pickup(booking)
            try transaction {
                guard try settings.bind().step() else { throw BenchError("no settings") }
                let slot = settings.int(0), horizon = settings.int(3)
                let now = Date().timeIntervalSince1970, instant = Baseline.seconds(at)
                let lead =
                    settings.int(2)
                    + (settings.int(6) > 0 && (settings.isNull(7) || Baseline.seconds(settings.text(7)) > now)
                        ? settings.int(6) : 0)
                let paused = settings.int(4) == 1 && (settings.isNull(5) || Baseline.seconds(settings.text(5)) > now)
                sqlite3_reset(settings.handle)
                guard !paused, instant > now, instant >= now + Double(lead * 60),
                    instant <= now + Double(horizon) * 86_400
                else {
                    throw BenchError("not bookable now")
                }
                let date = String(at.prefix(10)), days = Int64(instant / 86_400), weekday = (days + 3) % 7 + 1
                let yesterday = Baseline.date(days - 1), yesterdayWeekday = (days + 2) % 7 + 1
                guard
                    let serviceDay = try serviceDay(
                        date: date, weekday: weekday, yesterday: yesterday, yesterdayWeekday: yesterdayWeekday,
                        minutes: Int64(minutes), slot: slot)
                else { throw BenchError("not a slot") }
                var lines: [Line] = []
                for line in booking.lines { lines.append(try self.line(line)) }
                // A booked slot's room is checked here; a slot no order has opened yet gets its
                // capacity from the schema's triggers as the order opens it (the rule query they
                // answer is not repeated), and a line that overfills it is refused there.
                let oven = Int64(lines.reduce(0) { $0 + ($1.usesOven ? $1.quantity : 0) })
                if try slotLoad.bind(at).step() {
                    let (load, capacity) = (slotLoad.int(0), slotLoad.int(1))
                    sqlite3_reset(slotLoad.handle)
                    guard load + oven <= capacity else {
                        refused += 1
                        return false
                    }
                }
                sqlite3_reset(slotLoad.handle)
                let id = timeOrderedUUID(at: now)
                try insertOrder.bind(id, userIDs[booking.user].uuid, at, serviceDay, String(at.prefix(16)) + "+00:00")
                    .run()
                for (number, line) in lines.enumerated() {
                    do {
                        try insertLine.bind(
                            id, number + 1, line.id, line.name, line.unit, line.quantity, line.usesOven ? 1 : 0,
                            line.variant, line.variantName, line.base, line.modifiers, line.allergens, line.vatRate,
                            line.station
                        ).run()
                    } catch let error as BenchError where error.description.contains("slot_capacity_exceeded") {
                        sqlite3_reset(insertLine.handle)
                        refused += 1
                        return false  // rolled back: the new slot could not take the order
                    }
                }
                return true
            }
        }
        return refused
    }

    /// A booked line as it is written: the snapshot of the item, its variant and its modifiers.
    private struct Line {
        let id: UUID, name: String, quantity: Int, usesOven: Bool, variant: Int64, variantName: String?
        let base: Int64, unit: Int64, modifiers: String?, allergens: Int64, vatRate: Int64
        /// Its category's station (the workload's pizzas: the oven; its drinks: none, so no other
        /// station's capacity is checked, as the project checks it only for stations that have one).
        let station: Int64?
    }

    /// Snapshots one line: the item with its chosen variant (one row), the bounds of the item's
    /// groups, each chosen modifier priced on the variant (one row each), checked — offered, in a
    /// group of the item, each group's bounds kept — and its JSON written by hand.
    private func line(_ line: Workload.Line) throws -> Line {
        let id = pizzaIDs[line.pizza].uuid
        let variant = line.maxi ? variants.maxi(line.pizza) : variants.normale(line.pizza)
        guard try pizza.bind(variant, id).step() else { throw BenchError("pizza \(id) has no variant \(variant)") }
        defer { sqlite3_reset(pizza.handle) }
        guard pizza.int(1) == 1 else { throw BenchError("pizza \(id) is not on the menu or is counted out") }
        let name = pizza.text(0), usesOven = pizza.int(2) == 1, variantName = pizza.text(4), base = pizza.int(5)
        let named = pizza.int(6) == 1, vatRate = pizza.int(7), station = pizza.isNull(8) ? nil : pizza.int(8)
        var allergens = pizza.int(3), unit = base
        var bounds: [(group: Int64, min: Int64, max: Int64, count: Int64)] = []
        try groupsOf.bind(id).forEachRow { bounds.append((groupsOf.int(0), groupsOf.int(1), groupsOf.int(2), 0)) }
        var json = line.extras.isEmpty ? "" : "["
        for (index, extra) in line.extras.enumerated() {
            guard try modifier.bind(variantName, extraIDs[extra]).step(), modifier.int(5) == 1 else {
                throw BenchError("modifier \(extraIDs[extra]) is not offered")
            }
            defer { sqlite3_reset(modifier.handle) }
            guard let group = bounds.firstIndex(where: { $0.group == modifier.int(0) }) else {
                throw BenchError("modifier \(extraIDs[extra]) is not in a group of pizza \(id)")
            }
            bounds[group].count += 1
            let price = modifier.int(3)
            unit += price
            allergens |= modifier.int(4)
            json +=
                (index == 0 ? "" : ",") + #"{"group":"# + Baseline.jsonString(modifier.text(1)) + #","id":"#
                + String(extraIDs[extra]) + #","name":"# + Baseline.jsonString(modifier.text(2)) + #","price_cents":"#
                + String(price) + "}"
        }
        guard bounds.allSatisfy({ $0.min <= $0.count && $0.count <= $0.max }) else {
            throw BenchError("pizza \(id): a group's bounds are not kept")
        }
        return Line(
            id: id, name: name, quantity: line.quantity, usesOven: usesOven, variant: variant,
            variantName: named ? variantName : nil, base: base, unit: unit,
            modifiers: line.extras.isEmpty ? nil : json + "]", allergens: allergens, vatRate: vatRate,
            station: station)
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped.
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    // MARK: - The picker

    /// What the picker reads besides the bookings, kept between calls while `config_generation`
    /// (migration 11) holds: the settings row, the week, the exceptions from a day on, the capacity
    /// rules — and each service day's open spans once computed. A class: a call reads it and
    /// adds a day's spans in place (a struct was copied out of its optional and back on every
    /// call, each of its collections retained and released).
    private typealias Rule = (capacity: Int64, start: Int64, end: Int64, text: Int)

    private final class PickerConfiguration {
        var generation: Int64
        var slot = 15, defaultCapacity: Int64 = 12, lead: Int64 = 0, horizonDays: Int64 = 365
        var paused = false, pausedUntil: Double?, busyMinutes: Int64 = 0, busyUntil: Double?
        var largest: Int64 = 12
        var week: [[(Int64, Int64)]] = Array(repeating: [], count: 8)
        var closed = Set<Int64>(), special: [Int64: [(Int64, Int64)]] = [:], cuts: [Int64: [(Int64, Int64)]] = [:]
        var exceptionsFrom: Int64 = 0
        /// Rules by weekday and by date: capacity, minutes of the service day, and the length of
        /// the rule's display text (`fri 18:30-21:00`), which the answer's hash folds in as the
        /// project's answer names the rule.
        var weekdayRules: [[Rule]] = Array(repeating: [], count: 8)
        var dateRules: [Int64: [Rule]] = [:]
        /// Each service day's slots once planned: minute of the day, capacity and rule (its text's
        /// length, -1 for the default capacity) — what the walk needs of a slot nobody booked.
        var plans: [Int64: [(wall: Int64, capacity: Int64, rule: Int)]] = [:]

        init(generation: Int64) { self.generation = generation }
    }
    private var pickerConfiguration: PickerConfiguration?

    /// Reads the configuration at `generation`, with the exceptions from service day `from` on.
    private func readPickerConfiguration(generation: Int64, from: Int64) throws -> PickerConfiguration {
        let configuration = PickerConfiguration(generation: generation)
        guard try settings.bind().step() else { throw BenchError("no settings") }
        configuration.slot = Int(settings.int(0))
        configuration.defaultCapacity = settings.int(1)
        configuration.lead = settings.int(2)
        configuration.horizonDays = settings.int(3)
        configuration.paused = settings.int(4) == 1
        configuration.pausedUntil = settings.isNull(5) ? nil : Baseline.seconds(settings.text(5))
        configuration.busyMinutes = settings.int(6)
        configuration.busyUntil = settings.isNull(7) ? nil : Baseline.seconds(settings.text(7))
        sqlite3_reset(settings.handle)
        try week.bind().forEachRow {
            configuration.week[Int(week.int(0))].append(span(week.text(1), week.text(2)))
        }
        try exceptionsFrom.bind(Baseline.date(from)).forEachRow {
            let number = Int64(Baseline.seconds(exceptionsFrom.text(0) + "T00:00:00Z") / 86_400)
            switch exceptionsFrom.text(1) {
            case "closed": configuration.closed.insert(number)
            case "special":
                configuration.special[number, default: []].append(span(exceptionsFrom.text(2), exceptionsFrom.text(3)))
            default:
                configuration.cuts[number, default: []].append(span(exceptionsFrom.text(2), exceptionsFrom.text(3)))
            }
        }
        configuration.exceptionsFrom = from
        var largest = configuration.defaultCapacity
        try allRules.bind().forEachRow {
            let rule = (
                capacity: allRules.int(0), start: allRules.int(1), end: allRules.int(2), text: Int(allRules.int(5))
            )
            largest = max(largest, rule.capacity)
            if allRules.isNull(3) {
                configuration.weekdayRules[Int(allRules.int(4))].append(rule)
            } else {
                let day = Int64(Baseline.seconds(allRules.text(3) + "T00:00:00Z") / 86_400)
                configuration.dateRules[day, default: []].append(rule)
            }
        }
        configuration.largest = largest
        return configuration
    }

    /// The picker as the best C programmer writes it on this schema: one snapshot per call; the
    /// configuration read once and kept while `config_generation` holds; then a forward walk —
    /// the days from the call's moment (the day before first, for its night), each day's slots
    /// planned once with their capacity and rule (like the project's plans), the day's first slot
    /// found by binary search, and one cursor over `slot_loads` from the earliest instant on,
    /// stepped only as far as the walk goes; the first 10 slots at or after the earliest bookable
    /// moment (lead time, rush, pause) that take the order, each with what the project's answer
    /// holds (start, service day, remaining, capacity, the rule) in a buffer kept for the calls. The cursor's statement also reads the
    /// generation (a LEFT JOIN that always yields a first row), so while the kept configuration
    /// holds a call is that one statement — its own snapshot, no BEGIN and COMMIT; when the
    /// generation moved, the call reads the configuration and walks again in a transaction, as
    /// the project does. The shop's zone is UTC.
    /// - Returns: a checksum of the answers (every field of every slot), to compare with the project's.
    func availableSlots(_ calls: [Workload.PickerCall], today: Double) throws -> Int {
        var checksum = 0
        for call in calls {
            let now = Date().timeIntervalSince1970
            let earliestDay = Int64(((today + Double(call.minute) * 60) / 86_400).rounded(.down)) - 1
            if let kept = pickerConfiguration, kept.exceptionsFrom <= earliestDay,
                let hash = try walk(call, today: today, now: now, expecting: kept.generation)
            {
                checksum = checksum &+ hash
                continue
            }
            try beginRead.bind().run()
            defer { _ = try? commit.bind().run() }
            guard try generation.bind().step() else { throw BenchError("no generation") }
            let current = generation.int(0)
            sqlite3_reset(generation.handle)
            if pickerConfiguration?.generation != current || (pickerConfiguration?.exceptionsFrom ?? .max) > earliestDay
            {
                pickerConfiguration = try readPickerConfiguration(generation: current, from: earliestDay - 1)
            }
            checksum = checksum &+ (try walk(call, today: today, now: now, expecting: nil) ?? 0)
        }
        return checksum
    }

    /// One call's walk over the kept configuration: the answer's hash, or `nil` when `expecting`
    /// is not the generation the cursor's snapshot holds.
    private func walk(_ call: Workload.PickerCall, today: Double, now: Double, expecting: Int64?) throws -> Int? {
        guard let configuration = pickerConfiguration else { return 0 }
        let busy = configuration.busyMinutes > 0 && (configuration.busyUntil.map { $0 > now } ?? true)
        let lead = configuration.lead + (busy ? configuration.busyMinutes : 0)
        let paused = configuration.paused && (configuration.pausedUntil.map { $0 > now } ?? true)
        let pausedUntil = paused ? configuration.pausedUntil : nil
        // Answers the kept configuration gives without the cursor are checked in a transaction.
        if paused && pausedUntil == nil || Int64(call.pizzas) > configuration.largest {
            return expecting == nil ? 0 : nil
        }
        let earliest = max(today + Double(call.minute) * 60, now + Double(lead * 60), pausedUntil ?? 0)
        let horizon = now + Double(configuration.horizonDays) * 86_400
        let slot = Int64(configuration.slot)
        // The cursor over the booked slots from the earliest instant on; its first row carries the generation.
        sqlite3_reset(loadsFrom.handle)
        Baseline.writeUTC(Int64(earliest.rounded(.down)), into: instantText)
        sqlite3_bind_text(loadsFrom.handle, 1, instantText, 20, nil)  // SQLITE_STATIC: the buffer outlives the call
        defer { sqlite3_reset(loadsFrom.handle) }
        guard try loadsFrom.step() else { throw BenchError("no generation") }
        if let expecting, loadsFrom.int(0) != expecting { return nil }
        var pending = true
        var ahead: (start: Int64, booked: Int64, capacity: Int64)?
        var exhausted = false
        func load(at instant: Int64) throws -> (booked: Int64, capacity: Int64)? {
            while !exhausted, ahead.map({ $0.start < instant }) ?? true {
                if pending {
                    pending = false
                } else {
                    guard try loadsFrom.step() else {
                        (exhausted, ahead) = (true, nil)
                        break
                    }
                }
                guard let text = sqlite3_column_text(loadsFrom.handle, 1) else {
                    (exhausted, ahead) = (true, nil)  // the first row of a walk with no booking ahead
                    break
                }
                guard sqlite3_column_bytes(loadsFrom.handle, 1) == 20 else {
                    throw BenchError("slot_loads.pickup_at is not stored UTC text")
                }
                ahead = (Baseline.utcSeconds(text), loadsFrom.int(2), loadsFrom.int(3))
            }
            guard let ahead, ahead.start == instant else { return nil }
            return (ahead.booked, ahead.capacity)
        }
        var day = Int64((earliest / 86_400).rounded(.down)) - 1
        let lastDay = Int64((horizon / 86_400).rounded(.down))
        var found = 0
        let first = Int64(earliest.rounded(.up)), latest = Int64(horizon.rounded(.down))
        while found < 10, day <= lastDay {
            defer { day += 1 }
            let plan: [(wall: Int64, capacity: Int64, rule: Int)]
            if let kept = configuration.plans[day] {
                plan = kept
            } else {
                plan = Baseline.plan(of: day, slot: slot, in: configuration)
                configuration.plans[day] = plan
            }
            // The day's first slot at or after the earliest instant (slots are in time order).
            var low = 0, high = plan.count
            while low < high {
                let middle = (low + high) / 2
                if day * 86_400 + plan[middle].wall * 60 < first { low = middle + 1 } else { high = middle }
            }
            for index in low..<plan.count {
                let planned = plan[index], instant = day * 86_400 + planned.wall * 60
                guard instant <= latest else { break }
                // A slot nobody booked has its rule's capacity; a booked one its own.
                let booked = try load(at: instant)
                let capacity = booked?.capacity ?? planned.capacity
                let remaining = capacity - (booked?.booked ?? 0)
                guard remaining >= Int64(call.pizzas) else { continue }
                // The triggers keep a booked slot's capacity its rule's; one that differs has no
                // rule here (-2), and the hashes would differ: the bench's data never has one.
                answers[found] = (instant, day, remaining, capacity, capacity == planned.capacity ? planned.rule : -2)
                found += 1
                if found == 10 { break }
            }
        }
        // The answer as the project's hash reads it: start, service day, offset (the zone is
        // UTC), remaining, capacity and the rule's text length per slot.
        var hash = 0
        for (start, serviceDay, remaining, capacity, rule) in answers.prefix(found) {
            hash = Baseline.hash(
                hash, start: Int(start), serviceDay: Int(serviceDay), offset: 0, remaining: Int(remaining),
                capacity: Int(capacity), rule: rule)
        }
        return hash
    }

    /// The slots of service day `day` (its open spans: the week or a special day, less closed
    /// ranges) with each slot's capacity and rule.
    private static func plan(of day: Int64, slot: Int64, in configuration: PickerConfiguration) -> [(
        wall: Int64, capacity: Int64, rule: Int
    )] {
        guard !configuration.closed.contains(day) else { return [] }
        let weekday = (day + 3) % 7 + 1
        let spans = Baseline.subtract(
            configuration.cuts[day] ?? [], from: configuration.special[day] ?? configuration.week[Int(weekday)])
        var plan: [(wall: Int64, capacity: Int64, rule: Int)] = []
        for (start, end) in spans {
            var wall = start
            while wall + slot <= end {
                let best = rule(of: wall, on: day, weekday: weekday, in: configuration)
                plan.append((wall, best?.capacity ?? configuration.defaultCapacity, best?.text ?? -1))
                wall += slot
            }
        }
        return plan
    }

    /// The capacity rule of the slot at minute `wall` of service day `day`: a date rule over a
    /// weekday rule, the narrower range over the wider.
    private static func rule(of wall: Int64, on day: Int64, weekday: Int64, in configuration: PickerConfiguration)
        -> Rule?
    {
        var best: Rule?
        for rule in configuration.dateRules[day] ?? [] where rule.start <= wall && wall < rule.end {
            if best.map({ rule.end - rule.start < $0.end - $0.start }) ?? true { best = rule }
        }
        if best != nil { return best }
        for rule in configuration.weekdayRules[Int(weekday)] where rule.start <= wall && wall < rule.end {
            if best.map({ rule.end - rule.start < $0.end - $0.start }) ?? true { best = rule }
        }
        return best
    }

    /// One call's answer, as a C caller's buffer: start, service day, remaining, capacity and
    /// the rule (its text's length; -1 for none), for the ten slots a call returns.
    private let answers = UnsafeMutableBufferPointer<(Int64, Int64, Int64, Int64, Int)>.allocate(capacity: 10)

    /// The hash of one answered slot folded into `hash`: both sides fold the same fields.
    static func hash(
        _ hash: Int, start: Int, serviceDay: Int, offset: Int, remaining: Int, capacity: Int, rule: Int
    ) -> Int {
        let a = (hash &* 31 &+ start) &* 31 &+ serviceDay
        return (((a &* 31 &+ offset) &* 31 &+ remaining) &* 31 &+ capacity) &* 31 &+ rule
    }

    /// A 20-byte buffer for the picker's bound instant (`YYYY-MM-DDTHH:MM:SSZ`), bound without a copy.
    private let instantText = UnsafeMutablePointer<CChar>.allocate(capacity: 21)

    /// Writes `seconds` as stored UTC text (`2026-12-04T19:30:00Z`, 20 bytes) into `buffer`.
    static func writeUTC(_ seconds: Int64, into buffer: UnsafeMutablePointer<CChar>) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400, time = seconds - days * 86_400
        let z = days + 719_468, era = (z >= 0 ? z : z - 146_096) / 146_097, doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1, month = mp + (mp < 10 ? 3 : -9)
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func put(_ value: Int64, _ offset: Int, _ width: Int) {
            var value = value
            for position in stride(from: offset + width - 1, through: offset, by: -1) {
                buffer[position] = CChar(48 + value % 10)
                value /= 10
            }
        }
        put(year, 0, 4)
        put(month, 5, 2)
        put(day, 8, 2)
        put(time / 3_600, 11, 2)
        put(time % 3_600 / 60, 14, 2)
        put(time % 60, 17, 2)
        (buffer[4], buffer[7], buffer[10], buffer[13], buffer[16], buffer[19], buffer[20]) = (45, 45, 84, 58, 58, 90, 0)
    }

    /// Seconds since 1970 of stored UTC text (`YYYY-MM-DDTHH:MM:SSZ`) at `text`: fixed offsets.
    static func utcSeconds(_ text: UnsafePointer<UInt8>) -> Int64 {
        func n(_ offset: Int, _ width: Int) -> Int64 {
            var value: Int64 = 0
            for position in offset..<offset + width { value = value * 10 + Int64(text[position] &- 48) }
            return value
        }
        var year = n(0, 4)
        let month = n(5, 2), day = n(8, 2)
        year -= month <= 2 ? 1 : 0
        let era = year / 400, yoe = year - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
        return days * 86_400 + n(11, 2) * 3_600 + n(14, 2) * 60 + n(17, 2)
    }

    /// `spans` (sorted) less the `cuts`: what stays open.
    static func subtract(_ cuts: [(Int64, Int64)], from spans: [(Int64, Int64)]) -> [(Int64, Int64)] {
        var open = spans.sorted { $0.0 < $1.0 }
        for cut in cuts {
            open = open.flatMap { span -> [(Int64, Int64)] in
                guard cut.0 < span.1, span.0 < cut.1 else { return [span] }
                return [(span.0, cut.0), (cut.1, span.1)].filter { $0.0 < $0.1 }
            }
        }
        return open
    }

    /// The service day of a pickup `minutes` after midnight of `date`, or `nil` when it is not a
    /// slot: a night interval of the day before first, then the date's own hours.
    private func serviceDay(
        date: String, weekday: Int64, yesterday: String, yesterdayWeekday: Int64, minutes: Int64, slot: Int64
    ) throws -> String? {
        var week: [Int64: [(Int64, Int64)]] = [:]
        hours.bind(weekday, yesterdayWeekday)
        while try hours.step() { week[hours.int(0), default: []].append(span(hours.text(1), hours.text(2))) }
        var special: [String: [(Int64, Int64)]] = [:], closed = Set<String>(), cuts: [String: [(Int64, Int64)]] = [:]
        exceptions.bind(date, yesterday)
        while try exceptions.step() {
            let day = exceptions.text(0)
            switch exceptions.text(1) {
            case "closed": closed.insert(day)
            case "special": special[day, default: []].append(span(exceptions.text(2), exceptions.text(3)))
            default: cuts[day, default: []].append(span(exceptions.text(2), exceptions.text(3)))
            }
        }
        func open(_ day: String, _ weekday: Int64, at wall: Int64) -> Bool {
            guard !closed.contains(day) else { return false }
            for (start, end) in special[day] ?? week[weekday] ?? []
            where start <= wall && wall + slot <= end && (wall - start) % slot == 0 {
                return !(cuts[day] ?? []).contains { $0.0 < wall + slot && wall < $0.1 }
            }
            return false
        }
        if open(yesterday, yesterdayWeekday, at: minutes + 1440) { return yesterday }
        return open(date, weekday, at: minutes) ? date : nil
    }

    /// `HH:MM`–`HH:MM` as minutes after the day's midnight; a close at or before the open is the next day.
    private func span(_ opens: String, _ closes: String) -> (Int64, Int64) {
        let start = Baseline.minutes(opens), end = Baseline.minutes(closes)
        return (start, end > start ? end : end + 1440)
    }

    static func minutes(_ text: String) -> Int64 {
        let bytes = Array(text.utf8)
        return Int64(bytes[0] - 48) * 600 + Int64(bytes[1] - 48) * 60 + Int64(bytes[3] - 48) * 10 + Int64(bytes[4] - 48)
    }

    /// Seconds since 1970 of `YYYY-MM-DDTHH:MM:00Z` (days from the civil date, Howard Hinnant's algorithm).
    static func seconds(_ utc: String) -> Double {
        let b = Array(utc.utf8)
        func n(_ range: Range<Int>) -> Int64 { range.reduce(0) { $0 * 10 + Int64(b[$1] - 48) } }
        var year = n(0..<4)
        let month = n(5..<7), day = n(8..<10)
        year -= month <= 2 ? 1 : 0
        let era = year / 400, yoe = year - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
        return Double(days * 86_400 + n(11..<13) * 3_600 + n(14..<16) * 60)
    }

    /// `YYYY-MM-DD` of days since 1970.
    static func date(_ days: Int64) -> String {
        let z = days + 719_468, era = z / 146_097, doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1, month = mp + (mp < 10 ? 3 : -9),
            year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return String(format: "%04d-%02d-%02d", year, month, day)
    }

    // MARK: - Navigation

    /// Each operation in its own transaction: the stack row changed and one history event.
    /// - Returns: pops refused on an empty stack.
    func navigate(_ operations: [Workload.Navigation]) throws -> Int {
        var refused = 0
        for operation in operations {
            try transaction {
                switch operation {
                case .push(let user, let pizza):
                    let userID = userIDs[user].uuid
                    let (depth, before) = try topOf(userID)
                    let route = #"[{"pizza":{"id":""# + CStatement.string(of: pizzaIDs[pizza].uuid) + #""}}]"#
                    try pushRow.bind(userID, depth + 1, pizzaIDs[pizza].uuid).run()
                    try insertEvent.bind(userID, "push", route, depth + 1, before).run()
                case .pop(let user):
                    let userID = userIDs[user].uuid
                    let (depth, before) = try topOf(userID)
                    guard let before else {
                        refused += 1
                        return false
                    }
                    try popRow.bind(userID, depth).run()
                    try insertEvent.bind(userID, "pop", "[" + before + "]", depth - 1, before).run()
                case .popToRoot(let user):
                    let userID = userIDs[user].uuid
                    var popped: [(Int64, String)] = []
                    popAll.bind(userID)
                    while try popAll.step() { popped.append((popAll.int(0), element(popAll, kind: 1))) }
                    popped.sort { $0.0 < $1.0 }
                    try insertEvent.bind(
                        userID, "pop_to_root", "[" + popped.map(\.1).joined(separator: ",") + "]", 0,
                        popped.last?.1
                    ).run()
                }
                return true
            }
        }
        return refused
    }

    /// The top of a user's stack: its depth (0 on the menu) and its JSON element.
    private func topOf(_ user: UUID) throws -> (Int64, String?) {
        defer { sqlite3_reset(top.handle) }
        guard try top.bind(user).step() else { return (0, nil) }
        return (top.int(0), element(top, kind: 1))
    }

    /// `{"pizza":{"id":"…"}}` or `{"order":{"id":"…"}}` from columns kind, pizza_id, order_id.
    private func element(_ statement: CStatement, kind column: Int32) -> String {
        let kind = statement.text(column)
        let id = statement.text(kind == "pizza" ? column + 1 : column + 2)
        return #"{""# + kind + #"":{"id":""# + id + #""}}"#
    }

    /// A user's stack, decoded, in one statement.
    func readPaths(_ users: [Int]) throws -> Int {
        var total = 0
        for user in users {
            var elements: [Element] = []
            path.bind(userIDs[user].uuid)
            while try path.step() {
                if path.isNull(0) { continue }
                switch path.text(0) {
                case "pizza": elements.append(.pizza(path.text(1)))
                case "order": elements.append(.order(path.text(2)))
                default: elements.append(.opaque(path.text(3), path.text(4)))
                }
            }
            total += elements.count
        }
        return total
    }

    enum Element { case pizza(String), order(String), opaque(String, String) }

    // MARK: - The menu

    /// The menu decoded into values, as a C programmer's structs would hold it: what the
    /// project's `Menu` holds (categories; items with the pizza's columns, their variants and
    /// groups' ids; every group with its modifiers and their prices per variant).
    struct PizzaRow {
        let id: String, name: String, priceCents: Int64, archivedAt: String?, version: Int64, createdAt: String,
            updatedAt: String, categoryID: Int64, allergens: Int64, stockLeft: Int64?, stockUntil: String?
    }
    struct VariantRow {
        let id: Int64, name: String, priceCents: Int64, position: Int64, isDefault: Bool
    }
    struct MenuItemRow {
        let pizza: PizzaRow
        let variants: [VariantRow]
        let groupIDs: [Int64]
    }
    struct ModifierRow {
        let id: Int64, name: String, priceCents: Int64, allergens: Int64, position: Int64, archivedAt: String?
        let stockLeft: Int64?, stockUntil: String?
        var prices: [(variant: String, cents: Int64)] = []
    }
    struct GroupRow {
        let id: Int64, name: String, minSelected: Int64, maxSelected: Int64, position: Int64
        var modifiers: [ModifierRow] = []
    }
    struct CategoryRow {
        let id: Int64, name: String, position: Int64, usesOven: Bool
    }

    /// The active menu: categories, groups with their modifiers, then items in name order with
    /// their variants and groups one at a time — each row decoded into a value, one item held at a
    /// time. Counts what the project's counts: entries, their variants and their groups.
    func readMenu(_ times: Int) throws -> Int {
        var rows = 0
        for _ in 0..<times {
            // One read transaction, as the project's (the statements in autocommit would each see
            // their own snapshot until the three run side by side).
            try beginRead.bind().run()
            defer {
                sqlite3_reset(menuVariants.handle)
                sqlite3_reset(menuAttachments.handle)
                _ = try? commit.bind().run()
            }
            var categories: [CategoryRow] = []
            try menuCategories.bind().forEachRow {
                categories.append(
                    CategoryRow(
                        id: menuCategories.int(0), name: menuCategories.text(1), position: menuCategories.int(2),
                        usesOven: menuCategories.int(3) == 1))
            }
            var prices: [Int64: [(variant: String, cents: Int64)]] = [:]
            try menuPrices.bind().forEachRow {
                prices[menuPrices.int(0), default: []].append((menuPrices.text(1), menuPrices.int(2)))
            }
            var groups: [GroupRow] = []
            try menuGroups.bind().forEachRow {
                let g = menuGroups
                if groups.last?.id != g.int(0) {
                    groups.append(
                        GroupRow(
                            id: g.int(0), name: g.text(1), minSelected: g.int(2), maxSelected: g.int(3),
                            position: g.int(4)))
                }
                guard !g.isNull(5) else { return }
                groups[groups.count - 1].modifiers.append(
                    ModifierRow(
                        id: g.int(5), name: g.text(6), priceCents: g.int(7), allergens: g.int(8), position: g.int(9),
                        archivedAt: g.isNull(10) ? nil : g.text(10), stockLeft: g.isNull(11) ? nil : g.int(11),
                        stockUntil: g.isNull(12) ? nil : g.text(12), prices: prices[g.int(5)] ?? []))
            }
            // Each item's rows are adjacent in all three statements (one snapshot, one order): an
            // item takes the variant and attachment rows whose item id is its own, compared as bytes.
            let rank = Dictionary(uniqueKeysWithValues: groups.enumerated().map { ($1.id, $0) })
            menuVariants.bind()
            menuAttachments.bind()
            var variantAhead = try menuVariants.step(), attachmentAhead = try menuAttachments.step()
            var items = 0
            try menuItems.bind().forEachRow {
                let m = menuItems
                var variants: [VariantRow] = []
                while variantAhead, Self.sameText(m, 0, menuVariants, 0) {
                    let v = menuVariants
                    variants.append(
                        VariantRow(
                            id: v.int(1), name: v.text(2), priceCents: v.int(3), position: v.int(4),
                            isDefault: v.int(5) == 1))
                    variantAhead = try menuVariants.step()
                }
                if variants.count > 1 { variants.sort { ($0.position, $0.id) < ($1.position, $1.id) } }
                var groupIDs: [Int64] = []
                while attachmentAhead, Self.sameText(m, 0, menuAttachments, 0) {
                    groupIDs.append(menuAttachments.int(1))
                    attachmentAhead = try menuAttachments.step()
                }
                if groupIDs.count > 1 { groupIDs.sort { (rank[$0] ?? .max, $0) < (rank[$1] ?? .max, $1) } }
                let pizza = PizzaRow(
                    id: m.text(0), name: m.text(1), priceCents: m.int(2), archivedAt: m.isNull(3) ? nil : m.text(3),
                    version: m.int(4), createdAt: m.text(5), updatedAt: m.text(6), categoryID: m.int(7),
                    allergens: m.int(8), stockLeft: m.isNull(9) ? nil : m.int(9),
                    stockUntil: m.isNull(10) ? nil : m.text(10))
                let item = MenuItemRow(pizza: pizza, variants: variants, groupIDs: groupIDs)
                items += (item.pizza.priceCents > 0 ? 1 : 0) + item.variants.count + item.groupIDs.count
            }
            rows += items + (groups.isEmpty || categories.isEmpty ? 1 : 0)
        }
        return rows
    }

    /// Whether column `a` of `left`'s row and column `b` of `right`'s hold the same text.
    private static func sameText(_ left: CStatement, _ a: Int32, _ right: CStatement, _ b: Int32) -> Bool {
        let count = sqlite3_column_bytes(left.handle, a)
        guard count == sqlite3_column_bytes(right.handle, b),
            let x = sqlite3_column_text(left.handle, a), let y = sqlite3_column_text(right.handle, b)
        else { return false }
        return memcmp(x, y, Int(count)) == 0
    }
    // MARK: - Edits

    /// The edit path: read the pizza (the sheet's draft), validate, then compare-and-set the
    /// price at the version read, in its own transaction that says who acts (the audit log's
    /// context, as the project sets it) — the triggers record the history and the audit row.
    func editPrices(_ edits: [(pizza: Int, cents: Int64)]) throws -> Int {
        for edit in edits {
            let id = pizzaIDs[edit.pizza].uuid
            guard try pizzaForEdit.bind(id).step() else { throw BenchError("no pizza \(id)") }
            let version = pizzaForEdit.int(2)
            sqlite3_reset(pizzaForEdit.handle)
            guard edit.cents > 0, edit.cents <= 100_000 else { throw BenchError("invalid price") }
            try transaction {
                try enterAudit.bind().run()
                try updatePrice.bind(edit.cents, id, version).run()
                guard sqlite3_changes(database.db) == 1 else { throw BenchError("conflict") }
                try leaveAudit.bind().run()
                return true
            }
        }
        return edits.count
    }

    /// A version 7 UUID (RFC 9562), lowercase, as the project makes order ids: the first 48 bits
    /// `seconds` in milliseconds, the rest from SQLite's generator.
    private func timeOrderedUUID(at seconds: Double) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        sqlite3_randomness(16, &bytes)
        let milliseconds = UInt64(max(0, seconds * 1_000))
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - index))) }
        bytes[6] = (bytes[6] & 0x0F) | 0x70
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(45) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
