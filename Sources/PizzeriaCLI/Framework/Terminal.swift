import Foundation
import PizzeriaServices

/// The interactive side of a command: whether a person is typing, and their lines.
public struct Terminal: Sendable {
    /// Whether standard input and output are a terminal (forms are offered only then).
    public let isInteractive: Bool
    /// Reads one line without its line break; `nil` at end of input.
    public let readLine: @Sendable () -> String?

    /// Standard output's terminal, when it is one: charts are drawn only there.
    public let display: Display?
    /// Whether standard error is a terminal: progress of long work is shown only then.
    public let showsProgress: Bool

    /// A terminal with the given behaviour (tests pass scripted input).
    public init(
        isInteractive: Bool, display: Display? = nil, showsProgress: Bool = false,
        readLine: @escaping @Sendable () -> String?
    ) {
        self.isInteractive = isInteractive
        self.display = display
        self.showsProgress = showsProgress
        self.readLine = readLine
    }

    /// What output on a terminal may use.
    public struct Display: Sendable, Equatable {
        /// Columns.
        public let width: Int
        /// Whether colours may be used (not when `NO_COLOR` is set to anything).
        public let color: Bool

        /// A display of `width` columns.
        public init(width: Int, color: Bool) {
            self.width = width
            self.color = color
        }
    }

    /// The process's own standard input and output.
    public static let standard = Terminal(
        isInteractive: isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1,
        display: isatty(STDOUT_FILENO) == 1 ? Display(width: width(of: STDOUT_FILENO), color: colorAllowed) : nil,
        showsProgress: isatty(STDERR_FILENO) == 1,
        readLine: { Swift.readLine(strippingNewline: true) })

    /// `NO_COLOR` (https://no-color.org): set and not empty means no colour.
    static var colorAllowed: Bool { (getenv("NO_COLOR").map { String(cString: $0).isEmpty }) ?? true }

    /// The terminal's width, else `$COLUMNS`, else 80; within 20…500.
    static func width(of descriptor: Int32) -> Int {
        var size = winsize()
        if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return min(500, max(20, Int(size.ws_col)))
        }
        if let columns = getenv("COLUMNS").flatMap({ Int(String(cString: $0)) }), columns > 0 {
            return min(500, max(20, columns))
        }
        return 80
    }

    /// The terminal's size as it is now (it changes on a resize), else `$COLUMNS` × `$LINES`,
    /// else 80 × 24; columns within 20…500, rows within 5…500.
    static func screenSize(of descriptor: Int32) -> (columns: Int, rows: Int) {
        var size = winsize()
        if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
            return (min(500, max(20, Int(size.ws_col))), min(500, max(5, Int(size.ws_row))))
        }
        func variable(_ name: String) -> Int? {
            getenv(name).flatMap { Int(String(cString: $0)) }.flatMap { $0 > 0 ? $0 : nil }
        }
        return (min(500, max(20, variable("COLUMNS") ?? 80)), min(500, max(5, variable("LINES") ?? 24)))
    }

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
