import Foundation
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

@Suite("Pizza names: full case folding, invisible and deceptive text, the schema agrees")
struct PizzaNameTests {
    @Test(
        "names collide by full case folding, whichever comes first",
        arguments: [
            ("Straße", "STRASSE"), ("STRASSE", "Straße"), ("Sushi", "ſushi"), ("ſushi", "SUSHI"),
            ("Finocchio", "ﬁnocchio"), ("ﬁnocchio", "FINOCCHIO"), ("Café", "CAFE\u{301}"),
        ])
    func caseFolding(first: String, second: String) throws {
        let f = try Fixture()
        let kept = try f.add(first, 900)
        let before = try f.snapshot()
        let error = #expect(throws: MenuError.self) { try f.add(second, 900) }
        #expect(error == .duplicateName(name: PizzaName.normalize(second), existing: kept))
        #expect(try f.snapshot() == before)
        // Lookup by either spelling finds the one pizza, through the name key.
        #expect(try f.pizzeria.lookup.pizza(second).id == kept.id)
        // A rename onto the other spelling is refused the same way, never as a raw UNIQUE error.
        let other = try f.add("Diavola", 800)
        var rename = PizzaDraft(editing: other)
        rename.name = second
        #expect(throws: MenuError.duplicateName(name: PizzaName.normalize(second), existing: kept)) {
            try f.pizzeria.menu.save(rename)
        }
    }

    @Test(
        "invisible, direction-changing and overlong names are refused with the rule",
        arguments: [
            ("\u{200B}", "must contain a visible character"), ("\u{FEFF}\u{200B}", "must contain a visible character"),
            ("\u{202E}", "bidi control"), ("Pizza \u{202E}atsaP", "bidi control"),
            ("Marg\u{2066}herita", "bidi control"),
            (String(repeating: "👨‍👩‍👧‍👦", count: 40), "at most 240 Unicode code points"),
            (String(repeating: "a", count: 61), "at most 60 characters"),
        ])
    func deceptiveNames(name: String, rule: String) throws {
        let f = try Fixture()
        var draft = PizzaDraft.blank
        draft.name = name
        draft.price = Money(cents: 500)
        let error = #expect(throws: ValidationError.self) { try f.pizzeria.menu.save(draft) }
        #expect(
            error?.errors.contains { $0.field == "name" && $0.message.contains(rule) } == true,
            "\(String(describing: error))")
    }

    @Test("60 emoji of one code point each are a valid name; the database agrees")
    func emojiName() throws {
        let f = try Fixture()
        let pizza = try f.add(String(repeating: "🍕", count: 60), 700)
        #expect(pizza.name.count == 60)
    }

    @Test("the database checks hand-typed names too: ASCII keys computed, others need their key, invisible refused")
    func handTypedNames() throws {
        let f = try Fixture()
        try f.add("Straße", 900)
        try f.pizzeria.database.write { db in
            try db.run("INSERT INTO pizzas (name, price_cents) VALUES ('Capricciosa', 950)")
        }
        #expect(try f.pizzeria.lookup.pizza("CAPRICCIOSA").name == "Capricciosa")
        for sql in [
            "INSERT INTO pizzas (name, price_cents) VALUES ('STRASSE', 950)",
            "INSERT INTO pizzas (name, price_cents) VALUES ('Bräu', 950)",
            "INSERT INTO pizzas (name, price_cents) VALUES (char(8203), 950)",
            "INSERT INTO pizzas (name, price_cents) VALUES ('a' || char(8238) || 'b', 950)",
        ] {
            #expect(throws: DatabaseError.self, "\(sql)") { try f.pizzeria.database.write { db in try db.run(sql) } }
        }
    }

    @Test("migration 5 folds existing non-ASCII names, and stops on names that fold alike")
    func nameKeyMigration() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("old.sqlite")
        let upToFour = SchemaMigrator(migrations: Array(Migration.embedded.prefix(4)))
        let old = try upToFour.open(path: path, access: .migrate)
        try old.write { db in
            try db.run("INSERT INTO pizzas (name, price_cents) VALUES ('Straße', 900), ('Margherita', 600)")
        }
        let pizzeria = try Pizzeria.open(path: path)
        #expect(try pizzeria.lookup.pizza("STRASSE").name == "Straße")

        let clashing = directory.path("clash.sqlite")
        let before = try upToFour.open(path: clashing, access: .migrate)
        try before.write { db in
            try db.run("INSERT INTO pizzas (name, price_cents) VALUES ('Straße', 900), ('STRASSE', 600)")
        }
        let error = #expect(throws: SchemaError.self) { try Pizzeria.open(path: clashing) }
        #expect(
            error?.description.contains("same name as another pizza ignoring case") == true,
            "\(String(describing: error))")
        #expect(try Maintenance.migrations(path: clashing).version == 4)
    }
}
