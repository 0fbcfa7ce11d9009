import Foundation
import PizzeriaTestSupport
import Testing

/// Deliverable 5 of the counter issue: who an order is for, beside the handle, and finding a
/// customer's orders by name or phone — on real files.
@Suite("CLI: customers' names and phones on orders (the real binary)")
struct CustomerLookupCommandTests {
    static let day = "2026-12-02"

    func pizzeria() throws -> CLI {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-02T15:00:00Z"
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        try cli.ok("config", "set", "phone-region", "IT")
        try cli.ok("demo")
        try cli.ok("user", "add", "gino", "--name", "Gino Esposito", "--phone", "081 555 1234")
        try cli.ok("user", "add", "lia", "--name", "Lia Esposito", "--phone", "+39 333 765 4321")
        return cli
    }

    @Test("order list and order show give the name and the phone beside the handle, in every format")
    func listAndShow() throws {
        let cli = try pizzeria()
        let placed =
            try cli.json("order", "place", "gino", "--pickup", "\(Self.day)T20:00", "Margherita") as? [String: Any]
        let id = try #require(placed?["id"] as? String)
        #expect(placed?["customer_name"] as? String == "Gino Esposito")
        #expect(placed?["customer_phone"] as? String == "+390815551234")
        let table = try cli.ok("order", "list", "--date", Self.day).stdout
        let header = try #require(table.split(separator: "\n").first)
        #expect(header.contains("USER") && header.contains("NAME") && header.contains("PHONE"), "\(table)")
        let row = try #require(table.split(separator: "\n").first { $0.hasPrefix(shortID(id)) })
        #expect(row.contains("gino") && row.contains("Gino Esposito") && row.contains("+390815551234"), "\(table)")
        let csv = try cli.ok("order", "list", "--date", Self.day, "--csv").stdout
        #expect(csv.hasPrefix("id,user,customer_name,customer_phone,"), "\(csv)")
        // The spreadsheet must not run a phone number as a formula.
        #expect(csv.contains(",Gino Esposito,'+390815551234,"), "\(csv)")
        let shown = try cli.ok("order", "show", id).stdout
        #expect(shown.contains("user      gino (Gino Esposito, +390815551234)"), "\(shown)")
        // A user without name or phone prints the handle alone (the demo's users have neither phone…).
        try cli.ok("user", "add", "nobody")
        let bare =
            try cli.json("order", "place", "nobody", "--pickup", "\(Self.day)T20:00", "Margherita") as? [String: Any]
        #expect(bare?.keys.contains("customer_phone") == true && bare?["customer_phone"] is NSNull)
        let bareID = try #require(bare?["id"] as? String)
        #expect(try cli.ok("order", "show", bareID).stdout.contains("user      nobody\n"))
    }

    @Test("order list --user takes a handle, a phone in any common format, or a name that matches one user")
    func listByLookup() throws {
        let cli = try pizzeria()
        let gino =
            try cli.json("order", "place", "gino", "--pickup", "\(Self.day)T20:00", "Margherita") as? [String: Any]
        try cli.ok("order", "place", "lia", "--pickup", "\(Self.day)T20:00", "Marinara")
        let ginoID = try #require(gino?["id"] as? String)
        for text in ["gino", "081 555 1234", "+39 081 5551234", "0039 0815551234", "Gino"] {
            let found = try cli.json("order", "list", "--user", text) as? [[String: Any]]
            #expect(found?.compactMap { $0["id"] as? String } == [ginoID], "--user \(text)")
        }
        let ambiguous = try cli.run("order", "list", "--user", "Esposito")
        #expect(ambiguous.status == 65, "\(ambiguous)")
        #expect(ambiguous.stderr.contains("user: 'Esposito' matches several users (gino, lia)"), "\(ambiguous.stderr)")
        #expect(ambiguous.stderr.contains("hint: give the handle"), "\(ambiguous.stderr)")
        let missing = try cli.run("order", "list", "--user", "Ferrari")
        #expect(missing.status == 66 && missing.stdout.isEmpty, "\(missing)")
    }

    @Test("an erased customer's orders keep no name or phone")
    func erased() throws {
        let cli = try pizzeria()
        let placed =
            try cli.json("order", "place", "gino", "--pickup", "\(Self.day)T20:00", "Margherita") as? [String: Any]
        let id = try #require(placed?["id"] as? String)
        try cli.ok("user", "erase", "gino", "--yes")
        let order = try cli.json("order", "show", id) as? [String: Any]
        #expect(order?["customer_name"] is NSNull && order?["customer_phone"] is NSNull, "\(String(describing: order))")
        #expect(!(try cli.ok("order", "list").stdout.contains("Gino")))
    }
}
