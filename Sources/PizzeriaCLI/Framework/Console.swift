import Foundation

/// Where a command's output goes: data to `out`, diagnostics to `err`.
///
/// The binary writes to the process's stdout and stderr; tests capture both.
public struct Console: Sendable {
    /// Writes data (already newline-terminated).
    public let out: @Sendable (String) -> Void
    /// Writes diagnostics (already newline-terminated).
    public let err: @Sendable (String) -> Void

    /// A console writing through the given closures.
    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
        self.out = out
        self.err = err
    }

    /// The process's standard output and error.
    public static let standard = Console(
        out: { FileHandle.standardOutput.write(Data($0.utf8)) },
        err: { FileHandle.standardError.write(Data($0.utf8)) })

    /// Prints a line of data.
    func line(_ text: String = "") { out(text + "\n") }

    /// Prints `error: message` and an optional `hint: …` on stderr.
    func error(_ message: String, hint: String? = nil) {
        var text = "error: \(message)\n"
        if let hint { text += "hint: \(hint)\n" }
        err(text)
    }

    /// Prints a note on stderr (for things that are not data, such as a warning).
    func note(_ message: String) { err("note: \(message)\n") }
}
