import Foundation
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

@Suite("Pickup times across daylight saving changes: skipped and repeated local times")
struct DaylightSavingTests {
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
        let slots = try f.pizzeria.orders.slots(on: LocalDate(String(time.prefix(10)))!)
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
        let slots = try f.pizzeria.orders.slots(on: LocalDate(day)!)
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
}
