import Foundation
import PizzeriaTestSupport
import Testing

/// An erasure that erases: nothing of the customer in any table, in free pages or in the `-wal`
/// (grepped, with a reader holding the file open), nothing recorded for them afterwards, a
/// terminal asks, scripts say --yes (the real binary).
@Suite("CLI: user erase leaves nothing of the customer on disk")
struct ErasureCommandTests {
    static let name = "Luca Bianchi", phone = "393477654321", note = "citofono Esposito",
        email = "anna.rossi@example.com"
    static let key = "app-luca-2026-12-04"

    /// Luca with a name, a phone, two orders (one with a note, one under a key that holds his
    /// handle), navigation from a deep link carrying an e-mail address, and a sheet's draft.
    func shop() throws -> CLI {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-01T09:00:00Z"
        cli.environment["PIZZERIA_STAFF"] = "giulia"
        try cli.ok("init")
        try cli.ok("pizza", "add", "--name", "Margherita", "--price", "6")
        try cli.ok("user", "add", "luca", "--name", Self.name, "--phone", "+" + Self.phone)
        try cli.ok("user", "add", "marco")
        try cli.ok("order", "place", "luca", "--pickup", "2026-12-04T19:30", "--key", Self.key, "Margherita")
        let placed =
            try cli.json("order", "place", "luca", "--pickup", "2026-12-04T20:00", "Margherita=2") as? [String: Any]
        let id = try #require(placed?["id"] as? String)
        try cli.ok("order", "edit", id, "--note", "Teresa, \(Self.note), tel 333 0001111")
        try cli.ok("nav", "open", "luca", "pizzeria://pizza/Margherita?utm_source=\(Self.email)")
        try cli.ok("nav", "push", "luca", "order:\(shortID(id))")
        try cli.ok("sheet", "open", "luca", "add")
        try cli.ok("sheet", "set", "luca", "--name", "Pizza di \(Self.name)")
        return cli
    }

    func survivors(_ cli: CLI) -> [String] {
        var found: [String] = []
        for suffix in ["", "-wal"] {
            guard let bytes = FileManager.default.contents(atPath: cli.databasePath + suffix) else { continue }
            for secret in [Self.name, Self.phone, Self.note, Self.email, Self.key]
            where bytes.range(of: Data(secret.utf8)) != nil {
                found.append("\(secret) in pizzeria.sqlite\(suffix)")
            }
        }
        return found
    }

