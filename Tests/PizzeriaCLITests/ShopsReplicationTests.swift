import Foundation
import PizzeriaTestSupport
import Testing

/// Every shop of a platform streamed by `scripts/replicate-shops` (Litestream directories, sharded
/// over processes, watched) and one shop restored by `scripts/restore --shop`.
@Suite("Replication of every shop with Litestream (the real thing)", .serialized)
struct ShopsReplicationTests {
    @Test(
        "two shards replicate every shop, a shop created meanwhile included; one shop restored by name holds its writes"
    )
    func replicateShops() throws {
        _ = try ReplicationTests.requireLitestream()
        var cli = CLI()
        let shops = cli.directory.path("shops"), replica = cli.directory.path("replica")
        cli.environment["PIZZERIA_SHOPS"] = shops
        cli.environment["PIZZERIA_NOW"] = "2026-12-04T16:00:00Z"
        cli.environment["PIZZERIA_CHECKPOINTS"] = "external"
        for name in ["alpha", "beta", "delta-9"] { try cli.ok("shops", "create", name) }
        let replicator = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            arguments: [
                "python3", packageRoot.appendingPathComponent("scripts/replicate-shops").path, shops, replica,
                "--processes", "2",
            ],
            in: cli.directory.url, environment: PizzeriaBinary.environment([:]))
        #expect(
            replicator.waitForOutput(timeout: 30) { out, err in
                err.contains("in 2 Litestream process(es)") && out.components(separatedBy: "replicating to").count >= 4
            }, "\(replicator.outputSoFar)")
        // A shop created while it runs is picked up by its shard, no restart.
        try cli.ok("shops", "create", "gamma")
        try cli.ok("--shop", "gamma", "pizza", "add", "--name", "Margherita", "--price", "6")
        try cli.ok("--shop", "alpha", "pizza", "add", "--name", "Marinara", "--price", "4.50")
        // Restore by name until the replica holds the write (Litestream syncs every second).
        func restored(_ shop: String, holding item: String) throws -> Bool {
            let deadline = Date().addingTimeInterval(30)
            var attempt = 0
            while Date() < deadline {
                attempt += 1
                let out = cli.directory.path("\(shop)-\(attempt).sqlite")
                let result = ReplicationTests.script("restore", ["--shop", shop, replica, out])
                if result.status == 0, try cli.ok("--db", out, "pizza", "list").stdout.contains(item) {
                    try cli.ok("--db", out, "check")
                    return true
                }
                Thread.sleep(forTimeInterval: 0.5)  // between looks at a condition with a deadline
            }
            return false
        }
        #expect(try restored("gamma", holding: "Margherita"))
        #expect(try restored("alpha", holding: "Marinara"))
        let bad = ReplicationTests.script("restore", ["--shop", "../etc", replica, cli.directory.path("x.sqlite")])
        #expect(bad.status == 64, "\(bad)")
        let missing = ReplicationTests.script(
            "restore", ["--shop", "nowhere", replica, cli.directory.path("y.sqlite")])
        #expect(missing.status == 66, "\(missing)")
        // SIGTERM stops every Litestream it started.
        replicator.signal(SIGTERM)
        let stopped = try replicator.wait(timeout: 20)
        #expect(stopped.status == 0, "\(stopped.stderr)")
    }
}
