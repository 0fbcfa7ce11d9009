import PizzeriaServices
/// A parsed command line: the command chosen, its options and its positional arguments, plus
/// the context to run it in.
struct Invocation: Sendable {
    /// The command that runs.
    let command: Command
    /// `["pizzeria", "pizza", "add"]`.
    let path: [String]
    /// Option values by long name; a repeated option keeps every value.
    let values: [String: [String]]
    /// Flags given, by long name.
    let flags: Set<String>
    /// Positional arguments, in order.
    let positionals: [String]
    /// Database path, output mode, console and terminal.
    let context: Context

    /// The last value of `--name`, if given.
    func option(_ name: String) -> String? { values[name]?.last }

    /// Whether `--name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The positional argument declared as `name`.
    func argument(_ name: String) -> String? {
        guard let index = command.arguments.firstIndex(where: { $0.name == name }),
              index < positionals.count else { return nil }
        return positionals[index]
    }

    /// The positional argument declared as `name`, which the parser guarantees is present.
    func required(_ name: String) throws -> String {
        guard let value = argument(name) else { throw usage("missing argument <\(name)>") }
        return value
    }

    /// Every positional from the variadic argument `name` on.
    func variadic(_ name: String) -> [String] {
        guard let index = command.arguments.firstIndex(where: { $0.name == name }),
              index < positionals.count else { return [] }
        return Array(positionals[index...])
    }

    /// An integer option, or `fallback` when absent.
    /// - Throws: a usage error when the value is not an integer in `range`.
    func integer(_ name: String, default fallback: Int? = nil, in range: ClosedRange<Int> = Int.min...Int.max) throws -> Int? {
        guard let text = option(name) else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw ValidationError([FieldError(field: name, message: "must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")])
        }
        return value
    }

    /// Whether `--csv` was given (list commands); it cannot be combined with `--json`.
    func csv() throws -> Bool {
        guard flag("csv") else { return false }
        if context.json { throw usage("--csv and --json cannot be combined") }
        return true
    }

    /// A page cursor given as `--name CURSOR`, if any.
    func cursor(_ name: String) throws -> PageCursor? {
        guard let text = option(name) else { return nil }
        guard let cursor = PageCursor(text) else {
            throw ValidationError([FieldError(field: name, message: "is not a cursor printed by this command ('next')")])
        }
        return cursor
    }

    /// A usage error for this command.
    func usage(_ message: String) -> UsageError { UsageError(message: message, path: path, command: command) }
}
