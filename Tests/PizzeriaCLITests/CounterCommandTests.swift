import Foundation
import PizzeriaTestSupport
import Testing

@Suite("CLI: the counter's evening — move, edit, no-show, undo, customers' data (the real binary)")
struct CounterCommandTests {
    /// 10:00 in Rome on 2026-12-01: the orders are for tonight.
    static let now = "2026-12-01T09:00:00Z"

    func pizzeria(capacity: Int = 12) throws -> CLI {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = Self.now
        cli.environment["PIZZERIA_STAFF"] = "giulia"
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        try cli.ok("config", "set", "slot-capacity", "\(capacity)")
        try cli.ok("pizza", "add", "--name", "Margherita", "--price", "6")
        try cli.ok("pizza", "add", "--name", "Diavola", "--price", "8")
        try cli.ok("user", "add", "anna", "--phone", "+39 333 123 4567")
        try cli.ok("user", "add", "marco")
        return cli
    }

    func place(_ cli: CLI, _ user: String, _ time: String, _ items: String...) throws -> (id: String, version: Int) {
        let order = try cli.json(["order", "place", user, "--pickup", "2026-12-01T\(time)"] + items) as? [String: Any]
        return (order?["id"] as? String ?? "", order?["version"] as? Int ?? 0)
    }

