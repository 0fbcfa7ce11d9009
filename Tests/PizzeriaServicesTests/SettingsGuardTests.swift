import Foundation
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

@Suite("Settings against bookings, and report ranges")
struct SettingsGuardTests {
    @Test("settings that contradict future bookings are refused (1), naming the slots; past ones do not count")
    func settingsAgainstBookings() throws {
        let fixture = try OrderFixture()
        try fixture.place("anna", "19:00", ("Margherita", 10))
        let before = try fixture.base.snapshot()
        let error = #expect(throws: SettingsError.self) {
            try fixture.pizzeria.settings.update(.slotCapacity, parsing: "3")
        }
        #expect(
            error?.category == .refused && error?.description.contains("2026-12-01 19:00 (10 pizzas booked)") == true)
        // Hours and zones that would leave the booking outside the hours name the order.
        let hours = #expect(throws: ScheduleError.self) {
            try fixture.pizzeria.settings.update(.openingHours, parsing: "12:00-19:00")
        }
        #expect(hours?.category == .refused && hours?.description.contains("anna 2026-12-01 19:00") == true)
        #expect(throws: ScheduleError.self) { try fixture.pizzeria.settings.update(.timeZone, parsing: "Asia/Kolkata") }
        #expect(try fixture.base.snapshot() == before)
        try fixture.pizzeria.settings.update(.slotCapacity, parsing: "10")
    }

    @Test("a sales report from after to is invalid input")
    func salesRange() throws {
        let fixture = try OrderFixture()
        let error = #expect(throws: ValidationError.self) {
            try fixture.pizzeria.orders.sales(from: LocalDate("2026-12-02")!, to: LocalDate("2026-12-01")!)
        }
        #expect(error?.errors.first?.field == "from")
        #expect(
            try fixture.pizzeria.orders.sales(from: LocalDate("2026-12-01")!, to: LocalDate("2026-12-01")!).rows.isEmpty
        )
    }
}
