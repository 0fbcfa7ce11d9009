import Foundation
import PizzeriaTestSupport
import Testing

@Suite("CLI: navigation and sheets (the real binary)")
struct NavigationCommandTests {
    func state(_ cli: CLI, _ user: String = "luca") throws -> [String: Any] {
        try cli.json("nav", "show", user) as? [String: Any] ?? [:]
    }

    func pizzeria() throws -> CLI {
        let cli = CLI()
        try cli.ok("demo")
        try cli.ok("user", "add", "luca")
        return cli
    }

    @Test("push, pop, pop COUNT, pop --to, root, random with the documented JSON")
    func router() throws {
        let cli = try pizzeria()
        var state = try cli.json("nav", "push", "luca", "pizza:Margherita", "pizza:porcini") as? [String: Any] ?? [:]
        #expect(state["depth"] as? Int == 2 && state["labels"] as? [String] == ["Margherita", "Porcini"])
        let path = state["path"] as? [[String: Any]] ?? []
        #expect(path.count == 2 && (path[0]["pizza"] as? [String: Any])?["id"] is String)
        try cli.ok("nav", "push", "luca", "pizza:Marinara")
        state = try cli.json("nav", "pop", "luca", "2") as? [String: Any] ?? [:]
        #expect(state["labels"] as? [String] == ["Margherita"] && state["previous_label"] as? String == "Marinara")
        let tooMany = try cli.run("nav", "pop", "luca", "5")
        #expect(tooMany.status == 1 && tooMany.stderr.contains("the stack has depth 1"), "\(tooMany)")
        let zero = try cli.run("nav", "pop", "luca", "0")
        #expect(zero.status == 65, "\(zero)")
        try cli.ok("nav", "push", "luca", "pizza:Porcini", "pizza:Marinara")
        #expect(try cli.json("nav", "pop", "luca", "--to", "1") as? [String: Any] != nil)
        #expect(try self.state(cli)["depth"] as? Int == 1)
        try cli.ok("nav", "root", "luca")
        let empty = try cli.run("nav", "pop", "luca")
        #expect(empty.status == 1 && empty.stderr.contains("the stack is empty"))
        let first = try cli.json("nav", "random", "luca", "--seed", "9") as? [String: Any]
        try cli.ok("nav", "root", "luca")
        let second = try cli.json("nav", "random", "luca", "--seed", "9") as? [String: Any]
        #expect(first?["labels"] as? [String] == second?["labels"] as? [String])
        let unknown = try cli.run("nav", "push", "luca", "pizza:Hawaii")
        #expect(unknown.status == 66)
        let malformed = try cli.run("nav", "push", "luca", "margherita")
        #expect(malformed.status == 65 && malformed.stderr.contains("pizza:PIZZA, order:ORDER or category:CATEGORY"))
        let history = try cli.json("nav", "history", "luca", "--limit", "3") as? [[String: Any]] ?? []
        #expect(history.map { $0["action"] as? String } == ["random", "pop_to_root", "random"])
        #expect(try cli.ok("nav", "stats").stdout.contains("VIEWS"))
    }

