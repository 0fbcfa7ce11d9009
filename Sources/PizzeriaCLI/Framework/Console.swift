import Foundation
import Synchronization

/// Where a command's output goes: data to `out`, diagnostics to `err`.
///
/// The binary writes to the process's stdout and stderr with `write(2)`, never with a call that
/// traps: a closed, full or broken stdout is recorded (``outputFailure``) and the command exits 74
/// instead of crashing after its work is done. Tests capture both streams.
public struct Console: Sendable {
    /// Writes text to stdout as it is.
    private let writeOut: @Sendable (String) -> Void
    /// Writes text to stderr as it is.
    private let writeErr: @Sendable (String) -> Void
    /// Writes data given as UTF-8 bytes: straight to the descriptor for the process's stdout,
    /// through ``out`` for a console built from closures.
    let outBytes: @Sendable (UnsafeRawBufferPointer) -> Void
    private let failures: FailureRecord?
    /// Whether `error:` and `hint:` are coloured (stderr is a terminal and `NO_COLOR` is unset).
    let colorsDiagnostics: Bool

    /// A console writing through the given closures.
    public init(
        out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
        colorsDiagnostics: Bool = false
    ) {
        self.writeOut = out
        self.writeErr = err
        self.outBytes = { bytes in out(String(decoding: bytes, as: UTF8.self)) }
        self.failures = nil
        self.colorsDiagnostics = colorsDiagnostics
    }

    private init(failures: FailureRecord) {
        self.failures = failures
        self.colorsDiagnostics = isatty(STDERR_FILENO) == 1 && Terminal.colorAllowed
        self.writeOut = { text in failures.record(StandardStream.write(text, to: STDOUT_FILENO)) }
        self.outBytes = { bytes in failures.record(StandardStream.write(bytes, to: STDOUT_FILENO)) }
        self.writeErr = { text in _ = StandardStream.write(text, to: STDERR_FILENO) }
    }

    /// The process's standard output and error.
    public static var standard: Console {
        Console(failures: FailureRecord(closedAtStart: StandardStream.stdoutWasClosed))
    }

    /// Why writing the data failed (`strerror` text), if it did.
    public var outputFailure: String? { failures?.message }

    /// Whether stdout is a pipe whose reader has gone, noticed without writing (`poll` reports
    /// `POLLERR` on such a pipe): a command that waits for something to print, such as a
    /// watch, stops then instead of at its next line. It is recorded as `EPIPE`.
    func readerHasGone() -> Bool {
        guard let failures else { return false }
        if failures.message != nil { return true }
        var descriptor = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
        guard poll(&descriptor, 1, 0) == 1, descriptor.revents & Int16(POLLERR | POLLHUP) != 0 else { return false }
        failures.record(EPIPE)
        return true
    }

    /// Prints text for people on stdout (already newline-terminated), its control characters
    /// escaped (``TerminalText``).
    public func out(_ text: String) { writeOut(TerminalText.escaped(text)) }

    /// Prints text whose outside parts were escaped already and whose own escape sequences
    /// (colours, a progress line's erase) are meant for the terminal.
    func outFormatted(_ text: String) { writeOut(text) }

    /// Prints diagnostics on stderr (already newline-terminated), control characters escaped.
    public func err(_ text: String) { writeErr(TerminalText.escaped(text)) }

    /// ``outFormatted(_:)`` for stderr.
    func errFormatted(_ text: String) { writeErr(text) }

    /// Prints a line of text for people.
    func line(_ text: String = "") { out(text + "\n") }

    /// Prints `error: message` and an optional `hint: …` on stderr.
    func error(_ message: String, hint: String? = nil) {
        var text = paint("error:", "1;31") + " \(TerminalText.escaped(message))\n"
        if let hint { text += paint("hint:", "1;36") + " \(TerminalText.escaped(hint))\n" }
        writeErr(text)
    }

    private func paint(_ label: String, _ sgr: String) -> String {
        colorsDiagnostics ? "\u{1B}[\(sgr)m\(label)\u{1B}[0m" : label
    }

    /// Prints a note on stderr (for things that are not data, such as a warning).
    func note(_ message: String) { err("note: \(message)\n") }
}

/// The first output error of a console.
private final class FailureRecord: Sendable {
    private let error = Mutex<Int32?>(nil)

    init(closedAtStart: Bool) {
        if closedAtStart { error.withLock { $0 = EBADF } }
    }

    func record(_ code: Int32?) {
        guard let code else { return }
        error.withLock { if $0 == nil { $0 = code } }
    }

    var message: String? { error.withLock { $0 }.map { String(cString: strerror($0)) } }
}

/// The process's standard streams, written without traps.
enum StandardStream {
    /// Whether stdout was closed when the process started (``secure()`` notes it).
    static var stdoutWasClosed: Bool { closedAtStart.load(ordering: .relaxed) }
    private static let closedAtStart = Atomic<Bool>(false)

    /// Called once at start-up, before anything opens a file: ignores SIGPIPE (a closed pipe
    /// becomes an `EPIPE` error instead of killing the process, possibly after a commit), and puts
    /// `/dev/null` on any of descriptors 0–2 that is closed, so no file the process opens later —
    /// the database least of all — can end up being written as stdout.
    static func secure() {
        signal(SIGPIPE, SIG_IGN)
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            if fd == STDOUT_FILENO { closedAtStart.store(true, ordering: .relaxed) }
            let null = open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if null >= 0, null != fd {
                dup2(null, fd)
                close(null)
            }
        }
    }

    /// Writes all of `text`; returns the `errno` of a failure.
    static func write(_ text: String, to fd: Int32) -> Int32? {
        var text = text
        return text.withUTF8 { write(UnsafeRawBufferPointer($0), to: fd) }
    }

    /// Writes all of `bytes`; returns the `errno` of a failure.
    static func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Int32? {
        guard let start = bytes.baseAddress else { return nil }
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(fd, start + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }
}
