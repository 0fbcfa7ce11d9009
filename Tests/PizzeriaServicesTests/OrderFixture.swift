import Foundation
import PizzeriaServices
import PizzeriaTestSupport
import Synchronization

/// A clock the test moves: the Pizzeria reads it for every rule that depends on the time.
final class TestClock: Sendable {
    private let time: Mutex<Date>
    init(_ start: Date) { time = Mutex(start) }
    /// The time now.
    var now: Date { time.withLock { $0 } }
    /// Moves the clock on.
    func advance(minutes: Double) { time.withLock { $0 = $0.addingTimeInterval(minutes * 60) } }
}

/// A Pizzeria on a new file with a fixed clock (2026-12-01 10:00 in Rome), a menu and two
/// users: the order tests' starting point.
struct OrderFixture {
    static let zone = "Europe/Rome"
    let base: Fixture
    /// The time the fixture started at (the clock may have moved since).
    let now: Date
    /// The Pizzeria's clock.
    let clock: TestClock
    var pizzeria: Pizzeria { base.pizzeria }

    init(capacity: Int = 12, directory: TemporaryDirectory = TemporaryDirectory(), now: Date? = nil) throws {
        let now =
            try now
            ?? PickupTime.parse("2026-12-01T10:00", timeZone: TimeZone(identifier: Self.zone) ?? .current, now: Date())
            .get()
        self.now = now
        let clock = TestClock(now)
        self.clock = clock
        base = try Fixture(directory: directory, now: { clock.now })
        try pizzeria.settings.update(.timeZone(TimeZone(identifier: Self.zone)))
        try pizzeria.settings.update(.slotCapacity(capacity))
        try base.add("Margherita", 600)
        try base.add("Porcini", 1200)
        try base.add("Marinara", 400)
        try pizzeria.users.add(handle: "anna", displayName: "Anna")
        try pizzeria.users.add(handle: "marco")
    }

    /// A user's id by handle.
    func user(_ handle: String) throws -> User.ID { try pizzeria.lookup.user(handle).id }

    /// A pizza's id by name (or id prefix).
    func pizza(_ name: String) throws -> Pizza.ID { try pizzeria.lookup.pizza(name).id }

    /// A local time in Rome on 2026-12-01 (or `day`).
    func at(_ time: String, day: String = "2026-12-01") throws -> Date {
        try PickupTime.parse("\(day)T\(time)", timeZone: TimeZone(identifier: Self.zone) ?? .current, now: now).get()
    }

    @discardableResult
    func place(
        _ user: String = "anna", _ time: String = "19:00", day: String = "2026-12-01", key: String? = nil,
        _ items: (String, Int)...
    ) throws -> (order: Order, created: Bool) {
        try pizzeria.orders.place(
            OrderRequest(
                user: try self.user(user), items: items.map { .init(pizza: try pizza($0.0), quantity: $0.1) },
                pickup: try at(time, day: day), idempotencyKey: key))
    }

    /// Margherita offered with "bufala" (2 €, in a group of extras), `left` of it for sale until
    /// made available again.
    func bufalaOnMargherita(left: Int) throws -> (margherita: Pizza.ID, bufala: Modifier.ID) {
        let menu = pizzeria.menu
        let margherita = try pizza("Margherita")
        let extras = try menu.addModifierGroup(name: "Aggiunte", min: 0, max: 3)
        let bufala = try menu.addModifier(to: extras.id, name: "bufala", price: Money(cents: 200))
        try menu.attach(extras.id, to: margherita)
        try menu.setStock(ofModifier: bufala.id, left: left, until: .untilAvailable)
        return (margherita, bufala.id)
    }
}
