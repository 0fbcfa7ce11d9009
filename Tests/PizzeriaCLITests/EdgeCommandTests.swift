import Foundation
import PizzeriaTestSupport
import Testing

@Suite("CLI edges: closed and full stdout, odd arguments, real clients' JSON, damaged rows (the real binary)")
struct EdgeCommandTests {
    /// Runs `pizzeria arguments…` through `sh -c` with `redirect` applied to its stdout.
    func shell(_ cli: CLI, _ redirect: String, _ arguments: String) throws -> ProcessResult {
        let process = try RunningProcess(executable: URL(fileURLWithPath: "/bin/sh"),
                                         arguments: ["-c", "'\(PizzeriaBinary.url.path)' \(arguments) \(redirect)"],
                                         in: cli.directory.url, environment: PizzeriaBinary.environment(cli.environment))
        return try process.wait(timeout: 30)
    }

    @Test("a closed, full or broken stdout is exit 74 with a message, never a crash; a closed one stops before any write")
    func outputFailures() throws {
        let cli = CLI()
        try cli.ok("demo")
        let count = { try cli.sqlite("SELECT count(*) FROM users;").stdout }
        let before = try count()
        let closed = try shell(cli, ">&-", "user add closed")
        #expect(closed.status == 74 && closed.stderr.contains("cannot write to standard output"), "\(closed)")
        #expect(try count() == before)  // refused before doing anything
        let full = try shell(cli, ">/dev/full", "user add full")
        #expect(full.status == 74 && full.stderr.contains("No space left on device") && full.stderr.contains("--key"), "\(full)")
        // A pipe whose reader is gone: EPIPE, not death by SIGPIPE.
        let pipe = try shell(cli, "| true", "--json pizza list; echo \"status=$?\" >&2")
        #expect(!pipe.stderr.contains("status=141"), "\(pipe)")
        let big = try shell(cli, "| head -c 1 >/dev/null", "nav history anna --limit 1000; echo \"status=$?\" >&2")
        #expect(big.stderr.contains("status=0") || big.stderr.contains("status=74"), "\(big)")
    }

    @Test("arguments that are not UTF-8 are refused (65); negative numbers are values with their rule")
    func oddArguments() throws {
        let cli = CLI()
        try cli.ok("demo")
        let invalid = try shell(cli, "", "pizza show \"$(printf 'Marg\\377rita')\"")
        #expect(invalid.status == 65 && invalid.stderr.contains("not valid UTF-8"), "\(invalid)")
        let pop = try cli.run("nav", "pop", "anna", "-1")
        #expect(pop.status == 65 && pop.stderr.contains("count: must be at least 1"), "\(pop)")
        let limit = try cli.run("nav", "history", "anna", "--limit", "-5")
        #expect(limit.status == 65 || limit.status == 64, "\(limit)")
        #expect(!limit.stderr.contains("unknown option"), "\(limit)")
    }

