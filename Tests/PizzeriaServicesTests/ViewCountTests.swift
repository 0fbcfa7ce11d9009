import Foundation
import PizzeriaStorage
import PizzeriaTestSupport
import Testing

@testable import PizzeriaServices

/// `nav stats` reads counters the triggers keep (migration 13) instead of scanning the whole
/// navigation history; these tests hold the counters to the history on every path that writes it.
@Suite("View counters: kept by triggers, equal to the history, checked")
struct ViewCountTests {
    /// The counters as `nav stats` reads them, by pizza name.
    static func stats(_ pizzeria: Pizzeria) throws -> [String: [Int]] {
        Dictionary(
            uniqueKeysWithValues: try pizzeria.navigation.mostViewed(limit: 100).map {
                ($0.name, [$0.views, $0.pushed, $0.random, $0.deepLinks, $0.restored])
            })
    }

    /// The same numbers recomputed from every navigation event, as the view did before.
    static func recomputed(_ pizzeria: Pizzeria) throws -> [String: [Int]] {
        try pizzeria.database.read { db in
            Dictionary(
                uniqueKeysWithValues: try db.fetchAll(
                    "SELECT p.name, a.* FROM (" + DomainStore.actualViewCountsSQL
                        + ") a JOIN pizzas p ON p.id = a.pizza_id"
                ) { row in
                    (
                        try row.string("name"),
                        try ["views", "pushed", "random", "deep_links", "imported"].map { try row.int($0) }
                    )
                })
        }
    }

    @Test("every way a detail is shown counts, as the history says")
    func everyWayCounts() throws {
        let f = try NavigationFixture()
        _ = try f.router.push(f.anna, [f.margherita, f.porcini])
        _ = try f.router.push(f.marco, [f.margherita])
        _ = try f.router.open(f.anna, url: "pizzeria://pizza/Marinara")
        _ = try f.router.random(f.marco, seed: 7)
        _ = try f.router.replace(f.marco, path: [.route(f.porcini), .route(f.porcini)])
        _ = try f.router.push(f.anna, [f.order])  // an order is not a pizza's detail
        let stats = try Self.stats(f.pizzeria)
        #expect(stats == (try Self.recomputed(f.pizzeria)))
        // The random pick may land on any pizza (ids are random): count it apart.
        func shown(_ name: String) -> Int { (stats[name]?[0] ?? 0) - (stats[name]?[2] ?? 0) }
        #expect(stats["Margherita"]?[1] == 2)
        #expect(shown("Margherita") == 2)
        #expect(stats["Marinara"]?[3] == 1)
        #expect(shown("Porcini") == 3)
        #expect(stats.values.map { $0[2] }.reduce(0, +) == 1)  // one random pick
        #expect(try Maintenance.check(path: f.orders.base.path, now: f.orders.now).domainProblems.isEmpty)
    }

    @Test("an erasure takes the customer's share back out of the counters")
    func erasureUncounts() throws {
        let f = try NavigationFixture()
        _ = try f.router.push(f.anna, [f.margherita, f.margherita])
        _ = try f.router.push(f.marco, [f.margherita])
        #expect(try Self.stats(f.pizzeria)["Margherita"]?[0] == 3)
        _ = try f.pizzeria.users.erase(id: f.anna, waitingForReaders: 0)
        #expect(try Self.stats(f.pizzeria)["Margherita"]?[0] == 1)
        #expect(try Self.stats(f.pizzeria) == (try Self.recomputed(f.pizzeria)))
    }

    @Test("a counter changed by hand in sqlite3 is found by check and rewritten by repair")
    func handEditedCounterRepaired() throws {
        let f = try NavigationFixture()
        _ = try f.router.push(f.anna, [f.margherita])
        let shell = try SQLiteShell(databasePath: f.orders.base.path)
        defer { shell.close() }
        try shell.run("UPDATE pizza_view_counts SET views = 40;")
        let problems = try Maintenance.check(path: f.orders.base.path, now: f.orders.now).domainProblems
        #expect(problems.map(\.table) == ["pizza_view_counts"])
        #expect(problems.first?.problem == "views/pushed/random/deep_links/imported are 40/1/0/0/0")
        #expect(problems.first?.expected == "1/1/0/0/0 (counted from the navigation history)")
        let repair = try Maintenance.repair(path: f.orders.base.path, now: f.orders.now)
        #expect(repair.remaining.isEmpty)
        #expect(try Self.stats(f.pizzeria)["Margherita"] == [1, 1, 0, 0, 0])
    }

    @Test("a file from before migration 13 gets counters equal to its history")
    func upgradeCounts() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("old.sqlite")
        let before = SchemaMigrator(migrations: Array(Migration.embedded.prefix(12)))
        let old = try before.open(path: path, access: .migrate)
        let expected = try old.write { db -> [String: Int] in
            try db.run("INSERT INTO pizzas (name, price_cents) VALUES ('Margherita', 600), ('Diavola', 800)")
            try db.run("INSERT INTO users (handle) VALUES ('anna')")
            try db.run(
                """
                INSERT INTO navigation_events (user_id, action, routes, depth_after)
                SELECT u.id, 'push', json_array(json_object('pizza', json_object('id', p.id))), 1
                FROM users u, pizzas p, (SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) n WHERE p.name = 'Margherita'
                """)
            return Dictionary(
                uniqueKeysWithValues: try db.fetchAll("SELECT name, views FROM pizza_views") {
                    (try $0.string("name"), try $0.int("views"))
                })
        }
        #expect(expected == ["Margherita": 3])
        let pizzeria = try Pizzeria.open(path: path)
        #expect(try Self.stats(pizzeria) == ["Margherita": [3, 3, 0, 0, 0]])
    }

    @Test("nav stats reads the counters in views order: no scan of the history, no sort of every pizza")
    func statsPlan() throws {
        let f = try NavigationFixture()
        let plan = try f.pizzeria.database.read { db in
            try db.fetchAll(
                "EXPLAIN QUERY PLAN SELECT pizza_id, name, views FROM pizza_views ORDER BY views DESC, name LIMIT 10"
            ) { try $0.string("detail") }
        }
        #expect(!plan.contains { $0.contains("navigation_events") }, "\(plan)")
        #expect(plan.contains { $0.contains("pizza_view_counts_by_views") }, "\(plan)")
    }
}
