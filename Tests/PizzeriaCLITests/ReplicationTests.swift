import Foundation
import PizzeriaServices
import PizzeriaTestSupport
import Synchronization
import Testing

/// Litestream as `scripts/replicate` and `scripts/restore` run it — the real binary, a real
/// replica directory, real `pizzeria` processes writing meanwhile. When pip cannot install
/// Litestream here, every test is cancelled (skipped) with pip's reason.
@Suite("Replication with Litestream (the real thing)", .serialized)
struct ReplicationTests {
    static let now = "2026-12-01T10:00:00Z"

    /// What `scripts/ensure-litestream` gave, once per test process.
    static let litestream: Result<(binary: String, vfs: String), ToolUnavailable> = {
        let binary = Self.script("ensure-litestream", [])
        guard binary.status == 0 else { return .failure(ToolUnavailable(reason: binary.stderr)) }
        let vfs = Self.script("ensure-litestream", ["--vfs"])
        return .success(
            (
                binary.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
                vfs.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            ))
    }()

    struct ToolUnavailable: Error { let reason: String }

    static func requireLitestream() throws -> (binary: String, vfs: String) {
        switch litestream {
        case .success(let paths): return paths
        case .failure(let unavailable): try Test.cancel("Litestream is not installable here: \(unavailable.reason)")
        }
    }

    /// Runs `scripts/NAME arguments…` and waits.
    static func script(_ name: String, _ arguments: [String], environment: [String: String] = [:]) -> ProcessResult {
        do {
            let running = try RunningProcess(
                executable: URL(fileURLWithPath: "/bin/bash"),
                arguments: [packageRoot.appendingPathComponent("scripts/\(name)").path] + arguments,
                in: packageRoot, environment: PizzeriaBinary.environment(environment))
            return try running.wait(timeout: 300)
        } catch {
            return ProcessResult(status: -1, stdout: "", stderr: "\(error)")
        }
    }

    /// A database with the demo on it, replicated by `scripts/replicate` into `replica/`.
    /// Shared with the writer threads only for `book` and `cli.run`, which touch no mutable
    /// state; the replicator is replaced on the test's own thread.
    final class Setup: @unchecked Sendable {
        let cli: CLI
        let replica: String
        var replicator: RunningProcess?

        init() throws {
            var cli = CLI()
            cli.environment["PIZZERIA_NOW"] = ReplicationTests.now
            cli.environment["PIZZERIA_CHECKPOINTS"] = "external"
            try cli.ok("demo")
            self.cli = cli
            replica = cli.directory.path("replica")
            try startReplicator()
        }

        deinit { replicator?.kill() }

        func startReplicator() throws {
            let replicator = try RunningProcess(
                executable: URL(fileURLWithPath: "/bin/bash"),
                arguments: [packageRoot.appendingPathComponent("scripts/replicate").path, cli.databasePath, replica],
                in: cli.directory.url, environment: PizzeriaBinary.environment([:]))
            // Litestream logs to stdout; the script's notes go to stderr.
            #expect(
                replicator.waitForOutput(timeout: 30) { out, _ in out.contains("replicating to") },
                "\(replicator.outputSoFar)")
            self.replicator = replicator
        }

        /// Books one Margherita for `user` at the `slot`-th quarter hour of 2026-12-02 and returns
        /// the order's id when the command acknowledged it.
        func book(_ user: String, slot: Int) throws -> String? {
            let minutes = 12 * 60 + slot * 15
            let pickup = String(format: "2026-12-02T%02d:%02d", minutes / 60, minutes % 60)
            let result = try cli.run(["--json", "order", "place", user, "--pickup", pickup, "Margherita"])
            guard result.status == 0,
                let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            else { return nil }
            return object["id"] as? String
        }

        /// Restores the replica's latest state (or the state at `timestamp`) into a new file.
        func restore(_ name: String, timestamp: String? = nil) -> (ProcessResult, String) {
            let out = cli.directory.path(name)
            return (
                ReplicationTests.script("restore", [replica, out] + (timestamp.map { ["--timestamp", $0] } ?? [])), out
            )
        }

