import Foundation
import PizzeriaServices

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

/// Input read whole by commands that take a file or `-` (standard input), within a size limit
/// and never holding more than the limit in memory.
enum StandardInput {
    /// The bytes of `source` (a path, or `-` for standard input).
    /// - Throws: ``FileError`` (exit 74) when it cannot be read; ``ValidationError`` (65) when it
    ///   is larger than `limit` bytes.
    static func read(_ source: String, limit: Int) throws -> Data {
        let fd = source == "-" ? STDIN_FILENO : open(source, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError(message: "cannot read \(source): \(String(cString: strerror(errno)))") }
        defer { if fd != STDIN_FILENO { close(fd) } }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileError(message: "cannot read \(source): \(String(cString: strerror(errno)))")
            }
            if count == 0 { return data }
            data.append(contentsOf: buffer[..<count])
            guard data.count <= limit else {
                throw ValidationError([FieldError(field: "input", message: "is larger than \(limit) bytes")])
            }
        }
    }
}
