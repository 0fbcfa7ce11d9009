import Foundation

/// What a finished process left behind.
public struct ProcessResult: Sendable, CustomStringConvertible {
    /// The exit status.
    public let status: Int32
    /// Everything written to stdout.
    public let stdout: String
    /// Everything written to stderr.
    public let stderr: String

    /// A result from its parts.
    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    /// For failure messages.
    public var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}

/// The built `pizzeria` executable, run as a black box.
public enum PizzeriaBinary {
    /// `$PIZZERIA_BINARY`, else the `pizzeria` next to the running test bundle (SwiftPM puts
    /// every product of a build in one folder).
    public static var url: URL {
        if let override = ProcessInfo.processInfo.environment["PIZZERIA_BINARY"] {
            return URL(fileURLWithPath: override)
        }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return executable.deletingLastPathComponent().appendingPathComponent("pizzeria")
    }

    /// A clean environment: no `PIZZERIA_DB` from the developer's shell, a fixed time zone
    /// unless the test sets one.
    public static func environment(_ extra: [String: String]) -> [String: String] {
        let inherited = ProcessInfo.processInfo.environment
        var environment = [
            "PATH": inherited["PATH"] ?? "/usr/bin:/bin", "HOME": inherited["HOME"] ?? "/tmp",
            "LANG": "C.UTF-8", "TZ": "UTC",
        ]
        environment.merge(extra) { $1 }
        return environment
    }

    /// Runs `pizzeria arguments…` in `directory` and waits for it (killing it after `timeout`
    /// seconds, when given: the result then has status -9).
    public static func run(
        _ arguments: [String], in directory: URL, environment extra: [String: String] = [:],
        stdin: String? = nil, timeout: Double? = nil
    ) throws -> ProcessResult {
        let running = try RunningProcess(
            executable: url, arguments: arguments, in: directory,
            environment: environment(extra), stdin: stdin)
        return try running.wait(timeout: timeout)
    }

    /// Starts `pizzeria arguments…` in `directory` without waiting for it.
    public static func start(_ arguments: [String], in directory: URL, environment extra: [String: String] = [:]) throws
        -> RunningProcess
    {
        try RunningProcess(
            executable: url, arguments: arguments, in: directory, environment: environment(extra), stdin: nil)
    }
}

/// A started process whose output goes to files (never pipes: a chatty process can never block
/// on a full pipe).
public final class RunningProcess: @unchecked Sendable {
    // @unchecked: `process` is only started, waited for and signalled, which Process allows from
    // any thread; the URLs are immutable.
    private let process = Process()
    private let outURL: URL
    private let errURL: URL

    /// The process id.
    public var pid: Int32 { process.processIdentifier }
    /// Whether it is still running.
    public var isRunning: Bool { process.isRunning }

    /// Starts `executable arguments…` in `directory`.
    public init(
        executable: URL, arguments: [String], in directory: URL, environment: [String: String], stdin: String? = nil
    ) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = environment
        outURL = directory.appendingPathComponent(".out-\(UUID().uuidString)")
        errURL = directory.appendingPathComponent(".err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
        }
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { try input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
    }

    /// Sends SIGKILL.
    public func kill() { signal(SIGKILL) }

    /// Sends a signal.
    public func signal(_ number: Int32) { _ = Glibc.kill(process.processIdentifier, number) }

    /// What it wrote to stdout and stderr so far, while it runs.
    public var outputSoFar: (stdout: String, stderr: String) {
        (
            String(decoding: FileManager.default.contents(atPath: outURL.path) ?? Data(), as: UTF8.self),
            String(decoding: FileManager.default.contents(atPath: errURL.path) ?? Data(), as: UTF8.self)
        )
    }

    /// Waits until `condition` holds for the output so far (true), or `timeout` seconds pass (false).
    public func waitForOutput(timeout: Double = 10, _ condition: (String, String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let (out, err) = outputSoFar
            if condition(out, err) { return true }
            usleep(20_000)
        }
        return false
    }

    /// Waits for the end (killing it after `timeout` seconds, when given) and collects the output.
    public func wait(timeout: Double? = nil) throws -> ProcessResult {
        if let timeout {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { usleep(2_000) }
            if process.isRunning { kill() }
        }
        process.waitUntilExit()
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let killed = process.terminationReason == .uncaughtSignal
        return ProcessResult(
            status: killed ? -process.terminationStatus : process.terminationStatus,
            stdout: String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self),
            stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self))
    }
}