    @Test(
        "move and edit a placed order: history with who and what, the note where the kitchen sees it, exit 1 once preparing"
    )
    func moveAndEdit() throws {
        let cli = try pizzeria()
        let order = try place(cli, "anna", "19:00", "Margherita=2")
        let short = shortID(order.id)
        let moved = try cli.ok("order", "move", short, "--pickup", "19:30")
        #expect(moved.stdout.contains("19:30"), "\(moved)")
        let edited = try cli.ok(
            "order", "edit", short, "--add", "diav", "--set", "Margherita=3", "--note", "  no basil  ")
        #expect(
            edited.stdout.contains("3 × Margherita, 1 × Diavola") && edited.stdout.contains("€26.00")
                && edited.stdout.contains("note: no basil"), "\(edited)")
        let shown = try cli.ok("order", "show", short).stdout
        #expect(
            shown.contains("no basil") && shown.contains("moved") && shown.contains("edited")
                && shown.contains("giulia"), "\(shown)")
        #expect(shown.contains("+01:00"), "history in local time with its offset: \(shown)")
        let json = try cli.json("order", "show", short) as? [String: Any]
        let history = json?["history"] as? [[String: Any]] ?? []
        #expect(
            history.map { $0["kind"] as? String } == ["placed", "moved", "edited"]
                && history.last?["by"] as? String == "giulia")
        #expect((history.last?["at"] as? String)?.hasSuffix("Z") == true)
        #expect(try cli.ok("order", "list").stdout.contains("no basil"))

        // A stale version is refused with 1 and changes nothing.
        let stale = try cli.run("order", "edit", short, "--note", "x", "--if-version", "\(order.version)")
        #expect(stale.status == 1 && stale.stderr.contains("version"), "\(stale)")
        // Once preparing: 1, nothing changes.
        try cli.ok("order", "advance", short)
        let before = try cli.sqlite("SELECT * FROM orders; SELECT * FROM order_lines;").stdout
        for attempt in [["order", "move", short, "--pickup", "20:00"], ["order", "edit", short, "--note", "late"]] {
            let refused = try cli.run(attempt)
            #expect(refused.status == 1 && refused.stderr.contains("preparing"), "\(refused)")
        }
        #expect(try cli.sqlite("SELECT * FROM orders; SELECT * FROM order_lines;").stdout == before)
        // Bad input: 65, named.
        let badNote = try cli.run("order", "edit", short, "--note", "a\u{7}b")
        #expect(badNote.status == 1 || badNote.status == 65)
    }

    @Test("two processes move orders into a slot's last room at once: exactly one wins, the other exits 1")
    func moveRace() throws {
        let cli = try pizzeria(capacity: 2)
        let first = try place(cli, "anna", "19:00", "Margherita=2")
        let second = try place(cli, "marco", "19:15", "Diavola=2")
        for round in 0..<3 {
            let target = ["20:00", "20:15", "20:30"][round]
            let runs = try [first.id, second.id].map { try cli.start(["order", "move", $0, "--pickup", target]) }
            let results = try runs.map { try $0.wait() }
            #expect(results.map(\.status).sorted() == [0, 1], "round \(round): \(results)")
            #expect(
                results.contains { $0.stderr.contains("has only 0 pizzas left") || $0.stderr.contains("is full") },
                "\(results)")
            let slots = try cli.json("slots", "--date", "2026-12-01") as? [[String: Any]] ?? []
            #expect(slots.first { $0["local"] as? String == target }?["booked"] as? Int == 2)
            #expect(slots.reduce(0) { $0 + ($1["booked"] as? Int ?? 0) } == 4)
        }
    }

    @Test("no-show and undo: ready → no_show counted apart; undo within 10 minutes, recorded; too late after")
    func noShowAndUndo() throws {
        var cli = try pizzeria()
        let order = try place(cli, "anna", "19:00", "Margherita=2")
        for _ in 0..<2 { try cli.ok("order", "advance", order.id) }
        let noShow = try cli.json("order", "no-show", order.id) as? [String: Any]
        #expect(noShow?["status"] as? String == "no_show")
        let report = try cli.json("report", "sales") as? [String: Any]
        let day = (report?["days"] as? [[String: Any]])?.first
        #expect(
            day?["no_shows"] as? Int == 1 && day?["revenue_cents"] as? Int == 0
                && day?["no_show_value_cents"] as? Int == 1200, "\(String(describing: report))")

        cli.environment["PIZZERIA_NOW"] = "2026-12-01T09:09:00Z"
        let undone = try cli.json("order", "undo", order.id) as? [String: Any]
        #expect(undone?["status"] as? String == "ready")
        let history = undone?["history"] as? [[String: Any]] ?? []
        #expect(
            history.map { $0["kind"] as? String } == ["placed", "status", "status", "status", "undo"], "\(history)")
        // The undo itself is not undone; a change 11 minutes old is too late.
        #expect(try cli.run("order", "undo", order.id).status == 1)
        try cli.ok("order", "advance", order.id, "--unpaid", "on the house account")
        cli.environment["PIZZERIA_NOW"] = "2026-12-01T09:20:00Z"
        let late = try cli.run("order", "undo", order.id)
        #expect(late.status == 1 && late.stderr.contains("10 minutes"), "\(late)")
        // A placed order cannot be a no-show.
        let other = try place(cli, "marco", "20:00", "Diavola")
        let refused = try cli.run("order", "no-show", other.id)
        #expect(refused.status == 1 && refused.stderr.contains("placed"), "\(refused)")
    }

    @Test("users: add says when it lowers a handle; edit and erase; erased customers' orders stay under a pseudonym")
    func customers() throws {
        let cli = try pizzeria()
        let added = try cli.run("user", "add", "Luca", "--name", "Luca B")
        #expect(added.status == 0 && added.stderr.contains("note: handle stored as 'luca'"), "\(added)")
        let badPhone = try cli.run("user", "edit", "luca", "--phone", "333 12")
        #expect(badPhone.status == 65 && badPhone.stderr.contains("error: phone:"), "\(badPhone)")
        try cli.ok("user", "edit", "luca", "--phone", "+39 347 555 0101", "--handle", "luca.b")
        #expect(try cli.ok("user", "show", "luca.b").stdout.contains("+393475550101"))
        try cli.ok("user", "edit", "luca.b", "--phone", "")
        #expect(try !cli.ok("user", "show", "luca.b").stdout.contains("+39"))
        #expect(try cli.run("user", "edit", "luca.b").status == 64)

        let order = try place(cli, "anna", "19:00", "Margherita")
        try cli.ok("nav", "push", "anna", "pizza:Margherita", "order:\(order.id)")
        let erased = (try cli.json("user", "erase", "anna", "--yes") as? [String: Any])?["user"] as? [String: Any]
        let pseudonym = erased?["handle"] as? String ?? ""
        #expect(pseudonym.hasPrefix("erased-") && erased?["phone"] is NSNull && erased?["erased_at"] is String)
        #expect(try cli.run("user", "show", "anna").status == 66)
        #expect(try cli.ok("order", "show", order.id).stdout.contains(pseudonym))
        let leftovers = try cli.sqlite(
            "SELECT count(*) FROM navigation_stack; SELECT count(*) FROM navigation_events; SELECT count(*) FROM users WHERE phone IS NOT NULL;"
        )
        #expect(leftovers.stdout == "0\n0\n0\n", "\(leftovers)")
        let booking = try cli.run("order", "place", pseudonym, "--pickup", "2026-12-01T20:00", "Margherita")
        #expect(booking.status == 1 && booking.stderr.contains("erased"), "\(booking)")
    }

    @Test("ownership at the CLI: push, deep link and import of another's order are 66, same as a missing one")
    func ownership() throws {
        let cli = try pizzeria()
        let annas = try place(cli, "anna", "19:00", "Margherita")
        let missing = "00000000-0000-4000-8000-000000000000"
        var answers: [String: [String]] = [:]
        for id in [annas.id, missing] {
            try Data(#"[{"order":{"id":"\#(id)"}}]"#.utf8).write(
                to: URL(fileURLWithPath: cli.directory.path("path-\(id).json")))
            for attempt in [
                ["nav", "push", "marco", "order:\(id)"], ["nav", "open", "marco", "pizzeria://order/\(id)"],
                ["nav", "import", "marco", "path-\(id).json", "--format", "routes"],
            ] {
                let result = try cli.run(attempt)
                #expect(result.status == 66, "\(attempt): \(result)")
                answers[id, default: []].append(result.stderr)
            }
        }
        #expect(answers[annas.id] == answers[missing], "\(answers)")
        #expect(try cli.sqlite("SELECT count(*) FROM navigation_stack;").stdout == "0\n")
        #expect(
            try cli.ok("nav", "push", "anna", "order:\(shortID(annas.id))").stdout.contains(
                "order \(shortID(annas.id))"))
    }

    @Test("check reads the journal mode from the file itself, with or without a -wal file")
    func journalModeFromFile() throws {
        let cli = try pizzeria()
        try FileManager.default.copyItem(atPath: cli.databasePath, toPath: cli.directory.path("copy.sqlite"))
        let copy = try cli.json("--db", "copy.sqlite", "check") as? [String: Any]
        #expect(copy?["journal_mode"] as? String == "wal", "\(String(describing: copy))")
        #expect(!FileManager.default.fileExists(atPath: cli.directory.path("copy.sqlite-wal")))
    }

    @Test("the small ones: tomorrow as a date, a money hint within limits, names by prefix and with a did-you-mean")
    func smallOnes() throws {
        let cli = try pizzeria()
        #expect(try cli.run("slots", "--date", "tomorrow").status == 0)
        #expect(try cli.run("order", "list", "--date", "today").status == 0)
        let price = try cli.run("pizza", "edit", "Margherita", "--price", "8.555")
        #expect(
            price.status == 65 && price.stderr.contains("ambiguous") && price.stderr.contains("8.55")
                && !price.stderr.contains("8555"), "\(price)")
        let small = try cli.run("pizza", "edit", "Margherita", "--price", "0,750")
        #expect(small.stderr.contains("write 750 or 0.75"), "\(small)")
        #expect(try cli.ok("pizza", "show", "diav").stdout.hasPrefix("Diavola"))
        let typo = try cli.run("pizza", "show", "margarita")
        #expect(typo.status == 66 && typo.stderr.contains("did you mean 'Margherita'?"), "\(typo)")
        // At 19:05 in Rome with a 15-minute lead: 19:00 has passed, 19:15 is too soon, 19:30 is open; JSON says so too.
        var evening = cli
        evening.environment["PIZZERIA_NOW"] = "2026-12-01T18:05:00Z"
        let states = try evening.json("slots", "--date", "today") as? [[String: Any]] ?? []
        let byLocal = Dictionary(states.map { ($0["local"] as? String ?? "", $0["state"] as? String ?? "") }) { a, _ in
            a
        }
        #expect(
            byLocal["12:00"] == "past" && byLocal["19:00"] == "past" && byLocal["19:15"] == "too_soon"
                && byLocal["19:30"] == "open", "\(byLocal)")
        let table = try evening.ok("slots", "--date", "today").stdout
        #expect(table.contains("19:15") && table.contains("too soon"), "\(table)")
        // A refusal's suggestions are bookable: none in the past.
        let refused = try evening.run("order", "place", "anna", "--pickup", "19:10", "Margherita")
        #expect(
            refused.status != 0 && !refused.stderr.contains("19:00") && !refused.stderr.contains("19:15"), "\(refused)")
    }
}
