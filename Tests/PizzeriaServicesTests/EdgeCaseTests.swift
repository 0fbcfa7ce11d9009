import Foundation
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

@Suite("Edges: Unicode names, daylight saving time, settings against bookings, damaged rows")
struct EdgeCaseTests {
    // MARK: - Names

    @Test("names collide by full case folding, whichever comes first", arguments: [
        ("Straße", "STRASSE"), ("STRASSE", "Straße"), ("Sushi", "ſushi"), ("ſushi", "SUSHI"),
        ("Finocchio", "ﬁnocchio"), ("ﬁnocchio", "FINOCCHIO"), ("Café", "CAFE\u{301}"),
    ])
    func caseFolding(first: String, second: String) throws {
        let f = try Fixture()
        let kept = try f.add(first, 900)
        let before = try f.snapshot()
        let error = #expect(throws: MenuError.self) { try f.add(second, 900) }
        #expect(error == .duplicateName(name: PizzaName.normalize(second), existing: kept))
        #expect(try f.snapshot() == before)
        // Lookup by either spelling finds the one pizza, through the name key.
        #expect(try f.pizzeria.lookup.pizza(second).id == kept.id)
        // A rename onto the other spelling is refused the same way, never as a raw UNIQUE error.
        let other = try f.add("Diavola", 800)
        var rename = PizzaDraft(editing: other)
        rename.name = second
        #expect(throws: MenuError.duplicateName(name: PizzaName.normalize(second), existing: kept)) { try f.pizzeria.menu.save(rename) }
    }

    @Test("invisible, direction-changing and overlong names are refused with the rule", arguments: [
        ("\u{200B}", "must contain a visible character"), ("\u{FEFF}\u{200B}", "must contain a visible character"),
        ("\u{202E}", "bidi control"), ("Pizza \u{202E}atsaP", "bidi control"), ("Marg\u{2066}herita", "bidi control"),
        (String(repeating: "👨‍👩‍👧‍👦", count: 40), "at most 240 Unicode code points"),
        (String(repeating: "a", count: 61), "at most 60 characters"),
    ])
    func deceptiveNames(name: String, rule: String) throws {
        let f = try Fixture()
        var draft = PizzaDraft.blank
        draft.name = name
        draft.price = Money(cents: 500)
        let error = #expect(throws: ValidationError.self) { try f.pizzeria.menu.save(draft) }
        #expect(error?.errors.contains { $0.field == "name" && $0.message.contains(rule) } == true, "\(String(describing: error))")
    }

    @Test("60 emoji of one code point each are a valid name; the database agrees")
    func emojiName() throws {
        let f = try Fixture()
        let pizza = try f.add(String(repeating: "🍕", count: 60), 700)
        #expect(pizza.name.count == 60)
    }

    @Test("the database checks hand-typed names too: ASCII keys computed, others need their key, invisible refused")
    func handTypedNames() throws {
        let f = try Fixture()
        try f.add("Straße", 900)
        try f.pizzeria.database.write { db in try db.run("INSERT INTO pizzas (name, price_cents) VALUES ('Capricciosa', 950)") }
        #expect(try f.pizzeria.lookup.pizza("CAPRICCIOSA").name == "Capricciosa")
        for sql in ["INSERT INTO pizzas (name, price_cents) VALUES ('STRASSE', 950)",
                    "INSERT INTO pizzas (name, price_cents) VALUES ('Bräu', 950)",
                    "INSERT INTO pizzas (name, price_cents) VALUES (char(8203), 950)",
                    "INSERT INTO pizzas (name, price_cents) VALUES ('a' || char(8238) || 'b', 950)"] {
            #expect(throws: DatabaseError.self, "\(sql)") { try f.pizzeria.database.write { db in try db.run(sql) } }
        }
    }

