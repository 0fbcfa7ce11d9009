import Foundation
import PizzeriaTestSupport
import Testing

/// Sold out, everywhere: a sold-out modifier is marked where the menu is shown, and the orders
/// already booked with it (or with an item) are one command away.
@Suite("CLI: sold out everywhere, and the orders booked with it (the real binary)")
struct SoldOutEverywhereCommandTests {
    @Test("modifier list, pizza show and the JSON mark a sold-out modifier; order list --with finds what is booked")
    func soldOutEverywhere() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-04T09:00:00Z"
        try cli.ok("demo")
        let anna = try cli.json("order", "place", "anna", "--pickup", "19:30", "Margherita+bufala=2") as? [String: Any]
        try cli.ok("order", "place", "marco", "--pickup", "20:00", "Porcini")
        try cli.ok("modifier", "sold-out", "Aggiunte", "bufala")
        let list = try cli.ok("modifier", "list").stdout
        #expect(list.split(separator: "\n").contains { $0.contains("bufala") && $0.hasSuffix("sold out") }, "\(list)")
        let rows = try cli.json("modifier", "list", "--json") as? [[String: Any]] ?? []
        let bufala = rows.first { ($0["modifier"] as? [String: Any])?["name"] as? String == "bufala" }
        #expect(bufala?["sold_out"] as? Bool == true && bufala?["left"] as? Int == 0, "\(String(describing: bufala))")
        let nduja = rows.first { ($0["modifier"] as? [String: Any])?["name"] as? String == "'nduja" }
        #expect(nduja?["sold_out"] as? Bool == false && nduja?["left"] is NSNull)
        try cli.ok("modifier", "sold-out", "Aggiunte", "acciughe", "--left", "3")
        #expect(try cli.ok("modifier", "list").stdout.contains("offered, 3 left"))
        let shown = try cli.ok("pizza", "show", "Margherita").stdout
        #expect(shown.split(separator: "\n").contains { $0.hasPrefix("bufala") && $0.contains("sold out") }, "\(shown)")
        // The orders already booked with it: by modifier (GROUP:NAME too) and by item.
        let with = try cli.json("order", "list", "--with", "bufala") as? [[String: Any]] ?? []
        #expect(with.map { $0["id"] as? String } == [anna?["id"] as? String], "\(with)")
        let grouped = try cli.json("order", "list", "--with", "Aggiunte:bufala") as? [[String: Any]] ?? []
        #expect(grouped.count == 1)
        let porcini = try cli.json("order", "list", "--with", "Porcini", "--date", "2026-12-04") as? [[String: Any]]
        #expect(porcini?.map { $0["user"] as? String } == ["marco"], "\(String(describing: porcini))")
        let unknown = try cli.run("order", "list", "--with", "ananas")
        #expect(unknown.status == 66 && unknown.stderr.contains("ananas"), "\(unknown)")
    }

    @Test("the edit sheet shows every field, its groups with their kinds and a choice's default")
    func sheetShowsGroupKinds() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-04T09:00:00Z"
        try cli.ok("demo")
        try cli.ok("modifier", "group", "add", "Impasto", "--kind", "choice")
        try cli.ok("modifier", "add", "Impasto", "classico")
        try cli.ok("modifier", "add", "Impasto", "integrale", "--price", "1")
        try cli.ok("modifier", "group", "edit", "Impasto", "--default", "classico")
        try cli.ok("pizza", "attach", "Margherita", "Impasto")
        let opened = try cli.ok("sheet", "open", "anna", "edit", "Margherita").stdout
        #expect(
            opened.contains("groups Aggiunte (extra, 0 to 3), Senza (removal), Impasto (choice, default classico)"),
            "\(opened)")
        #expect(
            opened.contains("variants Normale €6.00 (default), Maxi €9.00") && opened.contains("allergens gluten,milk"))
        let shown = try cli.ok("sheet", "show", "anna").stdout
        #expect(shown.contains("Impasto (choice, default classico)"), "\(shown)")
        let json = try cli.json("sheet", "show", "anna") as? [String: Any]
        #expect(
            ((json?["draft"] as? [String: Any])?["modifier_groups"] as? [Int])?.count == 3,
            "\(String(describing: json))")
    }
}
