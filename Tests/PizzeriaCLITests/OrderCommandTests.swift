import Foundation
import PizzeriaTestSupport
import Testing

@Suite("CLI: users, settings, orders, slots, reports (the real binary)")
struct OrderCommandTests {
    /// The clock every command of these tests runs with (`PIZZERIA_NOW`): 23:30 UTC, when it is
    /// already the next day in Rome — the hour at which "tomorrow" used to differ between the
    /// demo and the tests.
    static let now = "2026-12-01T23:30:00Z"
    /// Tomorrow in Rome at ``now``.
    static let tomorrow = "2026-12-03"

    func pizzeria(capacity: Int = 12) throws -> CLI {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = Self.now
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        try cli.ok("demo")
        try cli.ok("config", "set", "slot-capacity", "\(capacity)")
        try cli.ok("user", "add", "luca", "--name", "Luca")
        return cli
    }

    @Test("users: add, list, show; handles are lowercased and validated; unknown → 66")
    func users() throws {
        let cli = try pizzeria()
        let added = try cli.json("user", "add", "Giulia.B") as? [String: Any]
        #expect(added?["handle"] as? String == "giulia.b")
        #expect(try cli.run("user", "add", "giulia.b").status == 1)
        let invalid = try cli.run("user", "add", "no spaces!")
        #expect(invalid.status == 65 && invalid.stderr.contains("error: handle: may contain only"))
        let long = try cli.run("user", "add", String(repeating: "a", count: 33))
        #expect(long.status == 65 && long.stderr.contains("at most 32"))
        #expect(try cli.ok("user", "list").stdout.contains("giulia.b"))
        let shown = try cli.json("user", "show", "anna") as? [String: Any]
        #expect((shown?["orders"] as? [Any])?.count == 1)
        let unknown = try cli.run("user", "show", "nobody")
        #expect(unknown.status == 66 && unknown.stderr.contains("no user with handle or id 'nobody'"))
        let order = try cli.run("order", "place", "nobody", "--pickup", "\(Self.tomorrow)T19:00", "Margherita")
        #expect(order.status == 66, "\(order)")
    }

