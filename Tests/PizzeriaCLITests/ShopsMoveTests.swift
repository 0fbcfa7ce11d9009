import Foundation
import PizzeriaServices
import PizzeriaTestSupport
import Testing

/// The placement of shops on nodes and `shops move` (docs/SHOPS.md): the router's reads, the
/// fence on a moved shop's old file, a move that cannot sync undone, and a real move between two
/// nodes with their Litestream replicators under a booking load.
@Suite("Shops on nodes: the placement and moving a shop (the real binary)", .serialized)
struct ShopsMoveTests {
    /// Two nodes (`a`, `b`) of one placement, each a shops directory and a replica directory.
    static func platform() throws -> (cli: CLI, store: String) {
        var cli = CLI()
        let store = cli.directory.path("store")
        cli.environment["PIZZERIA_PLACEMENT"] = cli.directory.path("placement.sqlite")
        cli.environment["PIZZERIA_CHECKPOINTS"] = "external"
        for node in ["a", "b"] {
            try FileManager.default.createDirectory(
                atPath: cli.directory.path(node), withIntermediateDirectories: true)
            try cli.ok(
                "shops", "node", "add", node, "--dir", cli.directory.path(node), "--replica", "\(store)/\(node)",
                "--by", "ops")
        }
        return (cli, store)
    }

    /// ``platform()`` with shop `napoli` on node `a`, selling a Margherita.
    static func platformWithNapoli() throws -> CLI {
        let (cli, _) = try platform()
        try cli.ok("--node", "a", "shops", "create", "napoli")
        try cli.ok("--shop", "napoli", "pizza", "add", "--name", "Margherita", "--price", "7")
        return cli
    }