    @Test(
        "with an order watch holding the file open: name, phone, note, deep link and key are in neither the file nor the -wal"
    )
    func nothingLeftOnDisk() throws {
        let cli = try shop()
        #expect(!survivors(cli).isEmpty, "the secrets must be on disk before the erasure")
        // A kitchen display holds the file open, reading the feed, throughout the erasure.
        let watch = try cli.start(["order", "watch"])
        defer { watch.kill() }
        #expect(watch.waitForOutput { _, err in err.contains("watching orders") }, "\(watch.outputSoFar)")
        try cli.ok("order", "place", "marco", "--pickup", "2026-12-04T21:00", "Margherita")
        #expect(watch.waitForOutput { out, _ in out.contains("marco") }, "\(watch.outputSoFar)")
        let erased = try cli.ok("user", "erase", "luca", "--yes")
        #expect(erased.stdout.contains("Cancelled 2 future orders"), "\(erased.stdout)")
        #expect(
            erased.stdout.contains("1 order notes") && erased.stdout.contains("1 idempotency keys"), "\(erased.stdout)")
        #expect(survivors(cli).isEmpty, "\(survivors(cli))")
        // The books keep the orders, cancelled as `erased`, under the pseudonym.
        let history = try cli.sqlite(
            "SELECT detail FROM order_status_events WHERE kind = 'status' AND to_status = 'cancelled'"
        ).stdout
        #expect(history == "erased\nerased\n", "\(history)")
        #expect(try cli.sqlite("SELECT count(*) FROM orders").stdout == "3\n")
        #expect(try cli.ok("check").stdout.contains("All checks passed"))
    }

    @Test("nothing more is recorded for an erased customer: navigation, deep links, sheets, import, bookings (exit 1)")
    func nothingMoreRecorded() throws {
        let cli = try shop()
        try cli.ok("user", "erase", "luca", "--yes")
        let handle = try cli.sqlite("SELECT handle FROM users WHERE id IN (SELECT user_id FROM user_erasures)").stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        for arguments in [
            ["nav", "push", handle, "pizza:Margherita"], ["nav", "open", handle, "pizzeria://pizza/Margherita"],
            ["nav", "random", handle], ["nav", "root", handle], ["sheet", "open", handle, "add"],
            ["order", "place", handle, "--pickup", "2026-12-04T19:30", "Margherita"],
        ] {
            let result = try cli.run(arguments)
            #expect(result.status == 1, "\(arguments): \(result)")
        }
        let imported = try cli.run(["nav", "import", handle, "-"], stdin: "[]")
        #expect(imported.status != 0, "\(imported)")
        #expect(try cli.sqlite("SELECT count(*) FROM navigation_events").stdout == "0\n")
        // The cancellation cannot be undone.
        let order = shortID(
            try cli.sqlite("SELECT id FROM orders WHERE status = 'cancelled' LIMIT 1").stdout
                .trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(try cli.run("order", "undo", order).status == 1)
    }

    @Test("six processes pushing while the customer is erased: no navigation row of theirs survives the erasure")
    func racingNavigation() throws {
        let cli = try shop()
        let pushers = try (0..<6).map { _ in
            try RunningProcess(
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [
                    "-c", "for i in $(seq 1 40); do \"$0\" nav push luca pizza:Margherita >/dev/null 2>&1; done",
                    PizzeriaBinary.url.path,
                ],
                in: cli.directory.url, environment: PizzeriaBinary.environment(cli.environment))
        }
        try cli.ok("user", "erase", "luca", "--yes")
        for pusher in pushers { _ = try pusher.wait(timeout: 60) }
        let id = try cli.sqlite("SELECT user_id FROM user_erasures").stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(
            try cli.sqlite(
                "SELECT (SELECT count(*) FROM navigation_events WHERE user_id = '\(id)') + (SELECT count(*) FROM navigation_stack WHERE user_id = '\(id)')"
            ).stdout == "0\n")
    }

    @Test(
        "a terminal asks for the handle; without a terminal and without --yes it is a usage error (64) and erases nothing"
    )
    func asks() throws {
        let cli = try shop()
        let refused = try cli.run("user", "erase", "luca")
        #expect(refused.status == 64 && refused.stderr.contains("--yes"), "\(refused)")
        #expect(try cli.sqlite("SELECT count(*) FROM user_erasures").stdout == "0\n")
        let session = try PseudoTerminalSession(
            ["user", "erase", "luca"], in: cli.directory.url, environment: cli.environment)
        try session.expect("Type the handle")
        session.send("marco")
        #expect(try session.wait() == 1, "\(session.transcript)")
        #expect(try cli.sqlite("SELECT count(*) FROM user_erasures").stdout == "0\n")
        let again = try PseudoTerminalSession(
            ["user", "erase", "luca"], in: cli.directory.url, environment: cli.environment)
        try again.expect("Type the handle")
        again.send("luca")
        #expect(try again.wait() == 0, "\(again.transcript)")
        #expect(try cli.sqlite("SELECT count(*) FROM user_erasures").stdout == "1\n")
    }

    @Test(
        "a backup made before an erasure: check names it, check --repair --erasures-from the live file erases them again"
    )
    func backupBeforeErasure() throws {
        let cli = try shop()
        #expect(try cli.ok("backup", "before.sqlite").stderr.isEmpty)
        try cli.ok("user", "erase", "luca", "--yes")
        let reminder = try cli.ok("backup", "after.sqlite").stderr
        #expect(
            reminder.contains("1 customer was erased from this file") && reminder.contains("--erasures-from"),
            "\(reminder)")
        let backup = cli.directory.path("before.sqlite")
        let named = try cli.ok("--db", backup, "check", "--erasures-from", cli.databasePath)
        #expect(named.stderr.contains("predates 1 erasure"), "\(named)")
        let again = try cli.run("--db", backup, "check", "--repair", "--erasures-from", cli.databasePath)
        #expect(again.stderr.contains("erased again 1 customer"), "\(again)")
        let bytes = try #require(FileManager.default.contents(atPath: backup))
        #expect(bytes.range(of: Data(Self.name.utf8)) == nil && bytes.range(of: Data(Self.phone.utf8)) == nil)
        #expect(try cli.ok("--db", backup, "check", "--erasures-from", cli.databasePath).stderr.isEmpty)
    }
}
