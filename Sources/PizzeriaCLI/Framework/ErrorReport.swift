import PizzeriaServices
import PizzeriaStorage

/// Turns any error into its `error: …` lines on stderr and its exit code. One place decides,
/// so every command reports the same failure the same way.
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

        case let validation as ValidationError:
            for field in validation.errors { console.error(field.description) }
            return .invalidInput

        case let failure as PizzeriaFailure:
            console.error(failure.description, hint: failure.hint)
            switch failure.category {
            case .invalidInput: return .invalidInput
            case .notFound: return .notFound
            case .refused: return .refused
            }

        case let missing as MissingDatabase:
            console.error("no database at \(missing.path)", hint: "create it with `pizzeria init` (or pass --db PATH / set PIZZERIA_DB)")
            return .notFound

        case let schema as SchemaError:
            switch schema {
            case .migrationsPending:
                console.error(schema.description)
                return .invalidInput
            case .foreignKeyViolation:
                console.error(schema.description)
                return .internal
            default:
                console.error(schema.description, hint: "point --db at a Pizzeria database, or at a new file to create one")
                return .invalidInput
            }

        case let database as DatabaseError:
            switch database.kind {
            case .busy:
                console.error("the database is busy: another process held its lock past the timeout", hint: "try again in a moment")
                return .busy
            case .notADatabase:
                console.error("\(database.message)", hint: "point --db at a Pizzeria database, or at a new file to create one")
                return .invalidInput
            case .io:
                console.error(database.message)
                return .io
            case .constraint:
                console.error("the database refused the change: \(database.message)")
                return .invalidInput
            case .typeMismatch, .misuse, .other:
                console.error("internal error: \(database)")
                return .internal
            }

        case let io as FileError:
            console.error(io.message)
            return .io

        default:
            console.error("internal error: \(error)")
            return .internal
        }
    }
}

/// Reading or writing a file other than the database failed.
struct FileError: Error {
    let message: String
}
