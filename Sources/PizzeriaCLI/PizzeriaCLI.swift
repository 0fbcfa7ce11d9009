import Foundation
import PizzeriaServices

/// The `pizzeria` command line, callable in-process (the tests do) or from `main.swift`.
public enum PizzeriaCLI {
    /// The version `--version` prints.
    public static let version = "0.1.0"

    /// The `pizzeria` process: secures the standard streams, checks that every argument is
    /// valid UTF-8 (65 otherwise, instead of a silent U+FFFD), runs the command line and exits.
    public static func main() -> Never {
        StandardStream.secure()
        var arguments: [String] = []
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index], let argument = String(validatingCString: pointer) else {
                _ = StandardStream.write("error: argument \(index) is not valid UTF-8\n", to: STDERR_FILENO)
                exit(ExitCode.invalidInput.rawValue)
            }
            arguments.append(argument)
        }
        exit(run(arguments: arguments))
    }

    /// Parses a command line against the command tree without running anything (for fuzzing and
    /// for tools that check command lines).
    /// - Returns: whether it is a valid command line; a usage error's message otherwise.
    public static func check(arguments: [String]) -> Result<Void, UsageFailure> {
        do {
            _ = try Parser(root: CommandTree.root).parse(arguments) { values in
                Context(
                    databasePath: "", json: try values[GlobalOptions.json],
                    console: Console(out: { _ in }, err: { _ in }),
                    terminal: .none, environment: [:])
            }
            return .success(())
        } catch let usage as UsageError {
            return .failure(UsageFailure(message: usage.message))
        } catch {
            return .failure(UsageFailure(message: "\(error)"))
        }
    }

    /// Why a command line is not valid.
    public struct UsageFailure: Error, Sendable, Equatable {
        /// The usage error, as `pizzeria` would print it after `error: `.
        public let message: String
    }

    /// Runs one command line and returns its exit code; never exits the process.
    ///
    /// - Parameters:
    ///   - arguments: the arguments after the program name.
    ///   - environment: the process environment (`PIZZERIA_DB` is read from it).
    ///   - console: where output goes.
    ///   - terminal: whether a person is typing, and their input.
    public static func run(
        arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
        console: Console = .standard, terminal: Terminal = .standard
    ) -> Int32 {
        if let failure = console.outputFailure {
            console.error("cannot write to standard output: \(failure); nothing was done")
            return ExitCode.io.rawValue
        }
        var lostOutputHint: String?
        let code = execute(
            arguments: arguments, environment: environment, console: console, terminal: terminal,
            lostOutputHint: &lostOutputHint)
        if let failure = console.outputFailure {
            console.error(
                "cannot write to standard output: \(failure)", hint: code == ExitCode.ok.rawValue ? lostOutputHint : nil
            )
            return ExitCode.io.rawValue
        }
        return code
    }

    private static func execute(
        arguments: [String], environment: [String: String], console: Console, terminal: Terminal,
        lostOutputHint: inout String?
    ) -> Int32 {
        if arguments.first == CompletionCommands.entryPoint {
            CompletionCommands.complete(Array(arguments.dropFirst()), environment: environment, console: console)
            return ExitCode.ok.rawValue
        }
        let parser = Parser(root: CommandTree.root)
        do {
            let outcome = try parser.parse(arguments) { values in
                let platform = try Context.Platform(
                    shops: try values[GlobalOptions.shops], placement: try values[GlobalOptions.placement],
                    node: try values[GlobalOptions.node], environment: environment)
                let shop = try values[GlobalOptions.shop]
                var context = Context(
                    databasePath: try Context.databasePath(
                        option: try values[GlobalOptions.database], shop: shop, platform: platform,
                        environment: environment),
                    json: try values[GlobalOptions.json], console: console, terminal: terminal, environment: environment
                )
                context.platform = platform
                context.isShop = shop != nil
                return context
            }
            switch outcome {
            case .help(let command, let path):
                console.out(Help.page(command, path: path))
                return ExitCode.ok.rawValue
            case .version:
                console.line("pizzeria \(version)")
                return ExitCode.ok.rawValue
            case .run(let invocation):
                guard let run = invocation.command.run else { return ExitCode.internal.rawValue }
                lostOutputHint = invocation.command.lostOutputHint
                return try run(invocation).rawValue
            }
        } catch {
            return ErrorReport.report(error, console: console).rawValue
        }
    }
}
