import Foundation
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

@Suite("Navigation: the add and edit sheets")
struct SheetTests {
    @Test("add sheet: blank draft, errors until filled, save adds the pizza and dismisses")
    func addSheet() throws {
        let f = try NavigationFixture()
        var state = try f.router.openSheet(f.anna, .addPizza)
        #expect(state.sheet?.kind == "add_pizza" && state.sheet?.draft == .blank)
        #expect(state.sheet?.draft.validate().count == 2)
        state = try f.router.setSheet(f.anna, name: "Diavola")
        #expect(state.sheet?.draft.validate().map(\.field) == ["price"])

        let before = try f.orders.base.snapshot()
        let error = #expect(throws: ValidationError.self) { try f.router.saveSheet(f.anna) }
        #expect(error?.errors.map(\.description) == ["price: must be greater than 0"])
        #expect(try f.orders.base.snapshot() == before)
        #expect(try f.router.state(of: f.anna).sheet != nil)

        try f.router.setSheet(f.anna, price: Money(cents: 850))
        let (pizza, after) = try f.router.saveSheet(f.anna)
        #expect(pizza.name == "Diavola" && pizza.price.cents == 850 && after.sheet == nil)
        #expect(
            try f.router.history(of: f.anna).map(\.action.rawValue) == [
                "sheet_open", "sheet_set", "sheet_set", "sheet_save",
            ])
    }

    @Test("edit sheet: prefilled, conflict when the pizza changed meanwhile, sheet stays open")
    func editSheet() throws {
        let f = try NavigationFixture()
        let state = try f.router.openSheet(f.anna, .editPizza(try f.pizzeria.lookup.pizza("porcini").id))
        #expect(state.sheet?.draft.name == "Porcini" && state.sheet?.draft.price.cents == 1200)
        try f.router.setSheet(f.anna, price: Money(cents: 1300))
        var other = try f.pizzeria.menu.editDraft(for: try f.pizzeria.lookup.pizza("Porcini").id)
        other.price = Money(cents: 1250)
        _ = try f.pizzeria.menu.save(other)
        #expect(throws: MenuError.self) { try f.router.saveSheet(f.anna) }
        #expect(try f.router.state(of: f.anna).sheet?.draft.price.cents == 1300)
        #expect(try f.pizzeria.lookup.pizza("Porcini").price.cents == 1250)
        try f.router.dismissSheet(f.anna)
        #expect(try f.router.state(of: f.anna).sheet == nil)
    }

    @Test(
        "the edit sheet drafts every field (category, allergens, variants with prices, groups); a save keeps what was not changed"
    )
    func editSheetDraftsEverything() throws {
        let f = try NavigationFixture()
        let menu = f.pizzeria.menu
        let margherita = try f.pizzeria.lookup.pizza("Margherita").id
        try menu.addVariant(to: margherita, name: "Maxi", price: Money(cents: 900))
        let extras = try menu.addModifierGroup(name: "Aggiunte", min: 0, max: 3)
        _ = try menu.attach(extras.id, to: margherita)
        _ = try menu.setAllergens([.gluten, .milk], of: margherita)
        let before = try menu.item(margherita)
        let state = try f.router.openSheet(f.anna, .editPizza(margherita))
        let draft = try #require(state.sheet?.draft)
        #expect(draft.categoryID == before.pizza.categoryID && draft.allergens == [.gluten, .milk])
        #expect(draft.variants?.map(\.name) == ["Normale", "Maxi"], "\(String(describing: draft.variants))")
        #expect(draft.variants?.map(\.price.cents) == [600, 900] && draft.variants?.first?.isDefault == true)
        #expect(draft.modifierGroupIDs == [extras.id] && draft.isValid)
        // The form's one price is the default variant's; Maxi keeps its own.
        let priced = try f.router.setSheet(f.anna, price: Money(cents: 650))
        #expect(priced.sheet?.draft.variants?.map(\.price.cents) == [650, 900] && priced.sheet?.draft.isValid == true)
        let (saved, _) = try f.router.saveSheet(f.anna)
        let after = try menu.item(margherita)
        #expect(saved.price.cents == 650 && saved.version == before.pizza.version + 1)
        #expect(
            after.variants.map(\.id) == before.variants.map(\.id),
            "the variants keep their ids (booked lines name them)")
        #expect(after.variants.map(\.price.cents) == [650, 900])
        #expect(after.modifierGroups.map(\.id) == [extras.id] && after.pizza.allergens == [.gluten, .milk])
        // The booked order's line is untouched.
        guard case .order(let id) = f.order else { return }
        #expect(try f.pizzeria.orders.order(id: id)?.lines.first?.unitPrice.cents == 600)
    }

    @Test("one sheet at a time; operations without a sheet are refused")
    func oneAtATime() throws {
        let f = try NavigationFixture()
        #expect(throws: NavigationError.noSheet) { try f.router.setSheet(f.anna, name: "x") }
        #expect(throws: NavigationError.noSheet) { try f.router.saveSheet(f.anna) }
        #expect(throws: NavigationError.noSheet) { try f.router.dismissSheet(f.anna) }
        try f.router.openSheet(f.anna, .addPizza)
        #expect(throws: NavigationError.sheetAlreadyOpen(kind: "add_pizza")) {
            try f.router.openSheet(f.anna, .editPizza(try f.pizzeria.lookup.pizza("Porcini").id))
        }
        #expect(throws: MenuError.notFound("Hawaii")) {
            try f.router.openSheet(f.marco, .editPizza(try f.pizzeria.lookup.pizza("Hawaii").id))
        }
    }

    @Test("a sheet survives a new Pizzeria on the same file (another process, the next CLI run)")
    func persistence() throws {
        let f = try NavigationFixture()
        try f.router.openSheet(f.anna, .editPizza(try f.pizzeria.lookup.pizza("Margherita").id))
        try f.router.setSheet(f.anna, name: "Margherita DOP")
        let reopened = try Pizzeria.open(path: f.orders.base.path)
        let sheet = try reopened.navigation.state(of: f.anna).sheet
        #expect(sheet?.kind == "edit_pizza" && sheet?.draft.name == "Margherita DOP")
    }

    @Test("a million history events: reading a user's state is still an index lookup")
    func largeHistory() throws {
        let f = try NavigationFixture()
        try f.router.push(f.anna, [f.margherita])
        try f.router.push(f.anna, [f.porcini])
        // Built in SQL, not one call at a time: 1,000,000 more events for anna, all after her last
        // stack change, so "previous" must not walk through them.
        try f.pizzeria.database.write { db in
            try db.run(
                """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000)
                INSERT INTO navigation_events (user_id, action, routes, depth_after, top_before)
                SELECT (SELECT id FROM users WHERE handle = 'anna'), 'sheet_set', '[]', 1, NULL FROM n
                """)
        }
        let count = try f.pizzeria.database.read { db in
            try db.fetchOne("SELECT count(*) AS value FROM navigation_events") { try $0.int("value") }
        }
        #expect((count ?? 0) > 1_000_000)
        let state = try f.router.state(of: f.anna)
        #expect(state.current == .route(f.porcini) && state.previous == .route(f.margherita))
        #expect(try f.router.history(of: f.anna, limit: 2).map(\.action.rawValue) == ["sheet_set", "sheet_set"])

        for sql in [NavigationStore.stateSQL, NavigationStore.pathSQL, NavigationStore.historySQL] {
            let arguments: [any DatabaseValueConvertible] = sql == NavigationStore.historySQL ? ["x", 5] : ["x"]
            let plan = try f.pizzeria.database.read { db in
                try db.fetchAll("EXPLAIN QUERY PLAN " + sql, arguments) { try $0.string("detail") }
            }
            #expect(plan.contains { $0.hasPrefix("SEARCH") }, "\(plan)")
            if sql == NavigationStore.stateSQL {
                // The previous route is the event users.last_stack_change names, found by its id.
                #expect(plan.contains { $0.contains("navigation_events USING INTEGER PRIMARY KEY") }, "\(plan)")
            }
            #expect(!plan.contains { $0.hasPrefix("SCAN") || $0.contains("TEMP B-TREE") }, "\(sql): \(plan)")
        }
    }
}
