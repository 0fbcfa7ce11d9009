import PizzeriaServices

/// `pizzeria config …`: the booking settings stored in the database.
enum ConfigCommands {
    static let command = Command(
        name: "config",
        abstract: "Show or change the settings: slot length, capacity, opening hours, time zone.",
        subcommands: [show, set])

    static let show = Command(
        name: "show",
        abstract: "Show the settings.",
        run: { invocation in
            let context = invocation.context
            let settings = try context.open(.requireCurrent).settings.current()
            try context.emit(settings) { text(settings) }
            return .ok
        })

    static let set = Command(
        name: "set",
        abstract: "Change one setting (validated).",
        discussion: "KEY is one of:\n" + SettingKey.allCases.map { "  \($0.rawValue.padding(to: 15)) \($0.rule)" }.joined(separator: "\n"),
        arguments: [Argument(name: "key", help: "slot-minutes, slot-capacity, opening-hours or time-zone."),
                    Argument(name: "value", help: "The new value.")],
        examples: ["pizzeria config set slot-capacity 20", "pizzeria config set opening-hours 11:30-22:00",
                   "pizzeria config set time-zone Europe/Rome"],
        run: { invocation in
            let context = invocation.context
            let name = try invocation.required("key")
            guard let key = SettingKey(rawValue: name) else {
                var error = invocation.usage("unknown setting '\(name)'")
                if let close = Suggestion.closest(to: name, among: SettingKey.allCases.map(\.rawValue)) {
                    error.suggestion = "did you mean '\(close)'?"
                }
                throw error
            }
            let settings = try context.open(.requireCurrent).settings.set(key, to: try invocation.required("value"))
            try context.emit(settings) { text(settings) }
            return .ok
        })

    static func text(_ settings: Settings) -> String {
        var table = Table("SETTING", "VALUE")
        table.add("slot-minutes", "\(settings.slotMinutes)")
        table.add("slot-capacity", "\(settings.slotCapacity) pizzas")
        table.add("opening-hours", settings.openingHours + " (every day)")
        table.add("time-zone", settings.timeZone.identifier + (settings.storedTimeZone == nil ? " (this machine's)" : ""))
        return table.rendered
    }
}
