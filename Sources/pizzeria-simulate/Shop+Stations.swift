import Foundation
import PizzeriaServices

// The fryer's capacity by time, changed during the evening (by the library or the CLI). A rule
// lower than what a future slot holds is refused, as the oven's is.
extension Shop {
    /// A daily rule for the fryer over part of the evening.
    func stationCapacity(_ step: Step, actor: String) throws -> Outcome {
        guard let fryer = try pizzeria.menu.stations().first(where: { !$0.holdsSlotCapacity }) else { return .skipped }
        let start = 18 * 60 + (step.slot ?? 0) * 30, length = step.minutes ?? 60, capacity = step.quantity ?? 4
        func clock(_ minute: Int) -> String { String(format: "%02d:%02d", (minute / 60) % 24, minute % 60) }
        let range = try HoursSyntax.parseInterval("\(clock(start))-\(clock(start + length))")
        let outcome =
            step.cli == true
            ? try cli(["capacity", "set", "daily", "\(range)", "\(capacity)", "--station", fryer.name, "--by", actor])
                .outcome
            : try attempt("station capacity") {
                _ = try pizzeria.capacity.set(
                    Weekday.allCases.map { .weekday($0) }, range, capacity: capacity, at: fryer.id)
            }
        return outcome
    }
}
