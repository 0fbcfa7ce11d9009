import Foundation
import PizzeriaStorage
import PizzeriaTestSupport
import Testing

@testable import PizzeriaServices

/// Menu categories (migration 15): only items whose category uses the oven count toward a slot's
/// capacity, on every path that fills a slot, and the schema keeps the same rule for hand writes.
@Suite("Categories: drinks take no oven capacity, on every path")
struct CategoryTests {
    /// A fixture with capacity 2 and Coca-Cola in `Bevande` (no oven).
    static func fixture() throws -> OrderFixture {
        let f = try OrderFixture(capacity: 2)
        let drinks = try f.pizzeria.menu.addCategory(name: "Bevande", usesOven: false)
        var draft = PizzaDraft.blank
        (draft.name, draft.price, draft.categoryID) = ("Coca-Cola", Money(cents: 300), drinks.id)
        _ = try f.pizzeria.menu.save(draft)
        return f
    }

    static func booked(_ f: OrderFixture, at time: String = "19:00") throws -> Int? {
        let start = try f.at(time)
        return try f.pizzeria.orders.slots(on: LocalDate("2026-12-01")).first { $0.start == start }?.booked
    }

    @Test("a booking's drinks take no capacity; its pizzas do, and the refusal counts only them")
    func drinksTakeNoCapacity() throws {
        let f = try Self.fixture()
        let order = try f.place("anna", "19:00", ("Margherita", 2), ("Coca-Cola", 5)).order
        #expect(order.lines.map(\.usesOven) == [true, false])
        #expect(try Self.booked(f) == 2)
        let refused = #expect(throws: OrderError.self) { try f.place("marco", "19:00", ("Margherita", 1)) }
        guard case .slotFull(_, let remaining, let requested, _)? = refused else {
            Issue.record("expected slotFull, got \(String(describing: refused))")
            return
        }
        #expect((remaining, requested) == (0, 1))
        try f.place("marco", "19:00", ("Coca-Cola", 20))
        #expect(try Self.booked(f) == 2)
        #expect(try Maintenance.check(path: f.base.path, now: f.now).domainProblems.isEmpty)
    }

