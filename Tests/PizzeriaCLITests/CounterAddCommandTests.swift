import Foundation
import PizzeriaTestSupport
import Testing

@Suite("CLI: a drink added at the counter until the order is collected (order add; the real binary)")
struct CounterAddCommandTests {
    @Test("drinks join a preparing or ready order and its balance; kitchen items and collected orders are refused")
    func counterAdd() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-04T16:00:00Z"
        cli.environment["PIZZERIA_STAFF"] = "giulia"
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        try cli.ok("pizza", "add", "--name", "Margherita", "--price", "6.50")
        try cli.ok("category", "add", "Bevande", "--no-station")
        try cli.ok("pizza", "add", "--name", "Coca-Cola", "--price", "3", "--category", "Bevande")
        try cli.ok("user", "add", "anna")
        let placed =
            try cli.json("order", "place", "anna", "--pickup", "20:00", "Margherita", "--json") as? [String: Any]
        let id = try #require(placed?["id"] as? String)
        try cli.ok("order", "pay", id, "--method", "card")
        try cli.ok("order", "advance", id)
        let added = try cli.ok("order", "add", id, "Coca-Cola=2").stdout
        #expect(added == "Added to order \(id.suffix(8)): +2 × Coca-Cola; total €12.50, €6.00 to pay.\n", "\(added)")
        // order list marks what the counter must take from an order due now (its pickup within 30 minutes).
        #expect(!(try cli.ok("order", "list").stdout.contains("TO PAY")))
        var later = cli
        later.environment["PIZZERIA_NOW"] = "2026-12-04T18:45:00Z"
        let list = try later.ok("order", "list").stdout
        #expect(list.contains("preparing · TO PAY €6.00"), "\(list)")
        #expect(!(try later.ok("order", "list", "--csv").stdout.contains("TO PAY")))
        let kitchen = try cli.run("order", "add", id, "Margherita")
        #expect(
            kitchen.status == 65 && kitchen.stderr.contains("items: Margherita is made in the kitchen")
                && kitchen.stderr.contains("order edit"), "\(kitchen)")
        try cli.ok("order", "advance", id)
        try cli.ok("order", "add", id, "Coca-Cola")
        let history = try cli.sqlite(
            "SELECT to_status, detail FROM order_status_events WHERE kind = 'edited' ORDER BY id;"
        ).stdout
        #expect(
            history == "preparing|at the counter: +2 × Coca-Cola\nready|at the counter: +1 × Coca-Cola\n", "\(history)")
        try cli.ok("order", "collect", id, "--pay", "cash", "--tendered", "10")
        let collected = try cli.run("order", "add", id, "Coca-Cola")
        #expect(collected.status == 1 && collected.stderr.contains("only until it is collected"), "\(collected)")
        let total = try cli.sqlite("SELECT total_cents FROM orders;").stdout
        #expect(total == "1550\n", "\(total)")
        try cli.ok("check")
    }
}
