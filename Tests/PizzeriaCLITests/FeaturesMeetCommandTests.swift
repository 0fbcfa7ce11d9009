import Foundation
import PizzeriaTestSupport
import Testing

/// Where features meet, at the counter (the real binary): the item syntax against names that use
/// its characters, an edit that removes and adds one item, a sold-out item on an undo.
@Suite("CLI: where features meet — item names, edits, sold out on undo (the real binary)")
struct FeaturesMeetCommandTests {
    static let now = "2026-12-02T15:00:00Z"
    static let slot = "2026-12-02T19:30"

    func shop() throws -> CLI {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = Self.now
        cli.environment["PIZZERIA_STAFF"] = "giulia"
        try cli.ok("demo")
        return cli
    }

    func place(_ cli: CLI, _ items: String...) throws -> String {
        let placed = try cli.json(["order", "place", "anna", "--pickup", Self.slot] + items) as? [String: Any]
        return try #require(placed?["id"] as? String)
    }

    @Test("an item named with the syntax's characters is refused as ambiguous unquoted, and booked by quoting it")
    func namesWithSyntax() throws {
        let cli = try shop()
        try cli.ok("pizza", "add", "--name", "Calzone", "--price", "8")
        try cli.ok("pizza", "add", "--name", "Calzone=2", "--price", "9")
        let ambiguous = try cli.run("order", "place", "anna", "--pickup", Self.slot, "Calzone=2")
        #expect(
            ambiguous.status == 65 && ambiguous.stderr.contains("ambiguous")
                && ambiguous.stderr.contains(#""Calzone"=2"#), "\(ambiguous)")
        let item = try cli.ok("order", "place", "anna", "--pickup", Self.slot, #""Calzone=2""#).stdout
        #expect(item.contains("1 × Calzone=2, total €9.00"), "\(item)")
        let two = try cli.ok("order", "place", "anna", "--pickup", Self.slot, #""Calzone"=2"#).stdout
        #expect(two.contains("2 × Calzone, total €16.00"), "\(two)")
        // A variant with a slash in its name is ordered in quotes; unquoted it is refused, never misread.
        try cli.ok("pizza", "variant", "add", "Margherita", "1/2 metro", "--price", "20")
        let metro = try cli.ok("order", "place", "anna", "--pickup", Self.slot, #"Margherita/"1/2 metro""#).stdout
        #expect(metro.contains("1 × Margherita 1/2 metro"), "\(metro)")
        #expect(try cli.run("order", "place", "anna", "--pickup", Self.slot, "Margherita/1/2 metro").status == 65)
        let unclosed = try cli.run("order", "place", "anna", "--pickup", Self.slot, #""Margherita"#)
        #expect(unclosed.status == 65 && unclosed.stderr.contains("not closed"), "\(unclosed)")
    }

    @Test("--remove goes before --add: an item replaced by another choice of it, a modifier taken off one line")
    func removeThenAdd() throws {
        let cli = try shop()
        let id = try place(cli, "Margherita", "Babà")
        let replaced = try cli.ok(
            "order", "edit", id, "--remove", "Margherita", "--add", "Margherita/Maxi+Senza:basilico=2")
        #expect(replaced.stdout.contains("1 × Babà, 2 × Margherita Maxi + senza basilico"), "\(replaced)")
        // A removal is listed under its item as itself: no plus, no price.
        let shown = try cli.ok("order", "show", id).stdout
        let rows = shown.split(separator: "\n")
        #expect(rows.contains { $0.hasPrefix("       senza basilico") }, "\(shown)")
        #expect(!rows.contains { $0.contains("senza basilico") && $0.contains("€") }, "\(shown)")
        let off = try cli.ok(
            "order", "edit", id, "--remove", "Margherita/Maxi+Senza:basilico", "--add", "Margherita/Maxi=2")
        #expect(off.stdout.contains("1 × Babà, 2 × Margherita Maxi,"), "\(off)")
        let absent = try cli.run("order", "edit", id, "--remove", "Margherita+Aggiunte:bufala")
        #expect(absent.status == 65 && absent.stderr.contains("remove: the order has no line"), "\(absent)")
        let history = try cli.ok("order", "show", id).stdout
        #expect(history.contains("−1 Margherita Normale") && history.contains("+2 Margherita Maxi + senza basilico"))
    }

    @Test("undoing a cancellation whose item sold out since is refused (1) by name, with what to do; nothing changes")
    func soldOutOnUndo() throws {
        let cli = try shop()
        let id = try place(cli, "Porcini=2")
        try cli.ok("order", "cancel", id)
        try cli.ok("pizza", "sold-out", "Porcini", "--left", "1")
        let before = try cli.sqlite("SELECT status, version FROM orders WHERE id = '\(id)';").stdout
        let undo = try cli.run("order", "undo", id)
        #expect(
            undo.status == 1 && undo.stderr.contains("'Porcini': only 1 left, 2 asked for")
                && undo.stderr.contains("pizza available"), "\(undo)")
        #expect(try cli.sqlite("SELECT status, version FROM orders WHERE id = '\(id)';").stdout == before)
        // A modifier sold out since: the same refusal, naming it.
        let bufala = try place(cli, "Margherita+bufala")
        try cli.ok("order", "cancel", bufala)
        try cli.ok("modifier", "sold-out", "Aggiunte", "bufala")
        let again = try cli.run("order", "undo", bufala)
        #expect(again.status == 1 && again.stderr.contains("'bufala' is sold out"), "\(again)")
    }

    @Test("notifiers: run, reset and remove need a manager under require-staff, and each change is in the audit log")
    func notifierRolesAndAudit() throws {
        var cli = try shop()
        cli.environment["PIZZERIA_STAFF"] = nil
        try cli.ok("staff", "add", "olga", "--role", "owner")
        try cli.ok("staff", "add", "giulia", "--role", "manager")
        try cli.ok("staff", "add", "leo", "--role", "counter")
        cli.environment["PIZZERIA_STAFF"] = "olga"
        try cli.ok("config", "set", "require-staff", "on")
        cli.environment["PIZZERIA_STAFF"] = nil
        for arguments in [
            ["notify", "run", "--name", "sms", "--once", "--exec", "true"],
            ["notify", "reset", "sms", "--from", "start"],
            ["notify", "remove", "sms"],
        ] {
            let refused = try cli.run(arguments + ["--by", "leo"])
            #expect(refused.status == 1 && refused.stderr.contains("needs manager"), "\(arguments): \(refused)")
            try cli.ok(arguments + ["--by", "giulia"])
        }
        let audit = try cli.ok("audit", "--object", "notifier:sms").stdout
        #expect(
            audit.contains("giulia  notifier:sms  add") && audit.contains("giulia  notifier:sms  reset")
                && audit.contains("giulia  notifier:sms  remove"), "\(audit)")
    }

    @Test("--line-note on a booking and an edit: the line's note on show, the board, the receipt and the JSON")
    func lineNotes() throws {
        let cli = try shop()
        let id = try place(cli, "Margherita=2", "Babà", "--line-note", "1=ben cotta")
        let edited = try cli.ok("order", "edit", id, "--line-note", "2=tagliata a spicchi").stdout
        #expect(edited.contains("2 × Margherita Normale (ben cotta), 1 × Babà (tagliata a spicchi)"), "\(edited)")
        #expect(try cli.ok("order", "show", id).stdout.contains("note: tagliata a spicchi"))
        #expect(try cli.ok("order", "receipt", id, "--width", "32").stdout.contains("(ben cotta)"))
        let board = try cli.ok("order", "board", "--date", "2026-12-02").stdout
        #expect(board.contains("2 × Margherita Normale (ben cotta)"), "\(board)")
        let json = try cli.json("order", "show", id) as? [String: Any]
        let notes = (json?["lines"] as? [[String: Any]])?.map { $0["note"] as? String }
        #expect(notes == ["ben cotta", "tagliata a spicchi"])
        let cleared = try cli.ok("order", "edit", id, "--line-note", "1=").stdout
        #expect(cleared.contains("2 × Margherita Normale, 1 × Babà (tagliata a spicchi)"), "\(cleared)")
        let wrong = try cli.run("order", "edit", id, "--line-note", "3=x")
        #expect(wrong.status == 65 && wrong.stderr.contains("line-note"), "\(wrong)")
        let malformed = try cli.run("order", "place", "anna", "--pickup", Self.slot, "Babà", "--line-note", "x")
        #expect(malformed.status == 65 && malformed.stderr.contains("N=TEXT"), "\(malformed)")
    }
}