    @Test("editing a full slot's order: more drinks are fine, one more pizza is refused")
    func editCountsOnlyOven() throws {
        let f = try Self.fixture()
        let order = try f.place("anna", "19:00", ("Margherita", 2)).order
        let edited = try f.pizzeria.orders.edit(
            id: order.id, OrderEdit(add: [.init(pizza: try f.pizza("Coca-Cola"), quantity: 4)]))
        #expect(edited.lines.count == 2)
        #expect(throws: OrderError.self) {
            try f.pizzeria.orders.edit(
                id: order.id, OrderEdit(setQuantity: [.init(pizza: try f.pizza("Margherita"), quantity: 3)]))
        }
        #expect(try Self.booked(f) == 2)
    }

    @Test("a line keeps what it was booked as when its item changes category")
    func linesSnapshotTheOven() throws {
        let f = try Self.fixture()
        try f.place("anna", "19:00", ("Coca-Cola", 3))
        let coke = try f.pizza("Coca-Cola")
        try f.pizzeria.menu.move(coke, to: Category.defaultID)
        #expect(try Self.booked(f) == 0)
        #expect(try Maintenance.check(path: f.base.path, now: f.now).domainProblems.isEmpty)
        try f.place("marco", "19:00", ("Coca-Cola", 2))
        #expect(try Self.booked(f) == 2)
    }

    @Test("hand-written SQL keeps the rules: a line's oven flag, a pizza's category, a used category")
    func schemaKeepsTheRules() throws {
        let f = try Self.fixture()
        let order = try f.place("anna", "19:00", ("Margherita", 1)).order
        let coke = try f.pizza("Coca-Cola")
        func sql(_ text: String, _ arguments: [any DatabaseValueConvertible] = []) throws {
            try f.pizzeria.database.write { db in _ = try db.run(text, arguments) }
        }
        let line = #expect(throws: DatabaseError.self) {
            try sql(
                """
                INSERT INTO order_lines (order_id, line_no, pizza_id, pizza_name, unit_price_cents, quantity,
                                         variant_id, base_price_cents)
                SELECT ?, 2, pizza_id, 'Coca-Cola', 300, 1, id, 300 FROM pizza_variants WHERE pizza_id = ?2
                """, [order.id, coke])
        }
        #expect(line?.description.contains("order_lines_oven") == true, "\(String(describing: line))")
        let unknown = #expect(throws: DatabaseError.self) { try sql("UPDATE pizzas SET category_id = 99") }
        #expect(unknown?.description.contains("category_unknown") == true, "\(String(describing: unknown))")
        let used = #expect(throws: DatabaseError.self) { try sql("DELETE FROM categories WHERE name = 'Bevande'") }
        #expect(used?.description.contains("category_in_use") == true, "\(String(describing: used))")
        #expect(try Self.booked(f) == 1)
    }

    @Test("names are unique by full case folding, limits are named, positions make room")
    func validationAndOrder() throws {
        let f = try Self.fixture()
        let menu = f.pizzeria.menu
        #expect(throws: MenuError.duplicateCategory(name: "BEVANDE", existing: "Bevande")) {
            try menu.addCategory(name: "BEVANDE")
        }
        try menu.addCategory(name: "Straße")
        #expect(throws: MenuError.duplicateCategory(name: "STRASSE", existing: "Straße")) {
            try menu.addCategory(name: "STRASSE")
        }
        let tooLong = #expect(throws: ValidationError.self) {
            try menu.addCategory(name: String(repeating: "x", count: 41))
        }
        #expect(tooLong?.errors.map(\.field) == ["name"])
        let badPosition = #expect(throws: ValidationError.self) { try menu.addCategory(name: "Dolci", position: 0) }
        #expect(badPosition?.errors.map(\.field) == ["position"])
        let blank = #expect(throws: ValidationError.self) {
            try menu.editCategory(Category.defaultID, name: " ", usesOven: false)
        }
        #expect(blank?.errors.map(\.field) == ["name"])
        #expect(try menu.category(named: "Pizze").usesOven)  // nothing written
        try menu.addCategory(name: "Fritti", position: 2)
        #expect(try menu.categories().map(\.name) == ["Pizze", "Fritti", "Bevande", "Straße"])
        let fritti = try menu.category(named: "fritti")
        #expect(throws: MenuError.self) { try menu.removeCategory(try menu.category(named: "Bevande").id) }
        try menu.removeCategory(fritti.id)
        #expect(throws: MenuError.categoryNotFound("Fritti", known: ["Pizze", "Bevande", "Straße"])) {
            try menu.category(named: "Fritti")
        }
    }

    @Test("a file from before migration 15 puts every pizza in Pizze, which uses the oven")
    func upgradePutsPizzasInPizze() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("old.sqlite")
        let old = try SchemaMigrator(migrations: Array(Migration.embedded.prefix(14))).open(
            path: path, access: .migrate)
        try old.write { db in _ = try db.run("INSERT INTO pizzas (name, price_cents) VALUES ('Margherita', 600)") }
        let pizzeria = try Pizzeria.open(path: path)
        #expect(try pizzeria.menu.categories().map(\.name) == ["Pizze"])
        #expect(try pizzeria.lookup.pizza("Margherita").categoryID == Category.defaultID)
        #expect(try pizzeria.menu.category(named: "pizze").usesOven)
    }

    @Test("a category is a route: pushed, read back, labelled, in the history; an upgrade keeps the stacks there were")
    func categoryRoute() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("old.sqlite")
        let old = try SchemaMigrator(migrations: Array(Migration.embedded.prefix(18))).open(
            path: path, access: .migrate)
        try old.write { db in
            _ = try db.run("INSERT INTO pizzas (name, price_cents) VALUES ('Margherita', 600)")
            _ = try db.run("INSERT INTO users (handle) VALUES ('anna')")
            _ = try db.run(
                """
                INSERT INTO navigation_stack (user_id, depth, kind, pizza_id)
                SELECT u.id, 1, 'pizza', p.id FROM users u, pizzas p
                """)
        }
        let pizzeria = try Pizzeria.open(path: path)
        let anna = try pizzeria.lookup.user("anna").id
        let margherita = try pizzeria.lookup.pizza("Margherita").id
        #expect(try pizzeria.navigation.path(of: anna) == [.route(.pizza(id: margherita))])
        let fritti = try pizzeria.menu.addCategory(name: "Fritti")
        let route = try pizzeria.lookup.route("category:fritti", for: anna)
        #expect(route == .category(id: fritti.id))
        try pizzeria.navigation.push(anna, [route])
        #expect(try pizzeria.navigation.path(of: anna) == [.route(.pizza(id: margherita)), .route(route)])
        #expect(try pizzeria.navigation.labels(for: pizzeria.navigation.path(of: anna)) == ["Margherita", "Fritti"])
        let stored = try pizzeria.navigation.history(of: anna).first?.routes
        #expect(stored == [.route(route)])
        // The app's enum decodes the backend's JSON, and the backend the app's.
        let json = String(decoding: try JSONEncoder().encode(route), as: UTF8.self)
        #expect(json == #"{"category":{"id":\#(fritti.id.rawValue)}}"#)
        #expect(try JSONDecoder().decode(Route.self, from: Data(json.utf8)) == route)
        // Shown, it cannot be removed (it would leave the screen pointing at nothing).
        #expect(throws: MenuError.self) { try pizzeria.menu.removeCategory(fritti.id) }
        #expect(throws: NavigationError.self) { try pizzeria.lookup.route("category:", for: anna) }
        #expect(throws: MenuError.self) { try pizzeria.lookup.route("category:Gelati", for: anna) }
        try pizzeria.navigation.popToRoot(anna)
        try pizzeria.menu.removeCategory(fritti.id)
        #expect(try pizzeria.menu.categories().map(\.name) == ["Pizze"])
    }
}
