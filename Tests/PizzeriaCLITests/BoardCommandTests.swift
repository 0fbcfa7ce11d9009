import Foundation
import PizzeriaTestSupport
import Testing

/// `pizzeria order board` on real files.
@Suite("CLI: the kitchen board (the real binary)")
struct BoardCommandTests {
    static let day = "2026-12-02"

    func pizzeria(now: String) throws -> CLI {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = now
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        try cli.ok("config", "set", "language", "en")
        try cli.ok("demo")
        try cli.ok("user", "edit", "anna", "--name", "Anna Rossi")
        return cli
    }

    @Test("per slot, in time order: what to bake with variants and modifiers, each order's state, LATE and DUE")
    func board() throws {
        var cli = try pizzeria(now: "2026-12-02T17:00:00Z")  // 18:00 in Rome
        let first =
            try cli.json(
                "order", "place", "anna", "--pickup", "\(Self.day)T20:00", "Margherita/Maxi+bufala=2", "Aranciata")
            as? [String: Any]
        let second =
            try cli.json("order", "place", "marco", "--pickup", "\(Self.day)T19:00", "Porcini") as? [String: Any]
        let firstID = try #require(first?["id"] as? String), secondID = try #require(second?["id"] as? String)
        try cli.ok("order", "advance", secondID)
        // 19:20 in Rome: marco's 19:00 is 20 minutes late; anna's 20:00 is due (the lead time is 15… no: 40 minutes away).
        cli.environment["PIZZERIA_NOW"] = "2026-12-02T18:20:00Z"
        let board = try cli.json("order", "board", "--date", Self.day) as? [String: Any]
        let slots = board?["slots"] as? [[String: Any]] ?? []
        #expect(slots.map { ($0["local"] as? String)?.suffix(5) } == ["19:00", "20:00"])
        let late = (slots.first?["orders"] as? [[String: Any]])?.first
        #expect(
            late?["id"] as? String == secondID && late?["late_minutes"] as? Int == 20
                && late?["status"] as? String == "preparing")
        let bake = slots.last?["bake"] as? [[String: Any]] ?? []
        #expect(
            bake.first?["item"] as? String == "Margherita Maxi + Aggiunte: bufala"
                && bake.first?["quantity"] as? Int == 2)
        let annas = (slots.last?["orders"] as? [[String: Any]])?.first
        #expect(annas?["id"] as? String == firstID && annas?["name"] as? String == "Anna Rossi")
        #expect(annas?["late_minutes"] is NSNull && annas?["due"] as? Bool == false)
        cli.environment["PIZZERIA_NOW"] = "2026-12-02T18:50:00Z"  // 19:50: anna's pickup in 10 minutes
        let text = try cli.ok("order", "board", "--date", Self.day).stdout
        #expect(
            text.contains("LATE 50 min") && text.contains("DUE")
                && text.contains("Forno  2 × Margherita Maxi + Aggiunte: bufala") && text.contains("2 pieces"),
            "\(text)")
        // The drink is not something to make: it is the counter's, beside anna's order.
        #expect(!text.contains("× Aranciata,") && text.contains("COUNTER") && text.contains("1 × Aranciata"), "\(text)")
        // No line ends in spaces (a table's last line was once followed by seven).
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines.contains { $0.hasSuffix(" ") }, "\(text)")
        try cli.ok("order", "collect", secondID, firstID, "--unpaid", "paid at the table")
        #expect(try cli.ok("order", "board", "--date", Self.day).stdout.contains("No open orders."))
    }

    @Test("--watch prints a fresh board when another process changes an order, and stops on SIGTERM")
    func watch() throws {
        var cli = try pizzeria(now: "2026-12-02T17:00:00Z")
        cli.environment["PIZZERIA_NOW"] = "2026-12-02T17:00:00Z"
        let watch = try cli.start(["order", "board", "--watch", "--date", Self.day, "--interval", "50"])
        #expect(watch.waitForOutput { out, _ in out.contains("No open orders.") })
        try cli.ok("order", "place", "marco", "--pickup", "\(Self.day)T19:00", "Porcini")
        #expect(watch.waitForOutput { out, _ in out.contains("Forno  1 × Porcini") })
        watch.signal(SIGTERM)
        let result = try watch.wait(timeout: 10)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.components(separatedBy: "Board ").count - 1 >= 2, "\(result.stdout)")
    }
}
