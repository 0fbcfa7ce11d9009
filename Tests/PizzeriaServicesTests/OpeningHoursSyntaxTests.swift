import Foundation
import Testing
@testable import PizzeriaServices

/// The hours as people and OpenStreetMap write them: every refusal names the part that is wrong.
@Suite("Opening hours syntax: intervals, days, OpenStreetMap, dates")
struct OpeningHoursSyntaxTests {
    func interval(_ text: String) throws -> OpeningInterval { try HoursSyntax.parseInterval(text) }

    @Test(
        "an interval closing at or before it opens runs past midnight; 24:00 and 25:00 are accepted",
        arguments: [
            ("18:30-01:00", 1110, 1500, true), ("18:00-25:00", 1080, 1500, true), ("12:00-24:00", 720, 1440, false),
            ("00:00-24:00", 0, 1440, false), ("18:00-00:00", 1080, 1440, true), ("12:00-14:30", 720, 870, false),
        ])
    func intervals(text: String, start: Int, end: Int, pastMidnight: Bool) throws {
        let parsed = try interval(text)
        #expect(parsed.start == start && parsed.end == end && parsed.runsPastMidnight == pastMidnight)
    }

    @Test(
        "malformed intervals are refused naming the part",
        arguments: [
            ("25:61-26:00", "'25:61'"), ("12:00-12:00", "24 hours"), ("18:00-42:00", "24 hours"), ("12-23", "'12'"),
            ("12:00-48:30", "'48:30'"), ("24:00-02:00", "'24:00'"), ("12:00", "not an interval"),
        ])
    func badIntervals(text: String, part: String) {
        let error = #expect(throws: ValidationError.self) { try interval(text) }
        #expect(
            error?.errors.first?.field == "hours" && error?.errors.first?.message.contains(part) == true,
            "\(String(describing: error))")
    }

    @Test("a day's intervals may not overlap, and a day has at most 8")
    func dayIntervals() throws {
        #expect(
            try HoursSyntax.intervals("18:30-23:30,12:00-14:30").map(\.description) == ["12:00-14:30", "18:30-23:30"])
        #expect(try HoursSyntax.intervals("closed").isEmpty)
        let overlap = #expect(throws: ValidationError.self) { try HoursSyntax.intervals("12:00-15:00,14:30-16:00") }
        #expect(overlap?.errors.first?.message == "12:00-15:00 and 14:30-16:00 overlap")
        let many = (0..<9).map { "0\($0):00-0\($0):30" }.joined(separator: ",")
        #expect(throws: ValidationError.self) { try HoursSyntax.intervals(many) }
    }

    @Test(
        "days: names, ranges (wrapping the week), lists, daily; nonsense is refused",
        arguments: [
            ("mon", [1]), ("tue-thu", [2, 3, 4]), ("fri,sat", [5, 6]), ("daily", [1, 2, 3, 4, 5, 6, 7]),
            ("sat-mon", [6, 7, 1]),
            ("Mo-We,Fr", [1, 2, 3, 5]), ("Friday", [5]),
        ])
    func days(text: String, expected: [Int]) throws {
        #expect(try HoursSyntax.days(text) == Set(expected.compactMap(Weekday.init(rawValue:))))
    }

    @Test("bad days are refused naming the part", arguments: ["mon-sun-tue", "funday", "m", "mon,,tue", ""])
    func badDays(text: String) {
        #expect(throws: ValidationError.self) { try HoursSyntax.days(text) }
    }

    @Test("the OSM subset: a later rule replaces an earlier one's days; closed days; the export reads back")
    func osm() throws {
        let text = "Mo-Su 12:00-14:30,18:30-23:30; Fr,Sa 12:00-14:30,18:30-01:00; Su 18:30-23:30; Mo off"
        let week = try HoursSyntax.osm(text)
        #expect(week[.monday].isEmpty)
        #expect(week[.friday].map(\.description) == ["12:00-14:30", "18:30-01:00"])
        #expect(week[.sunday].map(\.description) == ["18:30-23:30"])
        #expect(week[.tuesday].map(\.description) == ["12:00-14:30", "18:30-23:30"])
        let exported = HoursSyntax.osm(week)
        #expect(exported == "Tu-Th 12:00-14:30,18:30-23:30; Fr,Sa 12:00-14:30,18:30-01:00; Su 18:30-23:30; Mo off")
        #expect(try HoursSyntax.osm(exported) == week)
        #expect(HoursSyntax.osm(.everyDay([try interval("12:00-23:00")])) == "Mo-Su 12:00-23:00")
        #expect(try HoursSyntax.osm("Fr 18:00-26:00")[.friday].map(\.description) == ["18:00-02:00"])
    }

    @Test(
        "OSM input is bounded and every rule needs days and times",
        arguments: [
            String(repeating: "Mo 12:00-13:00; ", count: 70_000), "Mo", "Xx 12:00-13:00",
            "Mo 12:00-13:00; Tu 25:00-26:00", ";",
        ])
    func badOSM(text: String) {
        let error = #expect(throws: ValidationError.self) { try HoursSyntax.osm(text) }
        #expect(error?.errors.first?.field == "hours")
    }

    @Test("dates: YYYY-MM-DD from 1970 to 9999, today and tomorrow; ranges forward and at most 366 days")
    func dates() throws {
        let today = try #require(LocalDate("2026-12-01"))
        #expect(try HoursSyntax.date("tomorrow", today: today).description == "2026-12-02")
        #expect(try HoursSyntax.dateRange("2026-12-25..2026-12-26", today: today).count == 2)
        for bad in ["2026-02-30", "-0001-01-01", "1500-03-01", "26-12-01", "2026-12-1", "10000-01-01"] {
            #expect(throws: ValidationError.self, "\(bad)") { try HoursSyntax.date(bad, today: today) }
        }
        let backwards = #expect(throws: ValidationError.self) {
            try HoursSyntax.dateRange("2026-12-26..2026-12-25", today: today)
        }
        #expect(backwards?.errors.first?.message.contains("ends before it starts") == true)
        #expect(throws: ValidationError.self) { try HoursSyntax.dateRange("2026-01-01..2027-12-31", today: today) }
    }

    @Test("a week's nights may not run into the next day, Sunday's into Monday included")
    func weekOverlaps() throws {
        var week = Week.everyDay([try interval("12:00-23:00")])
        #expect(week.problems().isEmpty)
        week[.friday] = [try interval("18:00-13:00")]
        #expect(week.problems().map(\.message) == ["Friday 18:00-13:00 runs into Saturday 12:00-23:00"])
        week[.friday] = [try interval("18:00-01:00")]
        week[.sunday] = [try interval("20:00-12:30")]
        #expect(week.problems().map(\.message) == ["Sunday 20:00-12:30 runs into Monday 12:00-23:00"])
    }

    @Test("local dates: weekdays, arithmetic and the supported range")
    func localDates() throws {
        let date = try #require(LocalDate("2026-12-04"))
        #expect(date.weekday == .friday && date.adding(days: 3).weekday == .monday)
        #expect(LocalDate("1970-01-01")?.weekday == .thursday)
        #expect(LocalDate("2024-02-29") != nil && LocalDate("2026-02-29") == nil)
        #expect(
            LocalDate.supported.lowerBound.description == "1970-01-01"
                && LocalDate.supported.upperBound.description == "9999-12-31")
        #expect(LocalTime("24:00")?.minutes == 1440 && LocalTime("24:01") == nil && LocalTime("7:00") == nil)
    }
}
