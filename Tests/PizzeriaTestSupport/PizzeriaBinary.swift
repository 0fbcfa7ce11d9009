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
        var environment = ["PATH": inherited["PATH"] ?? "/usr/bin:/bin", "HOME": inherited["HOME"] ?? "/tmp",
                           "LANG": "C.UTF-8", "TZ": "UTC"]
        environment.merge(extra) { $1 }
        return environment
    }

    /// Runs `pizzeria arguments…` in `directory` and waits for it.
    public static func run(_ arguments: [String], in directory: URL, environment extra: [String: String] = [:],
                           stdin: String? = nil) throws -> ProcessResult {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = environment(extra)
        // Files, not pipes: a chatty process can never block on a full pipe.
        let outURL = directory.appendingPathComponent(".out-\(UUID().uuidString)")
        let errURL = directory.appendingPathComponent(".err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return ProcessResult(status: process.terminationStatus,
                             stdout: String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self),
                             stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self))
    }
}
