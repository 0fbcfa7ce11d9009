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

    @Test(
        "a local time the clocks skip is refused, naming the nearest slots",
        arguments: [
            ("Europe/Rome", "2027-03-28T02:30", "01:30, 03:00"),
            ("America/New_York", "2027-03-14T02:00", "01:30, 03:00"),
        ])
    func springForward(zone: String, time: String, nearest: String) throws {
        let f = try nightPizzeria(zone)
        let error = #expect(throws: ValidationError.self) { try f.pizzeria.orders.pickup(parsing: time) }
        let message = error?.errors.first?.message ?? ""
        #expect(
            message.contains("does not exist in \(zone)") && message.contains("nearest slots: \(nearest)"), "\(message)"
        )
        // The day has 23 hours of slots, each instant once.
        let slots = try f.pizzeria.orders.slots(on: LocalDate(String(time.prefix(10)))!)
        #expect(slots.count == 46 && Set(slots.map(\.start)).count == 46)
    }

    @Test(
        "a local time that happens twice needs its offset; the day lists 25 hours; every booking counts once",
        arguments: [
            ("Europe/Rome", "2027-10-31", "02:30", "+02:00", "+01:00"),
            ("America/New_York", "2027-11-07", "01:30", "-04:00", "-05:00"),
        ])
    func fallBack(zone: String, day: String, time: String, first: String, second: String) throws {
        let f = try nightPizzeria(zone)
        let error = #expect(throws: ValidationError.self) { try f.pizzeria.orders.pickup(parsing: "\(day)T\(time)") }
        let message = error?.errors.first?.message ?? ""
        #expect(
            message.contains("happens twice") && message.contains("\(day)T\(time)\(first)")
                && message.contains("\(day)T\(time)\(second)"), "\(message)")
        let early = try f.pizzeria.orders.pickup(parsing: "\(day)T\(time)\(first)")
        let late = try f.pizzeria.orders.pickup(parsing: "\(day)T\(time)\(second)")
        #expect(late.timeIntervalSince(early) == 3600)
        let anna = try f.pizzeria.lookup.user("anna").id, margherita = try f.pizzeria.lookup.pizza("Margherita").id
        let order = try f.pizzeria.orders.place(
            OrderRequest(user: anna, items: [.init(pizza: margherita, quantity: 2)], pickup: late)
        ).order
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
        let error = #expect(throws: ValidationError.self) {
            try f.pizzeria.orders.pickup(parsing: "2027-02-01T19:00:30")
        }
        #expect(error?.errors.first?.message.contains("has seconds") == true)
        #expect(
            try f.pizzeria.orders.pickup(parsing: "2027-02-01T19:00:00")
                == (try f.pizzeria.orders.pickup(parsing: "2027-02-01T19:00")))
    }

    // MARK: - Nights that span the change

    /// A pizzeria open Saturday nights 18:00-03:00 in `zone`, 30-minute slots, with the clock at `now`.
    func saturdayNights(_ zone: String, now: Date = Date(timeIntervalSince1970: 1_798_761_600), lead: Int = 0) throws
        -> Fixture
    {
        let f = try Fixture(now: { now })
        try f.pizzeria.settings.update(.timeZone, parsing: zone)
        try f.pizzeria.settings.update(.slotMinutes, parsing: "30")
        try f.pizzeria.settings.update(.leadMinutes(lead))
        try f.pizzeria.schedule.setWeek(try HoursSyntax.osm("Sa 18:00-03:00"))
        try f.add("Margherita", 600)
        try f.pizzeria.users.add(handle: "anna")
        return f
    }

    @Test(
        "a Saturday night across the change is shorter or longer and every slot still belongs to Saturday",
        arguments: [
            ("Europe/Rome", "2027-03-27", 16, 8.0, 0), ("Europe/Rome", "2027-10-30", 20, 10.0, 4),
            ("Australia/Lord_Howe", "2027-10-02", 17, 8.5, 0), ("Australia/Lord_Howe", "2027-04-03", 19, 9.5, 2),
        ])
    func nightsAcrossTheChange(zone: String, saturday: String, slots expected: Int, hours: Double, twice: Int) throws {
        let f = try saturdayNights(zone)
        let slots = try f.pizzeria.orders.slots(on: LocalDate(saturday)!)
        #expect(slots.count == expected, "\(slots.map(\.local))")
        #expect(Set(slots.map(\.start)).count == expected && slots.allSatisfy { $0.serviceDay == LocalDate(saturday)! })
        // Real time from the first slot to the end of the last: the night's length, in hours.
        let length = (slots.last!.start.timeIntervalSince(slots.first!.start) + 1800) / 3600
        #expect(length == hours, "\(length)")
        // A time the clocks pass twice shows twice, with its offset; each booking counts once.
        let labelled = slots.filter { $0.local.contains(" +") || $0.local.contains(" -") }
        #expect(labelled.count == twice, "\(slots.map(\.local))")
    }

    @Test("lead time counts real minutes across the change: the first 02:00 is too soon, the second is not")
    func leadAcrossFallBack() throws {
        let rome = TimeZone(identifier: "Europe/Rome")!
        let now = try PickupTime.parse("2027-10-31T01:50+02:00", timeZone: rome, now: Date()).get()
        let f = try saturdayNights("Europe/Rome", now: now, lead: 30)
        let user = try f.pizzeria.lookup.user("anna").id, pizza = try f.pizzeria.lookup.pizza("Margherita").id
        func book(_ time: String) throws -> Order {
            try f.pizzeria.orders.place(
                OrderRequest(
                    user: user, items: [.init(pizza: pizza)],
                    pickup: try PickupTime.parse(time, timeZone: rome, now: now).get())
            ).order
        }
        let early = #expect(throws: OrderError.self) { try book("2027-10-31T02:00+02:00") }
        #expect(
            "\(early.map { "\($0)" } ?? "")".contains(
                "less than 30 minutes from now; the earliest slot is Sunday 02:30 +02:00")
                || "\(early.map { "\($0)" } ?? "")".contains("the lead time"))
        let late = try book("2027-10-31T02:00+01:00")
        #expect(late.serviceDay == LocalDate("2027-10-30")! && late.pickupLocal == "2027-10-31 02:00 +01:00")
    }
}
