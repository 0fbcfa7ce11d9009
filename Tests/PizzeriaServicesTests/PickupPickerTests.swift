import Foundation
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

@Suite("The pickup-time picker, pause and rush")
struct PickupPickerTests {
    func range(_ text: String) throws -> OpeningInterval { try HoursSyntax.parseInterval(text) }
    func day(_ text: String) -> LocalDate { LocalDate(text) ?? LocalDate(days: 0) }

    @Test("the next slots that take the order: lead time, full slots skipped, capacity rules, what is booked")
    func nextSlots() throws {
        let f = try OrderFixture(capacity: 4)  // 10:00 in Rome; hours 12:00-23:00; lead 15
        _ = try f.place("anna", "12:00", ("Margherita", 4))
        _ = try f.place("anna", "12:15", ("Margherita", 2))
        try f.pizzeria.capacity.set([.weekday(.tuesday)], try range("12:30-13:00"), capacity: 10)
        let answer = try f.pizzeria.orders.availableSlots(pizzas: 3, limit: 4)
        #expect(answer.slots.map(\.time) == ["12:30", "12:45", "13:00", "13:15"] && answer.reason == nil, "\(answer)")
        #expect(
            answer.slots.map(\.remaining) == [10, 10, 4, 4] && answer.slots.first?.capacityRule == "tue 12:30-13:00")
        #expect(try f.pizzeria.orders.availableSlots(pizzas: 2, limit: 1).slots.map(\.time) == ["12:15"])
        // From a moment on; the first slot of the picker is the one a refusal names.
        let later = try f.pizzeria.orders.availableSlots(pizzas: 1, after: try f.at("22:40"), limit: 3)
        #expect(later.slots.map(\.local) == ["2026-12-01 22:45", "2026-12-02 12:00", "2026-12-02 12:15"])
        let refusal = #expect(throws: OrderError.self) { try f.place("marco", "12:00", ("Porcini", 3)) }
        #expect(
            "\(String(describing: refusal))".contains("the first slot that takes 3 pizzas is 2026-12-01 12:30"),
            "\(String(describing: refusal))")
    }

    @Test("across closed weekdays, closed dates and midnight, within the horizon")
    func acrossClosures() throws {
        let f = try OrderFixture()
        try f.pizzeria.schedule.setWeek(try HoursSyntax.osm("Fr,Sa 18:00-01:00; Mo-Th,Su off"), keepOrders: true)
        try f.pizzeria.schedule.close(LocalDateRange(day("2026-12-04")), reason: "inventory")
        let answer = try f.pizzeria.orders.availableSlots(
            pizzas: 1, after: try f.at("00:15", day: "2026-12-06"), limit: 3)
        #expect(
            answer.slots.map(\.local) == ["2026-12-06 00:15", "2026-12-06 00:30", "2026-12-06 00:45"],
            "\(answer.slots.map(\.local))")
        #expect(answer.slots.allSatisfy { $0.serviceDay == day("2026-12-05") })
        let next = try f.pizzeria.orders.availableSlots(pizzas: 1, limit: 1)
        #expect(next.slots.first?.local == "2026-12-05 18:00", "closed Friday the 4th is skipped: \(next)")
        // Nothing left within a short horizon: empty, with the reason.
        try f.pizzeria.settings.update(.bookingHorizonDays(2))
        let none = try f.pizzeria.orders.availableSlots()
        #expect(none.slots.isEmpty && none.reason == .noneWithinHorizon && none.message?.contains("2 days") == true)
        // Asked again over the configuration the first call kept: the kept walk finds nothing and
        // the answer still says why (it does not come back empty without a reason).
        let again = try f.pizzeria.orders.availableSlots()
        #expect(again == none, "\(again)")
    }

    @Test("a daylight-saving night: each real slot once, with its offset, the repeated hour twice")
    func daylightSavingNight() throws {
        let start = try PickupTime.parse(
            "2027-10-30T20:00", timeZone: TimeZone(identifier: "Europe/Rome") ?? .current, now: Date()
        ).get()
        let f = try OrderFixture(now: start)
        try f.pizzeria.schedule.setWeek(try HoursSyntax.osm("Sa 18:00-03:30"), keepOrders: true)
        let slots = try f.pizzeria.orders.availableSlots(
            pizzas: 1, after: try f.at("01:00", day: "2027-10-31").addingTimeInterval(3600), limit: 12
        ).slots
        let labels = slots.map { "\($0.time)\($0.offset)" }
        #expect(
            labels.starts(with: [
                "02:00+02:00", "02:15+02:00", "02:30+02:00", "02:45+02:00", "02:00+01:00", "02:15+01:00",
            ]), "\(labels)")
        #expect(
            Set(slots.map(\.start)).count == slots.count
                && slots.prefix(10).allSatisfy { $0.serviceDay == day("2027-10-30") })
        #expect(
            slots.dropFirst(10).first?.serviceDay == day("2027-11-06"), "the next Saturday night: \(slots.map(\.local))"
        )
    }

    @Test("bounds: pizzas and limit are refused out of range; an order larger than any slot says so")
    func bounds() throws {
        let f = try OrderFixture(capacity: 6)
        for (pizzas, limit) in [(0, 10), (1001, 10), (1, 0), (1, 101), (1, 1_000_000_000)] {
            #expect(throws: ValidationError.self, "\(pizzas) \(limit)") {
                try f.pizzeria.orders.availableSlots(pizzas: pizzas, limit: limit)
            }
        }
        // Every field at fault is named at once; a start in the past is refused, not ignored.
        let all = #expect(throws: ValidationError.self) {
            try f.pizzeria.orders.availableSlots(pizzas: 0, after: try f.at("08:00"), limit: 101)
        }
        #expect(all?.errors.map(\.field) == ["pizzas", "limit", "after"], "\(String(describing: all))")
        #expect(all?.errors.first?.message == "must be from 1 to \(OrderRequest.maximumPizzas), not 0")
        let early = #expect(throws: ValidationError.self) {
            try f.pizzeria.orders.availableSlots(after: try f.at("09:58"))
        }
        #expect(early?.errors.map(\.field) == ["after"])
        #expect(try f.pizzeria.orders.availableSlots(after: try f.at("09:59")).slots.isEmpty == false)
        try f.pizzeria.capacity.set([.date(day("2026-12-31"))], try range("19:00-23:00"), capacity: 30)
        let big = try f.pizzeria.orders.availableSlots(pizzas: 31)
        #expect(big.slots.isEmpty && big.reason == .tooLarge && big.largestOrder == 30)
        #expect(
            try f.pizzeria.orders.availableSlots(pizzas: 30, limit: 2).slots.map(\.local) == [
                "2026-12-31 19:00", "2026-12-31 19:15",
            ])
        let refusal = #expect(throws: OrderError.self) { try f.place("anna", "19:00", ("Margherita", 10)) }
        guard case .orderTooLarge(10, _, 6, let largest, let fits)? = refusal else {
            Issue.record("\(String(describing: refusal))"); return
        }
        #expect(
            largest == SlotCapacity(capacity: 30, rule: "2026-12-31 19:00-23:00") && fits.first == "2026-12-31 19:00")
    }

    @Test(
        "pause: bookings refused with the reason until it ends by itself or is resumed; the picker says why; orders untouched"
    )
    func pause() throws {
        let f = try OrderFixture()
        let order = try f.place("anna", "19:00", ("Margherita", 2)).order
        #expect(throws: ValidationError.self) { try f.pizzeria.capacity.pause(until: try f.at("09:00")) }
        try f.pizzeria.capacity.pause(until: try f.at("12:30"), reason: "oven repair")
        let refused = #expect(throws: OrderError.self) { try f.place("marco", "19:00", ("Porcini", 1)) }
        #expect(refused?.description == "not taking orders until 2026-12-01 12:30: oven repair")
        // The picker and the booking agree: nothing can be booked while paused; the first slot after it is named.
        let paused = try f.pizzeria.orders.availableSlots(limit: 1)
        #expect(paused.slots.isEmpty && paused.reason == .paused && paused.firstAfterPause?.time == "12:30")
        #expect(try f.pizzeria.orders.slots(on: day("2026-12-01")).first { $0.local == "12:15" }?.state == .paused)
        #expect(try f.pizzeria.orders.order(id: order.id)?.status == .placed)
        f.clock.advance(minutes: 150)  // 12:30: over by itself
        #expect(try f.pizzeria.settings.current().pause == nil)
        _ = try f.place("marco", "19:00", ("Porcini", 1))
        try f.pizzeria.capacity.pause()
        let indefinite = try f.pizzeria.orders.availableSlots()
        #expect(indefinite.slots.isEmpty && indefinite.reason == .paused && indefinite.message == "not taking orders")
        try f.pizzeria.capacity.resume()
        _ = try f.place("marco", "19:15", ("Porcini", 1))
    }

    @Test("rush: minutes added to the lead time until it ends; bad values refused")
    func rush() throws {
        let f = try OrderFixture()  // 10:00, lead 15
        try f.pizzeria.capacity.rush(minutes: 150, until: try f.at("11:00"))
        let refused = #expect(throws: OrderError.self) { try f.place("anna", "12:00", ("Margherita", 1)) }
        #expect(
            "\(String(describing: refused))".contains("less than 165 minutes from now")
                && "\(String(describing: refused))".contains("12:45"),
            "\(String(describing: refused))")
        #expect(try f.pizzeria.orders.availableSlots(limit: 1).slots.first?.time == "12:45")
        f.clock.advance(minutes: 61)  // 11:01: the rush is over
        #expect(try f.pizzeria.orders.availableSlots(limit: 1).slots.first?.time == "12:00")
        for minutes in [0, -5, 1441] {
            #expect(throws: ValidationError.self) { try f.pizzeria.capacity.rush(minutes: minutes) }
        }
        try f.pizzeria.capacity.rush(minutes: 30)
        #expect(try f.pizzeria.settings.current().effectiveLeadMinutes(at: f.clock.now) == 45)
        try f.pizzeria.capacity.endRush()
        #expect(try f.pizzeria.settings.current().rush == nil)
    }
}