        /// Restores until every id in `ids` is in the restored file (the replica caught up) — and,
        /// given `query`, until the restored file answers it as the primary does — for at most
        /// `timeout` seconds; returns the ids the last restore held.
        func waitForReplica(toHold ids: Set<String>, matching query: String? = nil, timeout: Double = 30) throws -> (
            Set<String>, String
        ) {
            let deadline = Date().addingTimeInterval(timeout)
            var attempt = 0
            while true {
                attempt += 1
                let (result, out) = restore("caught-up-\(attempt).sqlite")
                var held = Set<String>()
                if result.status == 0 {
                    held = Set(
                        try cli.sqliteOn(out, "SELECT id FROM orders").stdout.split(separator: "\n").map(String.init))
                }
                let caughtUp =
                    try ids.isSubset(of: held)
                    && (query.map { try cli.sqliteOn(out, $0).stdout == (try cli.sqlite($0).stdout) } ?? true)
                if caughtUp || Date() > deadline { return (held, out) }
                Thread.sleep(forTimeInterval: 0.5)  // between looks at a condition with a deadline
            }
        }
    }

    @Test(
        "4 processes book and navigate while it replicates; the restore passes check and holds every acknowledged order"
    )
    func replicateUnderLoad() throws {
        _ = try Self.requireLitestream()
        let setup = try Setup()
        let acknowledged = Mutex<Set<String>>([])
        DispatchQueue.concurrentPerform(iterations: 4) { writer in
            let user = writer % 2 == 0 ? "anna" : "marco"
            for round in 0..<8 {
                if let id = try? setup.book(user, slot: writer * 8 + round) {
                    acknowledged.withLock { _ = $0.insert(id) }
                }
                _ = try? setup.cli.run(["nav", "push", user, "pizza:Porcini"])
            }
        }
        let ids = acknowledged.withLock { $0 }
        #expect(ids.count == 32)
        // The last navigation event may reach the replica a moment after the last order: wait for both.
        let events = "SELECT count(*) FROM navigation_events"
        let (held, restored) = try setup.waitForReplica(toHold: ids, matching: events)
        #expect(ids.isSubset(of: held), "missing: \(ids.subtracting(held))")
        let check = try setup.cli.run(["--db", restored, "check"])
        #expect(check.status == 0, "\(check)")
        // Navigation came along too: the same history as the primary.
        #expect(try setup.cli.sqliteOn(restored, events).stdout == (try setup.cli.sqlite(events).stdout))
    }

    @Test(
        "kill -9 of writers and replicator at random moments: no corruption, replication resumes, the restore passes check"
    )
    func killedAtRandom() throws {
        _ = try Self.requireLitestream()
        let setup = try Setup()
        var generator = SystemRandomNumberGenerator()
        var acknowledged = Set<String>()
        for round in 0..<3 {
            // Two writers in their own process groups, booking in a loop and logging what was acknowledged.
            var writers: [RunningProcess] = []
            for writer in 0..<2 {
                let log = setup.cli.directory.path("acknowledged-\(round)-\(writer).txt")
                let first = 100 + round * 40 + writer * 20
                let loop = """
                    for slot in $(seq \(first) \(first + 19)); do
                      minutes=$((12 * 60 + slot % 44 * 15)); day=$((3 + slot / 44))
                      pickup=$(printf '2026-12-%02dT%02d:%02d' $day $((minutes / 60)) $((minutes % 60)))
                      id=$("\(PizzeriaBinary.url.path)" --json order place anna --pickup "$pickup" Marinara | sed -n 's/^  "id" : "\\(.*\\)",$/\\1/p') && echo "$id" >> "\(log)"
                    done
                    """
                writers.append(
                    try RunningProcess(
                        executable: URL(fileURLWithPath: "/usr/bin/setsid"), arguments: ["/bin/bash", "-c", loop],
                        in: setup.cli.directory.url, environment: PizzeriaBinary.environment(setup.cli.environment)))
            }
            Thread.sleep(forTimeInterval: Double.random(in: 0.3...1.2, using: &generator))
            for writer in writers { _ = kill(-writer.pid, SIGKILL) }
            Thread.sleep(forTimeInterval: Double.random(in: 0...0.5, using: &generator))
            setup.replicator?.kill()
            _ = try? setup.replicator?.wait(timeout: 10)
            for writer in writers { _ = try? writer.wait(timeout: 10) }
            for writer in 0..<2 {
                let text =
                    (try? String(
                        contentsOfFile: setup.cli.directory.path("acknowledged-\(round)-\(writer).txt"), encoding: .utf8
                    )) ?? ""
                acknowledged.formUnion(text.split(separator: "\n").map(String.init).filter { $0.count == 36 })
            }
            try setup.startReplicator()
        }
        // Replication resumed: a booking after the last restart reaches the replica with the rest.
        let after = try #require(try setup.book("marco", slot: 1))
        acknowledged.insert(after)
        let (held, restored) = try setup.waitForReplica(toHold: acknowledged)
        #expect(acknowledged.isSubset(of: held), "missing: \(acknowledged.subtracting(held))")
        #expect(try setup.cli.run(["--db", restored, "check"]).status == 0)
        #expect(try setup.cli.run(["check"]).status == 0)
    }

    @Test("point-in-time restore: a timestamp between two bookings gives exactly the first")
    func pointInTime() throws {
        _ = try Self.requireLitestream()
        let setup = try Setup()
        let first = try #require(try setup.book("anna", slot: 1))
        _ = try setup.waitForReplica(toHold: [first])
        // Pacing, not waiting for an event: the moment named must fall in a later second than the
        // first point and an earlier one than the second (the replica's times are whole seconds);
        // a slower machine only widens the gaps.
        Thread.sleep(forTimeInterval: 1.5)
        let formatter = ISO8601DateFormatter()
        let between = formatter.string(from: Date())
        Thread.sleep(forTimeInterval: 1.5)
        let second = try #require(try setup.book("anna", slot: 2))
        _ = try setup.waitForReplica(toHold: [first, second])
        let (result, out) = setup.restore("then.sqlite", timestamp: between)
        #expect(result.status == 0, "\(result)")
        let ids = Set(
            try setup.cli.sqliteOn(out, "SELECT id FROM orders").stdout.split(separator: "\n").map(String.init))
        #expect(ids.contains(first) && !ids.contains(second), "\(ids)")
        // A restore never overwrites.
        #expect(setup.restore("then.sqlite").0.status == 1)
    }

    @Test(
        "a damaged newest point: restore falls back to the newest sound one, names it and what was left out (exit 3); all damaged: exit 65, nothing written"
    )
    func damagedNewestPoint() throws {
        _ = try Self.requireLitestream()
        let setup = try Setup()
        // Three bookings, each in a sync interval of its own: three restore points at least.
        var ids: [String] = []
        for slot in 1...3 {
            ids.append(try #require(try setup.book("anna", slot: slot)))
            _ = try setup.waitForReplica(toHold: Set(ids))
        }
        setup.replicator?.kill()
        _ = try? setup.replicator?.wait(timeout: 10)
        // Every file that ends at the newest transaction (level 0, and any compaction that
        // already took it in) loses its tail, as a file cut short by a crash would.
        let ltx = (setup.replica as NSString).appendingPathComponent("ltx")
        let files = try FileManager.default.subpathsOfDirectory(atPath: ltx).filter { $0.hasSuffix(".ltx") }
        // Names are MIN-MAX.ltx, each a 16-digit hex transaction id.
        let newestTXID = try #require(
            files.map { String(($0 as NSString).lastPathComponent.dropFirst(17).prefix(16)) }.max())
        for file in files where (file as NSString).lastPathComponent.dropFirst(17).hasPrefix(newestTXID) {
            let path = (ltx as NSString).appendingPathComponent(file)
            let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            #expect(truncate(path, off_t(size / 2)) == 0)
        }
        let (result, out) = setup.restore("fallback.sqlite")
        #expect(result.status == 3, "\(result)")
        #expect(
            result.stderr.contains("NOT the newest point")
                && result.stderr.contains("Left out: 1 transaction(s), \(newestTXID) to \(newestTXID)"), "\(result)")
        // What was restored is sound and holds the bookings replicated before the damaged tail
        // (the third may be in it, or Litestream may have written a transaction of its own after it).
        #expect(try setup.cli.run(["--db", out, "check"]).status == 0)
        let held = Set(
            try setup.cli.sqliteOn(out, "SELECT id FROM orders").stdout.split(separator: "\n").map(String.init))
        #expect(held.contains(ids[0]) && held.contains(ids[1]), "\(held)")
        // Every point damaged: refused, nothing at OUT, no temporary file left.
        for directory in ["ltx/0", "ltx/1", "ltx/9"] {
            let path = (setup.replica as NSString).appendingPathComponent(directory)
            for file in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                _ = truncate((path as NSString).appendingPathComponent(file), 64)
            }
        }
        let (refused, nowhere) = setup.restore("nothing.sqlite")
        #expect(
            refused.status == 65 && refused.stderr.contains("no restore point")
                && refused.stderr.contains("nothing was written"), "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: nowhere))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: setup.cli.directory.url.path).filter {
            $0.contains("restoring")
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
        // The documented usage and missing-replica codes.
        #expect(Self.script("restore", [setup.replica]).status == 64)
        #expect(
            Self.script("restore", [setup.cli.directory.path("no-such-replica"), setup.cli.directory.path("x.sqlite")])
                .status == 66)
    }

    @Test(
        "the replicator down while writers go on: the WAL stops at its limit (pizzeria checkpoints), and once it is back the restore is sound and complete"
    )
    func replicatorDown() async throws {
        _ = try Self.requireLitestream()
        let setup = try Setup()
        let first = try #require(try setup.book("anna", slot: 1))
        _ = try setup.waitForReplica(toHold: [first])
        setup.replicator?.kill()
        _ = try? setup.replicator?.wait(timeout: 10)
        // A busy evening while nobody replicates: about 6,000 pages of WAL against a limit of 1,000.
        var configuration = try PizzeriaConfiguration(environment: [
            "PIZZERIA_CHECKPOINTS": "external", "PIZZERIA_WAL_LIMIT_PAGES": "1000",
        ])
        configuration.busyTimeoutMilliseconds = 5_000
        do {
            let pizzeria = try await Pizzeria.open(
                path: setup.cli.databasePath, access: .requireCurrent, configuration: configuration)
            for batch in 0..<20 {
                try pizzeria.database.write { db in
                    try db.run(
                        """
                        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1500)
                        INSERT INTO pizzas (name, price_cents) SELECT 'Evening \(batch) pizza with a long name number ' || i, 500 FROM n
                        """)
                }
            }
            #expect(pizzeria.database.checkpointStatistics.completed >= 1, "\(pizzeria.database.checkpointStatistics)")
        }
        let walBytes =
            (try? FileManager.default.attributesOfItem(atPath: setup.cli.databasePath + "-wal")[.size] as? Int) ?? 0
        #expect(walBytes < 2_000 * 4_120, "the WAL grew to \(walBytes) bytes with the replicator down")
        // Back: Litestream notices the checkpointed WAL, starts again from the file, and the
        // restore holds everything, the evening's menu included.
        try setup.startReplicator()
        let after = try #require(try setup.book("marco", slot: 2))
        let menu = "SELECT count(*) FROM pizzas"
        let (held, restored) = try setup.waitForReplica(toHold: [first, after], matching: menu, timeout: 60)
        #expect(held.isSuperset(of: [first, after]), "\(held)")
        #expect(try setup.cli.sqliteOn(restored, menu).stdout == (try setup.cli.sqlite(menu).stdout))
        #expect(try setup.cli.run(["--db", restored, "check"]).status == 0)
    }

    @Test("an analyst's sqlite3 reads the replica through the Litestream VFS, views included")
    func readReplica() throws {
        let (_, vfs) = try Self.requireLitestream()
        let setup = try Setup()
        let id = try #require(try setup.book("anna", slot: 3))
        _ = try setup.waitForReplica(toHold: [id])
        let query = "SELECT count(*) FROM order_summary WHERE status = 'placed'"
        let shell = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            arguments: [
                "sqlite3", "-cmd", ".load \(vfs)",
                "-cmd", ".open 'file:replica.db?vfs=litestream&replica_url=file://\(setup.replica)'",
                "-cmd", query, "-cmd", ".quit",
            ],
            in: setup.cli.directory.url, environment: PizzeriaBinary.environment([:]))
        let result = try shell.wait(timeout: 60)
        guard result.status == 0 else { try Test.cancel("the VFS does not load into this sqlite3: \(result.stderr)") }
        #expect(result.stdout == (try setup.cli.sqlite(query).stdout), "\(result)")
    }
}

extension CLI {
    /// Runs the `sqlite3` shell on another database file.
    func sqliteOn(_ path: String, _ sql: String) throws -> ProcessResult {
        let running = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/env"), arguments: ["sqlite3", "-bail", path, sql],
            in: directory.url, environment: PizzeriaBinary.environment([:]))
        return try running.wait(timeout: 30)
    }
}
