import Foundation
import PizzeriaTestSupport
import Testing

/// The drawer counted: `report close --counted-cash` records the count with who and when and
/// shows over/short; the drawer follows when cash moved, not the day of its order.
@Suite("CLI: the drawer counted (the real binary)")
struct DrawerCountCommandTests {
    @Test(
        "a count is recorded with over/short; a cash refund on Saturday leaves Saturday's drawer; opening cash 0 is accepted"
    )
    func drawerCounted() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-04T17:00:00Z"
        cli.environment["PIZZERIA_STAFF"] = "giulia"
        try cli.ok("demo")
        try cli.ok("config", "set", "language", "en")
        let placed = try cli.json("order", "place", "anna", "--pickup", "19:30", "Margherita=2") as? [String: Any]
        let id = try #require(placed?["id"] as? String)
        try cli.ok("order", "pay", id, "--method", "cash", "--tendered", "20")
        let friday = try cli.ok("report", "close", "--opening-cash", "0", "--counted-cash", "10.50").stdout
        #expect(friday.contains("Cash expected in the drawer: €12.00 (opening €0.00)"), "\(friday)")
        #expect(friday.contains("Counted: €10.50 against €12.00 expected (opening €0.00): short €1.50 — by giulia"))
        // Saturday noon: a cash refund of Friday's order is Saturday's drawer's, not Friday's.
        cli.environment["PIZZERIA_NOW"] = "2026-12-05T12:00:00Z"
        try cli.ok("order", "refund", id, "--amount", "2", "--reason", "cold")
        let again = try cli.json("report", "close", "--date", "2026-12-04", "--opening-cash", "0") as? [String: Any]
        #expect(again?["expected_cash_cents"] as? Int == 1200, "\(String(describing: again))")
        #expect(again?["refunded_cents"] as? Int == 200, "the sales by service day still see the refund")
        let count = again?["count"] as? [String: Any]
        #expect(count?["counted_cents"] as? Int == 1050 && count?["over_short_cents"] as? Int == -150)
        #expect(count?["actor"] as? String == "giulia" && count?["expected_cents"] as? Int == 1200)
        let saturday = try cli.json("report", "close", "--date", "2026-12-05", "--opening-cash", "50") as? [String: Any]
        #expect(saturday?["expected_cash_cents"] as? Int == 4800 && saturday?["drawer_cash_out_cents"] as? Int == 200)
        #expect(saturday?["count"] is NSNull)
        // The count is a record: hand SQL cannot change or remove it; the CSV carries it.
        let update = try cli.sqlite("UPDATE drawer_counts SET counted_cents = 1200;")
        #expect(update.status != 0 && update.stderr.contains("drawer_counts_append_only"), "\(update)")
        let csv = try cli.ok("report", "close", "--date", "2026-12-04", "--csv").stdout
        #expect(csv.contains("cash,counted,,10.50,1050") && csv.contains("cash,over_short,,-1.50,-150"), "\(csv)")
        let negative = try cli.run("report", "close", "--counted-cash", "-3")
        #expect(negative.status == 65 && negative.stderr.contains("counted-cash"), "\(negative)")
        #expect(try cli.sqlite("SELECT count(*) FROM drawer_counts;").stdout == "1\n")
    }
}