    @Test("category routes: pushed by name, opened by a deep link, labelled; the rule holds in sqlite3 too")
    func categoryRoutes() throws {
        let cli = try pizzeria()
        try cli.ok("category", "add", "Gelati", "--no-oven")
        let state = try cli.json("nav", "push", "luca", "category:gelati", "pizza:Margherita") as? [String: Any] ?? [:]
        #expect(state["labels"] as? [String] == ["Gelati", "Margherita"], "\(state)")
        let path = state["path"] as? [[String: Any]] ?? []
        #expect((path.first?["category"] as? [String: Any])?["id"] is Int, "\(path)")
        let unknown = try cli.run("nav", "push", "luca", "category:Insalate")
        #expect(unknown.status == 66 && unknown.stderr.contains("Gelati"), "\(unknown)")
        let opened = try cli.json("nav", "open", "luca", "pizzeria://category/Gelati") as? [String: Any] ?? [:]
        #expect(opened["labels"] as? [String] == ["Gelati"], "\(opened)")
        #expect(try cli.ok("nav", "history", "luca", "--limit", "1").stdout.contains("category:"))
        let refused = try cli.run("category", "remove", "Gelati")
        #expect(
            refused.status == 1 && refused.stderr.contains("luca") && refused.stderr.contains("nav root"), "\(refused)")
        let byHand = try cli.sqlite("DELETE FROM categories WHERE name = 'Gelati'")
        #expect(byHand.status != 0 && byHand.stderr.contains("category_shown"), "\(byHand)")
        let noTarget = try cli.sqlite(
            "INSERT INTO navigation_stack (user_id, depth, kind) SELECT id, 9, 'category' FROM users WHERE handle = 'luca'"
        )
        #expect(noTarget.status != 0 && noTarget.stderr.contains("CHECK"), "\(noTarget)")
        #expect(try cli.sqlite("SELECT path FROM navigation_paths WHERE handle = 'luca'").stdout == "Gelati\n")
        try cli.ok("nav", "root", "luca")
        try cli.ok("category", "remove", "Gelati")
    }

    @Test("deep links: several routes and URL-encoded names replace the stack; bad links change nothing")
    func deepLinks() throws {
        let cli = try pizzeria()
        try cli.ok("pizza", "add", "--name", "Quattro Formaggi", "--price", "9.50")
        let order = (try cli.json("order", "list", "--user", "anna") as? [[String: Any]])?.first?["id"] as? String ?? ""
        let state =
            try cli.json("nav", "open", "anna", "pizzeria://pizza/Quattro%20Formaggi/order/\(order)") as? [String: Any]
        #expect(state?["labels"] as? [String] == ["Quattro Formaggi", "order \(shortID(order))"])
        let before = try cli.sqlite("SELECT * FROM navigation_stack; SELECT count(*) FROM navigation_events;").stdout
        for (url, status) in [
            ("pizzeria://cart/1", 65), ("pizzeria://pizza/Hawaii", 66), ("https://x/pizza/1", 65),
            ("pizzeria://pizza/a/b/c", 65),
        ] as [(String, Int32)] {
            let result = try cli.run("nav", "open", "luca", url)
            #expect(result.status == status, "\(url): \(result)")
        }
        #expect(
            try cli.sqlite("SELECT * FROM navigation_stack; SELECT count(*) FROM navigation_events;").stdout == before)
    }

    @Test("export and import through files and stdin, both formats, opaque elements kept")
    func exportImport() throws {
        let cli = try pizzeria()
        let porcini = (try cli.json("pizza", "show", "Porcini") as? [String: Any])?["id"] as? String ?? ""
        let handWritten = #"["Swift.Int","42","PizzeriaApp.Route","{\"pizza\":{\"id\":\"\#(porcini)\"}}"]"#
        let imported = try cli.run(["nav", "import", "luca", "-"], stdin: handWritten)
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout.contains("Menu › Porcini › Swift.Int 42"))
        let exported = try cli.ok("nav", "export", "luca", "--format", "navigation-path").stdout
        #expect(exported == handWritten + "\n")
        let routes = try cli.run("nav", "export", "luca")
        #expect(
            routes.stdout == #"[{"pizza":{"id":"\#(porcini)"}}]"# + "\n"
                && routes.stderr.contains("1 element(s) of other types"))

        try Data(routes.stdout.utf8).write(to: URL(fileURLWithPath: cli.directory.path("path.json")))
        let fromFile = try cli.json("nav", "import", "marco", "path.json", "--format", "routes") as? [String: Any]
        #expect(((fromFile?["state"] as? [String: Any])?["labels"] as? [String]) == ["Porcini"])
        let custom = try cli.ok("nav", "export", "luca", "--format", "navigation-path", "--type-name", "Shop.Route")
            .stdout
        #expect(custom.contains(#""Shop.Route""#))
        let missing = try cli.run("nav", "import", "luca", "nope.json")
        #expect(missing.status == 74)
        let garbage = try cli.run(["nav", "import", "luca"], stdin: "{not json")
        #expect(garbage.status == 65)
    }

    @Test("the sheet survives between runs; save validates; dismiss discards")
    func sheets() throws {
        let cli = try pizzeria()
        try cli.ok("sheet", "open", "luca", "add")
        let shown = try cli.json("sheet", "show", "luca") as? [String: Any]
        #expect(shown?["can_save"] as? Bool == false && (shown?["errors"] as? [Any])?.count == 2)
        try cli.ok("sheet", "set", "luca", "--name", "Diavola")
        let invalid = try cli.run("sheet", "save", "luca")
        #expect(invalid.status == 65 && invalid.stderr == "error: price: must be greater than 0\n")
        let badPrice = try cli.run("sheet", "set", "luca", "--price", "free")
        #expect(badPrice.status == 65)
        try cli.ok("sheet", "set", "luca", "--price", "8,50")
        let saved = try cli.json("sheet", "save", "luca") as? [String: Any]
        #expect(saved?["name"] as? String == "Diavola" && saved?["price_cents"] as? Int == 850)
        #expect(try cli.run("sheet", "show", "luca").status == 1)

        try cli.ok("sheet", "open", "luca", "edit", "Diavola")
        let twice = try cli.run("sheet", "open", "luca", "add")
        #expect(twice.status == 1 && twice.stderr.contains("already open"))
        try cli.ok("sheet", "set", "luca", "--name", "Margherita")
        let duplicate = try cli.run("sheet", "save", "luca")
        #expect(duplicate.status == 1 && duplicate.stderr.contains("already taken"))
        try cli.ok("sheet", "dismiss", "luca")
        #expect((try cli.json("pizza", "show", "Diavola") as? [String: Any])?["version"] as? Int == 1)
    }

    @Test("two processes navigating one user at once: every operation lands; stack and history agree")
    func concurrentNavigation() async throws {
        let cli = try pizzeria()
        let operations = 25
        let results = try await withThrowingTaskGroup(of: [ProcessResult].self) { group in
            for worker in 0..<2 {
                group.addTask {
                    try (0..<operations).map { step in
                        let arguments =
                            step % 3 == 2
                            ? ["nav", "pop", "luca"]
                            : ["nav", "push", "luca", worker == 0 ? "pizza:Margherita" : "pizza:Porcini"]
                        return try PizzeriaBinary.run(arguments, in: cli.directory.url)
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        // A pop may find the stack empty (refused, exit 1); nothing else may fail, nothing may be busy.
        #expect(
            results.allSatisfy { $0.status == 0 || ($0.status == 1 && $0.stderr.contains("stack is empty")) },
            "\(results.filter { $0.status != 0 })")
        let landed = results.filter { $0.status == 0 }.count
        let events = try cli.json("nav", "history", "luca", "--limit", "1000") as? [[String: Any]] ?? []
        #expect(events.count == landed)
        // Replay the history: it must give the stack.
        var replayed: [String] = []
        for event in events {
            let routes = (event["routes"] as? [[String: Any]] ?? []).compactMap {
                ($0["pizza"] as? [String: Any])?["id"] as? String
            }
            if event["action"] as? String == "push" {
                replayed += routes
            } else {
                replayed = Array(replayed.prefix(event["depth_after"] as? Int ?? 0))
            }
        }
        let path = (try state(cli)["path"] as? [[String: Any]] ?? []).compactMap {
            ($0["pizza"] as? [String: Any])?["id"] as? String
        }
        #expect(replayed == path)
        try cli.ok("check")
    }

    @Test("nav show answers on a history of a million events")
    func largeHistory() throws {
        let cli = try pizzeria()
        try cli.ok("nav", "push", "luca", "pizza:Margherita")
        let built = try cli.sqlite(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000)
            INSERT INTO navigation_events (user_id, action, routes, depth_after)
            SELECT (SELECT id FROM users WHERE handle = 'luca'), 'push', '[]', 1 FROM n;
            """)
        #expect(built.status == 0, "\(built)")
        let shown = try cli.ok("nav", "show", "luca")
        #expect(shown.stdout.contains("Menu › Margherita"))
        let plan = try cli.sqlite(
            "EXPLAIN QUERY PLAN SELECT id, at, action, routes, depth_after, detail FROM navigation_events WHERE user_id = 'x' ORDER BY id DESC LIMIT 20;",
            readOnly: true)
        #expect(plan.stdout.contains("USING INDEX navigation_events") && !plan.stdout.contains("SCAN"), "\(plan)")
    }

    @Test("analysts read navigation_paths and navigation_history")
    func views() throws {
        let cli = try pizzeria()
        try cli.ok("nav", "push", "luca", "pizza:Margherita", "pizza:Porcini")
        let paths = try cli.sqlite(
            "SELECT handle, depth, path FROM navigation_paths WHERE handle = 'luca';", readOnly: true)
        #expect(paths.stdout == "luca|2|Margherita › Porcini\n", "\(paths)")
        let history = try cli.sqlite(
            "SELECT action, routes, depth_after FROM navigation_history WHERE handle = 'luca';", readOnly: true)
        #expect(history.stdout == "push|Margherita › Porcini|2\n", "\(history)")
    }
}
