import Foundation
import PizzeriaTestSupport
import Testing

/// A temporary working directory and shortcuts for running the real `pizzeria` binary in it.
struct CLI {
    let directory = TemporaryDirectory()
    var environment: [String: String] = [:]

    /// The default database of the working directory.
    var databasePath: String { directory.path("pizzeria.sqlite") }

    func run(_ arguments: String..., stdin: String? = nil) throws -> ProcessResult {
        try run(arguments, stdin: stdin)
    }

    func run(_ arguments: [String], stdin: String? = nil, timeout: Double? = nil) throws -> ProcessResult {
        try PizzeriaBinary.run(arguments, in: directory.url, environment: environment, stdin: stdin, timeout: timeout)
    }

    /// Starts `pizzeria arguments…` without waiting.
    func start(_ arguments: [String]) throws -> RunningProcess {
        try PizzeriaBinary.start(arguments, in: directory.url, environment: environment)
    }

    /// Runs and requires exit 0, recording the output otherwise.
    @discardableResult
    func ok(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> ProcessResult {
        try ok(arguments, sourceLocation: sourceLocation)
    }

    /// ``ok(_:sourceLocation:)`` with the arguments in an array.
    @discardableResult
    func ok(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> ProcessResult {
        let result = try run(arguments)
        #expect(
            result.status == 0, "pizzeria \(arguments.joined(separator: " ")):\n\(result)",
            sourceLocation: sourceLocation)
        return result
    }

    /// Runs and decodes stdout as JSON.
    func json(_ arguments: String...) throws -> Any { try json(arguments) }

    /// ``json(_:)`` with the arguments in an array.
    func json(_ arguments: [String]) throws -> Any {
        let result = try run(["--json"] + arguments)
        #expect(result.status == 0, "\(result)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8), options: [.fragmentsAllowed])
    }

    /// Runs the `sqlite3` shell on the default database.
    func sqlite(_ sql: String, readOnly: Bool = false) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3"] + (readOnly ? ["-readonly"] : []) + ["-bail", databasePath, sql]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ProcessResult(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// SHA-like identity of the database file's bytes.
    func databaseBytes() -> Data? { fileBytes(databasePath) }
}
