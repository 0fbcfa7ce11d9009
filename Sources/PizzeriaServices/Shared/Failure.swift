/// What kind of refusal an error is, so every front end can react the same way (the CLI maps
/// each to an exit code).
public enum FailureCategory: Sendable, Equatable {
    /// The input breaks a rule (a field error, a malformed value): fix the input.
    case invalidInput
    /// The thing named does not exist.
    case notFound
    /// The input is fine but the current state refuses it: an empty stack, a full slot, an edit
    /// conflict, a duplicate name, an illegal status change.
    case refused
    /// The database file cannot be used: not SQLite, not a regular file, someone else's, a newer
    /// schema, an edited migration, pending migrations, a damaged row.
    case unusableDatabase
    /// Another process held the database's lock past the busy timeout: try again.
    case busy
    /// A file could not be read or written (permissions, a full disk, an I/O error).
    case io
    /// A bug: something the code should never meet.
    case `internal`
}

/// An error of the service layer: a category and a sentence in the domain's words. Front ends
/// add their own advice (the CLI's hints name its commands).
public protocol PizzeriaFailure: Error, CustomStringConvertible {
    /// How front ends should treat it.
    var category: FailureCategory { get }
}

/// One rule broken by one field of an input, such as `name: must not be empty`.
public struct FieldError: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The field, as the user knows it: `name`, `price`, `handle`, `quantity`, …
    public let field: String
    /// The rule it breaks, as a phrase that follows the field name.
    public let message: String

    /// Creates a field error.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    /// `field: message`.
    public var description: String { "\(field): \(message)" }
}

/// Input that breaks one or more rules. It lists every broken rule, not just the first.
public struct ValidationError: PizzeriaFailure, Equatable {
    /// Every field error found, in field order.
    public let errors: [FieldError]

    /// Creates the error from at least one field error.
    public init(_ errors: [FieldError]) { self.errors = errors }

    /// Invalid input.
    public var category: FailureCategory { .invalidInput }

    /// The field errors, one per line.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