    @Test("nav import of what a SwiftUI app writes: uppercase UUIDs restore the stack; other JSON in routes format is 65")
    func realClientJSON() throws {
        let cli = CLI()
        try cli.ok("demo")
        let menu = try cli.json("pizza", "list") as? [[String: Any]] ?? []
        let ids = menu.compactMap { $0["id"] as? String }.map { $0.uppercased() }
        let routes = "[" + ids.map { #"{"pizza":{"id":"\#($0)"}}"# }.joined(separator: ",") + "]"
        let file = cli.directory.path("routes.json")
        try Data(routes.utf8).write(to: URL(fileURLWithPath: file))
        let imported = try cli.json("nav", "import", "marco", file) as? [String: Any]
        #expect((imported?["state"] as? [String: Any])?["depth"] as? Int == ids.count, "\(String(describing: imported))")
        #expect((imported?["dropped"] as? [Any])?.isEmpty == true)

        let mixed = cli.directory.path("mixed.json")
        try Data(#"[{"pizza":{"id":"\#(ids[0])"}}, {"foo": 1}, 42]"#.utf8).write(to: URL(fileURLWithPath: mixed))
        let refused = try cli.run("nav", "import", "marco", mixed, "--format", "routes")
        #expect(refused.status == 65 && refused.stderr.contains("element 2 is not a route"), "\(refused)")
        let gone = cli.directory.path("gone.json")
        try Data(#"[{"pizza":{"id":"00000000-0000-4000-8000-000000000000"}}]"#.utf8).write(to: URL(fileURLWithPath: gone))
        let nothing = try cli.run("nav", "import", "marco", gone)
        #expect(nothing.status == 66 && nothing.stderr.contains("nothing was imported"), "\(nothing)")
        let state = try cli.json("nav", "show", "marco") as? [String: Any]
        #expect(state?["depth"] as? Int == ids.count)
        let empty = try cli.run("nav", "export", "marco", "--format", "navigation-path", "--type-name", "")
        #expect(empty.status == 65 && empty.stderr.contains("type-name: must not be empty"), "\(empty)")
        let link = try cli.run("nav", "open", "marco", "pizzeria://pizza/Porcini?utm_source=share#top")
        #expect(link.status == 0, "\(link)")
    }

    @Test("hand-typed rows the code cannot read are refused by the schema now, and old ones are reported (65), never 70")
    func damagedRows() throws {
        let cli = CLI()
        try cli.ok("demo")
        let refused = try cli.sqlite("INSERT INTO navigation_events (user_id, action, routes, depth_after) SELECT id, 'push', '[1]', 1 FROM users;")
        #expect(refused.status != 0 && refused.stderr.contains("navigation_events.routes must be"), "\(refused)")
        let date = try cli.sqlite("UPDATE orders SET pickup_at = '2026-02-30T19:00:00Z';")
        #expect(date.status != 0 && date.stderr.contains("pickup_at must be a real UTC time"), "\(date)")
        // A file written before the guards: drop them and write the bad rows.
        _ = try cli.sqlite("""
            DROP TRIGGER navigation_events_shape; DROP TRIGGER orders_pickup_real_update;
            INSERT INTO navigation_events (user_id, action, routes, depth_after, top_before) SELECT id, 'push', '[1]', 1, '42' FROM users WHERE handle = 'anna';
            UPDATE orders SET pickup_at = '2026-02-30T19:00:00Z';
            """)
        for arguments in [["nav", "history", "anna"], ["nav", "show", "anna"], ["order", "list"]] {
            let result = try cli.run(arguments)
            #expect(result.status == 65 && result.stderr.contains("damaged row in"), "\(arguments): \(result)")
            #expect(!result.stdout.contains("1970"))
        }
    }

    @Test("init on a file whose schema_migrations lost a row: 65, a sentence, no SQL")
    func lostMigrationRow() throws {
        let cli = CLI()
        try cli.ok("init")
        _ = try cli.sqlite("DELETE FROM schema_migrations WHERE version = 4;")
        let result = try cli.run("init")
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("migration 4 (navigation) failed") && result.stderr.count < 400, "\(result)")
        #expect(!result.stderr.contains("CREATE TABLE"))
    }

    @Test("an ambiguous prefix lists candidates by prefixes that tell them apart; one pizza is '1 pizza'")
    func messages() throws {
        let cli = CLI()
        try cli.ok("demo")
        _ = try cli.sqlite("""
            INSERT INTO pizzas (id, name, price_cents) VALUES ('abcdef12-3456-4000-8000-000000000001', 'Twin One', 500),
                                                              ('abcdef12-3456-4000-8000-000000000002', 'Twin Two', 500);
            """)
        let ambiguous = try cli.run("pizza", "show", "abcd")
        #expect(ambiguous.status == 65 && ambiguous.stderr.contains("abcdef12-3456-4000-8000-000000000001 Twin One"), "\(ambiguous)")
        try cli.ok("config", "set", "slot-capacity", "7")
        let tomorrow = try #require(((try cli.json("order", "list") as? [[String: Any]])?.first?["pickup_local"] as? String)?.prefix(10))
        let full = try cli.run("order", "place", "anna", "--pickup", "\(tomorrow)T19:00", "Margherita=2")
        #expect(full.status == 1 && full.stderr.contains("has only 1 pizza left"), "\(full)")
    }
}
