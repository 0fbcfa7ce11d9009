import Foundation
import PizzeriaTestSupport
import Testing

@Suite("CLI: a station's capacity by time (capacity set --station), every path (the real binary)")
struct StationCapacityRuleTests {
    @Test("rules by weekday and date over the station's own capacity; booking, picker, slots, schema and check agree")
    func rulesByTime() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-01T10:00:00Z"  // a Tuesday
        cli.environment["PIZZERIA_STAFF"] = "giulia"
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        try cli.ok("station", "add", "Friggitrice", "--capacity", "3")
        try cli.ok("category", "add", "Fritti", "--station", "Friggitrice")
        try cli.ok("pizza", "add", "--name", "Crocchè", "--price", "2.50", "--category", "Fritti")
        try cli.ok("user", "add", "anna")
        let set = try cli.ok("capacity", "set", "tue", "19:00-20:00", "1", "--station", "friggitrice").stdout
        #expect(set == "Capacity of Friggitrice tue 19:00-20:00: 1 pieces per slot.\n", "\(set)")
        // The weekday rule holds in its range, the station's own capacity outside it.
        let full = try cli.run("order", "place", "anna", "--pickup", "19:30", "Crocchè=2")
        #expect(full.status == 1, "\(full)")
        #expect(
            full.stderr.contains("Friggitrice makes only 1 more in the 2026-12-01 19:30 slot (asked for 2)")
                && full.stderr.contains("capacity set tue 19:00-20:00 N --station Friggitrice"), "\(full)")
        try cli.ok("order", "place", "anna", "--pickup", "20:30", "Crocchè=2")
        // A date's rule wins over the weekday's.
        try cli.ok("capacity", "set", "2026-12-01", "19:00-19:30", "2", "--station", "Friggitrice")
        try cli.ok("order", "place", "anna", "--pickup", "19:00", "Crocchè=2")
        let slots = try cli.ok("slots", "--date", "2026-12-01").stdout
        let line1900 = slots.split(separator: "\n").first { $0.hasPrefix("19:00") } ?? ""
        let line1930 = slots.split(separator: "\n").first { $0.hasPrefix("19:30") } ?? ""
        #expect(line1900.hasSuffix("Friggitrice 2/2") && line1930.hasSuffix("Friggitrice 0/1"), "\(slots)")
        // The picker for a cart reads the same rules: 19:00 is full, 19:15 (the date's 2) takes it,
        // 19:30 and 19:45 (the weekday's 1) do not, 20:00 (the station's 3) does.
        let picked =
            try cli.json("slots", "--available", "--after", "19:00", "--limit", "2", "--json", "Crocchè=2")
            as? [String: Any]
        let times = (picked?["slots"] as? [[String: Any]])?.compactMap { $0["time"] as? String }
        #expect(times == ["19:15", "20:00"], "\(String(describing: picked))")
        // Shown per station; JSON with --station is that station's rules.
        let shown = try cli.ok("capacity", "show").stdout
        #expect(
            shown.contains("Friggitrice: 3 pieces per 15-minute slot (station-capacity).")
                && shown.contains("tue 19:00-20:00") && shown.contains("2026-12-01 19:00-19:30"), "\(shown)")
        let rules = try cli.json("capacity", "show", "--station", "Friggitrice", "--json") as? [[String: Any]]
        #expect(rules?.compactMap { $0["rule"] as? String } == ["tue 19:00-20:00", "2026-12-01 19:00-19:30"])
        #expect((try cli.json("capacity", "show", "--json") as? [[String: Any]])?.isEmpty == true)
        // Refusals name the field or the rule and change nothing.
        let overlap = try cli.run("capacity", "set", "tue", "19:30-20:30", "2", "--station", "Friggitrice")
        #expect(overlap.status == 65 && overlap.stderr.contains("range: tue 19:30-20:30 overlaps"), "\(overlap)")
        let lower = try cli.run("capacity", "set", "tue", "20:00-21:00", "1", "--station", "Friggitrice")
        #expect(lower.status == 1, "\(lower)")
        #expect(
            lower.stderr.contains("Friggitrice would make fewer pieces than 1 future slot already holds")
                && lower.stderr.contains("2026-12-01 20:30 (2 booked, capacity 1)"), "\(lower)")
        let edit = try cli.run("station", "edit", "Friggitrice", "--capacity", "1")
        #expect(edit.status == 1 && edit.stderr.contains("2026-12-01 20:30 (2 booked, capacity 1)"), "\(edit)")
        let unknown = try cli.run("capacity", "set", "tue", "19:00-20:00", "1", "--station", "Brace")
        #expect(unknown.status == 66 && unknown.stderr.contains("Forno, Friggitrice"), "\(unknown)")
        let after = try cli.json("capacity", "show", "--station", "Friggitrice", "--json") as? [[String: Any]]
        #expect(
            after?.compactMap { $0["capacity"] as? Int } == [1, 2], "nothing changed: \(String(describing: after))")
        // The oven by name is the slot's rules.
        try cli.ok("capacity", "set", "tue", "18:00-19:00", "4", "--station", "Forno")
        let oven = try cli.json("capacity", "show", "--json") as? [[String: Any]]
        #expect(oven?.first?["rule"] as? String == "tue 18:00-19:00", "\(String(describing: oven))")
        // By hand in sqlite3: the schema holds the same rule.
        let sql = try cli.sqlite(
            """
            INSERT INTO station_capacity_rules (station_id, weekday, starts_at, ends_at, capacity)
            VALUES (2, 2, '20:00', '21:00', 2);
            UPDATE order_lines SET quantity = quantity + 1
            WHERE order_id = (SELECT id FROM orders WHERE pickup_at = '2026-12-01T19:30:00Z');
            """)
        #expect(sql.status != 0 && sql.stderr.contains("station_capacity_exceeded"), "\(sql)")
        let forno = try cli.sqlite(
            "INSERT INTO station_capacity_rules (station_id, weekday, starts_at, ends_at, capacity) VALUES (1, 1, '19:00', '20:00', 2);"
        )
        #expect(forno.stderr.contains("station_capacity_rules_slot_station"), "\(forno)")
        let view = try cli.sqlite(
            "SELECT local_time, booked, capacity, capacity_from FROM station_slot_capacity ORDER BY pickup_at;"
        ).stdout
        #expect(view == "19:00|2|2|2026-12-01 19:00-19:30\n20:30|2|2|tue 20:00-21:00\n", "\(view)")
        // A rule lowered by hand leaves a slot over it: check reports it.
        _ = try cli.sqlite("UPDATE station_capacity_rules SET capacity = 1 WHERE rule = 'tue 20:00-21:00';")
        let check = try cli.run("check")
        #expect(
            check.status == 1 && check.stdout.contains("overbooked: 2 pieces at Friggitrice, capacity 1"), "\(check)")
        _ = try cli.sqlite("UPDATE station_capacity_rules SET capacity = 2 WHERE rule = 'tue 20:00-21:00';")
        // Every change is in the audit log with who made it; clearing and removing a station take its rules.
        let audit = try cli.sqlite(
            "SELECT actor, action FROM audit_log WHERE object = 'station:2' AND action LIKE 'capacity%' ORDER BY id;"
        ).stdout
        #expect(audit.hasPrefix("giulia|capacity set\ngiulia|capacity set\n"), "\(audit)")
        // Clearing the date's rule would leave 19:00 (2 booked) under the weekday's 1: refused by name.
        let clear = try cli.run("capacity", "clear", "2026-12-01", "--station", "Friggitrice")
        #expect(clear.status == 1 && clear.stderr.contains("2026-12-01 19:00 (2 booked, capacity 1)"), "\(clear)")
        let cleared = try cli.ok("capacity", "clear", "tue", "20:00-21:00", "--station", "Friggitrice").stdout
        #expect(cleared == "Removed 1 capacity rule.\n", "\(cleared)")
        try cli.ok("station", "add", "Bar")
        try cli.ok("capacity", "set", "daily", "18:00-23:00", "5", "--station", "Bar")
        try cli.ok("station", "remove", "Bar")
        let left = try cli.sqlite("SELECT count(*) FROM station_capacity_rules;").stdout
        #expect(left == "2\n", "\(left)")
        try cli.ok("check")
    }
}
