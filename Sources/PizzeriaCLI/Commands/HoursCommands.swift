import Foundation
import PizzeriaServices

/// `pizzeria hours …`: the real week — weekly intervals, date exceptions, exports.
enum HoursCommands {
    static let command = Command(
        name: "hours",
        abstract: "The opening hours: the week, closed and special dates, exports for the website.",
        discussion: """
            The week has any number of intervals per weekday; an interval whose closing time is at or before
            its opening time runs past midnight and belongs to the day it opens (Friday 18:30-01:00 is Friday
            night's). Special hours replace a date's weekday hours; closures (a whole date, or a time range
            cut out with --from/--to) subtract from whatever applies. A change that would leave a future
            booked order outside the hours is refused (exit 1) naming the orders, unless --keep-orders.
            """,
        subcommands: [show, set, close, special, clear, export])

    static let keepOrders = Flag(
        "keep-orders", help: "Apply the change even if booked orders fall outside the hours (they stay booked).")
    static let reason = Option("reason", "text", help: "Why, as customers are told (at most 200 characters).")
    static let dates = Argument("dates", help: "DATE or DATE..DATE (YYYY-MM-DD, today, tomorrow); at most 366 days.")

    /// A date or range as typed, `today` and `tomorrow` in the pizzeria's zone.
    static func range(_ text: String, _ pizzeria: Pizzeria) throws -> LocalDateRange {
        try relabeling("date") { try HoursSyntax.dateRange(text, today: try pizzeria.schedule.today()) }
    }

    // MARK: - show

    static let date = Option("date", "date", help: "One day's effective hours and why (YYYY-MM-DD, today, tomorrow).")
    static let from = Option("from", "date", help: "With --to: each day's effective hours over a range.")
    static let to = Option("to", "date", help: "The last day of the range.")

    /// What `hours show` prints as JSON: the week, the exceptions ahead, pause and rush.
    struct Overview: Encodable {
        let week: Week
        let openingHours: String
        let timeZone: String
        let slotMinutes: Int
        let leadMinutes: Int
        let exceptions: [ScheduleException]
        let pause: Pause?
        let rush: Rush?
        let settings: Settings

        init(_ settings: Settings, week: Week? = nil, exceptions: [ScheduleException]) {
            (self.week, self.openingHours, self.timeZone) = (
                week ?? settings.week, HoursSyntax.osm(week ?? settings.week), settings.timeZone.identifier
            )
            (self.slotMinutes, self.leadMinutes, self.exceptions) = (
                settings.slotMinutes, settings.leadMinutes, exceptions
            )
            (self.pause, self.rush, self.settings) = (settings.pause, settings.rush, settings)
        }

        enum CodingKeys: String, CodingKey {
            case week, openingHours = "opening_hours", timeZone = "time_zone", slotMinutes = "slot_minutes"
            case leadMinutes = "lead_minutes", exceptions, pause, rush
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(week, forKey: .week)
            try container.encode(openingHours, forKey: .openingHours)
            try container.encode(timeZone, forKey: .timeZone)
            try container.encode(slotMinutes, forKey: .slotMinutes)
            try container.encode(leadMinutes, forKey: .leadMinutes)
            try container.encode(exceptions, forKey: .exceptions)
            try container.encode(pause, forKey: .pause)
            try container.encode(rush, forKey: .rush)
        }
    }

