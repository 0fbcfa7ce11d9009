import Foundation
import PizzeriaTestSupport
import Testing

/// `pizzeria order delay` on real files.
@Suite("CLI: bulk delays (the real binary)")
struct DelayCommandTests {
    static let now = "2026-12-02T16:00:00Z"
    static let day = "2026-12-02"

    func pizzeria() throws -> CLI {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = Self.now
        cli.environment["PIZZERIA_STAFF"] = "giulia"
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        try cli.ok("config", "set", "slot-capacity", "4")
        try cli.ok("demo")
        return cli
    }

    func place(_ cli: CLI, _ user: String, _ time: String, _ items: String...) throws -> String {
        let order = try cli.json(["order", "place", user, "--pickup", "\(Self.day)T\(time)"] + items) as? [String: Any]
        return try #require(order?["id"] as? String)
    }

    @Test("a window of orders moves in one go, preparing ones too; a refusal names each order and moves none")
    func delay() throws {
        let cli = try pizzeria()
        let first = try place(cli, "anna", "20:00", "Margherita=4")
        let second = try place(cli, "marco", "20:15", "Porcini=2")
        try cli.ok("order", "advance", first)
        let moved = try cli.ok("order", "delay", "--from", "20:00", "--to", "20:30", "--by-minutes", "15").stdout
        #expect(moved.contains("Delayed 2 orders by 15 minutes") && moved.contains("(preparing)"), "\(moved)")
        let shown = try cli.json("order", "show", first) as? [String: Any]
        #expect((shown?["pickup_local"] as? String)?.hasPrefix("\(Self.day) 20:15") == true)
        let history = shown?["history"] as? [[String: Any]] ?? []
        #expect(
            (history.last?["detail"] as? String)?.hasSuffix("delayed +15") == true
                && history.last?["by"] as? String == "giulia")
        // 20:30 is full now (marco's 2 + 2 more); another +15 of 20:15 would put 4 on it: refused whole.
        _ = try place(cli, "anna", "20:30", "Marinara=2")
        let before = try cli.sqlite("SELECT id, pickup_at FROM orders ORDER BY id;").stdout
        let refused = try cli.run("order", "delay", first, "--by-minutes", "15")
        #expect(
            refused.status == 1 && refused.stderr.contains("none was moved")
                && refused.stderr.contains(shortID(first)), "\(refused)")
        #expect(try cli.sqlite("SELECT id, pickup_at FROM orders ORDER BY id;").stdout == before)
        let partial = try cli.run("order", "delay", first, second, "--by-minutes", "15", "--best-effort")
        #expect(partial.status == 1 && partial.stdout.contains("Not moved (1)"), "\(partial)")
        for (arguments, status) in [
            (["order", "delay", "--by-minutes", "15"], Int32(64)),
            (["order", "delay", first, "--from", "20:00", "--to", "21:00", "--by-minutes", "15"], 64),
            (["order", "delay", first, "--by-minutes", "7"], 65),
            (["order", "delay", "--from", "25:00", "--to", "21:00", "--by-minutes", "15"], 65),
        ] {
            #expect(try cli.run(arguments).status == status, "\(arguments)")
        }
        try cli.ok("check")
    }
}
