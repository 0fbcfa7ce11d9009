import Foundation
import Synchronization
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

@Suite("Menu: the add and edit flows on a real database")
struct MenuServiceTests {
    @Test(
        "the menu's hot statements use an index: no scan, no temporary sort",
        arguments: [
            (PizzaStore.listSQL, 3, "pizzas_name_key"),
            (PizzaStore.activeMenuSQL, 0, "pizzas_name_key"),
            (PizzaStore.wholeMenuSQL, 0, "pizzas_name_key"),
            (PizzaStore.sameNameSQL, 1, "pizzas_name_key"),
            (PizzaStore.priceEditSQL, 4, "sqlite_autoindex_pizzas_1 (id=?)"),
            (NavigationStore.pathSQL, 1, "PRIMARY KEY"),
            (NavigationStore.stateSQL, 1, "navigation_events USING INTEGER PRIMARY KEY"),
        ])
    func queryPlans(sql: String, parameters: Int, index: String) throws {
        let fixture = try Fixture()
        try fixture.add("Margherita", 600)
        let plan = try fixture.pizzeria.database.withWriter { db in
            try db.fetchAll("EXPLAIN QUERY PLAN " + sql, Array(repeating: "x", count: parameters)) {
                try $0.string("detail")
            }
        }
        #expect(plan.contains { $0.contains(index) }, "\(plan)")
        #expect(!plan.contains { $0.hasPrefix("SCAN") && !$0.contains("USING") }, "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }

    @Test("add saves a valid draft and returns the stored pizza")
    func add() throws {
        let fixture = try Fixture()
        let pizza = try fixture.add("  Margherita ", 600)
        #expect(pizza.name == "Margherita")
        #expect(pizza.price == Money(cents: 600))
        #expect(pizza.version == 1 && !pizza.isArchived)
        #expect(try fixture.pizzeria.menu.list().map(\.name) == ["Margherita"])
        #expect(try fixture.pizzeria.menu.history(of: pizza.id).map(\.change) == [.created])
    }

    @Test("an invalid draft is refused with every field error and writes nothing")
    func invalidDraft() throws {
        let fixture = try Fixture()
        let before = try fixture.snapshot()
        let error = #expect(throws: ValidationError.self) { try fixture.pizzeria.menu.save(.blank) }
        #expect(error?.errors.map(\.field) == ["name", "price"])
        #expect(try fixture.snapshot() == before)
    }

    @Test("names are unique ignoring case, Unicode included, archived pizzas included")
    func uniqueNames() throws {
        let fixture = try Fixture()
        let cafe = try fixture.add("Café", 500)
        try fixture.add("Porcini", 1200)
        try fixture.pizzeria.menu.archive(id: try fixture.pizzeria.lookup.pizza("Porcini").id)
        let before = try fixture.snapshot()
        for name in ["CAFÉ", "cafe\u{0301}", "porcini", "PORCINI"] {
            let error = #expect(throws: MenuError.self) { try fixture.add(name, 700) }
            guard case .duplicateName = error else { Issue.record("\(name): \(String(describing: error))"); continue }
        }
        #expect(try fixture.snapshot() == before)
        // Renaming a pizza to its own name in another case is not a duplicate.
        var draft = PizzaDraft(editing: cafe)
        draft.name = "CAFÉ"
        #expect(try fixture.pizzeria.menu.save(draft).name == "CAFÉ")
    }

    @Test("an edit changes name and price, bumps the version and keeps the history")
    func edit() throws {
        let fixture = try Fixture()
        let pizza = try fixture.add("Margherita", 600)
        var draft = try fixture.pizzeria.menu.editDraft(for: try fixture.pizzeria.lookup.pizza("margherita").id)
        #expect(draft.name == "Margherita" && draft.price.cents == 600)
        draft.price = Money(cents: 650)
        draft.name = "Margherita DOP"
        let saved = try fixture.pizzeria.menu.save(draft)
        #expect(
            saved.id == pizza.id && saved.version == 2 && saved.price.cents == 650 && saved.name == "Margherita DOP")
        let history = try fixture.pizzeria.menu.history(of: pizza.id)
        #expect(history.map(\.change) == [.created, .edited])
        #expect(history[1].oldName == "Margherita" && history[1].newName == "Margherita DOP")
        #expect(history[1].oldPrice?.cents == 600 && history[1].newPrice.cents == 650 && history[1].version == 2)
    }

