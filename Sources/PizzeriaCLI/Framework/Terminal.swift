import Foundation

/// The interactive side of a command: whether a person is typing, and their lines.
public struct Terminal: Sendable {
    /// Whether standard input and output are a terminal (forms are offered only then).
    public let isInteractive: Bool
    /// Reads one line without its line break; `nil` at end of input.
    public let readLine: @Sendable () -> String?

    /// A terminal with the given behaviour (tests pass scripted input).
    public init(isInteractive: Bool, readLine: @escaping @Sendable () -> String?) {
        self.isInteractive = isInteractive
        self.readLine = readLine
    }

    /// The process's own standard input.
    public static let standard = Terminal(
        isInteractive: isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1,
        readLine: { Swift.readLine(strippingNewline: true) })

    /// No terminal: standard input is a pipe or a file.
    public static let none = Terminal(isInteractive: false, readLine: { nil })
}

/// Standard input as a whole, for commands that read a file or `-`.
enum StandardInput {
    static func readAll() -> Data {
        FileHandle.standardInput.readDataToEndOfFile()
    }
}