    @Test("migration 5 folds existing non-ASCII names, and stops on names that fold alike")
    func nameKeyMigration() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("old.sqlite")
        let upToFour = SchemaMigrator(migrations: Array(Migration.embedded.prefix(4)))
        let old = try upToFour.open(path: path, access: .migrate)
        try old.write { db in try db.run("INSERT INTO pizzas (name, price_cents) VALUES ('Straße', 900), ('Margherita', 600)") }
        let pizzeria = try Pizzeria.open(path: path)
        #expect(try pizzeria.lookup.pizza("STRASSE").name == "Straße")

        let clashing = directory.path("clash.sqlite")
        let before = try upToFour.open(path: clashing, access: .migrate)
        try before.write { db in try db.run("INSERT INTO pizzas (name, price_cents) VALUES ('Straße', 900), ('STRASSE', 600)") }
        let error = #expect(throws: SchemaError.self) { try Pizzeria.open(path: clashing) }
        #expect(error?.description.contains("same name as another pizza ignoring case") == true, "\(String(describing: error))")
        #expect(try Maintenance.migrations(path: clashing).version == 4)
    }

    // MARK: - Daylight saving time

    /// A pizzeria open through the night in `zone`, with a clock at the start of 2027.
    func nightPizzeria(_ zone: String) throws -> Fixture {
        let now = Date(timeIntervalSince1970: 1_798_761_600)  // 2027-01-01T00:00:00Z
        let f = try Fixture(now: { now })
        try f.pizzeria.settings.update(.timeZone, parsing: zone)
        try f.pizzeria.settings.update(.openingHours, parsing: "00:00-24:00")
        try f.pizzeria.settings.update(.slotMinutes, parsing: "30")
        try f.add("Margherita", 600)
        try f.pizzeria.users.add(handle: "anna")
        return f
    }

    @Test("a local time the clocks skip is refused, naming the nearest slots", arguments: [
        ("Europe/Rome", "2027-03-28T02:30", "01:30, 03:00"), ("America/New_York", "2027-03-14T02:00", "01:30, 03:00"),
    ])
    func springForward(zone: String, time: String, nearest: String) throws {
        let f = try nightPizzeria(zone)
        let error = #expect(throws: ValidationError.self) { try f.pizzeria.orders.pickup(parsing: time) }
        let message = error?.errors.first?.message ?? ""
        #expect(message.contains("does not exist in \(zone)") && message.contains("nearest slots: \(nearest)"), "\(message)")
        // The day has 23 hours of slots, each instant once.
        let slots = try f.pizzeria.orders.slots(day: String(time.prefix(10)))
        #expect(slots.count == 46 && Set(slots.map(\.start)).count == 46)
    }

    @Test("a local time that happens twice needs its offset; the day lists 25 hours; every booking counts once", arguments: [
        ("Europe/Rome", "2027-10-31", "02:30", "+02:00", "+01:00"), ("America/New_York", "2027-11-07", "01:30", "-04:00", "-05:00"),
    ])
    func fallBack(zone: String, day: String, time: String, first: String, second: String) throws {
        let f = try nightPizzeria(zone)
        let error = #expect(throws: ValidationError.self) { try f.pizzeria.orders.pickup(parsing: "\(day)T\(time)") }
        let message = error?.errors.first?.message ?? ""
        #expect(message.contains("happens twice") && message.contains("\(day)T\(time)\(first)") && message.contains("\(day)T\(time)\(second)"), "\(message)")
        let early = try f.pizzeria.orders.pickup(parsing: "\(day)T\(time)\(first)")
        let late = try f.pizzeria.orders.pickup(parsing: "\(day)T\(time)\(second)")
        #expect(late.timeIntervalSince(early) == 3600)
        let anna = try f.pizzeria.lookup.user("anna").id, margherita = try f.pizzeria.lookup.pizza("Margherita").id
        let order = try f.pizzeria.orders.place(OrderRequest(user: anna, items: [.init(pizza: margherita, quantity: 2)], pickup: late)).order
        #expect(order.pickupLocal == "\(day) \(time) \(second)")
        let slots = try f.pizzeria.orders.slots(day: day)
        #expect(slots.count == 50 && Set(slots.map(\.start)).count == 50)
        #expect(slots.filter { $0.local.hasPrefix(time) }.count == 2)
        #expect(slots.reduce(0) { $0 + $1.booked } == 2)
        #expect(slots.first { $0.start == late }?.booked == 2)
    }

    @Test("seconds are refused with a message that says so")
    func seconds() throws {
        let f = try nightPizzeria("Europe/Rome")
        let error = #expect(throws: ValidationError.self) { try f.pizzeria.orders.pickup(parsing: "2027-02-01T19:00:30") }
        #expect(error?.errors.first?.message.contains("has seconds") == true)
        #expect(try f.pizzeria.orders.pickup(parsing: "2027-02-01T19:00:00") == (try f.pizzeria.orders.pickup(parsing: "2027-02-01T19:00")))
    }

    // MARK: - Settings and reports

    @Test("settings that contradict future bookings are refused (1), naming the slots; past ones do not count")
    func settingsAgainstBookings() throws {
        let fixture = try OrderFixture()
        try fixture.place("anna", "19:00", ("Margherita", 10))
        let before = try fixture.base.snapshot()
        let error = #expect(throws: SettingsError.self) { try fixture.pizzeria.settings.update(.slotCapacity, parsing: "3") }
        #expect(error?.category == .refused && error?.description.contains("2026-12-01 19:00 (10 pizzas booked)") == true)
        #expect(throws: SettingsError.self) { try fixture.pizzeria.settings.update(.openingHours, parsing: "12:00-19:00") }
        #expect(throws: SettingsError.self) { try fixture.pizzeria.settings.update(.timeZone, parsing: "Asia/Kolkata") }
        #expect(try fixture.base.snapshot() == before)
        try fixture.pizzeria.settings.update(.slotCapacity, parsing: "10")
    }

    @Test("a sales report from after to is invalid input")
    func salesRange() throws {
        let fixture = try OrderFixture()
        let error = #expect(throws: ValidationError.self) { try fixture.pizzeria.orders.sales(from: "2026-12-02", to: "2026-12-01") }
        #expect(error?.errors.first?.field == "from")
        #expect(try fixture.pizzeria.orders.sales(from: "2026-12-01", to: "2026-12-01").rows.isEmpty)
    }

    // MARK: - Damaged rows

    @Test("rows the schema once accepted but the code cannot read are reported with table and id")
    func damagedRows() throws {
        let fixture = try OrderFixture()
        let order = try fixture.place("anna", "19:00", ("Margherita", 1)).order
        try fixture.pizzeria.navigation.push(try fixture.user("anna"), [.pizza(id: try fixture.pizza("Porcini"))])
        // A file damaged by an older tool: the guarding triggers dropped, bad values written.
        try fixture.pizzeria.database.write { db in
            try db.execute("""
                DROP TRIGGER orders_pickup_real_update; DROP TRIGGER navigation_events_shape;
                UPDATE orders SET pickup_at = '2026-02-30T19:00:00Z';
                INSERT INTO navigation_events (user_id, action, routes, depth_after, top_before)
                SELECT id, 'push', '[1]', 1, '42' FROM users WHERE handle = 'anna';
                """)
        }
        let orderError = #expect(throws: DataError.self) { try fixture.pizzeria.orders.order(id: order.id) }
        #expect(orderError == .damagedRow(table: "orders", id: order.id.description, problem: "pickup_at '2026-02-30T19:00:00Z' is not a real UTC time"))
        #expect(orderError?.category == .unusableDatabase)
        #expect(throws: DataError.self) { try fixture.pizzeria.navigation.history(of: try fixture.user("anna")) }
        #expect(throws: DataError.self) { try fixture.pizzeria.navigation.state(of: try fixture.user("anna")) }
    }
}
