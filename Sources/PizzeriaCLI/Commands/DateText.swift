import PizzeriaServices

/// Dates as people type them on the command line: `YYYY-MM-DD`, `today`, `tomorrow` (in the
/// pizzeria's zone), each refusal naming the option.
enum DateText {
    static func date(_ text: String, field: String, _ pizzeria: Pizzeria) throws -> LocalDate {
        try relabeling(field) { try HoursSyntax.date(text, today: try pizzeria.orders.today()) }
    }
}
