import Foundation
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

/// A file written by the release before the week (schema version 5) keeps behaving as it did.
@Suite("Migration 6: an existing file keeps its hours, its bookings and its refusals")
struct WeekMigrationTests {
    /// Given a version-5 file with one range of hours every day (11:00-22:00, Rome) and a booking.
    func versionFiveFile(_ directory: TemporaryDirectory) throws -> String {
        let path = directory.path("v5.sqlite")
        let old = SchemaMigrator(
            migrations: Array(Migration.embedded.prefix(5)), dataSteps: ["0005_edges.sql": MigrationSteps.nameKeys])
        let database = try old.open(path: path, access: .migrate)
        try database.write { db in
            try db.execute(
                """
                UPDATE settings SET opens_at = '11:00', closes_at = '22:00', time_zone = 'Europe/Rome' WHERE id = 1;
                INSERT INTO users (id, handle) VALUES ('11111111-1111-4111-8111-111111111111', 'anna');
                INSERT INTO pizzas (id, name, price_cents) VALUES ('22222222-2222-4222-8222-222222222222', 'Margherita', 600);
                INSERT INTO orders (id, user_id, pickup_at) VALUES ('33333333-3333-4333-8333-333333333333',
                    '11111111-1111-4111-8111-111111111111', '2026-12-02T18:30:00Z');
                INSERT INTO order_lines (order_id, line_no, pizza_id, pizza_name, unit_price_cents, quantity)
                VALUES ('33333333-3333-4333-8333-333333333333', 1, '22222222-2222-4222-8222-222222222222', 'Margherita', 600, 3);
                """)
        }
        return path
    }

    @Test("the old range becomes the same interval on all seven days; orders get their service day and local time")
    func migrated() throws {
        let directory = TemporaryDirectory()
        let path = try versionFiveFile(directory)
        let now = try Timestamp.date(from: "2026-12-01T09:45:00Z").orThrow(CancellationError())
        let pizzeria = try Pizzeria.open(path: path, now: { now })
        let settings = try pizzeria.settings.current()
        #expect(settings.week == .everyDay([try HoursSyntax.parseInterval("11:00-22:00")]))
        #expect(settings.leadMinutes == 0)
        let order = try #require(try pizzeria.orders.list().first)
        #expect(order.serviceDay == LocalDate("2026-12-02")! && order.pickupLocal == "2026-12-02 19:30")
        let stored = try pizzeria.database.read { db in
            try db.fetchOne("SELECT pickup_local FROM orders") { try $0.string("pickup_local") }
        }
        #expect(stored == "2026-12-02T19:30+01:00")

        // Slots and refusals as before: 11:00 to 21:45, the booking counted, 22:00 outside.
        let slots = try pizzeria.orders.slots(on: LocalDate("2026-12-02")!)
        #expect(slots.count == 44 && slots.first?.local == "11:00" && slots.last?.local == "21:45")
        #expect(slots.first { $0.local == "19:30" }?.booked == 3)
        let user = try pizzeria.lookup.user("anna").id, pizza = try pizzeria.lookup.pizza("Margherita").id
        func book(_ time: String) throws -> Order {
            try pizzeria.orders.place(
                OrderRequest(
                    user: user, items: [.init(pizza: pizza)], pickup: try pizzeria.orders.pickup(parsing: time))
            ).order
        }
        #expect(throws: OrderError.self) { try book("2026-12-02T22:00") }
        #expect(throws: OrderError.self) { try book("2026-12-02T19:31") }
        // No lead time on an old file: a slot 15 minutes ahead is still bookable.
        #expect(try book("2026-12-01T11:00").serviceDay == LocalDate("2026-12-01")!)
    }
}

@Suite("Migration 9's data step, on a file of version 8")
struct KeptOutsideHoursStepTests {
    @Test("a future booking already outside the hours is marked kept; one inside and a past one are not")
    func marksKept() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("v8.sqlite")
        try Pizzeria.migrator.asOfVersion(8).open(path: path, access: .migrate).write { db in
            try db.execute("UPDATE settings SET time_zone = 'Europe/Rome' WHERE id = 1")
            try db.execute("INSERT INTO users (handle) VALUES ('anna')")
            // The week is 12:00-23:00 every day: 19:00 is inside, 03:00 outside; 2020 is past.
            for (id, utc, local) in [
                ("11111111-1111-4111-8111-111111111111", "2099-01-05T18:00:00Z", "2099-01-05T19:00+01:00"),
                ("22222222-2222-4222-8222-222222222222", "2099-01-05T02:00:00Z", "2099-01-05T03:00+01:00"),
                ("33333333-3333-4333-8333-333333333333", "2020-01-07T02:00:00Z", "2020-01-07T03:00+01:00"),
            ] {
                try db.run(
                    """
                    INSERT INTO orders (id, user_id, pickup_at, service_day, pickup_local)
                    SELECT ?, id, ?, substr(?, 1, 10), ? FROM users WHERE handle = 'anna'
                    """, [id, utc, local, local])
            }
        }
        let current = try Pizzeria.open(path: path)
        let kept = try current.database.read { db in
            try db.fetchAll("SELECT id FROM orders WHERE kept_outside_hours_at IS NOT NULL ORDER BY id") {
                try $0.string("id")
            }
        }
        #expect(kept == ["22222222-2222-4222-8222-222222222222"])
    }
}
