import Foundation
import PizzeriaTestSupport
import Testing

/// `pizzeria order place --override` over a slot's capacity and `--split` for a party, on real files.
@Suite("CLI: overrides over capacity and parties (the real binary)")
struct PartyCommandTests {
    static let now = "2026-12-02T16:00:00Z"
    static let day = "2026-12-02"

    func pizzeria() throws -> CLI {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = Self.now
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        try cli.ok("config", "set", "slot-capacity", "4")
        try cli.ok("demo")
        return cli
    }

    @Test("--override books a full slot over its capacity by at most a quarter, recorded with who and why")
    func overCapacity() throws {
        let cli = try pizzeria()
        try cli.ok("order", "place", "anna", "--pickup", "\(Self.day)T20:00", "Margherita=4")
        let full = try cli.run("order", "place", "marco", "--pickup", "\(Self.day)T20:00", "Porcini")
        #expect(full.status == 1 && full.stderr.contains("--override") && full.stderr.contains("--split"), "\(full)")
        let unnamed = try cli.run(
            "order", "place", "marco", "--pickup", "\(Self.day)T20:00", "Porcini", "--override", "walk-in")
        #expect(unnamed.status == 65 && unnamed.stderr.contains("--by"), "\(unnamed)")
        let over =
            try cli.json(
                "order", "place", "marco", "--pickup", "\(Self.day)T20:00", "Porcini", "--override", "walk-in",
                "--by", "giulia") as? [String: Any]
        let id = try #require(over?["id"] as? String)
        let recorded = try cli.sqlite("SELECT order_id, pizzas, reason, actor FROM capacity_overrides;").stdout
        #expect(recorded == "\(id)|1|walk-in|giulia\n", "\(recorded)")
        let before = try cli.sqlite("SELECT count(*), sum(booked) FROM orders, slot_loads;").stdout
        let beyond = try cli.run(
            "order", "place", "marco", "--pickup", "\(Self.day)T20:00", "Marinara", "--override", "walk-in",
            "--by", "giulia")
        #expect(
            beyond.status == 1 && beyond.stderr.contains("at most 1 over its capacity")
                && beyond.stderr.contains("hint:"), "\(beyond)")
        #expect(try cli.sqlite("SELECT count(*), sum(booked) FROM orders, slot_loads;").stdout == before)
        let slots = try cli.json("slots", "--date", Self.day) as? [[String: Any]] ?? []
        let eight = slots.first { ($0["local"] as? String)?.hasSuffix("20:00") == true }
        #expect(eight?["booked"] as? Int == 5 && eight?["capacity"] as? Int == 4, "\(String(describing: eight))")
        try cli.ok("check")
    }

    @Test("--split spreads a party over consecutive slots as linked orders with one total and one receipt")
    func split() throws {
        let cli = try pizzeria()
        try cli.ok("order", "place", "anna", "--pickup", "\(Self.day)T20:15", "Margherita=3")
        let text = try cli.ok(
            "order", "place", "marco", "--pickup", "\(Self.day)T20:00", "--split", "Margherita=7", "Acqua", "--key",
            "party"
        ).stdout
        #expect(text.contains("3 orders") && text.contains("20:00") && text.contains("20:30"), "\(text)")
        let party =
            try cli.json(
                "order", "place", "marco", "--pickup", "\(Self.day)T20:00", "--split", "Margherita=7", "Acqua", "--key",
                "party") as? [String: Any]
        #expect(
            party?["created"] as? Bool == false && party?["pizzas"] as? Int == 7 && party?["other_items"] as? Int == 1,
            "\(String(describing: party))")
        #expect(party?["total_cents"] as? Int == 7 * 600 + 150)
        let orders = party?["orders"] as? [[String: Any]] ?? []
        #expect(orders.map { ($0["lines"] as? [Any])?.count } == [2, 1, 1], "\(orders)")
        let partyID = try #require(party?["party_id"] as? String)
        #expect(orders.allSatisfy { $0["party_id"] as? String == partyID })
        let last = try #require(orders.last?["id"] as? String)
        let shown = try cli.ok("order", "show", last).stdout
        #expect(shown.contains("party") && shown.contains(shortID(partyID)), "\(shown)")
        let receipt = try cli.json("order", "receipt", last) as? [String: Any]
        #expect(receipt?["party_total_cents"] as? Int == 7 * 600 + 150, "\(String(describing: receipt))")
        #expect((receipt?["party"] as? [Any])?.count == 2)
        let printed = try cli.ok("order", "receipt", last).stdout
        #expect(printed.contains("Gruppo \(shortID(partyID))"), "\(printed)")
        let printedLines = printed.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(printedLines.contains { $0.hasPrefix("TOTALE EUR") && $0.hasSuffix(" 43.50") }, "\(printed)")
        // In pickup order, whichever order the receipt was asked from.
        let times = printedLines.filter { $0.hasPrefix("Ordine ") }.map { String($0.suffix(5)) }
        #expect(times == ["20:00", "20:15", "20:30"], "\(printed)")
        // Too big for the evening's last slots: refused whole, nothing booked.
        let count = try cli.sqlite("SELECT count(*) FROM orders;").stdout
        let refused = try cli.run("order", "place", "marco", "--pickup", "\(Self.day)T22:30", "--split", "Margherita=9")
        #expect(refused.status == 1 && refused.stderr.contains("does not fit"), "\(refused)")
        #expect(try cli.sqlite("SELECT count(*) FROM orders;").stdout == count)
        try cli.ok("check")
    }

    @Test("a party's key retried without --split answers with the whole party; drinks are not counted as pizzas")
    func keyRetryAndCounts() throws {
        let cli = try pizzeria()
        let booked = try cli.ok(
            "order", "place", "marco", "--pickup", "\(Self.day)T20:00", "--split", "Margherita=6", "Acqua=3", "--key",
            "p2"
        ).stdout
        #expect(booked.contains("6 pizzas and 3 other items"), "\(booked)")
        let retried = try cli.ok(
            "order", "place", "marco", "--pickup", "\(Self.day)T20:00", "Margherita=6", "Acqua=3", "--key", "p2"
        ).stdout
        #expect(
            retried.hasPrefix("Already booked with key 'p2': party") && retried.contains("2 orders")
                && retried.contains("6 pizzas and 3 other items"), "\(retried)")
        let json =
            try cli.json(
                "order", "place", "marco", "--pickup", "\(Self.day)T20:00", "Margherita=6", "Acqua=3", "--key", "p2")
            as? [String: Any]
        #expect(
            (json?["orders"] as? [Any])?.count == 2 && json?["pizzas"] as? Int == 6
                && json?["created"] as? Bool == false)
    }
}
