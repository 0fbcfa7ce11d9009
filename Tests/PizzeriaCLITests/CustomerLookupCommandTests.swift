import Foundation
import PizzeriaTestSupport
import Testing

/// The customer as staff name them: `order place` finds them as `order list --user` does.
@Suite("CLI: order place takes the customer by handle, phone or name (the real binary)")
struct CustomerLookupCommandTests {
    @Test("a phone in any format or a unique name books for that customer; an ambiguous name is refused naming them")
    func customerByPhoneOrName() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-04T09:00:00Z"
        try cli.ok("demo")
        try cli.ok("user", "add", "gennaro", "--name", "Gennaro Esposito", "--phone", "+39 333 123 4567")
        let byPhone =
            try cli.json("order", "place", "+39 333 1234567", "--pickup", "19:30", "Margherita") as? [String: Any]
        #expect(byPhone?["user"] as? String == "gennaro", "\(String(describing: byPhone))")
        let byName =
            try cli.json("order", "place", "Gennaro Esposito", "--pickup", "19:45", "Porcini") as? [String: Any]
        #expect(byName?["user"] as? String == "gennaro")
        try cli.ok("user", "add", "gennaro2", "--name", "Gennaro Esposito")
        let ambiguous = try cli.run("order", "place", "Gennaro Esposito", "--pickup", "20:00", "Porcini")
        #expect(ambiguous.status == 65, "\(ambiguous)")
        #expect(ambiguous.stderr.contains("gennaro") && ambiguous.stderr.contains("gennaro2"), "\(ambiguous)")
        let unknown = try cli.run("order", "place", "nobody", "--pickup", "20:00", "Porcini")
        #expect(unknown.status == 66, "\(unknown)")
    }
}