    @Test("an edit from a stale draft is a conflict and overwrites nothing")
    func conflict() throws {
        let fixture = try Fixture()
        let pizza = try fixture.add("Margherita", 600)
        var mine = PizzaDraft(editing: pizza)
        var theirs = PizzaDraft(editing: pizza)
        theirs.price = Money(cents: 700)
        _ = try fixture.pizzeria.menu.save(theirs)
        let before = try fixture.snapshot()
        mine.price = Money(cents: 800)
        let error = #expect(throws: MenuError.self) { try fixture.pizzeria.menu.save(mine) }
        guard case .conflict(let current, let draftVersion) = error else {
            Issue.record("\(String(describing: error))"); return
        }
        #expect(current.price.cents == 700 && current.version == 2 && draftVersion == 1)
        #expect(try fixture.snapshot() == before)
    }

    @Test("an edit typed into sqlite3 also bumps the version, so a draft taken before it conflicts")
    func handEditConflicts() throws {
        let fixture = try Fixture()
        let pizza = try fixture.add("Margherita", 600)
        let draft = PizzaDraft(editing: pizza)
        try fixture.pizzeria.database.write { db in
            try db.run("UPDATE pizzas SET price_cents = 990 WHERE id = ?", [pizza.id])
        }
        #expect(try fixture.pizzeria.menu.pizza(id: pizza.id)?.version == 2)
        #expect(throws: MenuError.self) { try fixture.pizzeria.menu.save(draft) }
    }

    @Test("archive takes a pizza off the menu, restore puts it back; both are recorded")
    func archiveAndRestore() throws {
        let fixture = try Fixture()
        let pizza = try fixture.add("Porcini", 1200)
        try fixture.add("Marinara", 400)
        let archived = try fixture.pizzeria.menu.archive(id: try fixture.pizzeria.lookup.pizza("porcini").id)
        #expect(archived.isArchived && archived.version == 2)
        #expect(try fixture.pizzeria.menu.list().map(\.name) == ["Marinara"])
        #expect(try fixture.pizzeria.menu.list(includeArchived: true).map(\.name) == ["Marinara", "Porcini"])
        #expect(throws: MenuError.alreadyArchived(archived)) { try fixture.pizzeria.menu.archive(id: pizza.id) }
        let restored = try fixture.pizzeria.menu.restore(
            id: try fixture.pizzeria.lookup.pizza(String(pizza.id.description.prefix(6))).id)
        #expect(!restored.isArchived && restored.version == 3)
        #expect(throws: MenuError.self) { try fixture.pizzeria.menu.restore(id: pizza.id) }
        #expect(try fixture.pizzeria.menu.history(of: pizza.id).map(\.change) == [.created, .archived, .restored])
    }

    @Test("lookup by id, by name ignoring case, and by a unique id prefix of 4+ characters")
    func lookup() throws {
        let fixture = try Fixture()
        let pizza = try fixture.add("Quattro Formaggi", 900)
        #expect(try fixture.pizzeria.lookup.pizza(pizza.id.description).id == pizza.id)
        #expect(try fixture.pizzeria.lookup.pizza(pizza.id.description.uppercased()).id == pizza.id)
        #expect(try fixture.pizzeria.lookup.pizza("quattro FORMAGGI").id == pizza.id)
        #expect(try fixture.pizzeria.lookup.pizza(String(pizza.id.description.prefix(4))).id == pizza.id)
        #expect(try fixture.pizzeria.menu.pizza(id: pizza.id) == pizza)
        #expect(try fixture.pizzeria.menu.pizza(named: "QUATTRO formaggi") == pizza)
        #expect(throws: MenuError.notFound("abc")) { try fixture.pizzeria.lookup.pizza("abc") }
        #expect(throws: MenuError.notFound("Diavola")) { try fixture.pizzeria.lookup.pizza("Diavola") }
    }

    @Test("an ambiguous id prefix lists the candidates")
    func ambiguousPrefix() throws {
        let fixture = try Fixture()
        // Ids chosen by hand (as an analyst's INSERT could) so that they share a prefix.
        try fixture.pizzeria.database.write { db in
            try db.run(
                "INSERT INTO pizzas (id, name, price_cents) VALUES ('abcd0000-0000-4000-8000-000000000001', 'One', 500)"
            )
            try db.run(
                "INSERT INTO pizzas (id, name, price_cents) VALUES ('abcd0000-0000-4000-8000-000000000002', 'Two', 600)"
            )
        }
        let error = #expect(throws: MenuError.self) { try fixture.pizzeria.lookup.pizza("abcd") }
        guard case .ambiguous(_, let candidates) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(candidates.map(\.name) == ["One", "Two"])
        #expect(error?.description.contains("One") == true && error?.description.contains("Two") == true)
        #expect(try fixture.pizzeria.lookup.pizza("abcd0000-0000-4000-8000-000000000002").name == "Two")
    }

