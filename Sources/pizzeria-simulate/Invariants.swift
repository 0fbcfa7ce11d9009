import Foundation
import PizzeriaServices
import PizzeriaStorage

/// What must hold after every step, checked against the model and by figures that must agree:
/// money, capacity, stock, the history, erasures, and `check` itself.
enum Invariants {
    /// Every invariant; throws the first that fails.
    /// Every invariant; throws the first that fails. The per-step ones are a few statements
    /// each; `full` adds those that read every order through the library (history, receipts,
    /// the cash-up), every table and the files' bytes (erasures), and `check`.
    static func verify(_ shop: Shop, full: Bool) throws {
        try money(shop, library: full)
        try capacity(shop)
        try stations(shop)
        try stock(shop)
        if full {
            try groupKinds(shop)
            try history(shop)
            try erasures(shop)
            try figures(shop)
            try check(shop)
        }
    }

    /// Nothing of an erased customer in the bytes of the file or of its `-wal` (deleted rows,
    /// freed pages, old frames): after an erasure and at the end of each evening.
    static func erasedBytes(_ shop: Shop) throws {
        let erased = shop.model.customers.filter(\.erased)
        let needles = erased.flatMap { [$0.token, $0.phoneDigits] }
        guard !needles.isEmpty else { return }
        // Read by another process: closing a descriptor of the file here would drop this
        // process's POSIX locks on it, which its open connections hold (another process could then
        // take the file as unused and delete the WAL under them).
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: shop.path + suffix) {
            guard try contains(shop.path + suffix, needles) else { continue }
            for needle in needles where try contains(shop.path + suffix, [needle]) {
                throw Finding(invariant: "erasure-bytes", detail: "the file\(suffix) still holds '\(needle)'")
            }
        }
    }

    /// VAT of one order's lines less what its discounts took off each rate, per rate on the
    /// order, half up: the simulator's own rounding.
    static func vat(of lines: [OrderLine], less discounts: [Int: Int64] = [:]) -> Int64 {
        var gross: [Int: Int64] = [:]
        for line in lines { gross[line.vatRate.basisPoints, default: 0] += line.total.cents }
        for (rate, cents) in discounts { gross[rate, default: 0] -= cents }
        return gross.reduce(0) { sum, pair in
            let (rate, amount) = (Int64(pair.key), pair.value)
            return sum + (2 * amount * rate + 10_000 + rate) / (2 * (10_000 + rate))
        }
    }

    // MARK: - Money

    /// Per payment kept ≥ 0; per order the file's payments and refunds are the model's, its
    /// total the sum of its lines, its balance due − kept in the library and in the view.
    static func money(_ shop: Shop, library: Bool) throws {
        let rows = try shop.pizzeria.database.read { db in
            try db.fetchAll(
                """
                SELECT o.id, o.status, o.total_cents,
                       (SELECT coalesce(sum(quantity * unit_price_cents), 0) FROM order_lines l WHERE l.order_id = o.id)
                       - (SELECT coalesce(sum(amount_cents), 0) FROM order_discounts d WHERE d.order_id = o.id) AS lines,
                       (SELECT coalesce(sum(amount_cents), 0) FROM payments p WHERE p.order_id = o.id) AS paid,
                       (SELECT coalesce(sum(r.amount_cents), 0) FROM payments p JOIN refunds r ON r.payment_id = p.id
                        WHERE p.order_id = o.id) AS refunded,
                       (SELECT count(*) FROM payments p WHERE p.order_id = o.id
                          AND p.amount_cents < (SELECT coalesce(sum(r.amount_cents), 0) FROM refunds r WHERE r.payment_id = p.id)) AS overrefunded,
                       v.balance_cents AS view_balance
                FROM orders o JOIN order_payments v ON v.order_id = o.id
                """
            ) { row in
                (
                    id: try row.string("id"), status: try row.string("status"), total: try row.int64("total_cents"),
                    lines: try row.int64("lines"), paid: try row.int64("paid"), refunded: try row.int64("refunded"),
                    overrefunded: try row.int("overrefunded"), view: try row.int64("view_balance")
                )
            }
        }
        let byID = Dictionary(uniqueKeysWithValues: shop.model.booked.map { ($0.id.description, $0) })
        for row in rows {
            guard row.overrefunded == 0 else {
                throw Finding(invariant: "money-kept", detail: "order \(row.id): a payment refunded past its amount")
            }
            guard row.total == row.lines else {
                throw Finding(
                    invariant: "money-total", detail: "order \(row.id): total \(row.total), lines \(row.lines)")
            }
            guard let model = byID[row.id] else { continue }
            let paid = model.paid.reduce(0, +), refunded = model.refunded.reduce(0, +)
            guard row.paid == paid, row.refunded == refunded else {
                throw Finding(
                    invariant: "money-records",
                    detail:
                        "order \(row.id): the file has paid \(row.paid) refunded \(row.refunded), the steps \(paid) and \(refunded)"
                )
            }
            guard row.total == model.total else {
                throw Finding(
                    invariant: "money-total", detail: "order \(row.id): \(row.total), the model \(model.total)")
            }
            let balance = library ? try shop.pizzeria.payments.payments(of: model.id).balance.cents : row.view
            guard balance == model.balance, row.view == model.balance else {
                throw Finding(
                    invariant: "money-balance",
                    detail: "order \(row.id) (\(row.status)): balance \(balance) (library), \(row.view) (view); "
                        + "due − kept is \(model.balance)")
            }
        }
    }

    // MARK: - Capacity and stock

    /// Each slot's load is its live orders' oven units, and at most its capacity plus what its
    /// live overrides took, up to the margin.
    static func capacity(_ shop: Shop) throws {
        let slots = try shop.pizzeria.database.read { db in
            try db.fetchAll(
                """
                SELECT s.pickup_at, s.booked, s.capacity,
                       coalesce((SELECT a.pizzas FROM slot_override_allowance a WHERE a.pickup_at = s.pickup_at), 0) AS allowance
                FROM slot_loads s
                """
            ) { row in
                (
                    pickup: try row.string("pickup_at"), booked: try row.int("booked"),
                    capacity: try row.int("capacity"),
                    allowance: try row.int("allowance")
                )
            }
        }
        let now = shop.clock.now
        for slot in slots {
            guard let pickup = PickupTime.fromUTC(slot.pickup) else { continue }
            let load = shop.model.load(at: pickup)
            guard load == slot.booked else {
                throw Finding(
                    invariant: "capacity-load", detail: "slot \(slot.pickup): booked \(slot.booked), its orders \(load)"
                )
            }
            // A past slot may have been booked under a larger capacity than today's.
            let margin = (slot.capacity + 3) / 4
            guard pickup <= now || slot.booked <= slot.capacity + min(margin, slot.allowance) else {
                throw Finding(
                    invariant: "capacity",
                    detail:
                        "slot \(slot.pickup): \(slot.booked) booked, capacity \(slot.capacity), allowance \(slot.allowance)"
                )
            }
        }
    }

    /// Every station other than the oven holds, per slot, the pieces of the live lines the model
    /// booked there, and in every slot ahead no more than its capacity there (its rule for the
    /// slot, else its own: a change that would leave a future slot over is refused) plus what its
    /// live staff overrides took, up to the margin.
    static func stations(_ shop: Shop) throws {
        let rows = try stationSlots(shop), now = PickupTime.utc(shop.clock.now)
        var expected: [String: Int] = [:]
        for order in shop.model.orders.values where order.status != .cancelled {
            for line in order.lines where !line.usesOven {
                guard let station = line.stationID else { continue }
                expected["\(station.rawValue) \(PickupTime.utc(order.pickup))", default: 0] += line.quantity
            }
        }
        for row in rows {
            guard (expected.removeValue(forKey: row.key) ?? 0) == row.booked else {
                throw Finding(
                    invariant: "station-load", detail: "station \(row.key): booked \(row.booked), its lines otherwise")
            }
            guard let capacity = row.capacity, row.pickup > now,
                row.booked > capacity + min((capacity + 3) / 4, row.allowance)
            else { continue }
            throw Finding(
                invariant: "station-capacity",
                detail:
                    "station \(row.key): \(row.booked) over its capacity \(capacity) (\(row.from ?? "its own")), "
                    + "allowance \(row.allowance)")
        }
        if let missing = expected.first(where: { $0.value > 0 }) {
            throw Finding(invariant: "station-load", detail: "station \(missing.key): \(missing.value) booked, no row")
        }
    }

    /// Each station slot with its load and capacity there, as the schema's view reads them.
    static func stationSlots(_ shop: Shop) throws -> [(
        key: String, pickup: String, booked: Int, capacity: Int?, from: String?, allowance: Int
    )] {
        try shop.pizzeria.database.read { db in
            try db.fetchAll(
                """
                SELECT c.station_id, c.pickup_at, c.booked, c.capacity, c.capacity_from,
                       coalesce((SELECT a.pieces FROM station_override_allowance a
                                 WHERE a.station_id = c.station_id AND a.pickup_at = c.pickup_at), 0) AS allowance
                FROM station_slot_capacity c
                """
            ) { row in
                (
                    key: "\(try row.int64("station_id")) \(try row.string("pickup_at"))",
                    pickup: try row.string("pickup_at"), booked: try row.int("booked"),
                    capacity: try row.optionalInt64("capacity").map { Int($0) },
                    from: try row.optionalString("capacity_from"), allowance: try row.int("allowance")
                )
            }
        }
    }

    /// An item or modifier the simulator limited has what it was given less what live orders took since.
    static func stock(_ shop: Shop) throws {
        for item in shop.model.items {
            guard let (left, liveAtSet) = item.stock else { continue }
            let expected = left - (shop.model.liveUnits(ofItem: item.id) - liveAtSet)
            let stored = try shop.pizzeria.menu.pizza(id: item.id)?.stockLeft
            guard stored == expected else {
                throw Finding(
                    invariant: "stock",
                    detail: "\(item.name): stock_left \(stored.map(String.init) ?? "none"), expected \(expected)")
            }
        }
        for modifier in shop.model.modifiers {
            guard let (left, liveAtSet) = modifier.stock else { continue }
            let expected = left - (shop.model.liveUnits(ofModifier: modifier.id) - liveAtSet)
            let stored = try shop.count("SELECT stock_left AS n FROM modifiers WHERE id = ?", [modifier.id])
            guard stored == expected else {
                throw Finding(
                    invariant: "stock", detail: "\(modifier.group) \(modifier.name): \(stored), expected \(expected)")
            }
        }
    }

    /// Every booked line of an item offering the dough choice carries exactly one dough (its
    /// default when the step named none), and every removal on a line is free.
    static func groupKinds(_ shop: Shop) throws {
        let ids = shop.model.items.filter(\.modifiers).map { "\"\($0.id)\"" }.joined(separator: ",")
        let wrongChoice = try shop.count(
            """
            SELECT count(*) AS n FROM order_lines l
            WHERE l.pizza_id IN (SELECT value FROM json_each(?))
              AND (SELECT count(*) FROM json_each(coalesce(l.modifiers, '[]')) e
                   WHERE json_extract(e.value, '$.kind') = 'choice' AND json_extract(e.value, '$.group') = 'Impasto') <> 1
            """, ["[" + ids + "]"])
        let pricedRemoval = try shop.count(
            """
            SELECT count(*) AS n FROM order_lines l, json_each(coalesce(l.modifiers, '[]')) e
            WHERE json_extract(e.value, '$.kind') = 'removal' AND json_extract(e.value, '$.price_cents') <> 0
            """)
        guard wrongChoice == 0 && pricedRemoval == 0 else {
            throw Finding(
                invariant: "group-kinds",
                detail: "\(wrongChoice) lines without exactly one Impasto, \(pricedRemoval) removals with a price")
        }
    }

    // MARK: - History

    /// Every order's history replays to its status, holds as many entries of each kind as the
    /// steps made, and names who made each change but for what was done by hand or by an erasure.
    static func history(_ shop: Shop) throws {
        for booked in shop.model.booked {
            guard let order = try shop.pizzeria.orders.order(id: booked.id) else {
                throw Finding(invariant: "history", detail: "order \(booked.id) is gone")
            }
            var status: OrderStatus? = nil
            for change in order.history where change.from != change.to || change.kind == .placed {
                if change.kind != .placed, change.from != status {
                    throw Finding(
                        invariant: "history",
                        detail:
                            "order \(order.id): \(change.kind) from \(String(describing: change.from)) after \(String(describing: status))"
                    )
                }
                status = change.to
            }
            guard status == order.status else {
                throw Finding(
                    invariant: "history",
                    detail:
                        "order \(order.id): the history ends at \(String(describing: status)), the order is \(order.status)"
                )
            }
            var counts: [String: Int] = [:]
            for change in order.history { counts[change.kind.rawValue, default: 0] += 1 }
            for kind in ["placed", "paid", "refunded", "undo", "edited"] {
                guard counts[kind, default: 0] == booked.events[kind, default: 0] else {
                    throw Finding(
                        invariant: "history",
                        detail:
                            "order \(order.id): \(counts[kind, default: 0]) '\(kind)' entries, the steps made \(booked.events[kind, default: 0])"
                    )
                }
            }
            // Every step names its staff; only a change made by hand in sqlite3 names no one.
            for change in order.history where change.actor == nil && change.detail?.hasPrefix("by hand") != true {
                throw Finding(
                    invariant: "history-actor", detail: "order \(order.id): a \(change.kind) entry names no one")
            }
        }
    }

    // MARK: - Erasure

    /// Nothing of an erased customer in any table, in the file's bytes or the `-wal`'s, or in a
    /// delivery made after the erasure.
    static func erasures(_ shop: Shop) throws {
        let erased = shop.model.customers.filter(\.erased)
        guard !erased.isEmpty else { return }
        for delivery in shop.model.deliveries {
            for customer in erased where delivery.step > (customer.erasedAtStep ?? .max) {
                if delivery.json.contains(customer.token) || delivery.json.contains(customer.phoneDigits) {
                    throw Finding(
                        invariant: "erasure", detail: "a delivery after \(customer.handle)'s erasure names them")
                }
            }
        }
        let tables = try shop.pizzeria.database.read { db in
            try db.fetchAll("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
                try $0.string("name")
            }
        }
        for table in tables {
            // The table's name comes from sqlite_schema, not from input.
            let texts = try shop.pizzeria.database.read { db in
                try db.fetchAll("SELECT * FROM \"\(table)\"") { row in
                    row.columns.map { "\(row[$0])" }.joined(separator: "|")
                }
            }
            for customer in erased {
                if let text = texts.first(where: { $0.contains(customer.token) || $0.contains(customer.phoneDigits) }) {
                    throw Finding(
                        invariant: "erasure", detail: "\(table) keeps \(customer.handle): \(text.prefix(200))")
                }
            }
        }
    }

    /// Whether the bytes of `path` contain any of `needles` (`grep -a -F -q`, in its own process).
    static func contains(_ path: String, _ needles: [String]) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["grep", "-a", "-F", "-q"] + needles.flatMap { ["-e", $0] } + ["--", path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    // MARK: - Figures that must agree

    /// Receipts, parties, the cash-up and `daily_vat` agree with each other and with the model.
    static func figures(_ shop: Shop) throws {
        let payments = shop.pizzeria.payments
        var days: Set<LocalDate> = []
        for booked in shop.model.booked {
            days.insert(booked.serviceDay)
            let receipt = try payments.receipt(of: booked.id)
            let members = shop.model.booked.filter { $0.party != nil && $0.party == booked.party }
            let party = members.isEmpty ? [booked] : members
            let due = party.reduce(0) { $0 + $1.due }
            let balance = party.reduce(0) { $0 + $1.balance }
            let expectedVAT = party.filter { $0.status != .cancelled }.reduce(0) {
                $0 + vat(of: $1.lines, less: $1.discounts)
            }
            guard receipt.total.cents == due, receipt.balance.cents == balance, receipt.vat.vat.cents == expectedVAT
            else {
                throw Finding(
                    invariant: "receipt",
                    detail:
                        "order \(booked.id): receipt total \(receipt.total.cents) balance \(receipt.balance.cents) VAT \(receipt.vat.vat.cents); "
                        + "its party's due \(due), balance \(balance), VAT \(expectedVAT)")
            }
        }
        for day in days {
            let close = try payments.dailyClose(day: day)
            let collected = shop.model.booked.filter { $0.serviceDay == day && $0.status == .collected }
            let expectedVAT = collected.reduce(0) { $0 + vat(of: $1.lines, less: $1.discounts) }
            let unpaid = Set(collected.filter { $0.balance > 0 }.map(\.id))
            let sales = collected.reduce(0) { $0 + $1.total }
            guard close.vat.vat.cents == expectedVAT, Set(close.unpaidCollected.map(\.orderID)) == unpaid,
                close.collected.cents == sales
            else {
                throw Finding(
                    invariant: "cash-up",
                    detail: "\(day): VAT \(close.vat.vat.cents) (orders \(expectedVAT)), unpaid "
                        + "\(close.unpaidCollected.count) (orders \(unpaid.count)), sales \(close.collected.cents) (orders \(sales))"
                )
            }
            let view = try shop.count(
                "SELECT coalesce(sum(vat_cents), 0) AS n FROM daily_vat WHERE service_day = ?", [day.description])
            guard view == expectedVAT else {
                throw Finding(invariant: "cash-up", detail: "\(day): daily_vat \(view), orders \(expectedVAT)")
            }
        }
    }

    /// `check` agrees: with every invariant above holding, the file passes it.
    static func check(_ shop: Shop) throws {
        let result = try Maintenance.check(path: shop.path, now: shop.clock.now)
        guard result.isHealthy, result.isDomainSound else {
            throw Finding(
                invariant: "check",
                detail: "check fails where the simulator's invariants hold: "
                    + (result.schemaDrift + result.domainProblems.map(\.description) + result.integrityProblems)
                    .joined(separator: "; "))
        }
    }
}
