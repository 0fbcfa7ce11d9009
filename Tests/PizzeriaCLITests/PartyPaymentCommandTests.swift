import Foundation
import PizzeriaTestSupport
import Testing

@Suite("CLI: a party's one bill (order pay --party, order refund --party; the real binary)")
struct PartyPaymentCommandTests {
    @Test("one payment for the party with one reference; change on the whole; the schema holds the shares")
    func partyBill() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-04T16:00:00Z"
        cli.environment["PIZZERIA_STAFF"] = "giulia"
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        try cli.ok("config", "set", "slot-capacity", "4")
        try cli.ok("pizza", "add", "--name", "Margherita", "--price", "6.50")
        try cli.ok("user", "add", "anna")
        try cli.ok("order", "place", "anna", "--pickup", "20:00", "--split", "Margherita=10")
        let ids = try cli.sqlite("SELECT id FROM orders ORDER BY pickup_at;").stdout.split(separator: "\n").map(
            String.init)
        #expect(ids.count == 3)
        let short = ids.map { String($0.suffix(8)) }
        try cli.ok("order", "pay", short[1], "--method", "cash", "--amount", "10")
        let paid = try cli.ok("order", "pay", short[2], "--party", "--method", "card", "--reference", "T-0042").stdout
        #expect(
            paid == "Paid €55.00 by card for party \(short[0]) (\(short[0]) €26.00, \(short[1]) €16.00, "
                + "\(short[2]) €13.00); the party is paid.\n", "\(paid)")
        let again = try cli.ok("order", "pay", short[0], "--party", "--method", "card", "--reference", "T-0042").stdout
        #expect(again.hasPrefix("Already recorded: €55.00 by card"), "\(again)")
        let nothing = try cli.run("order", "pay", short[0], "--party", "--method", "cash")
        #expect(
            nothing.status == 1 && nothing.stderr.contains("the party of order \(short[0]) owes nothing"), "\(nothing)")
        try cli.ok("order", "place", "anna", "--pickup", "21:00", "Margherita")
        let single = try cli.sqlite("SELECT id FROM orders WHERE pickup_at = '2026-12-04T20:00:00Z';").stdout
        let alone = String(single.dropLast().suffix(8))
        let used = try cli.run("order", "pay", alone, "--method", "card", "--reference", "T-0042")
        #expect(used.status == 1 && used.stderr.contains("reference: 'T-0042' is already recorded"), "\(used)")
        let noParty = try cli.run("order", "pay", alone, "--party", "--method", "cash")
        #expect(noParty.status == 65 && noParty.stderr.contains("party: order \(alone) was booked on its own"))
        // The receipt lists the party's payment once; JSON carries it with its shares.
        let receipt = try cli.ok("order", "receipt", short[1], "--width", "32").stdout
        #expect(receipt.contains("Pagato carta (gruppo)") && receipt.contains("Pagato contanti"), "\(receipt)")
        let json = try cli.json("order", "receipt", short[1], "--format", "json") as? [String: Any]
        let party = (json?["party_payments"] as? [[String: Any]])?.first
        #expect(party?["reference"] as? String == "T-0042" && (party?["shares"] as? [Any])?.count == 3)
        // A refund of the party: from the last member back.
        let refund = try cli.ok("order", "refund", short[0], "--party", "--amount", "20", "--reason", "late").stdout
        #expect(refund.hasPrefix("Refunded €20.00 of the party of order \(short[0]) (€13.00 card, €7.00 card)"))
        // By hand: a share past the payment, a second party payment under the same reference.
        let share = try cli.sqlite(
            """
            INSERT INTO payments (order_id, amount_cents, method, at, party_payment_id)
            VALUES ('\(ids[0])', 1, 'card', (SELECT at FROM party_payments WHERE id = 1), 1);
            """)
        #expect(share.stderr.contains("party_payment_share"), "\(share)")
        let twice = try cli.sqlite(
            """
            INSERT INTO party_payments (party_id, amount_cents, method, reference, at)
            VALUES ('\(ids[0])', 100, 'card', 'T-0042', '2026-12-04T16:00:00.000Z');
            """)
        #expect(twice.status != 0, "\(twice)")
        let reused = try cli.sqlite(
            """
            INSERT INTO payments (order_id, amount_cents, method, reference, at)
            VALUES ('\(ids[0])', 100, 'card', 'T-0042', '2026-12-04T16:00:00.000Z');
            """)
        #expect(reused.stderr.contains("payment_reference_used"), "\(reused)")
        try cli.ok("check")
        // An erasure takes the party payment's reference with the rest of the customer's text.
        try cli.ok("user", "erase", "anna", "--yes")
        let left = try cli.sqlite("SELECT count(*) FROM party_payments WHERE reference IS NOT NULL;").stdout
        #expect(left == "0\n", "\(left)")
        try cli.ok("check")
    }
}
