/// The exit codes of `pizzeria`, from BSD's sysexits where one fits. Documented in the README.
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// Success.
    case ok = 0
    /// Refused by the current state: empty stack, slot full, edit conflict, duplicate name,
    /// illegal status change.
    case refused = 1
    /// Wrong usage: unknown command or option, missing or extra argument.
    case usage = 64
    /// Invalid input, or a database file Pizzeria cannot use.
    case invalidInput = 65
    /// Something named does not exist (the database file included).
    case notFound = 66
    /// A bug or an unexpected failure.
    case `internal` = 70
    /// Reading or writing a file failed.
    case io = 74
    /// The database stayed locked by another process past the busy timeout; try again.
    case busy = 75
}
