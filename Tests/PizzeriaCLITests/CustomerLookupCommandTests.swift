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

    @Test("--walk-in books for someone without an account in one step; refused, it leaves no guest; a key retries")
    func walkIn() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-04T09:00:00Z"
        try cli.ok("demo")
        let users = try cli.sqlite("SELECT count(*) FROM users;").stdout
        let booked =
            try cli.json(
                "order", "place", "--walk-in", "Gennaro", "--phone", "+39 333 123 4567", "--pickup", "19:30",
                "Margherita", "--key", "w1") as? [String: Any]
        #expect(booked?["customer_name"] as? String == "Gennaro", "\(String(describing: booked))")
        #expect((booked?["user"] as? String)?.hasPrefix("walkin-") == true)
        let again =
            try cli.json("order", "place", "--walk-in", "Gennaro", "--pickup", "19:30", "Margherita", "--key", "w1")
            as? [String: Any]
        #expect(again?["id"] as? String == booked?["id"] as? String && again?["created"] as? Bool == false)
        #expect(try cli.sqlite("SELECT count(*) FROM users WHERE handle GLOB 'walkin-*';").stdout == "1\n")
        // Refused (a slot too full, an unknown item, no name): no order and no guest are left behind.
        try cli.ok("capacity", "set", "daily", "19:30-19:45", "1")
        let full = try cli.run("order", "place", "--walk-in", "Pino", "--pickup", "19:30", "Porcini=3")
        #expect(full.status == 1, "\(full)")
        #expect(try cli.run("order", "place", "--walk-in", "", "--pickup", "20:00", "Porcini").status == 65)
        #expect(try cli.run("order", "place", "anna", "--pickup", "20:00").status == 64)
        #expect(try cli.run("order", "place", "anna", "--phone", "333", "--pickup", "20:00", "Porcini").status == 64)
        let count = Int(users.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(try cli.sqlite("SELECT count(*) FROM users;").stdout == "\(count + 1)\n")
    }
}
