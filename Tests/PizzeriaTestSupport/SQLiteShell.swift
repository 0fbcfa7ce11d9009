import Foundation

/// A `sqlite3` shell left open, as an analyst leaves one: statements are sent to its standard
/// input while it keeps running, so it can hold a transaction open across a test.
public final class SQLiteShell: @unchecked Sendable {
    // @unchecked: the process and the pipe are only used from the test that owns the shell.
    private let process = Process()
    private let input = Pipe()
    private let outputURL: URL

    /// The shell's process id.
    public var pid: Int32 { process.processIdentifier }

    /// Starts `sqlite3 [-readonly] PATH`; its output goes to a file beside the database.
    public init(databasePath: String, readOnly: Bool = false) throws {
        outputURL = URL(fileURLWithPath: databasePath + ".shell-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3"] + (readOnly ? ["-readonly"] : []) + [databasePath]
        process.standardInput = input
        let output = try FileHandle(forWritingTo: outputURL)
        defer { try? output.close() }
        process.standardOutput = output
        process.standardError = output
        try process.run()
    }

    /// Sends text (statements or dot-commands) to the shell.
    public func send(_ text: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    /// Sends `sql` followed by a `SELECT` of `marker`, and waits until the shell printed the
    /// marker: the statements before it have run.
    public func run(_ sql: String, timeout: Double = 10) throws {
        let marker = "done-\(UUID().uuidString.prefix(8))"
        try send(sql + "\nSELECT '\(marker)';\n")
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if output.contains(marker) { return }
            usleep(5_000)
        }
        throw ShellTimeout(output: output)
    }

    /// What the shell printed so far.
    public var output: String {
        String(decoding: FileManager.default.contents(atPath: outputURL.path) ?? Data(), as: UTF8.self)
    }

    /// Ends the shell (rolling back anything still open) and waits for it.
    public func close() {
        try? send("ROLLBACK;\n.quit\n")
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: outputURL)
    }

    deinit { if process.isRunning { close() } }
}

/// The shell did not get through its statements in time.
public struct ShellTimeout: Error, CustomStringConvertible {
    /// What it printed.
    public let output: String
    /// For failure messages.
    public var description: String { "sqlite3 shell timed out; output:\n\(output)" }
}