    static let show = Command(
        name: "show",
        abstract: "Show the week and the exceptions ahead, or the effective hours of a date or range.",
        options: [date, from, to],
        examples: [
            "pizzeria hours show", "pizzeria hours show --date 2026-12-24",
            "pizzeria hours show --from today --to 2026-12-31",
        ],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let day = try invocation[date], first = try invocation[from], last = try invocation[to]
            if day != nil || first != nil || last != nil {
                guard (day == nil) != (first == nil && last == nil) else {
                    throw invocation.usage("give --date, or --from and --to")
                }
                let range: LocalDateRange
                if let day {
                    range = try Self.range(day, pizzeria)
                } else {
                    guard let first, let last else { throw invocation.usage("--from and --to go together") }
                    range = try Self.range(first + ".." + last, pizzeria)
                }
                let days = try pizzeria.schedule.hours(in: range)
                try context.emit(days) { days.map(dayText).joined() }
                return .ok
            }
            let settings = try pizzeria.settings.current()
            let overview = Overview(settings, exceptions: try pizzeria.schedule.exceptions())
            try context.emit(overview) { weekText(overview) }
            return .ok
        })

    static func weekText(_ overview: Overview) -> String {
        var table = Table("DAY", "HOURS")
        for day in Weekday.allCases {
            let intervals = overview.week[day]
            table.add(
                day.name,
                intervals.isEmpty
                    ? "closed"
                    : intervals.map { $0.description + ($0.runsPastMidnight ? " (past midnight)" : "") }
                        .joined(separator: ", "))
        }
        var text =
            "Week (\(overview.timeZone), \(overview.slotMinutes)-minute slots, lead time \(overview.leadMinutes) minutes):\n"
            + table.rendered
        text += "\nOSM: \(overview.openingHours)\n" + CapacityCommands.stateText(overview.settings)
        if overview.exceptions.isEmpty { return text + "\nNo exceptions ahead.\n" }
        var exceptions = Table("DATE", "EXCEPTION", "REASON")
        for exception in overview.exceptions {
            let what =
                switch exception.kind {
                case .closed: "closed"
                case .special: "special hours \(exception.interval?.description ?? "")"
                case .cut: "closed \(exception.interval?.description ?? "")"
                }
            exceptions.add("\(exception.date.weekday.short) \(exception.date)", what, exception.reason ?? "")
        }
        return text + "\nExceptions ahead:\n" + exceptions.rendered
    }

    static func dayText(_ day: DayHours) -> String {
        var why: [String] = [
            day.basis == .special
                ? "special hours \(day.intervals.map(\.description).joined(separator: ", "))"
                : (day.intervals.isEmpty ? "the weekday is closed" : "the week's \(day.date.weekday.name) hours")
        ]
        if let closure = day.closure { why.append("closed" + (closure.reason.map { " (\($0))" } ?? "")) }
        for cut in day.cuts {
            why.append("cut \(cut.interval?.description ?? "")" + (cut.reason.map { " (\($0))" } ?? ""))
        }
        return "\(day.date.weekday.name) \(day.date): \(day.summary)  — \(why.joined(separator: "; "))\n"
    }

    // MARK: - set

    static let days = OptionalArgument(
        "days", help: "mon, tue-thu, fri,sat or daily.",
        completion: .choices(["daily"] + Weekday.allCases.map(\.short)))
    static let intervals = OptionalArgument(
        "hours", help: "12:00-14:30,18:30-23:30 (past midnight: 18:30-01:00) or closed.")
    static let osm = Option("osm", "rules", help: "The whole week in OpenStreetMap's opening_hours syntax instead.")

    static let set = Command(
        name: "set",
        abstract: "Set the hours of some weekdays, or the whole week in OpenStreetMap syntax.",
        discussion: """
            DAYS is mon, tue-thu, fri,sat, mon-wed,fri or daily; HOURS is 12:00-14:30,18:30-23:30 or closed.
            --osm takes weekday ranges and lists, off, comma-separated times, and times past midnight as 01:00
            after a later start or as 25:00: 'Tu-Th 12:00-14:30,18:30-23:30; Fr,Sa 12:00-14:30,18:30-01:00;
            Su 18:30-23:30; Mo off'. Other days keep their hours (with --osm, days no rule names are closed).
            """,
        arguments: [days, intervals],
        options: [osm, keepOrders],
        examples: [
            "pizzeria hours set tue-sun 12:00-14:30,18:30-23:30", "pizzeria hours set fri,sat 12:00-14:30,18:30-01:00",
            "pizzeria hours set mon closed", "pizzeria hours set --osm 'Tu-Su 18:30-23:30; Mo off'",
        ],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let week: Week
            if let rules = try invocation[osm] {
                guard try invocation[days] == nil else { throw invocation.usage("give DAYS HOURS or --osm, not both") }
                week = try pizzeria.schedule.setWeek(try HoursSyntax.osm(rules), keepOrders: invocation[keepOrders])
            } else {
                guard let dayText = try invocation[days], let hoursText = try invocation[intervals] else {
                    throw invocation.usage("give DAYS and HOURS (such as fri,sat 12:00-14:30,18:30-01:00), or --osm")
                }
                week = try pizzeria.schedule.setHours(
                    try HoursSyntax.days(dayText), try HoursSyntax.intervals(hoursText),
                    keepOrders: invocation[keepOrders])
            }
            let settings = try pizzeria.settings.current()
            let overview = Overview(settings, week: week, exceptions: try pizzeria.schedule.exceptions())
            try context.emit(overview) { weekText(overview) }
            return .ok
        })

    // MARK: - close, special, clear

    static let cutFrom = Option(
        "from", "time", help: "Close only from this time (HH:MM; a night's 00:00 after midnight, or 24:00) …")
    static let cutTo = Option("to", "time", help: "… to this time (at or before --from: past midnight).")

    static let close = Command(
        name: "close",
        abstract: "Close a date or range of dates, or cut a time range out of their hours.",
        discussion: """
            A cut is given in the service day's own terms: on a night that runs past midnight, --from 00:00
            --to 00:30 (or OSM's 24:00-24:30) cuts that night's first half hour after midnight. A cut that
            takes nothing out of any of the days' hours is refused (exit 65).
            """,
        arguments: [dates],
        options: [cutFrom, cutTo, reason, keepOrders],
        examples: [
            "pizzeria hours close 2026-12-25..2026-12-26 --reason Christmas",
            "pizzeria hours close 2026-12-12 --from 20:00 --to 22:00 --reason \"private party\"",
        ],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let range = try Self.range(try invocation[dates], pizzeria)
            var cut: OpeningInterval?
            switch (try invocation[cutFrom], try invocation[cutTo]) {
            case (nil, nil): cut = nil
            case (let from?, let to?): cut = try HoursSyntax.parseCut(from: from, to: to)
            default: throw invocation.usage("--from and --to go together")
            }
            let added = try pizzeria.schedule.close(
                range, cutting: cut, reason: try invocation[reason], keepOrders: invocation[keepOrders])
            try context.emit(added) {
                (cut.map { "Closed \($0) on \(range)" } ?? "Closed \(range)")
                    + (added.first?.reason.map { " (\($0))" } ?? "") + ".\n"
            }
            return .ok
        })

    static let specialHours = Argument("hours", help: "12:00-16:00 or 12:00-14:30,18:30-01:00.")

    static let special = Command(
        name: "special",
        abstract: "Special hours for a date or range, replacing the weekday's.",
        arguments: [dates, specialHours],
        options: [reason, keepOrders],
        examples: [
            "pizzeria hours special 2026-12-24 12:00-16:00 --reason \"Christmas Eve\"",
            "pizzeria hours special 2026-12-31 18:00-02:00",
        ],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let range = try Self.range(try invocation[dates], pizzeria)
            let added = try pizzeria.schedule.special(
                range, try HoursSyntax.intervals(try invocation[specialHours]),
                reason: try invocation[reason], keepOrders: invocation[keepOrders])
            try context.emit(added) {
                "Special hours on \(range): \(added.compactMap(\.interval).prefix(Week.maximumIntervalsPerDay).map(\.description).joined(separator: ", ")).\n"
            }
            return .ok
        })

    static let clear = Command(
        name: "clear",
        abstract: "Remove every exception of a date or range: those days follow the week again.",
        arguments: [dates],
        options: [keepOrders],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let range = try Self.range(try invocation[dates], pizzeria)
            let removed = try pizzeria.schedule.clear(range, keepOrders: invocation[keepOrders])
            struct Cleared: Encodable { let range: String; let removed: Int }
            try context.emit(Cleared(range: range.description, removed: removed)) {
                "Removed \(removed) exception\(removed == 1 ? "" : "s") on \(range).\n"
            }
            return .ok
        })

    // MARK: - export

    static let format = Option(
        "format", "format", help: "osm (OpenStreetMap opening_hours) or schema-org (JSON-LD).",
        default: "osm", completion: .choices(["osm", "schema-org"]))

    static let export = Command(
        name: "export",
        abstract: "Print the hours for the website: OpenStreetMap opening_hours, or schema.org JSON-LD.",
        discussion:
            "Both include the closed and special dates ahead (a year); a date with a cut shows its remaining hours.",
        options: [format],
        examples: ["pizzeria hours export --format osm", "pizzeria hours export --format schema-org > hours.jsonld"],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let week = try pizzeria.schedule.week()
            let today = try pizzeria.schedule.today()
            let ahead = try pizzeria.schedule.hours(
                in: LocalDateRange(today, today.adding(days: 365)) ?? LocalDateRange(today)
            )
            .filter { $0.basis == .special || $0.closure != nil || !$0.cuts.isEmpty }
            switch try invocation[format] ?? "osm" {
            case "osm": context.console.line(HoursExport.osm(week, exceptions: ahead))
            case "schema-org": try context.printJSON(HoursExport.schemaOrg(week, exceptions: ahead))
            case let other: throw invocation.usage("--format must be osm or schema-org, not '\(other)'")
            }
            return .ok
        })
}
