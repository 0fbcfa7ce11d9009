import PizzeriaServices
/// Turns `argv` into an ``Invocation`` against the command tree.
///
/// Accepted forms: `--option value`, `--option=value`, `-h`, flags anywhere after the command
/// words, `--` to end options (so a value may start with a dash), and `-` as a positional
/// (standard input). The standard options (`--db`, `--json`, `--help`) work at every level. A
/// negative number (`-1`) is a value, not an option.
///
/// One scan serves both running a command line and completing one: completion asks the same
/// scan where the cursor stands (which command, which option is waiting for its value, which
/// argument comes next) instead of parsing the words again its own way.
struct Parser {
    let root: Command

    enum Outcome {
        case run(Invocation)
        case help(Command, path: [String])
        case version
    }

    /// What a scan of the words found.
    struct Scan {
        /// The command the words select.
        var command: Command
        /// `["pizzeria", "pizza", "add"]`.
        var path: [String]
        var values: ParsedValues
        /// Whether `--` ended the options.
        var optionsEnded = false
        /// An option given last, still waiting for its value (completion only: a strict scan refuses it).
        var pendingOption: OptionSpec?
    }

    /// How a scan treats words it cannot place.
    enum Mode {
        /// Running: an unknown option or command, or an option without its value, is a usage error.
        case strict
        /// Completing a line being typed: such words are passed over.
        case lenient
    }

    func parse(_ arguments: [String], context: (ParsedValues) throws -> Context) throws -> Outcome {
        // `pizzeria help [command…]` is help for that command.
        if arguments.first == "help" {
            var target = root
            var targetPath = [root.name]
            for word in arguments.dropFirst() {
                guard let sub = target.subcommand(named: word) else {
                    throw unknownCommand(word, in: target, path: targetPath)
                }
                target = sub
                targetPath.append(word)
            }
            return .help(target, path: targetPath)
        }
        let scan = try self.scan(arguments, mode: .strict)
        let (command, path, values) = (scan.command, scan.path, scan.values)
        if try values[GlobalOptions.help] { return .help(command, path: path) }
        // Only the root declares --version, so only there can the scan have found it.
        if values.flags.contains(GlobalOptions.version.spec.long) { return .version }
        guard command.run != nil else {
            if path.count == 1, arguments.isEmpty { return .help(command, path: path) }
            throw UsageError(
                message: "'\(path.joined(separator: " "))' needs a subcommand", path: path, command: command)
        }
        try checkArity(values, of: command, path: path)
        try checkExclusive(values, of: command, path: path)
        var context = try context(values)
        context.commandPath = path
        context.staffOption = values.lastValue(long: "by")
        return .run(Invocation(path: path, values: values, context: context))
    }

    /// Refuses a command line that gives two options of one of the command's exclusive groups.
    func checkExclusive(_ values: ParsedValues, of command: Command, path: [String]) throws {
        for group in command.exclusive {
            let given = group.filter { values.gave($0) }
            guard given.count > 1 else { continue }
            throw UsageError(
                message: "give " + given.map { "--\($0.long)" }.joined(separator: " or ") + ", not both", path: path,
                command: command)
        }
    }

    /// Walks the words: command words first, then options and positionals in any order.
    func scan(_ arguments: [String], mode: Mode) throws -> Scan {
        var scan = Scan(command: root, path: [root.name], values: ParsedValues(command: root))
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if !scan.optionsEnded, argument == "--" { scan.optionsEnded = true; continue }

            if !scan.optionsEnded, argument.hasPrefix("-"), argument != "-", !Self.isNegativeNumber(argument) {
                let (name, inline) = Self.split(argument)
                guard let option = scan.command.option(named: name) else {
                    if mode == .lenient { continue }
                    var error = UsageError(message: "unknown option '\(name)'", path: scan.path, command: scan.command)
                    if let close = Spelling.closest(to: name, among: scan.command.allOptions.map { "--\($0.long)" }) {
                        error.suggestion = "did you mean '\(close)'?"
                    }
                    throw error
                }
                if option.takesValue {
                    if let inline {
                        scan.values.add(inline, for: option)
                    } else if index < arguments.count {
                        scan.values.add(arguments[index], for: option)
                        index += 1
                    } else if mode == .lenient {
                        scan.pendingOption = option
                    } else {
                        throw UsageError(
                            message: "option '--\(option.long)' needs a value <\(option.valueName ?? "value")>",
                            path: scan.path, command: scan.command)
                    }
                } else {
                    guard inline == nil || mode == .lenient else {
                        throw UsageError(
                            message: "option '--\(option.long)' takes no value", path: scan.path, command: scan.command)
                    }
                    scan.values.flags.insert(option.long)
                }
                continue
            }

            if scan.values.positionals.isEmpty, !scan.command.subcommands.isEmpty, !scan.optionsEnded {
                if let sub = scan.command.subcommand(named: argument) {
                    scan.command = sub
                    scan.path.append(argument)
                    scan.values.command = sub
                    continue
                }
                if mode == .strict {
                    if try scan.values[GlobalOptions.help] { break }
                    throw unknownCommand(argument, in: scan.command, path: scan.path)
                }
            }
            scan.values.positionals.append(argument)
        }
        return scan
    }

    /// `-1`, `-2.5`: a value (the rule that refuses it names the field), never an option.
    static func isNegativeNumber(_ argument: String) -> Bool {
        let rest = argument.dropFirst()
        let digit: (Character) -> Bool = { $0.isASCII && $0.isNumber }
        return rest.first.map(digit) == true && rest.allSatisfy { digit($0) || $0 == "." || $0 == "," }
    }

    /// `--name=value` → (`--name`, `value`); any other word → (word, `nil`).
    static func split(_ argument: String) -> (name: String, inline: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    private func unknownCommand(_ word: String, in command: Command, path: [String]) -> UsageError {
        var error = UsageError(
            message: "unknown command '\(word)' for '\(path.joined(separator: " "))'", path: path, command: command)
        if let close = Spelling.closest(to: word, among: command.subcommands.map(\.name)) {
            error.suggestion = "did you mean '\(close)'?"
        }
        return error
    }

    private func checkArity(_ values: ParsedValues, of command: Command, path: [String]) throws {
        let positionals = values.positionals
        if let missing = command.options.first(where: { $0.isRequired && values.raw[$0.long] == nil }) {
            throw UsageError(
                message: "missing option --\(missing.long) <\(missing.valueName ?? "value")>", path: path,
                command: command)
        }
        let required = command.arguments.filter { !$0.isOptional && !$0.isVariadic }
        if positionals.count < required.count {
            let missing = required[positionals.count]
            throw UsageError(message: "missing argument <\(missing.name)>", path: path, command: command)
        }
        if !command.arguments.contains(where: \.isVariadic), positionals.count > command.arguments.count {
            throw UsageError(
                message: "unexpected argument '\(positionals[command.arguments.count])'", path: path, command: command)
        }
        if let variadic = command.arguments.first(where: \.isVariadic), !variadic.isOptional,
            positionals.count < command.arguments.count
        {
            throw UsageError(message: "missing argument <\(variadic.name)>", path: path, command: command)
        }
    }
}
