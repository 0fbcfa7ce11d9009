import PizzeriaServices

/// Turns any error into its `error: …` lines on stderr and its exit code. One place decides,
/// so every command reports the same failure the same way: the services classify the error
/// (``FailureReport``), the CLI adds its exit code and its hints.
enum ErrorReport {
    static func report(_ error: Error, console: Console) -> ExitCode {
        switch error {
        case let usage as UsageError:
            var text = "error: \(usage.message)\n"
            if let suggestion = usage.suggestion { text += "hint: \(suggestion)\n" }
            text += "usage: \(Help.usageLine(usage.command, path: usage.path))\n"
            text += "  See '\(usage.path.joined(separator: " ")) --help' for more information.\n"
            console.err(text)
            return .usage

        case let io as FileError:
            console.error(io.message)
            return .io

        default:
            let report = FailureReport(error)
            for (index, message) in report.messages.enumerated() {
                console.error(message, hint: index == report.messages.count - 1 ? hint(for: error, report: report) : nil)
            }
            return exitCode(report.category)
        }
    }

    static func exitCode(_ category: FailureCategory) -> ExitCode {
        switch category {
        case .invalidInput, .unusableDatabase: .invalidInput
        case .notFound: .notFound
        case .refused: .refused
        case .busy: .busy
        case .io: .io
        case .internal: .internal
        }
    }

    /// What to do next, in the CLI's words.
    static func hint(for error: Error, report: FailureReport) -> String? {
        if let failure = error as? PizzeriaFailure, let hint = failure.hint { return hint }
        switch report.remedy {
        case .migrate: return "run `pizzeria init` to apply the pending migrations"
        case .createDatabase: return "create it with `pizzeria init` (or pass --db PATH / set PIZZERIA_DB)"
        case .useAnotherFile: return "point --db at a Pizzeria database, or at a new file to create one"
        case .chooseAnotherDestination: return "choose a new file name"
        case .retryLater: return "try again in a moment"
        case nil: return nil
        }
    }
}

/// Reading or writing a file other than the database failed.
struct FileError: Error {
    let message: String
}
