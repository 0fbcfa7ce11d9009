import Foundation
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

@Suite("Whose routes are whose: an order route only for that user's order")
struct RouteOwnershipTests {
    /// Anna's order as marco would try to reach it, in each way a route can arrive.
    @Test(
        "push, deep link, import (both formats) and a hand-written insert: marco cannot reach anna's order; same answer as a missing one"
    )
    func everyWayIn() throws {
        let f = try NavigationFixture()
        guard case .order(let annas) = f.order else { Issue.record("fixture"); return }
        let missing: Order.ID = NavigationFixture.unknownID()
        let before = try f.orders.base.snapshot()
        var answers: [Order.ID: [String]] = [:]
        for id in [annas, missing] {
            let routesJSON = #"[{"order":{"id":"\#(id)"}}]"#
            let pathJSON = #"["PizzeriaApp.Route","{\"order\":{\"id\":\"\#(id)\"}}"]"#
            let attempts: [() throws -> Void] = [
                { _ = try f.router.push(f.marco, [.order(id: id)]) },
                { _ = try f.router.open(f.marco, url: "pizzeria://order/\(id)") },
                { _ = try f.router.open(f.marco, url: "pizzeria://order/\(shortID(id.description))") },
                { _ = try f.router.importPath(f.marco, text: routesJSON, format: .routes) },
                { _ = try f.router.importPath(f.marco, text: pathJSON, format: .navigationPath) },
                { _ = try f.router.replace(f.marco, path: [.route(.order(id: id))]) },
            ]
            for attempt in attempts {
                do { try attempt(); Issue.record("accepted \(id)") } catch {
                    answers[id, default: []].append("\(error)")
                }
            }
        }
        // Another's order and a missing one get the same answer, word for word: ids are not confirmed.
        #expect(answers[annas] == answers[missing], "\(answers)")
        #expect(answers[annas]?.filter { $0 == "no such order for this user" }.count == 4, "\(answers)")
        // An import drops routes that do not exist for this user, as it drops vanished ones.
        #expect(
            answers[annas]?.filter { $0.contains("none of its 1 route names an existing pizza or order") }.count == 2,
            "\(answers)")
        #expect(try f.orders.base.snapshot() == before)
        // The database refuses it too, whoever writes.
        #expect(throws: DatabaseError.self) {
            try f.pizzeria.database.write { db in
                try db.run(
                    "INSERT INTO navigation_stack (user_id, depth, kind, order_id) VALUES (?, 1, 'order', ?)",
                    [f.marco, annas])
            }
        }
        // Anna reaches her own, by id and by prefix.
        #expect(
            try f.router.open(f.anna, url: "pizzeria://order/\(shortID(annas.description))").current == .route(f.order)
        )
    }

    @Test(
        "a stack written before the rule that points at another's order: reported by check, left out of state and export"
    )
    func existingForeignRoutes() throws {
        let f = try NavigationFixture()
        guard case .order(let annas) = f.order else { Issue.record("fixture"); return }
        _ = try f.router.push(f.marco, [f.margherita])
        // An older file: the row went in before the trigger existed.
        try f.pizzeria.database.write { db in
            let trigger =
                try db.fetchOne("SELECT sql FROM sqlite_schema WHERE name = 'navigation_stack_own_orders'") {
                    try $0.string("sql")
                } ?? ""
            try db.execute("DROP TRIGGER navigation_stack_own_orders")
            try db.run(
                "INSERT INTO navigation_stack (user_id, depth, kind, order_id) VALUES (?, 2, 'order', ?)",
                [f.marco, annas])
            try db.execute(trigger)
        }
        let state = try f.router.state(of: f.marco)
        #expect(state.path == [.route(f.margherita)] && state.current == .route(f.margherita), "\(state)")
        let exported = try f.router.export(f.marco).text
        #expect(!exported.contains(annas.description), "\(exported)")
        let check = try Maintenance.check(path: f.orders.base.path)
        #expect(
            check.foreignOrderRoutes == ["marco: order \(shortID(annas.description))"], "\(check.foreignOrderRoutes)")
        #expect(check.isHealthy)  // reported, not a damaged file: such routes are never shown
    }
}
