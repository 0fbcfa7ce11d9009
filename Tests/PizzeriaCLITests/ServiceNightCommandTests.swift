import Foundation
import PizzeriaTestSupport
import Testing

/// "Today" is the service night while it runs; a time without a date is its next occurrence in
/// the current or next service; the picker's --after is honoured or refused (the real binary).
@Suite("CLI: the service night is today")
struct ServiceNightCommandTests {
    /// A Rome pizzeria open Friday 18:30-01:00, at 22:40 on Friday 2026-12-04.
    func shop() throws -> CLI {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-04T21:40:00Z"
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        try cli.ok("config", "set", "lead-minutes", "0")
        try cli.ok("hours", "set", "--osm", "Mo-Su 12:00-14:30; Fr,Sa 18:30-01:00")
        try cli.ok("pizza", "add", "--name", "Margherita", "--price", "6")
        try cli.ok("user", "add", "anna")
        return cli
    }

    @Test(
        "at 22:40 --pickup 00:30 is tonight's 00:30; the picker's --after 00:30 starts there; --after in the past is refused"
    )
    func tonight() throws {
        let cli = try shop()
        let placed = try cli.ok("order", "place", "anna", "--pickup", "00:30", "Margherita")
        #expect(placed.stdout.contains("pickup 2026-12-05 00:30"), "\(placed.stdout)")
        let picker = try cli.ok("slots", "--available", "--after", "00:30", "--limit", "1", "--csv", "--no-headers")
        #expect(picker.stdout.hasPrefix("2026-12-05 00:30,2026-12-04T23:30:00Z"), "\(picker.stdout)")
        let past = try cli.run("slots", "--available", "--after", "2026-12-04T20:00")
        #expect(past.status == 65 && past.stderr.contains("after"), "\(past)")
    }

    @Test("at 00:45 on Friday night, today is Friday: order list --date today, report sales --from today, slots")
    func afterMidnight() throws {
        var cli = try shop()
        try cli.ok("order", "place", "anna", "--pickup", "23:00", "Margherita=2")
        cli.environment["PIZZERIA_NOW"] = "2026-12-04T23:45:00Z"  // 00:45 on Saturday in Rome
        let list = try cli.ok("order", "list", "--date", "today", "--csv", "--no-headers")
        #expect(list.stdout.split(separator: "\n").count == 1, "\(list.stdout)")
        let sales = try cli.ok("--json", "report", "sales", "--from", "today")
        #expect(sales.stdout.contains("2026-12-04"), "\(sales.stdout)")
        let slots = try cli.ok("slots", "--csv")
        #expect(slots.stdout.contains("Sat 00:45") || slots.stdout.contains("2026-12-04"), "\(slots.stdout)")
        cli.environment["PIZZERIA_NOW"] = "2026-12-05T05:30:00Z"  // 06:30: Saturday now
        #expect(try cli.ok("order", "list", "--date", "today", "--csv", "--no-headers").stdout.isEmpty)
    }
}
