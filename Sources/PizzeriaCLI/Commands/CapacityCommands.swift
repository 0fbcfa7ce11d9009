import Foundation
import PizzeriaServices

/// `pizzeria capacity …`, `pause`, `resume`, `busy`: how much the kitchen takes, and when.
enum CapacityCommands {
    static let command = Command(
        name: "capacity",
        abstract: "Capacity by time: pizzas per slot by weekday or date and time range.",
        discussion: """
            A slot's capacity comes from the rule for its date and time, else the rule for its weekday and
            time, else slot-capacity; of two rules of one kind the narrower range wins. Ranges are the service
            day's local times; one that ends at or before it starts runs past midnight (fri 22:00-01:00 covers
            Friday night's 00:30). Rules of one day are nested or apart, never partly overlapping. Lowering a
            capacity below what a future slot already holds is refused (exit 1) naming the slots.

            With --station, the rules are a station's (pieces per slot at Friggitrice, say) over the station's own
            capacity (station edit --capacity; none: no limit); the oven's are the slot's. A station's capacity
            below what a future slot already holds is refused (exit 1) naming the slots, as the oven's is.
            """,
        subcommands: [show, set, clear])

    static let days = Argument(
        "days", help: "Weekdays (fri,sat; mon-thu; daily) or a date or range (2026-12-31, DATE..DATE, today).",
        completion: .choices(["daily"] + Weekday.allCases.map(\.short)))
    static let range = Argument(
        "range", help: "The time range: 18:30-21:00 (past midnight: 22:00-01:00).", .interval)
    static let pizzas = Argument(
        "capacity", help: "Pizzas (at a station: pieces) per slot: 1 to 10000.", .integer(in: Int.min...Int.max))
    static let station = Option(
        "station", "station", help: "A station's rules (station list); default: the oven's, the slot's capacity.")

    /// The station named by --station, or `nil` for the oven's rules.
    static func station(_ invocation: Invocation, _ pizzeria: Pizzeria) throws -> Station? {
        guard let name = try invocation[station] else { return nil }
        return try pizzeria.menu.station(named: name)
    }

    /// Weekdays as in `hours set`, or dates as in `hours close`.
    static func parseDays(_ text: String, _ pizzeria: Pizzeria) throws -> [CapacityRule.Days] {
        let lowered = text.lowercased()
        if text.first?.isNumber == true || lowered.hasPrefix("today") || lowered.hasPrefix("tomorrow") {
            return try HoursCommands.range(text, pizzeria).dates.map { .date($0) }
        }
        return try HoursSyntax.days(text).sorted().map { .weekday($0) }
    }

