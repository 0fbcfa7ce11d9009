import Foundation
import PizzeriaServices

/// The `pizzeria` command line, callable in-process (the tests do) or from `main.swift`.
public enum PizzeriaCLI {
    /// The version `--version` prints.
    public static let version = "0.1.0"

    /// Runs one command line and returns its exit code; never exits the process.
    ///
    /// - Parameters:
    ///   - arguments: the arguments after the program name.
    ///   - environment: the process environment (`PIZZERIA_DB` is read from it).
    ///   - console: where output goes.
    ///   - terminal: whether a person is typing, and their input.
    public static func run(arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
                           console: Console = .standard, terminal: Terminal = .standard) -> Int32 {
        let parser = Parser(root: CommandTree.root)
        do {
            let outcome = try parser.parse(arguments) { values, flags in
                Context(databasePath: Context.databasePath(option: values["db"]?.last, environment: environment),
                        json: flags.contains("json"), console: console, terminal: terminal, environment: environment)
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
                return try run(invocation).rawValue
            }
        } catch {
            return ErrorReport.report(error, console: console).rawValue
        }
    }
}
