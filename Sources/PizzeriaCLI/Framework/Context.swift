import Foundation
import PizzeriaServices
import PizzeriaStorage

/// What every command runs with: the database path, the output mode, the console, the terminal.
struct Context: Sendable {
    /// `--db`, else `$PIZZERIA_DB`, else `./pizzeria.sqlite`.
    let databasePath: String
    /// `--json`.
    let json: Bool
    /// Where output goes.
    let console: Console
    /// Whether a person is typing, and their input.
    let terminal: Terminal
    /// The process environment (time zone overrides and the like).
    let environment: [String: String]

    static func databasePath(option: String?, environment: [String: String]) -> String {
        if let option, !option.isEmpty { return option }
        if let fromEnvironment = environment["PIZZERIA_DB"], !fromEnvironment.isEmpty { return fromEnvironment }
        return "pizzeria.sqlite"
    }

    /// Opens the database for `access`. Any access but `.migrate` requires the file to exist
    /// and never creates it.
    /// - Throws: ``MissingDatabase`` (exit 66) when the file is missing.
    func open(_ access: SchemaMigrator.Access) throws -> Pizzeria {
        if access != .migrate, !FileManager.default.fileExists(atPath: databasePath) {
            throw MissingDatabase(path: databasePath)
        }
        return try Pizzeria.open(path: databasePath, access: access, configuration: try configuration())
    }

    /// The connection settings: defaults, with the busy timeout from `$PIZZERIA_BUSY_TIMEOUT_MS`
    /// when set (how long to wait for another process's lock before exiting 75).
    func configuration() throws -> DatabaseConfiguration {
        var configuration = DatabaseConfiguration()
        if let text = environment["PIZZERIA_BUSY_TIMEOUT_MS"], !text.isEmpty {
            guard let milliseconds = Int32(text), (0...600_000).contains(milliseconds) else {
                throw ValidationError([FieldError(field: "PIZZERIA_BUSY_TIMEOUT_MS", message: "must be a whole number of milliseconds from 0 to 600000, not '\(text)'")])
            }
            configuration.busyTimeoutMilliseconds = milliseconds
        }
        return configuration
    }

    // MARK: - Output

    /// Prints `value` as JSON (sorted keys, pretty-printed) on stdout.
    func printJSON<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        console.line(String(decoding: data, as: UTF8.self))
    }

    /// Prints text for people, or `value` as JSON with `--json`.
    func emit<T: Encodable>(_ value: T, text: () -> String) throws {
        if json { try printJSON(value) } else { console.out(text()) }
    }
}

/// The database file does not exist, and this command does not create one.
struct MissingDatabase: Error {
    let path: String
}