    static let show = Command(
        name: "show",
        abstract: "Show the capacity rules (and slot-capacity, where none applies), the oven's and each station's.",
        discussion: "JSON: the oven's rules, or with --station that station's.",
        options: [station],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let settings = try pizzeria.settings.current()
            if let chosen = try station(invocation, pizzeria), !chosen.holdsSlotCapacity {
                let rules = try pizzeria.capacity.rules(at: chosen.id)
                try context.emit(rules) { text(rules, of: chosen, settings: settings) }
                return .ok
            }
            let rules = try pizzeria.capacity.rules()
            let others =
                try invocation[station] == nil ? try pizzeria.menu.stations().filter { !$0.holdsSlotCapacity } : []
            let stationRules = try others.map { ($0, try pizzeria.capacity.rules(at: $0.id)) }
            try context.emit(rules) {
                text(rules, settings: settings)
                    + stationRules.map { "\n" + text($0.1, of: $0.0, settings: settings) }.joined()
            }
            return .ok
        })

    static func text(_ rules: [CapacityRule], settings: Settings) -> String {
        "Default: \(settings.slotCapacity) pizzas per \(settings.slotMinutes)-minute slot (slot-capacity).\n"
            + table(rules)
    }

    /// A station's rules over its own capacity.
    static func text(_ rules: [CapacityRule], of station: Station, settings: Settings) -> String {
        let own = station.capacity.map { "\($0) pieces per \(settings.slotMinutes)-minute slot" } ?? "no limit"
        return "\(station.name): \(own) (station-capacity).\n" + table(rules)
    }

    static func table(_ rules: [CapacityRule]) -> String {
        guard !rules.isEmpty else { return "No capacity rules.\n" }
        var table = Table("RULE", "CAPACITY", rightAligned: [1])
        for rule in rules {
            table.add(rule.label + (rule.range.runsPastMidnight ? " (past midnight)" : ""), "\(rule.capacity)")
        }
        return table.rendered
    }

    static let set = Command(
        name: "set",
        abstract: "Set the capacity of a time range on some weekdays or dates.",
        arguments: [days, range, pizzas],
        options: [station],
        examples: [
            "pizzeria capacity set fri,sat 18:30-21:00 20", "pizzeria capacity set 2026-12-31 19:00-23:00 30",
            "pizzeria capacity set sun 12:00-15:00 6", "pizzeria capacity set fri 19:00-22:00 8 --station Friggitrice",
        ],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let interval = try invocation[range]
            let chosen = try station(invocation, pizzeria)
            let parsed = try parseDays(try invocation[days], pizzeria)
            guard let chosen, !chosen.holdsSlotCapacity else {
                let rules = try pizzeria.capacity.set(parsed, interval, capacity: try invocation[pizzas])
                try context.emit(rules) {
                    rules.map { "Capacity \($0.label): \($0.capacity) pizzas per slot.\n" }.joined()
                }
                return .ok
            }
            let rules = try pizzeria.capacity.set(parsed, interval, capacity: try invocation[pizzas], at: chosen.id)
            try context.emit(rules) {
                rules.map { "Capacity of \(chosen.name) \($0.label): \($0.capacity) pieces per slot.\n" }.joined()
            }
            return .ok
        })

    static let clearRange = OptionalArgument(
        "range", help: "Only the rules with this range (default: all of those days).", .interval)

    static let clear = Command(
        name: "clear",
        abstract: "Remove the capacity rules of some weekdays or dates.",
        arguments: [days, clearRange],
        options: [station],
        examples: [
            "pizzeria capacity clear fri,sat 18:30-21:00", "pizzeria capacity clear 2026-12-31",
            "pizzeria capacity clear fri --station Friggitrice",
        ],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let interval = try invocation[clearRange]
            let parsed = try parseDays(try invocation[days], pizzeria)
            let chosen = try station(invocation, pizzeria)
            let removed =
                try chosen.map { try pizzeria.capacity.clear(parsed, range: interval, at: $0.id) }
                ?? pizzeria.capacity.clear(parsed, range: interval)
            try context.emit(["removed": removed]) { "Removed \(removed) capacity rule\(removed == 1 ? "" : "s").\n" }
            return .ok
        })

    // MARK: - pause, resume, busy

    static let until = Option(
        "until", "time", help: "When it ends by itself: HH:MM today, YYYY-MM-DDTHH:MM, or ISO-8601 with an offset.")
    static let reason = Option("reason", "text", help: "Why, as customers are told (at most 200 characters).")

    /// A time as typed, in the pizzeria's zone.
    static func time(_ text: String?, _ pizzeria: Pizzeria, field: String = "until") throws -> Date? {
        guard let text else { return nil }
        return try relabeling(field) { try pizzeria.orders.pickup(parsing: text) }
    }

    static let pause = Command(
        name: "pause",
        abstract: "Stop taking new bookings at once (existing orders are untouched).",
        discussion:
            "With --until the pause ends by itself; without, `pizzeria resume` ends it. Bookings meanwhile exit 1 with the reason.",
        options: [until, reason],
        examples: ["pizzeria pause --until 21:00 --reason \"oven repair\"", "pizzeria pause"],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let zone = try pizzeria.settings.current().timeZone
            let pause = try pizzeria.capacity.pause(
                until: try time(try invocation[until], pizzeria), reason: try invocation[reason])
            try context.emit(pause) { "Paused: " + OrderError.paused(pause: pause, zone: zone).description + ".\n" }
            return .ok
        })

    static let resume = Command(
        name: "resume",
        abstract: "Take bookings again after a pause.",
        run: { invocation in
            let context = invocation.context
            try context.open(.requireCurrent).capacity.resume()
            try context.emit(["paused": false]) { "Taking bookings again.\n" }
            return .ok
        })

    static let minutes = Argument("minutes", help: "Minutes added to the lead time (1 to 1440), or off.")

    static let busy = Command(
        name: "busy",
        abstract: "A rush: add minutes to the lead time until a time, or until `busy off`.",
        discussion:
            "New bookings then need the lead time plus MINUTES; existing orders are untouched. It ends by itself at --until.",
        arguments: [minutes],
        options: [until],
        examples: ["pizzeria busy 30 --until 21:30", "pizzeria busy off"],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let text = try invocation[minutes]
            if text.lowercased() == "off" {
                try pizzeria.capacity.endRush()
                try context.emit(["rush": nil as Int?]) { "No rush: the lead time is back to normal.\n" }
                return .ok
            }
            guard let value = Int(text) else {
                throw ValidationError([
                    FieldError(
                        field: "minutes",
                        message: "must be a number of minutes (1 to \(Rush.maximumMinutes)) or off, not '\(text)'")
                ])
            }
            let settings = try pizzeria.settings.current()
            let rush = try pizzeria.capacity.rush(minutes: value, until: try time(try invocation[until], pizzeria))
            try context.emit(rush) {
                "Rush: \(rush.minutes) extra minutes, lead time \(settings.leadMinutes + rush.minutes) minutes"
                    + (rush.until.map { " until \(PickupTime.local($0, in: settings.timeZone))" } ?? " until `busy off`")
                    + ".\n"
            }
            return .ok
        })

    /// Pause and rush for `config show` and `hours show`.
    static func stateText(_ settings: Settings) -> String {
        var lines: [String] = []
        if let pause = settings.pause {
            lines.append("Paused: " + OrderError.paused(pause: pause, zone: settings.timeZone).description + ".")
        }
        if let rush = settings.rush {
            lines.append(
                "Rush: +\(rush.minutes) minutes (lead time \(settings.leadMinutes + rush.minutes))"
                    + (rush.until.map { " until \(PickupTime.local($0, in: settings.timeZone))" } ?? " until `busy off`")
                    + ".")
        }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }
}
