import Foundation
import PizzeriaTestSupport
import Testing

/// Several orders at once at the counter, and a collection in one step (the real binary).
@Suite("CLI: order advance|collect|cancel|no-show take several orders")
struct MultipleOrdersCommandTests {
    @Test(
        "advance two orders in one command; one bad id is reported and the exit code is the worst; collect from placed in one step"
    )
    func several() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-01T09:00:00Z"
        cli.environment["PIZZERIA_STAFF"] = "giulia"
        try cli.ok("init")
        try cli.ok("pizza", "add", "--name", "Margherita", "--price", "6")
        try cli.ok("user", "add", "anna")
        var ids: [String] = []
        for time in ["19:00", "19:15", "19:30"] {
            let order =
                try cli.json("order", "place", "anna", "--pickup", "2026-12-04T\(time)", "Margherita") as? [String: Any]
            ids.append(try #require(order?["id"] as? String))
        }
        let advanced = try cli.ok("order", "advance", shortID(ids[0]), shortID(ids[1]))
        #expect(advanced.stdout.components(separatedBy: "is now preparing").count == 3, "\(advanced.stdout)")
        let mixed = try cli.run("order", "advance", shortID(ids[0]), "ffffffff")
        #expect(
            mixed.status == 66 && mixed.stdout.contains("is now ready") && mixed.stderr.contains("error:"), "\(mixed)")
        let collected = try cli.ok("order", "collect", shortID(ids[2]), "--pay", "cash")
        #expect(collected.stdout.contains("is collected"), "\(collected.stdout)")
        let steps = try cli.sqlite(
            "SELECT to_status FROM order_status_events WHERE order_id = '\(ids[2])' AND kind IN ('placed', 'status') ORDER BY id"
        )
        .stdout
        #expect(steps == "placed\npreparing\nready\ncollected\n", "\(steps)")
        let again = try cli.run("order", "collect", shortID(ids[2]))
        #expect(
            again.status == 1 && again.stderr.contains("only a placed, preparing or ready order can be collected"),
            "\(again)")
        let json = try cli.json("order", "cancel", shortID(ids[1])) as? [String: Any]
        #expect(json?["status"] as? String == "cancelled")
    }
}
