import Foundation
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

/// The audit trail of one object read through its indexes (migration 34), and an item's name,
/// price and archive entries kept through its history.
@Suite("Audit: one object's trail through its indexes")
struct AuditTrailTests {
    @Test(
        "one object's entries: each arm searches its index, nothing scans",
        arguments: [
            ("pizza:x", ["audit_log_by_object", "audit_log_by_history", "h USING INTEGER PRIMARY KEY"]),
            ("order:x", ["audit_log_by_object", "order_status_events_by_order"]),
            ("staff:x", ["audit_log_by_object"]),
        ])
    func queryPlans(object: String, indexes: [String]) throws {
        let fixture = try Fixture()
        for since in [nil, "2026-12-01T00:00:00.000Z"] {
            for actor in [nil, "anna"] {
                let (sql, arguments) = AuditStore.entriesSQL(since: since, object: object, actor: actor)
                let plan = try fixture.pizzeria.database.withWriter { db in
                    try db.fetchAll("EXPLAIN QUERY PLAN " + sql, arguments + [10]) { try $0.string("detail") }
                }
                for index in indexes { #expect(plan.contains { $0.contains(index) }, "\(index): \(plan)") }
                // `SCAN c`, `SCAN chain`: the rows of an item's history chain (a recursive CTE).
                #expect(!plan.contains { $0.hasPrefix("SCAN") && $0 != "SCAN c" && $0 != "SCAN chain" }, "\(plan)")
            }
        }
    }

    @Test("an item's add, edits, archive and restore name their history rows, and its trail has them in order")
    func itemThroughHistory() throws {
        let fixture = try OrderFixture()
        let pizzeria = fixture.pizzeria
        let id = try fixture.pizza("Margherita")
        var draft = try pizzeria.menu.editDraft(for: id)
        draft.price = Money(cents: 650)
        _ = try pizzeria.menu.save(draft)
        _ = try pizzeria.menu.archive(id: id)
        _ = try pizzeria.menu.restore(id: id)
        let linked = try pizzeria.database.read { db in
            try db.fetchAll(
                "SELECT a.action, h.change FROM audit_log a JOIN pizza_history h ON h.id = a.history_id WHERE h.pizza_id = ? ORDER BY a.id",
                [id.description]
            ) { "\(try $0.string("action")) \(try $0.string("change"))" }
        }
        #expect(linked == ["add created", "price edited", "archive archived", "restore restored"])
        let trail = try pizzeria.audit.entries(object: "pizza:" + id.description)
        #expect(trail.map(\.action) == ["add", "price", "archive", "restore"])
        #expect(trail[1].old == #"{"name":"Margherita","price_cents":600,"archived_at":null}"#)
        // Every entry is in the whole trail once.
        let all = try pizzeria.audit.entries()
        #expect(all.filter { $0.object == "pizza:" + id.description }.map(\.action) == trail.map(\.action))
        #expect(try pizzeria.audit.entries(object: "pizza:").filter { $0.object == "pizza:" + id.description } == trail)
    }

    @Test("an order's trail is its history, found by the order")
    func orderTrail() throws {
        let fixture = try OrderFixture()
        let first = try fixture.place("anna", "19:00", ("Margherita", 1)).order
        try fixture.place("anna", "19:30", ("Porcini", 1))
        let trail = try fixture.pizzeria.audit.entries(object: "order:" + first.id.description)
        #expect(trail.map(\.action) == ["placed"] && trail.allSatisfy { $0.object == "order:" + first.id.description })
        #expect(try fixture.pizzeria.audit.entries(object: "order:").count == 2)
    }
}
