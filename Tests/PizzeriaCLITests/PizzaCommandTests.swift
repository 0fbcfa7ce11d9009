import Foundation
import PizzeriaTestSupport
import Testing

@Suite("CLI: the menu (the real binary)")
struct PizzaCommandTests {
    @Test("demo puts the tutorial's menu on a new database, and running it twice duplicates nothing")
    func demo() throws {
        let cli = CLI()
        let first = try cli.ok("demo")
        #expect(first.stdout.contains("Margherita") && first.stdout.contains("€6.00"))
        #expect(first.stdout.contains("Porcini") && first.stdout.contains("€12.00"))
        #expect(first.stdout.contains("Marinara") && first.stdout.contains("€4.00"))
        try cli.ok("demo")
        let menu = try cli.json("pizza", "list") as? [[String: Any]] ?? []
        // The tutorial's three pizzas, at their prices, in the demo's Naples menu; twice, nothing doubled.
        let names = menu.compactMap { $0["name"] as? String }
        #expect(
            names == [
                "Acqua", "Aranciata", "Babà", "Cosacca", "Frittatina", "Margherita", "Marinara", "Montanara", "Porcini",
                "Romana", "Salsiccia e friarielli",
            ], "\(names)")
        let prices = Dictionary(
            uniqueKeysWithValues: menu.map { ($0["name"] as? String ?? "", $0["price_cents"] as? Int) })
        #expect(prices["Margherita"] == 600 && prices["Marinara"] == 400 && prices["Porcini"] == 1200)
        let margherita = try cli.json("pizza", "show", "Margherita") as? [String: Any]
        #expect((margherita?["variants"] as? [[String: Any]])?.count == 2)
    }

    @Test("add, edit, archive, restore and show, with the documented JSON shape")
    func lifecycle() throws {
        let cli = CLI()
        try cli.ok("init")
        let added = try cli.json("pizza", "add", "--name", "Diavola", "--price", "8,50") as? [String: Any]
        #expect(
            Set(added?.keys.map { $0 } ?? []) == [
                "id", "name", "price", "price_cents", "currency", "archived",
                "archived_at", "category_id", "allergens", "stock_left", "stock_until", "version", "created_at",
                "updated_at",
            ])
        #expect(added?["category_id"] as? Int == 1)
        #expect(added?["price"] as? String == "8.50" && added?["price_cents"] as? Int == 850)
        #expect(added?["currency"] as? String == "EUR" && added?["archived"] as? Bool == false)
        let id = added?["id"] as? String ?? ""

        let edited = try cli.json("pizza", "edit", String(id.prefix(8)), "--price", "9") as? [String: Any]
        #expect(edited?["price_cents"] as? Int == 900 && edited?["version"] as? Int == 2)
        try cli.ok("pizza", "archive", "diavola")
        #expect(!(try cli.ok("pizza", "list").stdout.contains("Diavola")))
        #expect(try cli.ok("pizza", "list", "--all").stdout.contains("archived"))
        try cli.ok("pizza", "restore", "DIAVOLA")
        let shown = try cli.json("pizza", "show", "Diavola") as? [String: Any]
        let history = shown?["history"] as? [[String: Any]] ?? []
        #expect(history.map { $0["change"] as? String } == ["created", "edited", "archived", "restored"])
        #expect(history[1]["old_price_cents"] as? Int == 850 && history[1]["new_price_cents"] as? Int == 900)
    }

    @Test("validation failures: exit 65, one line per failing field, nothing written")
    func validation() throws {
        let cli = CLI()
        try cli.ok("demo")
        let before = try cli.sqlite("SELECT * FROM pizzas ORDER BY id; SELECT count(*) FROM pizza_history;").stdout
        let both = try cli.run("pizza", "add", "--name", "  ", "--price", "0")
        #expect(both.status == 65)
        #expect(both.stderr == "error: name: must not be empty\nerror: price: must be greater than 0\n")
        let price = try cli.run("pizza", "add", "--name", "Diavola", "--price", "1,000")
        #expect(price.status == 65 && price.stderr.contains("error: price: is ambiguous"))
        let long = try cli.run("pizza", "edit", "Margherita", "--name", String(repeating: "x", count: 61))
        #expect(long.status == 65 && long.stderr == "error: name: must be at most 60 characters (has 61)\n")
        #expect(
            try cli.sqlite("SELECT * FROM pizzas ORDER BY id; SELECT count(*) FROM pizza_history;").stdout == before)
    }

    @Test("refusals: duplicate name → 1, unknown pizza → 66, non-TTY without flags → 64")
    func refusals() throws {
        let cli = CLI()
        try cli.ok("demo")
        let duplicate = try cli.run("pizza", "add", "--name", "MARGHERITA", "--price", "5")
        #expect(duplicate.status == 1 && duplicate.stderr.contains("already taken"), "\(duplicate)")
        let rename = try cli.run("pizza", "edit", "Porcini", "--name", "marinara")
        #expect(rename.status == 1, "\(rename)")
        let unknown = try cli.run("pizza", "show", "Hawaii")
        #expect(unknown.status == 66 && unknown.stderr.contains("no pizza"), "\(unknown)")
        let noTTY = try cli.run("pizza", "add", "--name", "Diavola")
        #expect(noTTY.status == 64 && noTTY.stderr.contains("terminal"), "\(noTTY)")
        let noFields = try cli.run("pizza", "edit", "Porcini")
        #expect(noFields.status == 64, "\(noFields)")
        let archivedTwice = try cli.run("pizza", "archive", "Porcini")
        #expect(archivedTwice.status == 0)
        let again = try cli.run("pizza", "archive", "Porcini")
        #expect(again.status == 1 && again.stderr.contains("already archived"))
    }

    @Test("a valid INSERT typed into sqlite3 shows up in `pizza list`; invalid ones are rejected by the database")
    func sqliteUsers() throws {
        let cli = CLI()
        try cli.ok("init")
        let valid = try cli.sqlite("INSERT INTO pizzas (name, price_cents) VALUES ('Capricciosa', 950);")
        #expect(valid.status == 0, "\(valid)")
        let list = try cli.ok("pizza", "list")
        #expect(list.stdout.contains("Capricciosa") && list.stdout.contains("€9.50"))
        for sql in [
            "INSERT INTO pizzas (name, price_cents) VALUES ('', 500);",
            "INSERT INTO pizzas (name, price_cents) VALUES ('Free', 0);",
            "INSERT INTO pizzas (name, price_cents) VALUES ('capricciosa', 700);",
            "INSERT INTO pizzas (name, price_cents) VALUES ('Bad' || char(9), 700);",
            "DELETE FROM pizzas;",
        ] {
            let result = try cli.sqlite(sql)
            #expect(result.status != 0, "accepted: \(sql)")
        }
        let menu = try cli.sqlite("SELECT name, price_eur FROM menu;", readOnly: true)
        #expect(menu.stdout == "Capricciosa|9.50\n")
    }

    @Test("the interactive add form: inline errors, ask again, summary, confirm")
    func interactiveAdd() throws {
        let cli = CLI()
        try cli.ok("demo")
        let session = try PseudoTerminalSession(["pizza", "add"], in: cli.directory.url)
        try session.expect("Name: ")
        session.send("")
        try session.expect("error: name: must not be empty")
        try session.expect("Name: ")
        session.send("margherita")
        try session.expect("already taken")
        try session.expect("Name: ")
        session.send("Diavola")
        try session.expect("Price in EUR: ")
        session.send("zero")
        try session.expect("error: price:")
        try session.expect("Price in EUR: ")
        session.send("8,50")
        try session.expect("€8.50")
        try session.expect("Save? [y/N]: ")
        session.send("y")
        #expect(try session.wait() == 0, "\(session.transcript)")
        #expect(try cli.ok("pizza", "show", "Diavola").stdout.contains("€8.50"))
    }

    @Test("the interactive edit form shows current values; Enter keeps them")
    func interactiveEdit() throws {
        let cli = CLI()
        try cli.ok("demo")
        let session = try PseudoTerminalSession(["pizza", "edit", "Porcini"], in: cli.directory.url)
        try session.expect("Name [Porcini]: ")
        session.send("")
        try session.expect("Price in EUR [12.00]: ")
        session.send("13")
        try session.expect("Save? [y/N]: ")
        session.send("yes")
        #expect(try session.wait() == 0, "\(session.transcript)")
        let shown = try cli.json("pizza", "show", "Porcini") as? [String: Any]
        #expect(shown?["name"] as? String == "Porcini" && shown?["price_cents"] as? Int == 1300)
    }

    @Test("the form cancels on end of input or a 'no', and writes nothing", arguments: [true, false])
    func interactiveCancel(endOfInput: Bool) throws {
        let cli = CLI()
        try cli.ok("demo")
        let before = try cli.sqlite("SELECT * FROM pizzas ORDER BY id;").stdout
        let session = try PseudoTerminalSession(["pizza", "add"], in: cli.directory.url)
        try session.expect("Name: ")
        if endOfInput {
            session.sendEndOfInput()
        } else {
            session.send("Diavola")
            try session.expect("Price in EUR: ")
            session.send("8")
            try session.expect("Save? [y/N]: ")
            session.send("n")
        }
        #expect(try session.wait() == 1)
        #expect(session.transcript.contains("nothing was saved"))
        #expect(try cli.sqlite("SELECT * FROM pizzas ORDER BY id;").stdout == before)
    }

    @Test("two processes editing the same pizza: exactly one wins, the other gets the conflict")
    func concurrentEdits() throws {
        let cli = CLI()
        try cli.ok("demo")
        let base = try #require((try cli.json("pizza", "show", "Margherita") as? [String: Any])?["version"] as? Int)
        // Both processes take their draft (at version `base`) before either saves.
        let first = try PseudoTerminalSession(["pizza", "edit", "Margherita"], in: cli.directory.url)
        let second = try PseudoTerminalSession(["pizza", "edit", "Margherita"], in: cli.directory.url)
        for (session, price) in [(first, "7"), (second, "8")] {
            try session.expect("Name [Margherita]: ")
            session.send("")
            try session.expect("Price in EUR [6.00]: ")
            session.send(price)
            try session.expect("Save? [y/N]: ")
        }
        first.send("y")
        second.send("y")
        let statuses = [try first.wait(), try second.wait()]
        #expect(statuses.sorted() == [0, 1], "\(first.transcript)\n\(second.transcript)")
        let loser = statuses[0] == 1 ? first : second
        #expect(loser.transcript.contains("changed by someone else"))
        let shown = try cli.json("pizza", "show", "Margherita") as? [String: Any]
        #expect(shown?["version"] as? Int == base + 1)
        #expect([700, 800].contains(shown?["price_cents"] as? Int ?? 0))
        #expect((shown?["history"] as? [Any])?.count == 2)
    }
}
