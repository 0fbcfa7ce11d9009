import Foundation
import PizzeriaTestSupport
import Testing

@Suite("CLI: a refund as its own document (order receipt --refunds; the real binary)")
struct RefundDocumentTests {
    @Test("what was given back, when, how and why; no sale figures; in the shop's language; none when nothing was")
    func refundDocument() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-04T16:00:00Z"
        cli.environment["PIZZERIA_STAFF"] = "giulia"
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        try cli.ok("config", "set", "shop-name", "Pizzeria da Michele")
        try cli.ok("pizza", "add", "--name", "Margherita", "--price", "6.50")
        try cli.ok("user", "add", "anna")
        let placed =
            try cli.json("order", "place", "anna", "--pickup", "20:00", "Margherita=2", "--json") as? [String: Any]
        let id = try #require(placed?["id"] as? String)
        try cli.ok("order", "pay", id, "--method", "card")
        let none = try cli.run("order", "receipt", id, "--refunds")
        #expect(none.status == 1 && none.stderr.contains("nothing was given back"), "\(none)")
        try cli.ok("order", "refund", id, "--amount", "2.50", "--reason", "bruciata")
        for width in ["32", "42", "48"] {
            let text = try cli.ok("order", "receipt", id, "--refunds", "--width", width).stdout
            #expect(text.split(separator: "\n").allSatisfy { $0.count <= Int(width) ?? 0 }, "\(text)")
            #expect(
                text.contains("RIMBORSO") && text.contains("carta") && text.contains("-2.50")
                    && text.contains("bruciata")
                    && text.contains("TOTALE RIMBORSATO EUR") && !text.contains("IVA ") && !text.contains("Margherita"),
                "\(text)")
        }
        try cli.ok("config", "set", "language", "en")
        let english = try cli.ok("order", "receipt", id, "--refunds").stdout
        #expect(english.contains("REFUND") && english.contains("card") && english.contains("TOTAL REFUNDED EUR"))
        let json = try cli.json("order", "receipt", id, "--refunds", "--json") as? [[String: Any]]
        #expect(json?.first?["amount_cents"] as? Int == 250, "\(String(describing: json))")
    }
}
