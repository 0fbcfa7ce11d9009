import Foundation
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

@Suite("Customers' data: phone, edit, erase at their request")
struct CustomerDataTests {
    @Test(
        "phone numbers as people type them are stored in E.164; anything else is refused naming the field",
        arguments: [
            ("+39 333 123 4567", "+393331234567"), ("+39-333-1234567", "+393331234567"),
            ("(+39) 333.123.4567", "+393331234567"),
            ("+1 (415) 555-0100", "+14155550100"), ("+4915123456789", "+4915123456789"),
        ])
    func phones(typed: String, stored: String) throws {
        #expect(UserRules.normalizePhone(typed) == stored)
    }

    @Test(
        "refused phone numbers",
        arguments: [
            "333 123 4567", "+0 333 123 4567", "+39 333", "+39 333 123 4567 8901 2", "+39 333 abc 4567",
            "+٣٩٣٣٣١٢٣٤٥٦٧", "+39\u{200B}3331234567",
        ])
    func refusedPhones(typed: String) throws {
        let f = try OrderFixture()
        let error = #expect(throws: ValidationError.self) { try f.pizzeria.users.add(handle: "luca", phone: typed) }
        #expect(error?.errors.first?.field == "phone", "\(String(describing: error))")
        #expect(try f.pizzeria.users.user(handle: "luca") == nil)
    }

    @Test(
        "edit: handle, name and phone; fields not given stay; a taken handle is refused; sqlite3 cannot store a bad phone"
    )
    func edit() throws {
        let f = try OrderFixture()
        let anna = try f.user("anna")
        var user = try f.pizzeria.users.edit(id: anna, phone: .set("+39 333 123 4567"))
        #expect(user.phone == "+393331234567" && user.displayName == "Anna" && user.handle == "anna")
        user = try f.pizzeria.users.edit(id: anna, handle: "Anna.R", displayName: .set("Anna Rossi"))
        #expect(user.handle == "anna.r" && user.displayName == "Anna Rossi" && user.phone == "+393331234567")
        user = try f.pizzeria.users.edit(id: anna, displayName: .clear, phone: .clear)
        #expect(user.displayName == nil && user.phone == nil)
        #expect(throws: UserError.duplicateHandle("marco")) { try f.pizzeria.users.edit(id: anna, handle: "MARCO") }
        #expect(throws: ValidationError.self) { try f.pizzeria.users.edit(id: anna, handle: "erased-1234") }
        #expect(throws: DatabaseError.self) {
            try f.pizzeria.database.write { db in try db.run("UPDATE users SET phone = '333 123' WHERE id = ?", [anna])
            }
        }
    }

    @Test(
        "erase: personal data gone, handle a stable pseudonym, navigation deleted, orders kept, the erasure recorded; no more bookings"
    )
    func erase() throws {
        let f = try OrderFixture()
        let anna = try f.user("anna")
        try f.pizzeria.users.edit(id: anna, phone: .set("+39 333 123 4567"))
        let order = try f.place("anna", "19:00", ("Margherita", 2)).order
        _ = try f.pizzeria.navigation.push(anna, [.pizza(id: try f.pizza("Porcini")), .order(id: order.id)])
        _ = try f.pizzeria.navigation.openSheet(anna, .addPizza)

        let erased = try f.pizzeria.users.erase(id: anna, by: "giulia").user
        #expect(
            erased.handle == "erased-" + anna.description.prefix(13) && erased.displayName == nil && erased.phone == nil
        )
        #expect(erased.erasedAt == f.now)
        #expect(
            try f.pizzeria.navigation.state(of: anna).path.isEmpty && f.pizzeria.navigation.history(of: anna).isEmpty)
        #expect(try f.pizzeria.navigation.state(of: anna).sheet == nil)
        #expect(try f.pizzeria.orders.order(id: order.id)?.handle == erased.handle)
        let record = try f.pizzeria.database.read { db in
            try db.fetchOne("SELECT actor, erased_at FROM user_erasures WHERE user_id = ?", [anna]) {
                "\(try $0.string("actor")) \(try $0.string("erased_at"))"
            }
        }
        #expect(record == "giulia \(Timestamp.string(from: f.now))")
        // Nothing with the old handle or name is left in the file.
        let leftovers = try f.base.snapshot().filter {
            $0.contains("Anna") || $0.contains("+393331234567") || $0.contains("|anna|")
        }
        #expect(leftovers.isEmpty, "\(leftovers)")

        #expect(throws: UserError.notFound("anna")) { try f.place("anna", "20:00", ("Margherita", 1)) }
        #expect(throws: UserError.erased(erased.handle)) {
            try f.pizzeria.orders.place(
                OrderRequest(
                    user: anna, items: [.init(pizza: try f.pizza("Porcini"), quantity: 1)],
                    pickup: try f.at("20:00")))
        }
        #expect(throws: UserError.erased(erased.handle)) {
            try f.pizzeria.users.edit(id: anna, displayName: .set("Anna"))
        }
        #expect(throws: UserError.erased(erased.handle)) { try f.pizzeria.users.erase(id: anna) }
        // The schema agrees, for sqlite3 users: no order for an erased customer, and the old handle is free again.
        #expect(throws: DatabaseError.self) {
            try f.pizzeria.database.write { db in
                try db.run(
                    """
                    INSERT INTO orders (id, user_id, pickup_at, service_day, pickup_local)
                    SELECT 'cccccccc-0000-4000-8000-000000000000', user_id, '2026-12-01T19:15:00Z', service_day, pickup_local FROM orders WHERE id = ?
                    """, [order.id])
            }
        }
        #expect(try f.pizzeria.users.add(handle: "anna").id != anna)
    }
}