    @Test(
        "nodes and where in every format; --shop goes to the shop's node; another --node is 66; a fenced file refuses writes (75) through --shop only"
    )
    func placementAndFence() throws {
        let cli = try Self.platformWithNapoli()
        let nodes = try cli.ok("shops", "nodes", "--csv").stdout
        #expect(nodes.contains("name,shops,shops_dir,replica_dir") && nodes.contains("a,1,"), "\(nodes)")
        let whereJSON = try cli.ok("shops", "where", "--json").stdout
        #expect(whereJSON.contains("\"node\" : \"a\"") && whereJSON.contains("\"state\" : \"serving\""), "\(whereJSON)")
        #expect(try cli.ok("shops", "where", "--on", "b").stdout.contains("No shops placed."))
        let path = cli.directory.path("a") + "/fe/dc/napoli.sqlite"
        #expect(try cli.ok("shops", "where", "--tsv", "--no-headers").stdout.contains(path))
        // Asked on the wrong node: not found here, naming where it is.
        let elsewhere = try cli.run("--node", "b", "--shop", "napoli", "pizza", "list")
        #expect(elsewhere.status == 66 && elsewhere.stderr.contains("is on node a, not on node b"), "\(elsewhere)")
        var typo = cli
        typo.environment["PIZZERIA_PLACEMENT"] = cli.directory.path("placemnt.sqlite")
        let missing = try typo.run("--shop", "napoli", "pizza", "list")
        #expect(missing.status == 66 && missing.stderr.contains("no placement at"), "\(missing)")
        #expect(!FileManager.default.fileExists(atPath: cli.directory.path("placemnt.sqlite")), "a read made no file")
        let unplaced = try cli.run("--shop", "roma", "pizza", "list")
        #expect(unplaced.status == 66 && unplaced.stderr.contains("placed on no node"), "\(unplaced)")
        let badNode = try cli.run("shops", "node", "add", "../x", "--dir", "/tmp", "--replica", "/tmp")
        #expect(badNode.status == 65 && badNode.stderr.contains("node"), "\(badNode)")
        let relative = try cli.run("shops", "node", "add", "c", "--dir", "shops", "--replica", "/tmp")
        #expect(relative.status == 65 && relative.stderr.contains("absolute"), "\(relative)")

        // The fence (a move's, set here by hand): --shop writes are refused as busy, reads go on;
        // the same file by --db is one shop alone, as before.
        let shell = try SQLiteShell(databasePath: path)
        try shell.run("PRAGMA application_id = 12345;")
        shell.close()
        let fenced = try cli.run("--shop", "napoli", "pizza", "add", "--name", "Diavola", "--price", "8")
        #expect(fenced.status == 75 && fenced.stderr.contains("fenced for a move"), "\(fenced)")
        #expect(try cli.ok("--shop", "napoli", "pizza", "list").stdout.contains("Margherita"))
        #expect(!(try cli.ok("--shop", "napoli", "pizza", "list").stdout.contains("Diavola")))
        try cli.ok("--db", path, "pizza", "add", "--name", "Diavola", "--price", "8")
        // Removing a shop on its node takes it out of the placement too.
        try cli.ok("--node", "a", "shops", "remove", "napoli", "--yes")
        #expect(try cli.ok("shops", "where").stdout.contains("No shops placed."))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a move whose replica never reaches the fence is undone: exit 1, the shop serving where it was, writable")
    func moveWithoutReplicatorUndone() throws {
        var (cli, _) = try Self.platform()
        cli.environment["PIZZERIA_LITESTREAM"] = "/bin/false"  // every restore fails
        try cli.ok("--node", "a", "shops", "create", "napoli")
        let failed = try cli.run("shops", "move", "napoli", "--to", "b", "--timeout", "1", "--by", "ops")
        #expect(failed.status == 1 && failed.stderr.contains("did not move"), "\(failed)")
        #expect(failed.stderr.contains("replicator running"), "\(failed)")
        let place = try cli.ok("shops", "where", "--csv", "--no-headers").stdout
        #expect(place.hasPrefix("napoli,a,serving,,"), "\(place)")
        try cli.ok("--shop", "napoli", "pizza", "add", "--name", "Margherita", "--price", "7")
        let again = try cli.run("shops", "move", "napoli", "--to", "a")
        #expect(again.status == 1 && again.stderr.contains("on node a already"), "\(again)")
        let nowhere = try cli.run("shops", "move", "napoli", "--to", "zz")
        #expect(nowhere.status == 66 && nowhere.stderr.contains("no node named 'zz'"), "\(nowhere)")
        let leftOnB = (FileManager.default.enumerator(atPath: cli.directory.path("b"))?.allObjects as? [String] ?? [])
            .filter { $0.contains(".sqlite") }
        #expect(leftOnB.isEmpty, "the undone copy stays on node b: \(leftOnB)")
    }

    @Test(
        "a move killed after its copy was in place resumes when run again to the same node (and refuses another node meanwhile: 75)"
    )
    func killedMoveResumes() throws {
        let cli = try Self.platformWithNapoli()
        // What a mover killed after the rename leaves: the placement moving to b with its open move,
        // the old file fenced with the move's token, the copy (same rows) in b's directory.
        let destination = cli.directory.path("b") + "/fe/dc/napoli.sqlite"
        try FileManager.default.createDirectory(
            atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try cli.ok("--node", "a", "shops", "backup", "napoli", "--to", destination)
        let placement = try SQLiteShell(databasePath: cli.directory.path("placement.sqlite"))
        try placement.run(
            """
            UPDATE placements SET state = 'moving', target = 'b' WHERE shop = 'napoli';
            INSERT INTO moves (shop, from_node, to_node, fence, started_at, by) VALUES ('napoli', 'a', 'b', 4242, '2026-12-07T10:00:00Z', 'ops');
            """)
        placement.close()
        let source = cli.directory.path("a") + "/fe/dc/napoli.sqlite"
        let old = try SQLiteShell(databasePath: source)
        try old.run("PRAGMA application_id = 4242;")
        old.close()

        let busy = try cli.run("--shop", "napoli", "pizza", "list")
        #expect(busy.status == 75 && busy.stderr.contains("is moving from node a to node b"), "\(busy)")
        let other = try cli.run("shops", "move", "napoli", "--to", "a")
        #expect(other.status == 75 && other.stderr.contains("moving"), "\(other)")
        let resumed = try cli.ok("shops", "move", "napoli", "--to", "b", "--json").stdout
        #expect(resumed.contains("\"to\" : \"b\""), "\(resumed)")
        #expect(try cli.ok("--shop", "napoli", "pizza", "list").stdout.contains("Margherita"))
        try cli.ok("--shop", "napoli", "pizza", "add", "--name", "Diavola", "--price", "8")
        #expect(!FileManager.default.fileExists(atPath: source))
        #expect(try cli.ok("shops", "where", "--csv", "--no-headers").stdout.hasPrefix("napoli,b,serving,,"))
    }

    @Test(
        "a shop moved there and back between two replicated nodes under a booking load: every acknowledged booking is on the new node, refusals are 75, nothing stays behind"
    )
    func moveUnderLoad() throws {
        let litestream = try ReplicationTests.requireLitestream()
        var (cli, store) = try Self.platform()
        cli.environment["PIZZERIA_LITESTREAM"] = litestream.binary
        try cli.ok("--node", "a", "shops", "create", "napoli")
        try cli.ok("--shop", "napoli", "demo")
        var replicators: [RunningProcess] = []
        for node in ["a", "b"] {
            let replicator = try RunningProcess(
                executable: URL(fileURLWithPath: "/usr/bin/env"),
                arguments: [
                    "python3", packageRoot.appendingPathComponent("scripts/replicate-shops").path,
                    cli.directory.path(node), "\(store)/\(node)",
                ],
                in: cli.directory.url, environment: PizzeriaBinary.environment([:]))
            #expect(
                replicator.waitForOutput(timeout: 30) { _, err in err.contains("Litestream process(es)") },
                "\(replicator.outputSoFar)")
            replicators.append(replicator)
        }
        defer { for replicator in replicators { replicator.signal(SIGTERM) } }

        // One booking after another, each key remembered with how the command ended.
        let outcomes = Locked<[(key: String, status: Int32)]>([])
        let stop = Locked(false)
        let done = DispatchSemaphore(value: 0)
        let environment = cli.environment, directory = cli.directory.url, day = CrashTests.tomorrow
        let booker = Thread {
            var n = 0
            while !stop.get() {
                n += 1
                let key = "move-\(n)"
                let slot = String(format: "%@T%02d:%02d", day, 12 + n % 11, (n / 11 % 4) * 15)
                let result = try? PizzeriaBinary.run(
                    ["--shop", "napoli", "order", "place", "anna", "--pickup", slot, "--key", key, "Margherita=1"],
                    in: directory, environment: environment)
                outcomes.set(outcomes.get() + [(key, result?.status ?? -1)])
            }
            done.signal()
        }
        booker.start()
        func bookings(atLeast count: Int) -> Bool {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                if outcomes.get().filter({ $0.status == 0 }).count >= count { return true }
                Thread.sleep(forTimeInterval: 0.05)  // between looks at a condition with a deadline
            }
            return false
        }
        #expect(bookings(atLeast: 3))
        try cli.ok("shops", "move", "napoli", "--to", "b", "--by", "ops")
        let afterFirst = outcomes.get().filter { $0.status == 0 }.count
        #expect(bookings(atLeast: afterFirst + 3))
        let back = try cli.ok("shops", "move", "napoli", "--to", "a", "--by", "ops", "--json").stdout
        #expect(back.contains("\"from\" : \"b\"") && back.contains("\"to\" : \"a\""), "\(back)")
        let afterSecond = outcomes.get().filter { $0.status == 0 }.count
        #expect(bookings(atLeast: afterSecond + 3))
        stop.set(true)
        done.wait()

        let all = outcomes.get()
        let acknowledged = all.filter { $0.status == 0 }.map(\.key)
        let others = Set(all.filter { $0.status != 0 }.map(\.status))
        #expect(others.isSubset(of: [75]), "refusals other than busy: \(all.filter { $0.status != 0 })")
        let keys = try Pizzeria.open(path: cli.directory.path("a") + "/fe/dc/napoli.sqlite", access: .requireCurrent)
            .database.read { db in
                Set(
                    try db.fetchAll("SELECT idempotency_key FROM orders WHERE idempotency_key IS NOT NULL") {
                        try $0.string("idempotency_key")
                    })
            }
        let lost = acknowledged.filter { !keys.contains($0) }
        #expect(lost.isEmpty, "acknowledged and lost: \(lost) of \(acknowledged.count)")
        #expect(acknowledged.count >= 9)
        try cli.ok("--shop", "napoli", "check")
        // Nothing of the shop stays on node b; the placement's log says who moved it.
        let leftOnB = FileManager.default.enumerator(atPath: cli.directory.path("b"))?.allObjects as? [String] ?? []
        #expect(!leftOnB.contains { $0.hasSuffix(".sqlite") || $0.contains("napoli.sqlite-") }, "\(leftOnB)")
        let place = try cli.ok("shops", "where", "--csv", "--no-headers").stdout
        #expect(place.hasPrefix("napoli,a,serving,,"), "\(place)")
    }
}
