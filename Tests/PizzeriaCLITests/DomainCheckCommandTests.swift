import Foundation
import PizzeriaTestSupport
import Testing

/// `check` verifies the shop's own rules, not only SQLite's: derived data recomputed from its
/// source, slots within capacity, orders inside the hours; `check --repair` recomputes.
@Suite("CLI: check verifies the domain; check --repair recomputes derived data (the real binary)")
struct DomainCheckCommandTests {
    func shop() throws -> CLI {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-01T09:00:00Z"
        cli.environment["PIZZERIA_STAFF"] = "giulia"
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        try cli.ok("pizza", "add", "--name", "Margherita", "--price", "6")
        try cli.ok("user", "add", "anna")
        try cli.ok("order", "place", "anna", "--pickup", "2026-12-02T19:00", "Margherita=2")
        try cli.ok("order", "place", "anna", "--pickup", "2026-12-02T19:30", "Margherita=3")
        return cli
    }

    @Test(
        "drifted loads, totals and local times (guards dropped): exit 65 naming each and the dropped guards; --repair fixes them; then 0"
    )
    func driftAndRepair() throws {
        let cli = try shop()
        // What an older schema let through: the guards are gone, then the derived columns are typed by hand.
        let damage = try cli.sqlite(
            """
            DROP TRIGGER slot_loads_booked_derived; DROP TRIGGER orders_total_derived;
            UPDATE slot_loads SET booked = 0 WHERE pickup_at = '2026-12-02T18:00:00Z';
            UPDATE orders SET total_cents = 1 WHERE pickup_at = '2026-12-02T18:30:00Z';
            UPDATE orders SET pickup_local = '2026-12-02T18:30+00:00' WHERE pickup_at = '2026-12-02T18:30:00Z';
            """)
        #expect(damage.status == 0, "\(damage)")
        let check = try cli.run("check")
        // The guards dropped are the schema's problem (65), named with the data's.
        #expect(check.status == 65, "\(check)")
        #expect(check.stdout.contains("schema objects: missing trigger orders_total_derived (on orders)"))
        #expect(
            check.stdout.contains(
                "domain: slot_loads 2026-12-02T18:00:00Z: booked is 0, expected 2 (the sum of its orders)"),
            "\(check.stdout)")
        #expect(check.stdout.contains("total_cents is 1, expected 1800 (the sum of its lines)"), "\(check.stdout)")
        #expect(
            check.stdout.contains("pickup_local is 2026-12-02T18:30+00:00, expected 2026-12-02T19:30+01:00"),
            "\(check.stdout)")
        let json =
            try JSONSerialization.jsonObject(with: Data(try cli.run("--json", "check").stdout.utf8)) as? [String: Any]
        // The slot followed its order's local time by trigger: it is named against the order's true time.
        #expect((json?["domain_problems"] as? [[String: Any]])?.count == 4)
        #expect((json?["schema_drift"] as? [String])?.count == 2)
        let repair = try cli.run("check", "--repair")
        #expect(repair.status == 0, "\(repair)")
        #expect(repair.stdout.contains("Repaired 6 problems"), "\(repair.stdout)")
        #expect(
            try cli.sqlite("SELECT booked FROM slot_loads WHERE pickup_at = '2026-12-02T18:00:00Z'").stdout == "2\n")
        let again = try cli.ok("check", "--repair")
        #expect(again.stdout.contains("Repaired nothing"))
    }

    @Test(
        "a variant whose menu key is not its item's (the trigger bypassed) is named; --repair rewrites it; a rename by hand carries the key"
    )
    func menuKeys() throws {
        let cli = try shop()
        try cli.ok("pizza", "variant", "add", "Margherita", "Maxi", "--price", "9")
        #expect(try cli.sqlite("UPDATE pizzas SET name = 'Margherita DOP';").status == 0)
        #expect(
            try cli.sqlite("SELECT DISTINCT pizza_name_key FROM pizza_variants;").stdout == "margherita dop\n")
        let refused = try cli.sqlite("UPDATE pizza_variants SET pizza_name_key = 'zzz';")
        #expect(refused.status != 0 && refused.stderr.contains("pizza_name_key:"), "\(refused)")
        let damage = try cli.sqlite(
            """
            DROP TRIGGER pizza_variants_name_key_update;
            UPDATE pizza_variants SET pizza_name_key = 'zzz' WHERE name = 'Maxi';
            """)
        #expect(damage.status == 0, "\(damage)")
        let check = try cli.run("check")
        #expect(check.status == 65, "\(check)")
        #expect(
            check.stdout.contains("pizza_name_key is 'zzz', expected 'margherita dop' (the item's name_key)"),
            "\(check.stdout)")
        let repair = try cli.run("check", "--repair")
        #expect(repair.status == 0 && repair.stdout.contains("Repaired 2 problems"), "\(repair)")
        #expect(
            try cli.sqlite("SELECT DISTINCT pizza_name_key FROM pizza_variants;").stdout == "margherita dop\n")
    }

    @Test(
        "the default variant's price: written by hand it becomes the item's; with the trigger dropped, check names the stored price and --repair clears it"
    )
    func defaultVariantPrice() throws {
        let cli = try shop()
        try cli.ok("pizza", "variant", "add", "Margherita", "Maxi", "--price", "9")
        let moved = try cli.sqlite("UPDATE pizza_variants SET price_cents = 650 WHERE name = 'Normale';")
        #expect(moved.status == 0, "\(moved)")
        #expect(
            try cli.sqlite(
                """
                SELECT p.price_cents, quote(v.price_cents) FROM pizzas p JOIN pizza_variants v ON v.pizza_id = p.id
                WHERE p.name = 'Margherita' AND v.is_default;
                """
            ).stdout == "650|NULL\n")
        #expect(try cli.ok("check").status == 0)
        let damage = try cli.sqlite(
            """
            DROP TRIGGER pizza_variants_default_price;
            UPDATE pizza_variants SET price_cents = 700 WHERE name = 'Normale';
            """)
        #expect(damage.status == 0, "\(damage)")
        let check = try cli.run("check")
        #expect(check.status == 65, "\(check)")
        #expect(
            check.stdout.contains("the default variant stores a price of its own (700 cents)")
                && check.stdout.contains("it costs the item's 650 cents"), "\(check.stdout)")
        let repair = try cli.run("check", "--repair")
        #expect(repair.status == 0 && repair.stdout.contains("Repaired 2 problems"), "\(repair)")
        #expect(
            try cli.sqlite("SELECT quote(price_cents) FROM pizza_variants WHERE name = 'Normale';").stdout == "NULL\n")
        #expect(try cli.ok("--json", "pizza", "show", "Margherita").stdout.contains("650"))
    }

    @Test(
        "an item's history chain: a hand-written row off the chain is refused; with its guards dropped, check names the item's last_change and the row's previous_change"
    )
    func historyChain() throws {
        let cli = try shop()
        try cli.ok("pizza", "edit", "Margherita", "--price", "6,50")
        #expect(try cli.ok("--json", "pizza", "show", "Margherita").stdout.contains("650"))
        let head = try cli.sqlite("SELECT last_change FROM pizzas WHERE name = 'Margherita';").stdout
        #expect(head == (try cli.sqlite("SELECT max(id) FROM pizza_history;").stdout))
        let insert = """
            INSERT INTO pizza_history (pizza_id, change, new_name, new_price_cents, version)
            SELECT id, 'edited', name, 700, version + 1 FROM pizzas WHERE name = 'Margherita';
            """
        let refused = try cli.sqlite(insert)
        #expect(refused.status != 0 && refused.stderr.contains("previous_change:"), "\(refused)")
        #expect(try cli.run("check").status == 0)
        let damage = try cli.sqlite(
            "DROP TRIGGER pizza_history_chain_insert; DROP TRIGGER pizzas_last_change_update; " + insert)
        #expect(damage.status == 0, "\(damage)")
        let row = try cli.sqlite("SELECT max(id) FROM pizza_history;").stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        let check = try cli.run("check")
        #expect(check.status == 65, "\(check)")
        #expect(
            check.stdout.contains(
                "pizza_history \(row): previous_change is NULL, expected \(head.trimmingCharacters(in: .whitespacesAndNewlines))"
            ),
            "\(check.stdout)")
        // The head followed the row (its trigger is still there); with its guard gone, a head set by
        // hand is named too.
        #expect(try cli.sqlite("UPDATE pizzas SET last_change = NULL WHERE name = 'Margherita';").status == 0)
        let second = try cli.run("check")
        #expect(
            second.stdout.contains("last_change is NULL, expected \(row)"), "\(second.stdout)")
    }

    @Test(
        "a user's last stack change typed by hand is refused; with the guard bypassed, check names it, --repair rewrites it and nav show's previous follows"
    )
    func lastStackChange() throws {
        let cli = try shop()
        try cli.ok("pizza", "add", "--name", "Marinara", "--price", "5")
        try cli.ok("nav", "push", "anna", "pizza:Margherita")
        try cli.ok("nav", "push", "anna", "pizza:Marinara")
        let latest = try cli.sqlite("SELECT max(id) FROM navigation_events;").stdout
        #expect(try cli.sqlite("SELECT last_stack_change FROM users WHERE handle = 'anna';").stdout == latest)
        func previous() throws -> String? {
            (try cli.json("nav", "show", "anna") as? [String: Any])?["previous_label"] as? String
        }
        #expect(try previous() == "Margherita")
        let refused = try cli.sqlite("UPDATE users SET last_stack_change = NULL;")
        #expect(refused.status != 0 && refused.stderr.contains("last_stack_change:"), "\(refused)")
        let damage = try cli.sqlite(
            """
            DROP TRIGGER users_last_stack_change_update;
            UPDATE users SET last_stack_change = NULL WHERE handle = 'anna';
            """)
        #expect(damage.status == 0, "\(damage)")
        #expect(try previous() == nil)
        let check = try cli.run("check")
        #expect(check.status == 65, "\(check)")
        #expect(
            check.stdout.contains(
                "last_stack_change is NULL, expected \(latest.dropLast()) (the user's latest navigation event that changed the stack)"
            ),
            "\(check.stdout)")
        let repair = try cli.run("check", "--repair")
        #expect(repair.status == 0 && repair.stdout.contains("Repaired 2 problems"), "\(repair)")
        #expect(try previous() == "Margherita")
        #expect(try cli.run("check").status == 0)
    }

    @Test(
        "a future slot over its capacity is listed, never repaired by cancelling; so is an order outside the hours not kept"
    )
    func overbookedAndOutside() throws {
        let cli = try shop()
        // A capacity rule typed by hand below what is booked, and the day's hours closed by hand.
        #expect(
            try cli.sqlite(
                "INSERT INTO capacity_rules (weekday, starts_at, ends_at, capacity) VALUES (3, '19:00', '19:30', 1)"
            ).status == 0)
        #expect(
            try cli.sqlite(
                "INSERT INTO schedule_exceptions (day, kind, opens_at, closes_at) VALUES ('2026-12-02', 'cut', '19:30', '20:00')"
            ).status == 0)
        let repair = try cli.run("check", "--repair")
        #expect(repair.status == 1, "\(repair)")
        #expect(repair.stdout.contains("overbooked: 2 pizzas booked, capacity 1"), "\(repair.stdout)")
        #expect(repair.stdout.contains("outside the hours, and not kept by staff"), "\(repair.stdout)")
        #expect(try cli.sqlite("SELECT count(*) FROM orders WHERE status = 'cancelled'").stdout == "0\n")
    }

    @Test(
        "an erased customer's future booking (an erasure from before migration 9) is named, and check --repair cancels it as erased"
    )
    func erasedCustomersBooking() throws {
        let cli = try shop()
        #expect(
            try cli.sqlite(
                "INSERT INTO user_erasures (user_id, erased_at, wal_cleared_at) SELECT id, '2026-11-30T10:00:00.000Z', '2026-11-30T10:00:00.000Z' FROM users"
            ).status == 0)
        let check = try cli.run("check")
        #expect(check.status == 1 && check.stdout.contains("a future booking of an erased customer"), "\(check)")
        #expect(try cli.run("check", "--repair").status == 0)
        #expect(try cli.sqlite("SELECT count(*) FROM orders WHERE status = 'cancelled'").stdout == "2\n")
        #expect(try cli.sqlite("SELECT count(*) FROM order_status_events WHERE detail = 'erased'").stdout == "2\n")
    }
}