    @Test("hostile text is stored verbatim, never executed")
    func injection() throws {
        let fixture = try Fixture()
        let name = "'); DROP TABLE pizzas;--"
        let pizza = try fixture.add(name, 600)
        #expect(try fixture.pizzeria.lookup.pizza(name).id == pizza.id)
        #expect(try fixture.pizzeria.menu.list().map(\.name) == [name])
    }

    @Test(
        "the database itself refuses what validation refuses",
        arguments: [
            "INSERT INTO pizzas (name, price_cents) VALUES ('', 500)",
            "INSERT INTO pizzas (name, price_cents) VALUES (' Padded', 500)",
            "INSERT INTO pizzas (name, price_cents) VALUES ('Line' || char(10) || 'break', 500)",
            "INSERT INTO pizzas (name, price_cents) VALUES ('Free', 0)",
            "INSERT INTO pizzas (name, price_cents) VALUES ('Negative', -100)",
            "INSERT INTO pizzas (name, price_cents) VALUES ('Gold', 100001)",
            "INSERT INTO pizzas (name, price_cents) VALUES ('Text price', '6.50')",
            "INSERT INTO pizzas (name, price_cents) VALUES ('margherita', 500)",
            "DELETE FROM pizzas",
            "UPDATE pizza_history SET new_name = 'rewritten'",
        ])
    func databaseConstraints(sql: String) throws {
        let fixture = try Fixture()
        try fixture.add("Margherita", 600)
        let before = try fixture.snapshot()
        let error = #expect(throws: DatabaseError.self) {
            try fixture.pizzeria.database.write { db in try db.execute(sql) }
        }
        #expect(error?.isConstraint == true)
        #expect(try fixture.snapshot() == before)
    }

    @Test("a valid hand-typed INSERT gets an id, timestamps and history from the schema")
    func handInsert() throws {
        let fixture = try Fixture()
        try fixture.pizzeria.database.write { db in
            try db.execute("INSERT INTO pizzas (name, price_cents) VALUES ('Diavola', 850)")
        }
        let pizza = try fixture.pizzeria.lookup.pizza("diavola")
        #expect(pizza.id.description.count == 36 && pizza.version == 1 && pizza.price.cents == 850)
        #expect(try fixture.pizzeria.menu.history(of: pizza.id).map(\.change) == [.created])
    }
}

@Suite("Menu: the edit path's single statement")
struct EditPathTests {
    @Test("an edit returns the row as it ends up; an edit that changes nothing keeps the version and writes no history")
    func editReturnsFinalRow() throws {
        let fixture = try Fixture()
        let pizza = try fixture.add("Margherita", 600)
        var draft = PizzaDraft(editing: pizza)
        draft.price = Money(cents: 650)
        let edited = try fixture.pizzeria.menu.save(draft)
        #expect(try fixture.pizzeria.menu.pizza(id: pizza.id) == edited)
        #expect(edited.version == 2 && edited.updatedAt >= pizza.updatedAt)
        let unchanged = try fixture.pizzeria.menu.save(PizzaDraft(editing: edited))
        #expect(unchanged == edited)
        #expect(try fixture.pizzeria.menu.history(of: pizza.id).count == 2)
        let stale = #expect(throws: MenuError.self) { try fixture.pizzeria.menu.save(draft) }
        #expect(stale == .conflict(pizza: edited, draftVersion: 1))
    }

    @Test("a sheet's save returns the row as stored (a name edit: RETURNING), with a clock that moves on every read")
    func sheetSaveReturnsStoredRow() throws {
        let ticks = Mutex(Date(timeIntervalSince1970: 1_796_115_600))
        let fixture = try Fixture(now: {
            ticks.withLock { time in
                time.addTimeInterval(0.005)
                return time
            }
        })
        let pizza = try fixture.add("Margherita", 600)
        let anna = try fixture.pizzeria.users.add(handle: "anna").id
        try fixture.pizzeria.navigation.openSheet(anna, .editPizza(pizza.id))
        try fixture.pizzeria.navigation.setSheet(anna, name: "Margherita DOP", price: Money(cents: 650))
        let (saved, _) = try fixture.pizzeria.navigation.saveSheet(anna)
        let stored = try #require(try fixture.pizzeria.menu.pizza(id: pizza.id))
        #expect(saved == stored && saved.version == 2 && saved.updatedAt > pizza.updatedAt, "\(saved) \(stored)")
        let history = try fixture.pizzeria.menu.history(of: pizza.id)
        #expect(history.last?.changedAt == stored.updatedAt)
    }
}
