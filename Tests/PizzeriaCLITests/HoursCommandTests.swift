import Foundation
import PizzeriaTestSupport
import Testing

/// `pizzeria hours …` and the bookings it governs, through the real binary.
@Suite("CLI: the week — hours set, close, special, clear, show, export (the real binary)")
struct HoursCommandTests {
    /// Given a shop in Rome on Tuesday 2026-12-01 at 10:00, with the typical week.
    func shop() throws -> CLI {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-01T09:00:00Z"
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        try cli.ok("pizza", "add", "--name", "Margherita", "--price", "6")
        try cli.ok("user", "add", "anna")
        try cli.ok(
            "hours", "set", "--osm",
            "Tu-Th 12:00-14:30,18:30-23:30; Fr,Sa 12:00-14:30,18:30-01:00; Su 18:30-23:30; Mo off")
        return cli
    }

    @Test("hours show prints the week, past-midnight intervals marked, and the exceptions ahead")
    func show() throws {
        let cli = try shop()
        try cli.ok("hours", "close", "2026-12-25..2026-12-26", "--reason", "Christmas")
        let text = try cli.ok("hours", "show").stdout
        #expect(
            text.contains("Monday     closed") && text.contains("Friday     12:00-14:30, 18:30-01:00 (past midnight)"),
            "\(text)")
        #expect(text.contains("fri 2026-12-25  closed     Christmas"), "\(text)")
        let json = try cli.json("hours", "show") as? [String: Any]
        #expect((json?["week"] as? [String: [String]])?["friday"] == ["12:00-14:30", "18:30-01:00"])
        #expect((json?["exceptions"] as? [[String: Any]])?.count == 2)
        let day = try cli.ok("hours", "show", "--date", "2026-12-25").stdout
        #expect(day == "Friday 2026-12-25: closed  — the week's Friday hours; closed (Christmas)\n", "\(day)")
    }

    @Test("bookings follow the week: a night slot books on its night; closed days exit 1 naming the next opening")
    func bookings() throws {
        let cli = try shop()
        let night = try cli.ok("order", "place", "anna", "--pickup", "2026-12-05T00:30", "Margherita")
        #expect(night.stdout.contains("pickup 2026-12-05 00:30"))
        #expect(try cli.ok("order", "list", "--date", "2026-12-04").stdout.contains("2026-12-05 00:30"))
        #expect(try cli.ok("order", "list", "--date", "2026-12-05").stdout == "No orders.\n")
        let monday = try cli.run("order", "place", "anna", "--pickup", "2026-12-07T19:00", "Margherita")
        #expect(monday.status == 1 && monday.stderr.contains("closed on Mondays; next open Tuesday 12:00"), "\(monday)")
        #expect(monday.stderr.contains("hint: see `pizzeria hours show`"))
        try cli.ok("hours", "close", "2026-12-12", "--from", "20:00", "--to", "22:00", "--reason", "private party")
        let party = try cli.run("order", "place", "anna", "--pickup", "2026-12-12T21:00", "Margherita")
        #expect(party.status == 1 && party.stderr.contains("18:30-20:00, 22:00-01:00"), "\(party)")
        #expect(try cli.ok("slots", "--date", "2026-12-12").stdout.contains("22:00"))
    }

    @Test("a change that orphans a booking exits 1 naming it; --keep-orders applies it and the order stays listed")
    func keepOrders() throws {
        let cli = try shop()
        try cli.ok("order", "place", "anna", "--pickup", "2026-12-02T19:00", "Margherita")
        let refused = try cli.run("hours", "set", "wed", "closed")
        #expect(
            refused.status == 1 && refused.stderr.contains("would leave 1 booked order outside the hours")
                && refused.stderr.contains("anna 2026-12-02 19:00"))
        #expect(refused.stderr.contains("--keep-orders"))
        try cli.ok("hours", "set", "wed", "closed", "--keep-orders")
        let list = try cli.ok("order", "list").stdout
        #expect(list.contains("2026-12-02 19:00") && list.contains("placed (outside the hours)"), "\(list)")
        #expect((try cli.json("order", "list") as? [[String: Any]])?.first?["outside_hours"] as? Bool == true)
    }

    @Test(
        "bad input is refused (65) naming the part, and nothing is written",
        arguments: [
            ["hours", "set", "mon", "25:61-26:00"], ["hours", "set", "mon-sun-tue", "12:00-13:00"],
            ["hours", "set", "fri", "18:00-18:00"],
            ["hours", "set", "mon", "12:00-15:00,14:00-16:00"], ["hours", "close", "2026-12-26..2026-12-25"],
            ["hours", "special", "2026-02-30", "12:00-13:00"],
            ["hours", "set", "--osm", String(repeating: "Mo 12:00-13:00;", count: 6_000)],
            ["config", "set", "lead-minutes", "1441"],
        ])
    func badInput(arguments: [String]) throws {
        let cli = try shop()
        let before = try cli.ok("hours", "show").stdout
        let result = try cli.run(arguments)
        #expect(result.status == 65 && result.stderr.hasPrefix("error: "), "\(result)")
        #expect(try cli.ok("hours", "show").stdout == before)
    }

    @Test("export: the OSM week with the dates ahead, and schema.org JSON-LD")
    func export() throws {
        let cli = try shop()
        try cli.ok("hours", "special", "2026-12-24", "12:00-16:00")
        try cli.ok("hours", "close", "2026-12-25..2026-12-26")
        let osm = try cli.ok("hours", "export").stdout
        #expect(
            osm
                == "Tu-Th 12:00-14:30,18:30-23:30; Fr,Sa 12:00-14:30,18:30-01:00; Su 18:30-23:30; Mo off; 2026 Dec 24 12:00-16:00; 2026 Dec 25-26 off\n"
        )
        let json =
            try JSONSerialization.jsonObject(
                with: Data(try cli.ok("hours", "export", "--format", "schema-org").stdout.utf8)) as? [String: Any]
        #expect(json?["@type"] as? String == "Restaurant")
        let specifications = json?["openingHoursSpecification"] as? [[String: Any]] ?? []
        #expect(
            specifications.contains {
                $0["validFrom"] as? String == "2026-12-25" && $0["validThrough"] as? String == "2026-12-26"
                    && $0["opens"] as? String == "00:00"
            })
        #expect(
            specifications.contains {
                ($0["dayOfWeek"] as? [String])?.contains("https://schema.org/Friday") == true
                    && $0["closes"] as? String == "01:00"
            })
    }

    @Test("the hours a shop typed into sqlite3 by hand are refused when they overlap")
    func analystsCannotOverlap() throws {
        let cli = try shop()
        let overlap = try cli.sqlite(
            "INSERT INTO weekly_hours (weekday, opens_at, closes_at) VALUES (6, '00:30', '01:30');")
        #expect(overlap.status != 0 && overlap.stderr.contains("hours_overlap"), "\(overlap)")
        let week = try cli.sqlite(
            "SELECT day, opens_at, closes_at, past_midnight FROM opening_week WHERE weekday = 5;", readOnly: true)
        #expect(week.stdout == "Friday|12:00|14:30|0\nFriday|18:30|01:00|1\n", "\(week)")
    }
}
