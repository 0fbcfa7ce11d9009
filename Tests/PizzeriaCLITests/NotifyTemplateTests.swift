import Foundation
import PizzeriaTestSupport
import Testing

/// Messages that tell the truth: each event delivered with the order as it was at the event, and
/// ready-made texts in the shop's language.
@Suite("CLI: notifier messages as the order was, in the shop's language (the real binary)")
struct NotifyTemplateTests {
    func lines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    @Test("a late 'placed' says the pickup and total it was booked with; sms in Italian, email in English")
    func asItWas() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-04T16:00:00Z"
        cli.environment["PIZZERIA_STAFF"] = "giulia"
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        try cli.ok("config", "set", "shop-name", "Pizzeria da Michele")
        try cli.ok("pizza", "add", "--name", "Margherita", "--price", "6.50")
        try cli.ok("user", "add", "anna")
        let placed =
            try cli.json("order", "place", "anna", "--pickup", "20:30", "Margherita=2", "--json") as? [String: Any]
        let id = try #require(placed?["id"] as? String)
        // The notifier runs only after the order was moved and grown.
        try cli.ok("order", "move", id, "--pickup", "20:45")
        try cli.ok("order", "edit", id, "--add", "Margherita")
        let sms = cli.directory.path("sms.txt")
        try cli.ok(
            "notify", "run", "--name", "sms", "--from", "start", "--once", "--template", "sms", "--kinds",
            "placed,moved,edited", "--exec",
            "printf '%s|%s|%s|%s\\n' \"$PIZZERIA_EVENT_KIND\" \"$PIZZERIA_PICKUP_LOCAL\" \"$PIZZERIA_ORDER_TOTAL\" \"$PIZZERIA_MESSAGE\" >> '\(sms)'"
        )
        let sent = lines(sms)
        let short = String(id.suffix(8))
        #expect(
            sent == [
                "placed|2026-12-04T20:30+01:00|13.00|Pizzeria da Michele: ordine \(short) confermato, ritiro il 04/12 alle 20:30, totale 13,00 €.",
                "moved|2026-12-04T20:45+01:00|13.00|Pizzeria da Michele: il ritiro dell'ordine \(short) è ora il 04/12 alle 20:45.",
                "edited|2026-12-04T20:45+01:00|19.50|Pizzeria da Michele: l'ordine \(short) è stato modificato, totale 19,50 €.",
            ], "\(sent)")
        // The JSON carries the order then beside the order now, and the message.
        try cli.ok("config", "set", "language", "en")
        let mail = cli.directory.path("mail.json")
        try cli.ok(
            "notify", "run", "--name", "mail", "--from", "start", "--once", "--template", "email", "--kinds", "placed",
            "--exec", "cat > '\(mail)'")
        let json =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: mail))) as? [String: Any]
        let event = json?["event"] as? [String: Any]
        let then = event?["then"] as? [String: Any]
        #expect(then?["pickup_local"] as? String == "2026-12-04T20:30+01:00" && then?["total_cents"] as? Int == 1300)
        #expect((event?["order"] as? [String: Any])?["total_cents"] as? Int == 1950)
        let message = json?["message"] as? String ?? ""
        #expect(
            message.hasPrefix(
                "Subject: Order \(short) — confirmed\n\nHello,\n\nOrder \(short) confirmed, pickup at 20:30 on 2026-12-04, total €13.00."
            )
                && message.hasSuffix("See you soon,\nPizzeria da Michele\n"), "\(message)")
        // Refusals name the field.
        let language = try cli.run("config", "set", "language", "fr")
        #expect(language.status == 65 && language.stderr.contains("language: must be it or en"), "\(language)")
        let template = try cli.run("notify", "run", "--name", "x", "--once", "--template", "fax", "--exec", "true")
        #expect(template.status == 65 && template.stderr.contains("template"), "\(template)")
        let shown = try cli.ok("config", "show").stdout
        #expect(shown.contains("language") && shown.contains("en (the notifier's ready-made messages)"), "\(shown)")
    }

    @Test("one message per party event: booked together or paid as one, the party's first order carries its totals")
    func partyOnce() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-04T16:00:00Z"
        cli.environment["PIZZERIA_STAFF"] = "giulia"
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        try cli.ok("config", "set", "slot-capacity", "4")
        try cli.ok("pizza", "add", "--name", "Margherita", "--price", "6.50")
        try cli.ok("user", "add", "anna")
        try cli.ok("order", "place", "anna", "--pickup", "20:00", "--split", "Margherita=10")
        let first = try cli.sqlite("SELECT id FROM orders ORDER BY pickup_at LIMIT 1;").stdout
        let short = String(first.dropLast().suffix(8))
        try cli.ok("order", "pay", short, "--party", "--method", "card")
        let sent = cli.directory.path("sent.txt")
        let run = try cli.ok(
            "notify", "run", "--name", "sms", "--from", "start", "--once", "--template", "sms", "--kinds",
            "placed,paid",
            "--exec",
            "printf '%s|%s|%s|%s\\n' \"$PIZZERIA_EVENT_KIND\" \"$PIZZERIA_PARTY_ORDERS\" \"$PIZZERIA_PARTY_TOTAL\" \"$PIZZERIA_MESSAGE\" >> '\(sent)'"
        )
        #expect(run.stderr.contains("2 delivered") && run.stderr.contains("4 passed over"), "\(run.stderr)")
        #expect(
            lines(sent) == [
                "placed|3|65.00|La pizzeria: gruppo \(short) confermato: 3 ordini dal ritiro il 04/12 alle 20:00, totale 65,00 €.",
                "paid|3|65.00|La pizzeria: pagamento ricevuto per il gruppo \(short) (3 ordini).",
            ], "\(lines(sent))")
    }
}
