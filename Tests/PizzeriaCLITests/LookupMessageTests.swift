import Foundation
import PizzeriaTestSupport
import Testing

@Suite("CLI: ambiguous prefixes and counts in messages (the real binary)")
struct LookupMessageTests {
    @Test("an ambiguous prefix lists candidates by prefixes that tell them apart; one pizza is '1 pizza'")
    func messages() throws {
        let cli = CLI()
        try cli.ok("demo")
        _ = try cli.sqlite(
            """
            INSERT INTO pizzas (id, name, price_cents) VALUES ('abcdef12-3456-4000-8000-000000000001', 'Twin One', 500),
                                                              ('abcdef12-3456-4000-8000-000000000002', 'Twin Two', 500);
            """)
        let ambiguous = try cli.run("pizza", "show", "abcd")
        #expect(
            ambiguous.status == 65 && ambiguous.stderr.contains("abcdef12-3456-4000-8000-000000000001 Twin One"),
            "\(ambiguous)")
        try cli.ok("config", "set", "slot-capacity", "7")
        let tomorrow = try #require(
            ((try cli.json("order", "list") as? [[String: Any]])?.first?["pickup_local"] as? String)?.prefix(10))
        let full = try cli.run("order", "place", "anna", "--pickup", "\(tomorrow)T19:00", "Margherita=2")
        #expect(full.status == 1 && full.stderr.contains("has only 1 pizza left"), "\(full)")
    }
}
