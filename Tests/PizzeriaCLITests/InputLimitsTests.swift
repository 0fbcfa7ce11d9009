import Foundation
import PizzeriaTestSupport
import Testing

/// Dates and numbers have documented limits; anything outside is invalid input (65) naming
/// the field and the range, never a silent shift or a confusing bound.
@Suite("CLI: documented input limits for dates and numbers (the real binary)")
struct InputLimitsTests {
    @Test(
        "dates: 1970-01-01 to 9999-12-31; years with a sign or before the Gregorian reform are refused, not shifted; the sales report's default bounds are real dates"
    )
    func dateRange() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-01T17:00:00Z"
        try cli.ok("demo")
        for date in ["-0001-01-01", "1500-03-01", "0001-01-01", "1969-12-31", "10000-01-01"] {
            let slots = try cli.run("slots", "--date", date)
            #expect(slots.status == 65 && slots.stderr.contains("from 1970-01-01 to 9999-12-31"), "\(date): \(slots)")
            #expect(slots.stdout.isEmpty)
        }
        let edge = try cli.run("report", "sales", "--from", "9999-01-01")
        #expect(edge.status == 0 && edge.stdout.contains("Nessun ordine"), "\(edge)")
        let last = try cli.run("report", "sales", "--from", "9999-12-31", "--to", "9999-12-31")
        #expect(last.status == 0, "\(last)")
        let reversed = try cli.run("report", "sales", "--from", "2026-12-02", "--to", "2026-12-01")
        #expect(reversed.status == 65 && reversed.stderr.contains("2026-12-02"), "\(reversed)")
    }

    @Test("an invalid --seed is invalid input (65) with its range, like every other number")
    func seed() throws {
        let cli = CLI()
        try cli.ok("demo")
        for text in ["abc", "-1", "18446744073709551616"] {
            let result = try cli.run("nav", "random", "anna", "--seed", text)
            #expect(
                result.status == 65
                    && result.stderr.contains("seed: must be a whole number from 0 to 18446744073709551615"),
                "\(text): \(result)")
        }
        #expect(try cli.run("nav", "random", "anna", "--seed", "18446744073709551615").status == 0)
    }
}
