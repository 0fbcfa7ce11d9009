/// Turns `argv` into an ``Invocation`` against the command tree.
///
/// Accepted forms: `--option value`, `--option=value`, `-h`, flags anywhere after the command
/// words, `--` to end options (so a value may start with a dash), and `-` as a positional
/// (standard input). Global options (`--db`, `--json`, `--help`) work at every level. A negative
/// number (`-1`) is a value, not an option.
struct Parser {
    let root: Command

    enum Outcome {
        case run(Invocation)
        case help(Command, path: [String])
        case version
    }

    func parse(_ arguments: [String], context: (_ values: [String: [String]], _ flags: Set<String>) -> Context) throws -> Outcome {
        var command = root
        var path = [root.name]
        var values: [String: [String]] = [:]
        var flags = Set<String>()
        var positionals: [String] = []
        var optionsEnded = false
        var index = 0

        // `pizzeria help [command…]` is help for that command.
        if arguments.first == "help" {
            var target = root
            var targetPath = path
            for word in arguments.dropFirst() {
                guard let sub = target.subcommand(named: word) else {
                    throw unknownCommand(word, in: target, path: targetPath)
                }
                target = sub
                targetPath.append(word)
            }
            return .help(target, path: targetPath)
        }

        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if !optionsEnded, argument == "--" { optionsEnded = true; continue }

            if !optionsEnded, argument.hasPrefix("-"), argument != "-", !Self.isNegativeNumber(argument) {
                let (name, inline) = split(argument)
                let available = command.options + GlobalOptions.all + (command.name == root.name ? [GlobalOptions.version] : [])
                guard let option = available.first(where: { matches($0, name) }) else {
                    var error = UsageError(message: "unknown option '\(name)'", path: path, command: command)
                    if let close = Suggestion.closest(to: name, among: available.map { "--\($0.long)" }) {
                        error.suggestion = "did you mean '\(close)'?"
                    }
                    throw error
                }
                if option.takesValue {
                    if let inline {
                        values[option.long, default: []].append(inline)
                    } else if index < arguments.count {
                        values[option.long, default: []].append(arguments[index])
                        index += 1
                    } else {
                        throw UsageError(message: "option '--\(option.long)' needs a value <\(option.valueName ?? "value")>", path: path, command: command)
                    }
                } else {
                    guard inline == nil else {
                        throw UsageError(message: "option '--\(option.long)' takes no value", path: path, command: command)
                    }
                    flags.insert(option.long)
                }
                continue
            }

            if positionals.isEmpty, !command.subcommands.isEmpty, !optionsEnded {
                guard let sub = command.subcommand(named: argument) else {
                    if flags.contains("help") { break }
                    throw unknownCommand(argument, in: command, path: path)
                }
                command = sub
                path.append(argument)
                continue
            }
            positionals.append(argument)
        }

        if flags.contains("help") { return .help(command, path: path) }
        if flags.contains("version") { return .version }
        guard command.run != nil else {
            if command.name == root.name, arguments.isEmpty { return .help(command, path: path) }
            throw UsageError(message: "'\(path.joined(separator: " "))' needs a subcommand", path: path, command: command)
        }
        try checkArity(positionals, values: values, of: command, path: path)
        return .run(Invocation(command: command, path: path, values: values, flags: flags,
                               positionals: positionals, context: context(values, flags)))
    }

    /// `-1`, `-2.5`: a value (the rule that refuses it names the field), never an option.
    static func isNegativeNumber(_ argument: String) -> Bool {
        let rest = argument.dropFirst()
        let digit: (Character) -> Bool = { $0.isASCII && $0.isNumber }
        return rest.first.map(digit) == true && rest.allSatisfy { digit($0) || $0 == "." || $0 == "," }
    }

    private func split(_ argument: String) -> (name: String, inline: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    private func matches(_ option: Option, _ name: String) -> Bool {
        name == "--\(option.long)" || option.short.map { name == "-\($0)" } == true
    }

    private func unknownCommand(_ word: String, in command: Command, path: [String]) -> UsageError {
        var error = UsageError(message: "unknown command '\(word)' for '\(path.joined(separator: " "))'", path: path, command: command)
        if let close = Suggestion.closest(to: word, among: command.subcommands.map(\.name)) {
            error.suggestion = "did you mean '\(close)'?"
        }
        return error
    }

    private func checkArity(_ positionals: [String], values: [String: [String]], of command: Command, path: [String]) throws {
        if let missing = command.options.first(where: { $0.isRequired && values[$0.long] == nil }) {
            throw UsageError(message: "missing option --\(missing.long) <\(missing.valueName ?? "value")>", path: path, command: command)
        }
        let required = command.arguments.filter { !$0.isOptional && !$0.isVariadic }
        if positionals.count < required.count {
            let missing = required[positionals.count]
            throw UsageError(message: "missing argument <\(missing.name)>", path: path, command: command)
        }
        if !command.arguments.contains(where: \.isVariadic), positionals.count > command.arguments.count {
            throw UsageError(message: "unexpected argument '\(positionals[command.arguments.count])'", path: path, command: command)
        }
        if let variadic = command.arguments.first(where: \.isVariadic), !variadic.isOptional,
           positionals.count < command.arguments.count {
            throw UsageError(message: "missing argument <\(variadic.name)>", path: path, command: command)
        }
    }
}
