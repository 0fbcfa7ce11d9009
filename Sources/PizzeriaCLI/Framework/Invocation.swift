import PizzeriaServices

/// What the parser found on a command line, read back through the commands' typed declarations:
/// `values[Self.pickup]` is a `String?`, `values[Self.limit]` an `Int?` (parsed on reading,
/// refused with exit 65 naming the field), `values[Self.all]` a `Bool`.
struct ParsedValues: Sendable {
    /// The command the values belong to.
    var command: Command
    /// Option values by long name; a repeated option keeps every value.
    private(set) var raw: [String: [String]] = [:]
    /// Flags given, by long name.
    var flags = Set<String>()
    /// Positional arguments, in order.
    var positionals: [String] = []

    init(command: Command) { self.command = command }

    mutating func add(_ value: String, for option: OptionSpec) { raw[option.long, default: []].append(value) }

    /// Whether the command line gave the option or flag at all.
    func gave(_ spec: OptionSpec) -> Bool { raw[spec.long] != nil || flags.contains(spec.long) }

    /// The last value given for the option with this long name, whatever declares it.
    func lastValue(long: String) -> String? { raw[long]?.last }

    /// Whether the flag was given; a flag the command did not declare is the program's mistake
    /// (exit 70, in every build), as for options.
    subscript(flag: Flag) -> Bool {
        get throws {
            try requireDeclared(flag.spec)
            return flags.contains(flag.spec.long)
        }
    }

    /// The option's last value, parsed; `nil` when it was not given.
    subscript<Value>(option: Option<Value>) -> Value? {
        get throws {
            try requireDeclared(option.spec)
            return try raw[option.spec.long]?.last.map { try option.parser.parse($0, option.spec.long) }
        }
    }

    /// A required option's last value, parsed (the parser guarantees it is there).
    subscript<Value>(option: RequiredOption<Value>) -> Value {
        get throws {
            try requireDeclared(option.spec)
            guard let text = raw[option.spec.long]?.last else {
                throw UsageError(
                    message: "missing option --\(option.spec.long)", path: [command.name], command: command)
            }
            return try option.parser.parse(text, option.spec.long)
        }
    }

    /// Every value of a repeatable option, parsed, in order.
    subscript<Value>(all option: Option<Value>) -> [Value] {
        get throws {
            try requireDeclared(option.spec)
            return try (raw[option.spec.long] ?? []).map { try option.parser.parse($0, option.spec.long) }
        }
    }

    /// A required argument, parsed (the parser guarantees it is there).
    subscript<Value>(argument: Argument<Value>) -> Value {
        get throws {
            guard let text = try positional(argument.spec).first else {
                throw UsageError(
                    message: "missing argument <\(argument.spec.name)>", path: [command.name], command: command)
            }
            return try argument.parser.parse(text, argument.spec.name)
        }
    }

    /// An optional argument, parsed; `nil` when it was left out.
    subscript<Value>(argument: OptionalArgument<Value>) -> Value? {
        get throws { try positional(argument.spec).first.map { try argument.parser.parse($0, argument.spec.name) } }
    }

    /// Every word of a variadic argument, parsed, in order.
    subscript<Value>(argument: VariadicArgument<Value>) -> [Value] {
        get throws { try positional(argument.spec).map { try argument.parser.parse($0, argument.spec.name) } }
    }

    /// The words given for a declared argument: one, or every remaining one for a variadic.
    private func positional(_ spec: ArgumentSpec) throws -> ArraySlice<String> {
        guard let index = command.arguments.firstIndex(where: { $0.name == spec.name }) else {
            throw InternalError("<\(spec.name)> is not an argument of '\(command.name)'")
        }
        guard index < positionals.count else { return [] }
        return spec.isVariadic ? positionals[index...] : positionals[index...index]
    }

    private func isDeclared(_ spec: OptionSpec) -> Bool { command.allOptions.contains { $0.long == spec.long } }

    private func requireDeclared(_ spec: OptionSpec) throws {
        guard isDeclared(spec) else { throw InternalError("--\(spec.long) is not an option of '\(command.name)'") }
    }
}

/// A mistake in the program itself (a command reading an option it did not declare): exit 70.
struct InternalError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A parsed command line: the command chosen, its values, and the context to run it in.
struct Invocation: Sendable {
    /// `["pizzeria", "pizza", "add"]`.
    let path: [String]
    /// What the command line gave, read through the command's declarations.
    let values: ParsedValues
    /// Database path, output mode, console and terminal.
    let context: Context

    /// The command that runs.
    var command: Command { values.command }

    /// Whether the flag was given.
    subscript(flag: Flag) -> Bool { get throws { try values[flag] } }
    /// The option's last value, parsed.
    subscript<Value>(option: Option<Value>) -> Value? { get throws { try values[option] } }
    /// Every value of a repeatable option.
    subscript<Value>(all option: Option<Value>) -> [Value] { get throws { try values[all: option] } }
    /// A required option's value, parsed.
    subscript<Value>(option: RequiredOption<Value>) -> Value { get throws { try values[option] } }
    /// A required argument.
    subscript<Value>(argument: Argument<Value>) -> Value { get throws { try values[argument] } }
    /// An optional argument.
    subscript<Value>(argument: OptionalArgument<Value>) -> Value? { get throws { try values[argument] } }
    /// A variadic argument's words.
    subscript<Value>(argument: VariadicArgument<Value>) -> [Value] { get throws { try values[argument] } }

    /// A usage error for this command.
    func usage(_ message: String) -> UsageError { UsageError(message: message, path: path, command: command) }
}
