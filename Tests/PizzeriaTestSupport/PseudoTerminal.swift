import CPseudoTerminal
import Foundation

/// Runs `pizzeria` on a pseudo-terminal, so it sees a TTY on stdin and stdout, and lets a test
/// read its prompts and type answers, as a person at a terminal would.
public final class PseudoTerminalSession {
    private let master: Int32
    private let process = Process()
    /// Everything the program wrote so far (with the terminal's echo of what was typed).
    public private(set) var transcript = ""
    private var consumed = 0

    /// Starts `pizzeria arguments…` in `directory`.
    public init(_ arguments: [String], in directory: URL, environment extra: [String: String] = [:]) throws {
        var name = [CChar](repeating: 0, count: 128)
        master = pizzeria_open_pseudo_terminal(&name, name.count)
        guard master >= 0 else { throw PseudoTerminalError(message: "cannot allocate a pseudo-terminal") }
        let slave = open(
            String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw PseudoTerminalError(message: "cannot open the pseudo-terminal's slave side") }
        let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
        process.executableURL = PizzeriaBinary.url
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = PizzeriaBinary.environment(extra)
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        try handle.close()
    }

    deinit {
        if process.isRunning { process.terminate() }
        close(master)
    }

    /// Waits until the output since the last `expect` contains `text`; returns that output.
    @discardableResult
    public func expect(_ text: String, timeout: TimeInterval = 20) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let pending = String(transcript.dropFirst(consumed))
            if let range = pending.range(of: text) {
                consumed += pending[..<range.upperBound].count
                return String(pending[..<range.upperBound])
            }
            guard Date() < deadline, try readSome(until: deadline) else {
                throw PseudoTerminalError(message: "timed out waiting for \(text.debugDescription); got:\n\(pending)")
            }
        }
    }

    /// Types `line` and Enter.
    public func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count) }
    }

    /// Types Ctrl-D: end of input at the start of a line.
    public func sendEndOfInput() {
        var eot: UInt8 = 4
        _ = write(master, &eot, 1)
    }

    /// Waits for the program to exit, collecting the rest of its output.
    public func wait(timeout: TimeInterval = 20) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline {
            _ = try? readSome(until: Date().addingTimeInterval(0.1))
        }
        guard !process.isRunning else {
            throw PseudoTerminalError(message: "the program did not exit; output:\n\(transcript)")
        }
        while (try? readSome(until: Date().addingTimeInterval(0.05))) == true {}
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Reads what is available; `false` when nothing came before the deadline or the program is gone.
    private func readSome(until deadline: Date) throws -> Bool {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
        guard poll(&descriptor, 1, milliseconds) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(master, &buffer, buffer.count)
        guard count > 0 else { return false }
        transcript += String(decoding: buffer[..<count], as: UTF8.self)
        return true
    }
}

/// The pseudo-terminal could not be set up or the program did not behave.
public struct PseudoTerminalError: Error, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// The message.
    public var description: String { message }
}
