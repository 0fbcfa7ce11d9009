import Foundation
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

/// Migration 35: an item's history is a chain from the item's row (`pizzas.last_change`, each
/// row's `previous_change`), kept by triggers on every path, read with one lookup per change.
@Suite("Menu: an item's history is a chain from its row")
struct HistoryChainTests {
    /// Each item's history by a scan of the table: what the chain must give.
    func scanned(_ f: Fixture, _ id: Pizza.ID) throws -> [Int64] {
        try f.pizzeria.database.read { db in
            try db.fetchAll("SELECT id FROM pizza_history WHERE pizza_id = ? ORDER BY id", [id]) { try $0.int64("id") }
        }
    }

    func lastChange(_ f: Fixture, _ id: Pizza.ID) throws -> Int64? {
        try f.pizzeria.database.read { db in
            try db.fetchOne("SELECT last_change FROM pizzas WHERE id = ?", [id]) { try $0.optionalInt64("last_change") }
                ?? nil
        }
    }

    @Test("every change continues its item's chain, whichever item changed before; the history read is the chain")
    func chain() throws {
        let f = try Fixture()
        let margherita = try f.add("Margherita", 600).id, marinara = try f.add("Marinara", 400).id
        for (id, cents) in [(margherita, 650), (marinara, 450), (margherita, 700)] {
            var draft = try f.pizzeria.menu.editDraft(for: id)
            draft.price = Money(cents: Int64(cents))
            _ = try f.pizzeria.menu.save(draft)
        }
        _ = try f.pizzeria.menu.archive(id: marinara)
        _ = try f.pizzeria.menu.restore(id: marinara)
        for id in [margherita, marinara] {
            let ids = try scanned(f, id)
            #expect(try lastChange(f, id) == ids.last)
            let previous = try f.pizzeria.database.read { db in
                try db.fetchAll("SELECT previous_change FROM pizza_history WHERE pizza_id = ? ORDER BY id", [id]) {
                    try $0.optionalInt64("previous_change")
                }
            }
            #expect(previous == [nil] + ids.dropLast().map { Optional($0) })
            #expect(try f.pizzeria.menu.history(of: id).map(\.version) == Array(1...ids.count))
        }
        #expect(try f.pizzeria.menu.history(of: margherita).map(\.change) == [.created, .edited, .edited])
        #expect(
            try f.pizzeria.menu.history(of: marinara).map(\.change) == [.created, .edited, .archived, .restored])
    }

    @Test("one item's history is read by id along its chain: no index of the history, no scan of it")
    func plan() throws {
        let f = try Fixture()
        try f.add("Margherita", 600)
        let plan = try f.pizzeria.database.withWriter { db in
            try db.fetchAll("EXPLAIN QUERY PLAN " + PizzaStore.historySQL, ["x"]) { try $0.string("detail") }
        }
        #expect(plan.contains { $0.contains("USING INTEGER PRIMARY KEY") }, "\(plan)")
        #expect(
            !plan.contains { $0.hasPrefix("SCAN") && ($0.contains("pizza_history") || $0.contains("SCAN h")) },
            "\(plan)")
        let index = try f.pizzeria.database.read { db in
            try db.fetchOne(
                "SELECT count(*) AS n FROM sqlite_schema WHERE tbl_name = 'pizza_history' AND type = 'index'"
            ) {
                try $0.int("n")
            }
        }
        #expect(index == 0)
    }

    @Test(
        "by hand: a row that does not continue its item's chain, a last_change moved or set on a new item are refused; a row that does moves it"
    )
    func byHand() throws {
        let f = try Fixture()
        let margherita = try f.add("Margherita", 600).id, marinara = try f.add("Marinara", 400).id
        let head = try #require(try lastChange(f, margherita))
        let other = try #require(try lastChange(f, marinara))
        let insert = """
            INSERT INTO pizza_history (pizza_id, change, new_name, new_price_cents, version, previous_change)
            VALUES (?, 'edited', 'Margherita', 650, 2, ?)
            """
        try f.pizzeria.database.write { db in
            for previous: Int64? in [nil, other, head - 1] {
                let error = #expect(throws: DatabaseError.self) { try db.run(insert, [margherita, previous]) }
                #expect(error?.message.hasPrefix("previous_change:") == true, "\(String(describing: error))")
            }
            for value: Int64? in [nil, other] {
                let error = #expect(throws: DatabaseError.self) {
                    try db.run("UPDATE pizzas SET last_change = ? WHERE id = ?", [value, margherita])
                }
                #expect(error?.message.hasPrefix("last_change:") == true, "\(String(describing: error))")
            }
            let error = #expect(throws: DatabaseError.self) {
                try db.run("INSERT INTO pizzas (name, price_cents, last_change) VALUES ('Diavola', 800, ?)", [head])
            }
            #expect(error?.message.hasPrefix("last_change:") == true, "\(String(describing: error))")
            // Writing the value it has is allowed; a row that continues the chain moves it.
            try db.run("UPDATE pizzas SET last_change = ? WHERE id = ?", [head, margherita])
            try db.run(insert, [margherita, head])
        }
        let ids = try scanned(f, margherita)
        #expect(try ids.count == 2 && lastChange(f, margherita) == ids.last)
        #expect(try f.pizzeria.menu.history(of: margherita).map(\.newPrice) == [Money(cents: 600), Money(cents: 650)])
        #expect(try lastChange(f, marinara) == other)
    }
}