    @Test("config show and set, validated; unknown keys are usage errors")
    func config() throws {
        let cli = try pizzeria()
        let settings = try cli.json("config", "show") as? [String: Any]
        #expect(settings?["time_zone"] as? String == "Europe/Rome" && settings?["slot_minutes"] as? Int == 15)
        #expect(settings?["opening_hours"] as? String == "Mo-Su 12:00-23:00")
        let bad = try cli.run("config", "set", "slot-minutes", "7")
        #expect(
            bad.status == 65
                && bad.stderr.contains("error: slot-minutes: must be a whole number of minutes that divides 60"))
        let unknown = try cli.run("config", "set", "slot-minute", "10")
        #expect(unknown.status == 64 && unknown.stderr.contains("did you mean 'slot-minutes'?"))
        // Settings that would contradict the bookings are refused, naming the slots.
        let hours = try cli.run("config", "set", "opening-hours", "18:00-20:00")
        #expect(
            hours.status == 1 && hours.stderr.contains("outside the hours: ")
                && hours.stderr.contains("\(Self.tomorrow) 20:30"), "\(hours)")
        let capacity = try cli.run("config", "set", "slot-capacity", "5")
        #expect(
            capacity.status == 1 && capacity.stderr.contains("\(Self.tomorrow) 19:00 (6 pizzas booked)"), "\(capacity)")
        let minutes = try cli.run("config", "set", "slot-minutes", "60")
        #expect(
            minutes.status == 1 && minutes.stderr.contains("would leave") && minutes.stderr.contains("20:30"),
            "\(minutes)")
        let negative = try cli.run("config", "set", "slot-capacity", "-1")
        #expect(negative.status == 65 && negative.stderr.contains("slot-capacity: must be"), "\(negative)")
        try cli.ok("config", "set", "opening-hours", "18:00-21:00")
        let slots = try cli.json("slots", "--date", Self.tomorrow) as? [[String: Any]] ?? []
        #expect(
            slots.map { $0["local"] as? String } == [
                "18:00", "18:15", "18:30", "18:45", "19:00", "19:15", "19:30", "19:45",
                "20:00", "20:15", "20:30", "20:45",
            ])
        let horizon = try cli.run("order", "place", "luca", "--pickup", "9999-12-31T19:00", "Margherita")
        #expect(horizon.status == 1 && horizon.stderr.contains("more than 365 days ahead"), "\(horizon)")
    }

    @Test("order place: items, merges, every time form; show, list, advance, cancel")
    func orders() throws {
        let cli = try pizzeria()
        let placed =
            try cli.json(
                "order", "place", "luca", "--pickup", "\(Self.tomorrow)T19:30", "margherita=2", "Porcini", "Margherita")
            as? [String: Any]
        #expect(placed?["created"] as? Bool == true && placed?["total_cents"] as? Int == 3 * 600 + 1200)
        #expect(placed?["pickup_local"] as? String == "\(Self.tomorrow) 19:30")
        let lines = placed?["lines"] as? [[String: Any]] ?? []
        #expect(lines.map { $0["quantity"] as? Int } == [3, 1])
        let id = placed?["id"] as? String ?? ""

        // The same slot given in UTC with Z, and with an explicit offset.
        let utc =
            try cli.json("order", "place", "luca", "--pickup", "\(Self.tomorrow)T18:30:00Z", "Marinara")
            as? [String: Any]
        #expect(utc?["pickup_local"] as? String == "\(Self.tomorrow) 19:30")
        let offset =
            try cli.json("order", "place", "luca", "--pickup", "\(Self.tomorrow)T20:30+01:00", "Marinara")
            as? [String: Any]
        #expect(offset?["pickup_local"] as? String == "\(Self.tomorrow) 20:30")

        #expect(try cli.ok("order", "show", shortID(id)).stdout.contains("Total"))
        let mine = try cli.json("order", "list", "--user", "luca", "--date", Self.tomorrow) as? [[String: Any]]
        #expect(mine?.count == 3)
        #expect((try cli.json("order", "advance", id) as? [String: Any])?["status"] as? String == "preparing")
        #expect((try cli.json("order", "cancel", id) as? [String: Any])?["status"] as? String == "cancelled")
        let again = try cli.run("order", "cancel", id)
        #expect(again.status == 1 && again.stderr.contains("is cancelled"), "\(again)")
        #expect((try cli.json("order", "list", "--status", "cancelled") as? [Any])?.count == 1)
        let report = try cli.json("report", "sales", "--from", Self.tomorrow, "--to", Self.tomorrow) as? [String: Any]
        // Nothing collected yet: the demo's 8 pizzas tomorrow plus luca's two Marinara are booked, not revenue;
        // the cancelled order is counted apart.
        #expect(
            report?["total_quantity"] as? Int == 0 && report?["total_revenue_cents"] as? Int == 0,
            "\(String(describing: report))")
        let pizzas = report?["pizzas"] as? [[String: Any]] ?? []
        #expect(pizzas.reduce(0) { $0 + ($1["booked_quantity"] as? Int ?? 0) } == 8 + 2)
        #expect((report?["days"] as? [[String: Any]])?.first?["cancelled"] as? Int == 1)
    }

    @Test(
        "refusals through the CLI: exit codes and messages, nothing written",
        arguments: [
            (["order", "place", "luca", "--pickup", "TOMORROWT19:07", "Margherita"], 1, "nearest slots: 19:00, 19:15"),
            (["order", "place", "luca", "--pickup", "TOMORROWT08:00", "Margherita"], 1, "is outside the hours of"),
            (["order", "place", "luca", "--pickup", "2020-01-01T19:00", "Margherita"], 1, "in the past"),
            (
                ["order", "place", "luca", "--pickup", "TOMORROWT19:00", "Margherita=7"], 1,
                "has only 6 pizzas left (asked for 7); the first slot that takes 7 pizzas is"
            ),
            (
                ["order", "place", "luca", "--pickup", "TOMORROWT19:00", "Margherita=13"], 1,
                "19:00 slot takes (12); the largest order a slot takes is 12; no slot within the booking horizon takes it"
            ),
            (
                ["order", "place", "luca", "--pickup", "TOMORROWT19:00", "Margherita=21"], 65,
                "quantity: must be from 1 to 20"
            ),
            (["order", "place", "luca", "--pickup", "TOMORROWT19:00", "Margherita=two"], 65, "item:"),
            (["order", "place", "luca", "--pickup", "teatime", "Margherita"], 65, "pickup: must be HH:MM"),
            (["order", "place", "luca", "--pickup", "TOMORROWT19:00"], 64, "missing argument <item>"),
            (["order", "place", "luca", "Margherita"], 64, "--pickup"),
            (["order", "place", "luca", "--pickup", "TOMORROWT19:00", "Hawaii"], 66, "no pizza"),
            (["order", "show", "ffffffff"], 66, "no order"),
            (["order", "list", "--status", "eaten"], 65, "status: must be one of"),
            (["slots", "--date", "the-day-after"], 65, "date: 'the-day-after' is not a date"),
        ] as [([String], Int32, String)])
    func refusals(arguments: [String], status: Int32, message: String) throws {
        let cli = try pizzeria(capacity: 12)
        let before = try cli.sqlite("SELECT * FROM orders; SELECT * FROM order_lines;").stdout
        let result = try cli.run(arguments.map { $0.replacingOccurrences(of: "TOMORROW", with: Self.tomorrow) })
        #expect(result.status == status, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
        #expect(try cli.sqlite("SELECT * FROM orders; SELECT * FROM order_lines;").stdout == before)
    }

    /// Starts `count` processes running `pizzeria arguments(i)…` at once and waits for all.
    func concurrently(_ cli: CLI, count: Int, _ arguments: @escaping @Sendable (Int) -> [String]) async throws
        -> [ProcessResult]
    {
        let environment = cli.environment
        return try await withThrowingTaskGroup(of: ProcessResult.self) { group in
            for index in 0..<count {
                group.addTask {
                    try PizzeriaBinary.run(arguments(index), in: cli.directory.url, environment: environment)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test("10 processes booking one slot at once never overbook it, and none gets 'busy'")
    func noOverbooking() async throws {
        let cli = try pizzeria(capacity: 12)
        let slot = "\(Self.tomorrow)T21:00"
        // 10 × 2 = 20 pizzas asked for a slot of 12.
        let results = try await concurrently(cli, count: 10) { _ in
            ["order", "place", "luca", "--pickup", slot, "Porcini=2"]
        }
        let booked = results.filter { $0.status == 0 }
        let full = results.filter {
            $0.status == 1 && ($0.stderr.contains("slot is full") || $0.stderr.contains("left"))
        }
        #expect(booked.count == 6, "\(results)")
        #expect(full.count == 4, "\(results)")
        #expect(!results.contains { $0.stderr.contains("busy") })
        let slots = try cli.json("slots", "--date", Self.tomorrow) as? [[String: Any]] ?? []
        let load = slots.first { $0["local"] as? String == "21:00" }
        #expect(load?["booked"] as? Int == 12 && load?["remaining"] as? Int == 0)
        try cli.ok("check")
    }

    @Test("idempotency under retry: processes racing with one key create exactly one order")
    func idempotentRace() async throws {
        let cli = try pizzeria()
        let results = try await concurrently(cli, count: 8) { _ in
            [
                "--json", "order", "place", "luca", "--pickup", "\(Self.tomorrow)T19:45", "--key", "retry-42",
                "Marinara=2",
            ]
        }
        #expect(results.allSatisfy { $0.status == 0 }, "\(results)")
        let ids = Set(
            results.compactMap { result in
                (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])?["id"] as? String
            })
        #expect(ids.count == 1)
        let created = results.filter { $0.stdout.contains("\"created\" : true") }
        #expect(created.count == 1)
        let rows = try cli.sqlite("SELECT count(*) FROM orders WHERE idempotency_key = 'retry-42';").stdout
        #expect(rows == "1\n")
        let reused = try cli.run(
            "order", "place", "luca", "--pickup", "\(Self.tomorrow)T19:45", "--key", "retry-42", "Marinara=3")
        #expect(reused.status == 1 && reused.stderr.contains("different content"))
    }

    @Test("analysts: order_summary reads well; hand-written overbooking and bad statuses are refused")
    func analystViews() throws {
        let cli = try pizzeria(capacity: 6)
        let summary = try cli.sqlite(
            "SELECT handle, status, items, total_eur FROM order_summary WHERE handle = 'anna';", readOnly: true)
        #expect(summary.stdout == "anna|placed|2 × Margherita Normale, 1 × Porcini|24.00\n", "\(summary)")
        let overbook = try cli.sqlite(
            """
            INSERT INTO orders (id, user_id, pickup_at, service_day, pickup_local)
              SELECT 'bbbbbbbb-0000-4000-8000-000000000000', user_id, pickup_at, service_day, pickup_local FROM orders LIMIT 1;
            INSERT INTO order_lines (order_id, line_no, pizza_id, pizza_name, unit_price_cents, quantity, variant_id, base_price_cents,
                                     allergens)
              SELECT 'bbbbbbbb-0000-4000-8000-000000000000', 1, p.id, p.name, p.price_cents, 5, v.id, coalesce(v.price_cents, p.price_cents), p.allergens
              FROM pizzas p JOIN pizza_variants v ON v.pizza_id = p.id AND v.is_default WHERE p.name = 'Porcini';
            """)
        // A line is added only by Pizzeria: sqlite3 has no pizzeria_connection() (migration 38).
        #expect(overbook.status != 0 && overbook.stderr.contains("pizzeria_connection"), "\(overbook)")
        let more = try cli.sqlite("UPDATE order_lines SET quantity = quantity + 5;")
        #expect(more.status != 0 && more.stderr.contains("slot_capacity_exceeded"), "\(more)")
        let status = try cli.sqlite("UPDATE orders SET status = 'collected';")
        #expect(status.status != 0 && status.stderr.contains("illegal order status change"))
    }
}

@Suite("CLI: order watch, the kitchen display (the real binary)")
struct OrderWatchTests {
    @Test("watch in the background, book and advance from other processes: the lines appear; SIGTERM ends it with 0")
    func watch() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = OrderCommandTests.now
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        try cli.ok("demo")
        let watcher = try cli.start(["--json", "order", "watch", "--interval", "50"])
        #expect(watcher.waitForOutput { _, err in err.contains("watching orders") })
        let booked =
            try cli.json("order", "place", "anna", "--pickup", "\(OrderCommandTests.tomorrow)T21:00", "Marinara=2")
            as? [String: Any]
        let id = try #require(booked?["id"] as? String)
        try cli.ok("order", "advance", shortID(id))
        #expect(watcher.waitForOutput { out, _ in out.split(separator: "\n").count >= 2 }, "\(watcher.outputSoFar)")
        watcher.signal(SIGTERM)
        let result = try watcher.wait(timeout: 10)
        #expect(result.status == 0, "\(result)")
        let events = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(events.map { $0["kind"] as? String } == ["placed", "status_changed"])
        #expect(events.allSatisfy { ($0["order"] as? [String: Any])?["id"] as? String == id })
        #expect(events.last?["to"] as? String == "preparing")
        // Replaying from a cursor gives what came after it, as text lines.
        let cursor = try #require(events.first?["cursor"] as? String)
        let replay = try cli.start(["order", "watch", "--after", cursor, "--status", "preparing", "--interval", "50"])
        #expect(replay.waitForOutput { out, _ in out.contains("placed → preparing") }, "\(replay.outputSoFar)")
        replay.signal(SIGINT)
        let replayed = try replay.wait(timeout: 10)
        #expect(replayed.status == 0 && replayed.stdout.split(separator: "\n").count == 1, "\(replayed)")
    }
}
