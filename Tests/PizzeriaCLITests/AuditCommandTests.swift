import Foundation
import PizzeriaTestSupport
import Testing

/// An accountable shop: every change with who, when and what, in one append-only trail; staff
/// names and roles when require-staff is on (the real binary).
@Suite("CLI: the audit trail and staff roles")
struct AuditCommandTests {
    func shop() throws -> CLI {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-11-30T10:00:00Z"
        cli.environment["PIZZERIA_STAFF"] = "giulia"
        try cli.ok("init")
        return cli
    }

    func entries(_ cli: CLI, _ arguments: String...) throws -> [[String: Any]] {
        try cli.json(["audit"] + arguments) as? [[String: Any]] ?? []
    }

    @Test(
        "every change to pizzas, users, settings, hours, capacity, pause and rush: who, when (PIZZERIA_NOW), old → new, through what"
    )
    func everyChange() throws {
        let cli = try shop()
        try cli.ok("pizza", "add", "--name", "Margherita", "--price", "6")
        try cli.ok("pizza", "edit", "Margherita", "--price", "6,50")
        try cli.ok("pizza", "archive", "Margherita")
        try cli.ok("pizza", "restore", "Margherita")
        try cli.ok("user", "add", "luca", "--name", "Luca Bianchi", "--phone", "+393477654321")
        try cli.ok("user", "edit", "luca", "--name", "Luca B")
        try cli.ok("config", "set", "lead-minutes", "20")
        try cli.ok("hours", "set", "fri", "18:00-23:00")
        try cli.ok("hours", "close", "2026-12-25", "--reason", "Christmas")
        try cli.ok("capacity", "set", "fri", "18:00-20:00", "20")
        try cli.ok("pause", "--until", "12:00", "--reason", "oven")
        try cli.ok("resume")
        try cli.ok("busy", "15")
        let all = try entries(cli)
        let actions = all.map { "\($0["object"] as? String ?? "").\($0["action"] as? String ?? "")" }
        for expected in ["price", "archive", "restore", "add"] {
            #expect(actions.contains { $0.hasPrefix("pizza:") && $0.hasSuffix("." + expected) }, "\(expected)")
        }
        for expected in [
            "user:", "settings.set", "settings.pause", "settings.resume", "settings.busy", "hours.add", "hours.close",
            "capacity.set",
        ] {
            #expect(actions.contains { $0.contains(expected) }, "\(expected) in \(actions)")
        }
        #expect(
            all.allSatisfy { $0["actor"] as? String == "giulia" && $0["at"] as? String == "2026-11-30T10:00:00.000Z" },
            "\(all)")
        #expect(
            all.contains {
                $0["source"] as? String == "pizzeria pizza edit" && ($0["new"] as? String)?.contains("650") == true
            })
        // Timestamps the program writes follow PIZZERIA_NOW.
        #expect(
            try cli.sqlite("SELECT created_at FROM users; SELECT created_at FROM pizzas;").stdout
                == "2026-11-30T10:00:00.000Z\n2026-11-30T10:00:00.000Z\n")
        // One object's trail, by name; a hand edit is recorded by nobody, through sql; the log is append-only.
        #expect(try entries(cli, "--object", "pizza:Margherita").count == 4)
        #expect(try cli.sqlite("UPDATE pizzas SET price_cents = 700").status == 0)
        let hand = try entries(cli, "--object", "pizza:Margherita").last
        #expect(hand?["source"] as? String == "sql" && hand?["actor"] is NSNull, "\(String(describing: hand))")
        #expect(try cli.sqlite("DELETE FROM audit_log").status != 0)
        #expect(try cli.sqlite("UPDATE audit_log SET actor = 'marco'").status != 0)
        // Every list format.
        #expect(try cli.ok("audit", "--csv").stdout.hasPrefix("at,actor,source,object,action,old,new\r\n"))
        #expect(try cli.ok("audit", "--nl").stdout.split(separator: "\n").count == all.count + 1)
        #expect(try cli.ok("audit", "--by", "marco").stdout.contains("Nothing"))
    }

    @Test("an erasure is in the trail without the erased values: the customer's earlier entries lose theirs")
    func erasure() throws {
        let cli = try shop()
        try cli.ok("user", "add", "luca", "--name", "Luca Bianchi", "--phone", "+393477654321")
        try cli.ok("user", "erase", "luca", "--yes")
        let trail = try cli.ok("--json", "audit").stdout
        #expect(!trail.contains("Luca Bianchi") && !trail.contains("393477654321"), "\(trail)")
        #expect(trail.contains("\"action\" : \"erase\""), "\(trail)")
    }

    @Test(
        "an item's name, price and archive entries name their history row: none can change it, check names a hand-written row naming another item's, an archive time moved by hand is an edit"
    )
    func entriesThroughHistory() throws {
        let cli = try shop()
        try cli.ok("pizza", "add", "--name", "Margherita", "--price", "6")
        try cli.ok("pizza", "add", "--name", "Marinara", "--price", "4")
        try cli.ok("pizza", "edit", "Margherita", "--price", "6,50")
        let linked = try cli.sqlite(
            "SELECT a.action || ' ' || h.change FROM audit_log a JOIN pizza_history h ON h.id = a.history_id JOIN pizzas p ON p.id = h.pizza_id WHERE p.name = 'Margherita' ORDER BY a.id;"
        ).stdout
        #expect(linked == "add created\nprice edited\n")
        let history =
            "(SELECT h.id FROM pizza_history h JOIN pizzas p ON p.id = h.pizza_id WHERE p.name = 'Margherita' LIMIT 1)"
        #expect(try cli.sqlite("UPDATE audit_log SET history_id = NULL;").status != 0)
        #expect(
            try cli.sqlite("UPDATE audit_log SET history_id = NULL WHERE history_id IS NOT NULL;").stderr.contains(
                "append-only"))
        let own = try cli.sqlite(
            "INSERT INTO audit_log (at, source, object, action, history_id) SELECT '2026-11-30T10:00:00.000Z', 'sql', 'pizza:' || id, 'note', \(history) FROM pizzas WHERE name = 'Margherita';"
        )
        #expect(own.status == 0, "\(own)")
        #expect(
            try entries(cli, "--object", "pizza:Margherita").map { $0["action"] as? String } == [
                "add", "price", "note",
            ])
        #expect(try cli.run("check").status == 0)
        // A row naming another item's history row would be listed under that item: check names it
        // (the log is append-only, so it stays).
        let other = try cli.sqlite(
            "INSERT INTO audit_log (at, source, object, action, history_id) SELECT '2026-11-30T10:00:00.000Z', 'sql', 'pizza:' || id, 'note', \(history) FROM pizzas WHERE name = 'Marinara' RETURNING id;"
        )
        let check = try cli.run("check")
        #expect(check.status == 1, "\(check)")
        #expect(
            check.stdout.contains(
                "audit_log \(other.stdout.trimmingCharacters(in: .whitespacesAndNewlines)): history_id")
                && check.stdout.contains("names a history row of pizza:"), "\(check.stdout)")
        #expect(try cli.run("check", "--repair").status == 1)
        // An archived item's archive time moved in sqlite3: no history row (nothing a menu reader
        // sees changed), one audit entry, an edit (it used to be called a price change).
        try cli.ok("pizza", "archive", "Marinara")
        let rows = try cli.sqlite("SELECT count(*) FROM pizza_history;").stdout
        #expect(
            try cli.sqlite("UPDATE pizzas SET archived_at = '2026-11-30T09:00:00.000Z' WHERE name = 'Marinara';").status
                == 0)
        #expect(try cli.sqlite("SELECT count(*) FROM pizza_history;").stdout == rows)
        let marinara = try entries(cli, "--object", "pizza:Marinara")
        #expect(marinara.map { $0["action"] as? String } == ["add", "archive", "edit"], "\(marinara)")
        #expect(marinara.last?["source"] as? String == "sql")
        #expect((marinara.last?["new"] as? String)?.contains("2026-11-30T09:00:00.000Z") == true)
    }

    @Test("one order's trail by its id: its history, and nothing of another order")
    func orderTrail() throws {
        let cli = try shop()
        try cli.ok("pizza", "add", "--name", "Margherita", "--price", "6")
        try cli.ok("user", "add", "anna")
        try cli.ok("hours", "set", "--osm", "Mo-Su 12:00-23:00")
        let first =
            try cli.json("order", "place", "anna", "--pickup", "2026-11-30T19:30", "Margherita") as? [String: Any]
        try cli.ok("order", "place", "anna", "--pickup", "2026-11-30T19:45", "Margherita")
        let id = try #require(first?["id"] as? String)
        let trail = try entries(cli, "--object", "order:" + id)
        #expect(trail.map { $0["action"] as? String } == ["placed"], "\(trail)")
        #expect(trail.allSatisfy { $0["object"] as? String == "order:" + id })
        #expect(try entries(cli, "--object", "order:").count == 2)
    }

    @Test(
        "require-staff: nobody, an unknown name and a role too small are refused (1); the roles gate; the last owner stays"
    )
    func staffRoles() throws {
        var cli = try shop()
        try cli.ok("staff", "add", "giulia", "--role", "owner")
        try cli.ok("staff", "add", "marco", "--role", "counter")
        try cli.ok("staff", "add", "sara", "--role", "manager")
        try cli.ok("config", "set", "require-staff", "on")
        try cli.ok("user", "add", "anna")
        cli.environment["PIZZERIA_STAFF"] = ""
        #expect(try cli.run("pizza", "add", "--name", "Diavola", "--price", "8").status == 1)
        cli.environment["PIZZERIA_STAFF"] = "nobody"
        #expect(try cli.run("pizza", "add", "--name", "Diavola", "--price", "8").status == 1)
        cli.environment["PIZZERIA_STAFF"] = "marco"
        let counter = try cli.run("pizza", "add", "--name", "Diavola", "--price", "8")
        #expect(
            counter.status == 1 && counter.stderr.contains("marco is counter staff; this change needs manager"),
            "\(counter)")
        // Every changing command takes --by, which names who acts over $PIZZERIA_STAFF.
        try cli.ok("pizza", "add", "--name", "Diavola", "--price", "8", "--by", "sara")
        #expect(try cli.ok("audit", "--by", "sara").stdout.contains("Diavola"))
        cli.environment["PIZZERIA_STAFF"] = "sara"
        #expect(try cli.run("config", "set", "lead-minutes", "10").status == 1)
        #expect(try cli.run("user", "erase", "anna", "--yes").status == 1)
        try cli.ok("order", "place", "anna", "--pickup", "2026-12-04T19:30", "Diavola")
        #expect(
            try cli.ok("order", "place", "anna", "--pickup", "2026-12-04T19:45", "Diavola", "--by", "marco").status == 0
        )
        cli.environment["PIZZERIA_STAFF"] = "giulia"
        let last = try cli.run("staff", "remove", "giulia")
        #expect(last.status == 1 && last.stderr.contains("last owner"), "\(last)")
        try cli.ok("config", "set", "require-staff", "off")
        cli.environment["PIZZERIA_STAFF"] = ""
        try cli.ok("pizza", "add", "--name", "Marinara", "--price", "4")
        #expect(try cli.ok("staff", "list", "--csv").stdout.contains("sara,manager,"))
    }
}
