import Foundation
import PizzeriaTestSupport
import Testing

@Suite("CLI: capacity rules, pause, rush and the pickup-time picker (the real binary)")
struct CapacityCommandTests {
    /// Friday 2026-12-04, 10:00 in Rome.
    static let now = "2026-12-04T09:00:00Z"

    func pizzeria() throws -> CLI {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = Self.now
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        try cli.ok("pizza", "add", "--name", "Margherita", "--price", "6")
        for index in 0..<10 { try cli.ok("user", "add", "user\(index)") }
        return cli
    }

    @Test("capacity set/show/clear; slots show each slot's capacity and rule; bad rules are 65 and change nothing")
    func rules() throws {
        let cli = try pizzeria()
        try cli.ok("capacity", "set", "fri,sat", "18:30-21:00", "20")
        try cli.ok("capacity", "set", "2026-12-31", "19:00-23:00", "30")
        let shown = try cli.ok("capacity", "show").stdout
        #expect(
            shown.contains("fri 18:30-21:00") && shown.contains("sat 18:30-21:00")
                && shown.contains("2026-12-31 19:00-23:00"), "\(shown)")
        let slots = try cli.json("slots", "--date", "today") as? [[String: Any]] ?? []
        let at1900 = slots.first { $0["local"] as? String == "19:00" }
        #expect(
            at1900?["capacity"] as? Int == 20 && at1900?["capacity_rule"] as? String == "fri 18:30-21:00",
            "\(String(describing: at1900))")
        #expect(try cli.ok("slots", "--date", "today").stdout.contains("fri 18:30-21:00"))
        let before = try cli.sqlite("SELECT * FROM capacity_rules;").stdout
        for attempt in [
            ["capacity", "set", "fri", "18:00-19:00", "0"], ["capacity", "set", "fri", "18:00-19:00", "10001"],
            ["capacity", "set", "fri", "20:00-22:00", "5"], ["capacity", "set", "someday", "18:00-19:00", "5"],
            ["capacity", "set", "fri", "18:00", "5"],
        ] {
            let result = try cli.run(attempt)
            #expect(result.status == 65 && result.stderr.hasPrefix("error: "), "\(attempt): \(result)")
        }
        #expect(try cli.sqlite("SELECT * FROM capacity_rules;").stdout == before)
        #expect(try cli.ok("capacity", "clear", "sat").stdout.contains("Removed 1 capacity rule."))
        // Lowering below what is booked: 1, naming the slot.
        try cli.ok("order", "place", "user0", "--pickup", "19:00", "Margherita=15")
        let lower = try cli.run("capacity", "set", "fri", "18:30-21:00", "10")
        #expect(lower.status == 1 && lower.stderr.contains("2026-12-04 19:00 (15 pizzas booked)"), "\(lower)")
    }

    @Test("ten processes book one rule-governed slot at once: never more pizzas than the rule's capacity")
    func concurrentBookersOnRuleSlot() throws {
        let cli = try pizzeria()
        try cli.ok("capacity", "set", "fri", "19:00-20:00", "7")
        let runs = try (0..<10).map {
            try cli.start(["order", "place", "user\($0)", "--pickup", "19:00", "Margherita"])
        }
        let results = try runs.map { try $0.wait(timeout: 60) }
        #expect(results.filter { $0.status == 0 }.count == 7, "\(results.map(\.status))")
        #expect(
            results.filter { $0.status == 1 }.allSatisfy { $0.stderr.contains("slot is full") },
            "\(results.map(\.stderr))")
        #expect(
            try cli.sqlite("SELECT booked, capacity, capacity_from FROM slot_capacity;").stdout
                == "7|7|fri 19:00-20:00\n")
        #expect(try cli.sqlite("SELECT sum(quantity) FROM order_lines;").stdout == "7\n")
    }

    @Test(
        "pause and resume, busy and off, each ending by itself at --until (PIZZERIA_NOW); visible in config and hours")
    func pauseAndRush() throws {
        var cli = try pizzeria()
        try cli.ok("order", "place", "user0", "--pickup", "19:00", "Margherita")
        let orders = try cli.sqlite("SELECT * FROM orders;").stdout
        try cli.ok("pause", "--until", "12:00", "--reason", "oven repair")
        let refused = try cli.run("order", "place", "user1", "--pickup", "19:00", "Margherita")
        #expect(
            refused.status == 1 && refused.stderr.contains("not taking orders until 2026-12-04 12:00: oven repair"),
            "\(refused)")
        #expect(
            try cli.ok("config", "show").stdout.contains(
                "Paused: not taking orders until 2026-12-04 12:00: oven repair"))
        #expect(try cli.ok("hours", "show").stdout.contains("Paused"))
        #expect((try cli.json("hours", "show") as? [String: Any])?["pause"] is [String: Any])
        #expect(try cli.sqlite("SELECT * FROM orders;").stdout == orders)
        let picker = try cli.json("slots", "--available", "--limit", "1") as? [String: Any]
        #expect((picker?["slots"] as? [[String: Any]])?.isEmpty == true && picker?["reason"] as? String == "paused")
        #expect(
            (picker?["first_after_pause"] as? [String: Any])?["local"] as? String == "2026-12-04 12:00",
            "\(String(describing: picker))")
        cli.environment["PIZZERIA_NOW"] = "2026-12-04T11:00:00Z"  // 12:00 in Rome: over by itself
        try cli.ok("order", "place", "user1", "--pickup", "19:00", "Margherita")
        #expect(try !cli.ok("config", "show").stdout.contains("Paused"))
        try cli.ok("pause")
        let paused = try cli.json("slots", "--available") as? [String: Any]
        #expect(paused?["reason"] as? String == "paused" && (paused?["slots"] as? [Any])?.isEmpty == true)
        try cli.ok("resume")

        try cli.ok("busy", "45", "--until", "13:00")
        let soon = try cli.run("order", "place", "user2", "--pickup", "12:45", "Margherita")
        #expect(soon.status == 1 && soon.stderr.contains("less than 60 minutes"), "\(soon)")
        #expect(try cli.ok("config", "show").stdout.contains("Rush: +45 minutes"))
        cli.environment["PIZZERIA_NOW"] = "2026-12-04T12:00:00Z"
        try cli.ok("order", "place", "user2", "--pickup", "13:30", "Margherita")
        try cli.ok("busy", "30")
        try cli.ok("busy", "off")
        #expect(try !cli.ok("config", "show").stdout.contains("Rush"))
        for attempt in [
            ["busy", "-5"], ["busy", "0"], ["busy", "soon"], ["pause", "--until", "2026-12-04T08:00"],
            ["busy", "10", "--until", "10:00"],
        ] {
            let result = try cli.run(attempt)
            #expect(result.status == 65, "\(attempt): \(result)")
        }
    }

    @Test("slots --available: the app's JSON, the table, CSV; bounds; a too-large order says why")
    func picker() throws {
        let cli = try pizzeria()
        try cli.ok("capacity", "set", "fri", "19:00-20:00", "20")
        let json = try cli.json("slots", "--available", "--pizzas", "15", "--limit", "2") as? [String: Any]
        let slots = json?["slots"] as? [[String: Any]] ?? []
        #expect(slots.map { $0["local"] as? String } == ["2026-12-04 19:00", "2026-12-04 19:15"], "\(slots)")
        #expect(
            slots.first?["capacity_rule"] as? String == "fri 19:00-20:00"
                && slots.first?["offset"] as? String == "+01:00")
        #expect((slots.first?["start"] as? String)?.hasSuffix("Z") == true && json?["largest_order"] as? Int == 20)
        let table = try cli.ok("slots", "--available", "--limit", "2").stdout
        #expect(table.hasPrefix("PICKUP") && table.contains("2026-12-04 12:00"), "\(table)")
        #expect(
            try cli.ok("slots", "--available", "--limit", "1", "--csv").stdout.hasPrefix(
                "pickup,start,service_day,offset,remaining,capacity,capacity_rule\r\n"))
        let big = try cli.run("slots", "--available", "--pizzas", "21")
        #expect(
            big.status == 0 && big.stdout.isEmpty && big.stderr.contains("more than any slot takes (at most 20)"),
            "\(big)")
        for attempt in [
            ["slots", "--available", "--limit", "1000000000"], ["slots", "--available", "--pizzas", "0"],
            ["slots", "--available", "--limit", "0"],
        ] {
            let result = try cli.run(attempt)
            #expect(result.status == 65, "\(attempt): \(result)")
        }
        #expect(try cli.run("slots", "--limit", "3").status == 64)
        // A booking for a full size names the first slot that takes it.
        try cli.ok("order", "place", "user0", "--pickup", "19:00", "Margherita=15")
        let full = try cli.run("order", "place", "user1", "--pickup", "19:00", "Margherita=15")
        #expect(
            full.status == 1 && full.stderr.contains("the first slot that takes 15 pizzas is 2026-12-04 19:15"),
            "\(full)")
    }
}
