import Foundation
import PizzeriaTestSupport
import Testing

@Suite("CLI: order discount and order comp — a manager's, on the receipt and in the cash-up (the real binary)")
struct DiscountCommandTests {
    @Test("discount by percent or amount, comp a line; roles; receipt, report close and its CSV by reason")
    func discounts() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-04T16:00:00Z"
        cli.environment["PIZZERIA_STAFF"] = "giulia"
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        try cli.ok("pizza", "add", "--name", "Margherita", "--price", "6.50")
        try cli.ok("category", "add", "Bevande", "--no-station")
        try cli.ok("category", "vat", "Bevande", "22")
        try cli.ok("pizza", "add", "--name", "Coca-Cola", "--price", "3", "--category", "Bevande")
        try cli.ok("user", "add", "anna")
        try cli.ok("staff", "add", "maria", "--role", "owner")
        try cli.ok("staff", "add", "giulia", "--role", "manager")
        try cli.ok("staff", "add", "luca", "--role", "counter")
        try cli.ok("config", "set", "require-staff", "on", "--by", "maria")
        let placed =
            try cli.json("order", "place", "anna", "--pickup", "20:00", "Margherita=2", "Coca-Cola", "--json")
            as? [String: Any]
        let id = try #require(placed?["id"] as? String)
        let counter = try cli.run("order", "comp", id, "--line", "2", "--reason", "attesa", "--by", "luca")
        #expect(counter.status == 1 && counter.stderr.contains("manager"), "\(counter)")
        let comp = try cli.ok("order", "comp", id, "--line", "2", "--reason", "attesa lunga").stdout
        #expect(
            comp.hasPrefix("Comp on order \(id.suffix(8)): Coca-Cola −€3.00 (attesa lunga); total €13.00"), "\(comp)")
        let discount = try cli.ok("order", "discount", id, "--percent", "10", "--reason", "compleanno").stdout
        #expect(discount.contains("−€1.30 (compleanno); total €11.70, €11.70 to pay"), "\(discount)")
        #expect(try cli.run("order", "discount", id, "--percent", "5", "--amount", "1", "--reason", "x").status == 64)
        #expect(try cli.run("order", "discount", id, "--reason", "x").status == 64)
        let over = try cli.run("order", "discount", id, "--amount", "50", "--reason", "x")
        #expect(over.status == 65 && over.stderr.contains("amount: €50.00 is more than the €11.70"), "\(over)")
        let smaller = try cli.run("order", "edit", id, "--remove", "Margherita")
        #expect(smaller.status == 1 && smaller.stderr.contains("has a discount or a comp"), "\(smaller)")
        let shown = try cli.ok("order", "show", id).stdout
        #expect(
            shown.contains("Comp: Coca-Cola −€3.00 (attesa lunga), by giulia")
                && shown.contains("Discount 10.0% −€1.30"))
        let receipt = try cli.ok("order", "receipt", id, "--width", "42").stdout
        #expect(receipt.contains("Omaggio: Coca-Cola (attesa lunga)") && receipt.contains("Sconto 10% (compleanno)"))
        #expect(receipt.contains("TOTALE EUR") && receipt.contains("11.70"), "\(receipt)")
        try cli.ok("order", "collect", id, "--pay", "card")
        let close = try cli.ok("report", "close", "--date", "2026-12-04").stdout
        #expect(close.contains("omaggio  attesa lunga  ×1  −€3.00") && close.contains("sconto  compleanno  ×1  −€1.30"))
        let csv = try cli.ok("report", "close", "--date", "2026-12-04", "--csv").stdout
        #expect(csv.contains("comp,attesa lunga,1,3.00") || csv.contains("comp,attesa lunga,1"), "\(csv)")
        let json = try cli.json("report", "close", "--date", "2026-12-04", "--json") as? [String: Any]
        #expect(json?["discount_cents"] as? Int == 430 && json?["collected_cents"] as? Int == 1170)
        try cli.ok("check")
    }
}
