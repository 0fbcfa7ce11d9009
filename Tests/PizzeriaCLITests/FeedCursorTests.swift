import Foundation
import PizzeriaTestSupport
import Testing

/// A kitchen display resumes `order watch` from the last cursor it printed. After the file is
/// put back from an earlier backup, that cursor names an event the file does not have (or has
/// another event at that position): resuming must be refused, not skip the new orders.
@Suite("CLI: feed cursors across a restore (the real binary)")
struct FeedCursorTests {
    /// Books one Marinara for `handle`; returns its id.
    @discardableResult
    static func book(_ cli: CLI, _ handle: String = "anna", at time: String = "21:00") throws -> String {
        let booked =
            try cli.json("order", "place", handle, "--pickup", "\(OrderCommandTests.tomorrow)T\(time)", "Marinara=1")
            as? [String: Any]
        return try #require(booked?["id"] as? String)
    }

    /// The events `order watch --nl --after CURSOR` prints before it is stopped.
    static func replay(_ cli: CLI, after cursor: String, expecting count: Int) throws -> (
        events: [[String: Any]], result: ProcessResult
    ) {
        let watch = try cli.start(["order", "watch", "--nl", "--after", cursor, "--interval", "20"])
        _ = watch.waitForOutput { out, err in out.split(separator: "\n").count >= count || err.contains("error:") }
        watch.signal(SIGTERM)
        let result = try watch.wait(timeout: 10)
        let events = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        return (events, result)
    }

    @Test(
        "book 2, back up, book 3, restore the backup, book 2: the display's cursor 5 is refused with exit 1 and a hint; the cursor from before the backup replays the new history"
    )
    func restoreThenWatch() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = OrderCommandTests.now
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        try cli.ok("user", "add", "anna")
        try cli.ok("pizza", "add", "--name", "Marinara", "--price", "7.50")
        try Self.book(cli)
        try Self.book(cli)
        let beforeBackup = try Self.replay(cli, after: "0", expecting: 2)
        #expect(beforeBackup.events.count == 2, "\(beforeBackup.result)")
        let second = try #require(beforeBackup.events.last?["cursor"] as? String)
        let backup = cli.directory.path("backup.sqlite")
        try cli.ok("backup", backup)
        for _ in 0..<3 { try Self.book(cli) }
        let display = try Self.replay(cli, after: "0", expecting: 5)
        #expect(display.events.count == 5, "\(display.result)")
        let fifth = try #require(display.events.last?["cursor"] as? String)

        // The restore: the backup replaces the file (the WAL and its index with it).
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: cli.databasePath + suffix) }
        try FileManager.default.copyItem(atPath: backup, toPath: cli.databasePath)
        let newOrders = [try Self.book(cli, at: "21:15"), try Self.book(cli, at: "21:30")]

        // The display's cursor is past the restored file's newest event: refused, not a silent wait.
        let resumed = try cli.run(["order", "watch", "--after", fifth])
        #expect(resumed.status == 1, "\(resumed)")
        #expect(resumed.stderr.contains("error: cursor \(fifth) is past this file's newest event"), "\(resumed)")
        #expect(
            resumed.stderr.contains("restored from an earlier backup") && resumed.stderr.contains("hint:")
                && resumed.stderr.contains("--after 0"), "\(resumed)")
        #expect(resumed.stdout.isEmpty)

        // Book until the restored file's history reaches position 5 again: the display's cursor
        // now names a position that exists, but holds another event — still refused.
        for time in ["21:45", "22:00", "22:15"] { try Self.book(cli, at: time) }
        let diverged = try cli.run(["order", "watch", "--after", fifth])
        #expect(
            diverged.status == 1 && diverged.stderr.contains("names an event this file does not have"), "\(diverged)")

        // A cursor from before the backup is in both histories: it replays the new orders.
        let fromBackup = try Self.replay(cli, after: second, expecting: 5)
        #expect(fromBackup.result.status == 0, "\(fromBackup.result)")
        let replayedIDs = fromBackup.events.compactMap { ($0["order"] as? [String: Any])?["id"] as? String }
        #expect(Array(replayedIDs.prefix(2)) == newOrders, "\(fromBackup.result)")
        #expect(fromBackup.events.count == 5)
    }

    @Test(
        "cursors that cannot be: far past the newest event is exit 1; a bare number or a malformed check is exit 65 naming --after"
    )
    func impossibleCursors() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = OrderCommandTests.now
        try cli.ok("init")
        let future = try cli.run(["order", "watch", "--after", "999999.00000000"])
        #expect(future.status == 1 && future.stderr.contains("past this file's newest event (0)"), "\(future)")
        for text in ["5", "-1", "5.xyz", "5.123456789", "5.1234567", ".12345678", "0.00000000"] {
            let bad = try cli.run(["order", "watch", "--after", text])
            #expect(bad.status == 65 && bad.stderr.contains("after: must be an event cursor"), "\(text): \(bad)")
        }
    }
}
