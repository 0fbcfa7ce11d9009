import Foundation
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

@Suite("Navigation: router semantics")
struct RouterTests {
    @Test("push, push several, pop, pop(n), pop to root: path, current and previous after each")
    func semantics() throws {
        let f = try NavigationFixture()
        var state = try f.router.state(of: f.anna)
        #expect(state.path.isEmpty && state.current == nil && state.previous == nil && state.depth == 0)

        state = try f.router.push(f.anna, [f.margherita])
        #expect(state.path == [.route(f.margherita)] && state.current == .route(f.margherita) && state.previous == nil)

        state = try f.router.push(f.anna, [f.porcini, f.order])
        #expect(state.depth == 3 && state.current == .route(f.order) && state.previous == .route(f.margherita))
        #expect(try f.router.labels(for: state.path) == ["Margherita", "Porcini", "order \(shortID(f.order.id))"])

        state = try f.router.pop(f.anna)
        #expect(state.path == [.route(f.margherita), .route(f.porcini)] && state.previous == .route(f.order))

        state = try f.router.push(f.anna, [f.marinara, f.margherita])
        state = try f.router.pop(f.anna, count: 3)
        #expect(state.path == [.route(f.margherita)] && state.previous == .route(f.margherita))

        state = try f.router.popToRoot(f.anna)
        #expect(state.path.isEmpty && state.current == nil && state.previous == .route(f.margherita))

        // Pop to root on the menu succeeds and is recorded (the top before was the menu).
        state = try f.router.popToRoot(f.anna)
        #expect(state.previous == nil)
        #expect(
            try f.router.history(of: f.anna).map(\.action.rawValue) == [
                "push", "push", "pop", "push", "pop", "pop_to_root", "pop_to_root",
            ])
    }

    @Test("pop to a depth and to the last occurrence of a route")
    func popTo() throws {
        let f = try NavigationFixture()
        try f.router.push(f.anna, [f.margherita, f.porcini, f.margherita, f.marinara])
        #expect(
            try f.router.popTo(f.anna, route: f.margherita).path.map(\.route) == [
                f.margherita, f.porcini, f.margherita,
            ])
        #expect(try f.router.popTo(f.anna, depth: 1).path.map(\.route) == [f.margherita])
        #expect(try f.router.popTo(f.anna, depth: 1).depth == 1)
        #expect(try f.router.popTo(f.anna, depth: 0).depth == 0)
    }

    @Test("every refusal names the reason and changes nothing")
    func refusals() throws {
        let f = try NavigationFixture()
        // On the menu.
        var before = try f.orders.base.snapshot()
        #expect(throws: NavigationError.emptyStack) { try f.router.pop(f.anna) }
        #expect(try f.orders.base.snapshot() == before)

        try f.router.push(f.anna, [f.margherita, f.porcini])
        before = try f.orders.base.snapshot()
        let refusals: [(String, () throws -> Void)] = [
            ("cannot pop 3: the stack has depth 2", { try f.router.pop(f.anna, count: 3) }),
            ("count: must be at least 1 (got 0; the stack has depth 2)", { try f.router.pop(f.anna, count: 0) }),
            ("count: must be at least 1 (got -1", { try f.router.pop(f.anna, count: -1) }),
            ("cannot pop to depth 3: the stack has depth 2", { try f.router.popTo(f.anna, depth: 3) }),
            ("cannot pop to depth -1", { try f.router.popTo(f.anna, depth: -1) }),
            ("is not in the stack", { try f.router.popTo(f.anna, route: f.marinara) }),
            (
                "no pizza with id 00000000-0000-4000-8000-000000000000",
                {
                    try f.router.push(f.anna, [f.marinara, .pizza(id: NavigationFixture.unknownID())])
                }
            ),
            ("no such order for this user", { try f.router.push(f.anna, [.order(id: NavigationFixture.unknownID())]) }),
            (
                "no user with handle or id '00000000-0000-4000-8000-000000000000'",
                { try f.router.push(NavigationFixture.unknownID(), [f.marinara]) }
            ),
            ("must name at least one route", { try f.router.push(f.anna, []) }),
        ]
        for (message, attempt) in refusals {
            do {
                try attempt()
                Issue.record("accepted; expected \(message)")
            } catch {
                #expect("\(error)".contains(message), "\(error)")
            }
        }
        #expect(try f.orders.base.snapshot() == before)
        let state = try f.router.state(of: f.anna)
        // Both were pushed in one change, from the menu: previous is the menu.
        #expect(state.current == .route(f.porcini) && state.previous == nil)
    }

    @Test("categories: empty stack and too-deep pops are refusals (1), a count below 1 is invalid input (65)")
    func categories() {
        #expect(NavigationError.emptyStack.category == .refused)
        #expect(NavigationError.cannotPop(count: 5, depth: 2).category == .refused)
        #expect(NavigationError.cannotPop(count: 0, depth: 2).category == .invalidInput)
        #expect(NavigationError.unknownTarget(.pizza(id: NavigationFixture.unknownID())).category == .notFound)
        #expect(NavigationError.malformedLink(url: "", reason: "").category == .invalidInput)
    }

    @Test("random pushes a pizza from the menu, deterministic with a seed; refused on an empty menu")
    func random() throws {
        let f = try NavigationFixture()
        try f.pizzeria.menu.archive(id: try f.orders.pizza("Porcini"))
        let picks = try (0..<20).map { seed in try f.router.random(f.anna, seed: UInt64(seed)).current }
        #expect(Set(picks).isSubset(of: [.route(f.margherita), .route(f.marinara)]))
        #expect(Set(picks).count == 2)
        let again = try (0..<20).map { seed in try f.router.random(f.marco, seed: UInt64(seed)).current }
        #expect(again == picks)

        let empty = try Fixture()
        try empty.pizzeria.users.add(handle: "anna")
        #expect(throws: NavigationError.emptyMenu) {
            try empty.pizzeria.navigation.random(try empty.pizzeria.lookup.user("anna").id, seed: 1)
        }
    }

    @Test("archived pizzas stay in the stack and can be pushed (their detail is still viewable)")
    func archived() throws {
        let f = try NavigationFixture()
        try f.router.push(f.anna, [f.porcini])
        try f.pizzeria.menu.archive(id: try f.orders.pizza("Porcini"))
        let state = try f.router.push(f.anna, [f.porcini])
        #expect(try f.router.labels(for: state.path) == ["Porcini (archived)", "Porcini (archived)"])
    }

    @Test("one user's operations never touch another user's rows")
    func isolation() throws {
        let f = try NavigationFixture()
        try f.router.push(f.marco, [f.marinara, f.porcini])
        try f.router.openSheet(f.marco, .addPizza)
        let marco = try f.pizzeria.database.read { db in
            try db.fetchAll(
                """
                SELECT 'stack' AS what, depth AS n, kind AS value FROM navigation_stack WHERE user_id = (SELECT id FROM users WHERE handle = 'marco')
                UNION ALL SELECT 'event', id, action FROM navigation_events WHERE user_id = (SELECT id FROM users WHERE handle = 'marco')
                UNION ALL SELECT 'sheet', 0, kind FROM navigation_sheets WHERE user_id = (SELECT id FROM users WHERE handle = 'marco')
                """
            ) { "\(try $0.value("what")) \(try $0.value("n")) \(try $0.value("value"))" }
        }
        try f.router.push(f.anna, [f.margherita, f.porcini, f.marinara])
        try f.router.pop(f.anna, count: 2)
        try f.router.open(f.anna, url: "pizzeria://pizza/Porcini")
        try f.router.popToRoot(f.anna)
        try f.router.openSheet(f.anna, .editPizza(try f.orders.pizza("Margherita")))
        try f.router.dismissSheet(f.anna)
        let after = try f.pizzeria.database.read { db in
            try db.fetchAll(
                """
                SELECT 'stack' AS what, depth AS n, kind AS value FROM navigation_stack WHERE user_id = (SELECT id FROM users WHERE handle = 'marco')
                UNION ALL SELECT 'event', id, action FROM navigation_events WHERE user_id = (SELECT id FROM users WHERE handle = 'marco')
                UNION ALL SELECT 'sheet', 0, kind FROM navigation_sheets WHERE user_id = (SELECT id FROM users WHERE handle = 'marco')
                """
            ) { "\(try $0.value("what")) \(try $0.value("n")) \(try $0.value("value"))" }
        }
        #expect(after == marco)
        #expect(try f.router.state(of: f.marco).path.map(\.route) == [f.marinara, f.porcini])
    }

    @Test("the history replays to the stack")
    func historyReplays() throws {
        let f = try NavigationFixture()
        try f.router.push(f.anna, [f.margherita, f.porcini])
        try f.router.pop(f.anna)
        try f.router.random(f.anna, seed: 3)
        try f.router.open(f.anna, url: "pizzeria://pizza/Marinara/order/\(f.order.id)")
        try f.router.push(f.anna, [f.porcini])
        try f.router.popTo(f.anna, depth: 1)
        try f.router.openSheet(f.anna, .addPizza)
        try f.router.push(f.anna, [f.margherita])
        let history = try f.router.history(of: f.anna, limit: 1000)
        #expect(Replay.stack(history) == (try f.router.state(of: f.anna)).path)
    }

    @Test(
        "the actions agree: the Swift enum, the schema's CHECK list, and the triggers that keep the last stack change")
    func actionsAgree() throws {
        // Migration 32 wrote the CHECK as `action = 'a' OR action = 'b' OR …` (no temporary b-trees).
        let sql = try #require(Migration.embedded.first { $0.version == 32 }?.sql)
        let start = try #require(sql.range(of: "CHECK (action = ")).lowerBound
        let check = sql[start...].prefix { $0 != "," }
        let listed = check.split(separator: "'", omittingEmptySubsequences: false).enumerated().filter {
            $0.offset % 2 == 1
        }.map { String($0.element) }
        #expect(listed == NavigationAction.allCases.map(\.rawValue))
        // Migration 33's triggers count as stack changes exactly the actions the enum does.
        let kept = try #require(Migration.embedded.first { $0.version == 33 }?.sql)
        #expect(kept.contains("ON navigation_events\nWHEN NEW.action NOT GLOB 'sheet_*'\n"))
        #expect(kept.contains("ON navigation_events\nWHEN OLD.action NOT GLOB 'sheet_*'\n"))
        for action in NavigationAction.allCases {
            #expect(action.changesStack == !action.rawValue.hasPrefix("sheet_"), "\(action)")
        }
        // The state statement finds the previous route by the event's id, and no index of the
        // events is walked for it.
        let plan = try NavigationFixture().pizzeria.database.read { db in
            try db.fetchAll("EXPLAIN QUERY PLAN " + NavigationStore.stateSQL, ["x"]) { try $0.string("detail") }
        }
        #expect(plan.contains { $0.contains("navigation_events USING INTEGER PRIMARY KEY") }, "\(plan)")
        #expect(!plan.contains { $0.contains("navigation_events_by_user") }, "\(plan)")
    }

    @Test("users.last_stack_change follows every path that adds or removes an event, and refuses anything else")
    func lastStackChange() throws {
        let f = try NavigationFixture()
        let database = f.pizzeria.database
        func stored(_ user: User.ID) throws -> Int64? {
            try database.read { db in
                try db.fetchOne("SELECT last_stack_change FROM users WHERE id = ?", [user]) {
                    try $0.optionalInt64("last_stack_change")
                } ?? nil
            }
        }
        func latestChange(_ user: User.ID) throws -> Int64? {
            try f.router.history(of: user, limit: 1000).last { $0.action.changesStack }.map(\.id)
        }
        #expect(try stored(f.anna) == nil)
        try f.router.push(f.anna, [f.margherita])
        try f.router.push(f.anna, [f.porcini])
        let pushed = try #require(try stored(f.anna))
        #expect(pushed == (try latestChange(f.anna)))
        // Sheet events leave it; the previous route is still the push's top before.
        try f.router.openSheet(f.anna, .addPizza)
        try f.router.dismissSheet(f.anna)
        #expect(try stored(f.anna) == pushed)
        #expect(try f.router.state(of: f.anna).previous == .route(f.margherita))
        // Marco's steps are his own.
        try f.router.push(f.marco, [f.marinara])
        #expect(try stored(f.anna) == pushed)
        #expect(try stored(f.marco) == (try latestChange(f.marco)))
        try database.write { db in
            // By hand: anything but the latest stack change is refused, naming the column.
            let older = try #require(try f.router.history(of: f.anna).first?.id)
            for value: Int64? in [older, pushed + 1_000, nil, try stored(f.marco)] {
                let error = #expect(throws: DatabaseError.self) {
                    try db.run("UPDATE users SET last_stack_change = ? WHERE id = ?", [value, f.anna])
                }
                #expect(error?.message.hasPrefix("last_stack_change:") == true, "\(String(describing: error))")
            }
            #expect(throws: DatabaseError.self) {
                try db.run("INSERT INTO users (handle, last_stack_change) VALUES ('nina', ?)", [pushed])
            }
            // Writing the value it has is allowed; an event inserted by hand moves it.
            try db.run("UPDATE users SET last_stack_change = ? WHERE id = ?", [pushed, f.anna])
            try db.run(
                "INSERT INTO navigation_events (user_id, action, routes, depth_after) VALUES (?, 'pop_to_root', '[]', 0)",
                [f.anna])
        }
        #expect(try stored(f.anna) == (try latestChange(f.anna)))
        #expect(try stored(f.anna) != pushed)
        // An erasure takes it with the events.
        try f.pizzeria.users.erase(id: f.anna, by: "test")
        #expect(try stored(f.anna) == nil)
        #expect(try stored(f.marco) == (try latestChange(f.marco)))
    }
}

/// Rebuilds a stack from history events: pushes add their routes, pops keep `depth_after`,
/// replacing actions set the stack to their routes, sheet actions change nothing.
enum Replay {
    static func stack(_ events: [NavigationEvent]) -> [NavigationElement] {
        var stack: [NavigationElement] = []
        for event in events {
            switch event.action {
            case .push, .random: stack += event.routes
            case .pop, .popTo, .popToRoot: stack = Array(stack.prefix(event.depthAfter))
            case .replace, .openURL, .import: stack = event.routes
            case .sheetOpen, .sheetSet, .sheetSave, .sheetDismiss: break
            }
        }
        return stack
    }
}
