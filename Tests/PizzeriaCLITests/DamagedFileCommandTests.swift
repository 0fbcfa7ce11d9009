import Foundation
import PizzeriaTestSupport
import Testing

@Suite("CLI: damaged rows and files are reported, never a crash (the real binary)")
struct DamagedFileCommandTests {
    @Test(
        "hand-typed rows the code cannot read are refused by the schema now, and old ones are reported (65), never 70")
    func damagedRows() throws {
        let cli = CLI()
        try cli.ok("demo")
        let refused = try cli.sqlite(
            "INSERT INTO navigation_events (user_id, action, routes, depth_after) SELECT id, 'push', '[1]', 1 FROM users;"
        )
        #expect(refused.status != 0 && refused.stderr.contains("navigation_events.routes must be"), "\(refused)")
        let date = try cli.sqlite("UPDATE orders SET pickup_at = '2026-02-30T19:00:00Z';")
        #expect(
            date.status != 0
                && (date.stderr.contains("pickup_at must be a real UTC time")
                    || date.stderr.contains("order_local_time:")),
            "\(date)")
        // A file written before the guards: drop them and write the bad rows.
        _ = try cli.sqlite(
            """
            DROP TRIGGER navigation_events_shape; DROP TRIGGER orders_pickup_real_update; DROP TRIGGER orders_local_time_update;
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
}
