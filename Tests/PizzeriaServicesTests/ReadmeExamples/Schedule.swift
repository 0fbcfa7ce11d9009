import PizzeriaServices
// README-EXAMPLE-BEGIN
import PizzeriaServices

func scheduleExample(_ pizzeria: Pizzeria) async throws -> DayHours {
    // The week in OpenStreetMap syntax: closed Mondays, Friday and Saturday nights until 01:00.
    let week = try HoursSyntax.osm(
        "Tu-Th 12:00-14:30,18:30-23:30; Fr,Sa 12:00-14:30,18:30-01:00; Su 18:30-23:30; Mo off")
    // keepOrders: the bookings stay, flagged.
    try await pizzeria.write { try $0.schedule.setWeek(week, keepOrders: true) }

    // Exceptions are typed values: closed dates with a reason, special hours, a cut-out range.
    guard let christmas = LocalDate("2026-12-25"), let boxingDay = LocalDate("2026-12-26"),
        let days = LocalDateRange(christmas, boxingDay), let eve = LocalDate("2026-12-24")
    else { throw CancellationError() }
    try await pizzeria.write { try $0.schedule.close(days, reason: "Christmas") }
    try await pizzeria.write {
        try $0.schedule.special(LocalDateRange(eve), [try HoursSyntax.parseInterval("12:00-16:00")])
    }

    // A service day's effective hours, and why (.basis, .closure, .cuts, .open).
    return try await pizzeria.read { try $0.schedule.hours(of: eve) }
}
// README-EXAMPLE-END
