import Foundation
import PizzeriaTestSupport
import Testing

@Suite("CLI: menu categories, and drinks that take no oven capacity (the real binary)")
struct CategoryCommandTests {
    func pizzeria() throws -> CLI {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-01T10:00:00Z"
        try cli.ok("init")
        try cli.ok("config", "set", "slot-capacity", "2")
        try cli.ok("pizza", "add", "--name", "Margherita", "--price", "6")
        try cli.ok("user", "add", "anna")
        return cli
    }

    @Test("category add/list/edit/remove, pizza add --category; a full slot still takes drinks")
    func categoriesAndCapacity() throws {
        let cli = try pizzeria()
        try cli.ok("category", "add", "Bevande", "--no-oven")
        try cli.ok("category", "add", "Fritti", "--position", "2")
        let listed = try cli.json("category", "list") as? [[String: Any]] ?? []
        #expect(listed.map { $0["name"] as? String } == ["Pizze", "Fritti", "Bevande"])
        #expect(listed.map { $0["uses_oven"] as? Bool } == [true, true, false])
        #expect(try cli.ok("category", "list", "--csv").stdout.hasPrefix("id,name,uses_oven,position,station\r\n"))
        let coke = try cli.json("pizza", "add", "--name", "Coca-Cola", "--price", "3", "--category", "bevande")
        #expect((coke as? [String: Any])?["category_id"] as? Int == 2)
        #expect(try cli.ok("pizza", "show", "Coca-Cola").stdout.contains("category  Bevande (no oven)"))

        try cli.ok("order", "place", "anna", "Margherita=2", "Coca-Cola=5", "--pickup", "2026-12-01 19:00")
        let full = try cli.run("order", "place", "anna", "Margherita", "--pickup", "2026-12-01 19:00")
        #expect(full.status == 1 && full.stderr.contains("asked for 1 pizza, 0 left"), "\(full)")
        try cli.ok("order", "place", "anna", "Coca-Cola=3", "--pickup", "2026-12-01 19:00")
        #expect(try cli.sqlite("SELECT booked FROM slot_loads;").stdout == "2\n")
        let lines = try cli.sqlite("SELECT pizza_name, uses_oven FROM order_lines ORDER BY pizza_name, uses_oven;")
        #expect(lines.stdout == "Coca-Cola|0\nCoca-Cola|0\nMargherita|1\n", "\(lines)")
        try cli.ok("check")

        let inUse = try cli.run("category", "remove", "Bevande")
        #expect(inUse.status == 1 && inUse.stderr.contains("still has 1 item"), "\(inUse)")
        try cli.ok("category", "remove", "Fritti")
        try cli.ok("category", "edit", "Pizze", "--name", "Pizze rosse")
        let audit = try cli.ok("audit").stdout
        #expect(audit.contains("category:"), "\(audit)")
    }

    @Test("refusals name the field and the rule, and change nothing")
    func refusals() throws {
        let cli = try pizzeria()
        let before = try cli.sqlite("SELECT * FROM categories; SELECT id, category_id FROM pizzas;").stdout
        let unknown = try cli.run("pizza", "add", "--name", "Supplì", "--price", "2", "--category", "Fritti")
        #expect(unknown.status == 66 && unknown.stderr.contains("no category named 'Fritti' (there are: Pizze)"))
        let duplicate = try cli.run("category", "add", "PIZZE")
        #expect(duplicate.status == 1 && duplicate.stderr.contains("name: 'PIZZE' is already the name"))
        let long = try cli.run("category", "add", String(repeating: "x", count: 41))
        #expect(long.status == 65 && long.stderr.contains("name: must be 1 to 40"), "\(long)")
        let position = try cli.run("category", "add", "Dolci", "--position", "0")
        #expect(position.status == 65 && position.stderr.contains("position"), "\(position)")
        let both = try cli.run("category", "edit", "Pizze", "--oven", "--no-oven")
        #expect(both.status == 64, "\(both)")
        #expect(try cli.sqlite("SELECT * FROM categories; SELECT id, category_id FROM pizzas;").stdout == before)
    }
}
