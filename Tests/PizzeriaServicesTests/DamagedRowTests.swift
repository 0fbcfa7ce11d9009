import Foundation
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

@Suite("Damaged rows: reported with table and id, never a crash")
struct DamagedRowTests {
    @Test("rows the schema once accepted but the code cannot read are reported with table and id")
    func damagedRows() throws {
        let fixture = try OrderFixture()
        let order = try fixture.place("anna", "19:00", ("Margherita", 1)).order
        try fixture.pizzeria.navigation.push(try fixture.user("anna"), [.pizza(id: try fixture.pizza("Porcini"))])
        // A file damaged by an older tool: the guarding triggers dropped, bad values written.
        try fixture.pizzeria.database.write { db in
            try db.execute(
                """
                DROP TRIGGER orders_pickup_real_update; DROP TRIGGER orders_local_time_update; DROP TRIGGER navigation_events_shape;
                UPDATE orders SET pickup_at = '2026-02-30T19:00:00Z';
                INSERT INTO navigation_events (user_id, action, routes, depth_after, top_before)
                SELECT id, 'push', '[1]', 1, '42' FROM users WHERE handle = 'anna';
                """)
        }
        let orderError = #expect(throws: DataError.self) { try fixture.pizzeria.orders.order(id: order.id) }
        #expect(
            orderError
                == .damagedRow(
                    table: "orders", id: order.id.description,
                    problem: "pickup_at '2026-02-30T19:00:00Z' is not a real UTC time"))
        #expect(orderError?.category == .unusableDatabase)
        #expect(throws: DataError.self) { try fixture.pizzeria.navigation.history(of: try fixture.user("anna")) }
        #expect(throws: DataError.self) { try fixture.pizzeria.navigation.state(of: try fixture.user("anna")) }
    }
}
