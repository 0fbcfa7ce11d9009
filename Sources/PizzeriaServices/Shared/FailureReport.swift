import PizzeriaStorage

/// Any error a Pizzeria call can throw, classified for a front end: its category and the
/// sentences that describe it, without SQL or SQLite's internal wording.
///
/// Service errors (``PizzeriaFailure``) report themselves; the storage layer's errors are
/// translated here, so a front end needs no knowledge of the storage layer.
///
/// ```swift
/// do { try pizzeria.menu.save(draft) }
/// catch { let report = FailureReport(error); log(report.category, report.messages) }
/// ```
public struct FailureReport: Sendable, Equatable {
    /// How a front end should treat it.
    public let category: FailureCategory
    /// One sentence per problem (a validation error has one per broken rule).
    public let messages: [String]
    /// What would fix it, when one thing clearly would; front ends phrase it in their own words.
    public let remedy: Remedy?

    /// What would fix a failure.
    public enum Remedy: Sendable, Equatable {
        /// Apply the pending migrations.
        case migrate
        /// Create the database.
        case createDatabase
        /// Use a Pizzeria database file (or a new path) instead of this file.
        case useAnotherFile
        /// Write to a path that does not exist yet.
        case chooseAnotherDestination
        /// Try again in a moment.
        case retryLater
    }

    /// Classifies `error`.
    public init(_ error: any Error) {
        switch error {
        case let validation as ValidationError:
            self.init(category: .invalidInput, messages: validation.errors.map(\.description))
        case MaintenanceError.noDatabase(let path):
            self.init(category: .notFound, messages: ["no database at \(path)"], remedy: .createDatabase)
        case let failure as PizzeriaFailure:
            self.init(category: failure.category, messages: [failure.description])
        case let schema as SchemaError:
            self.init(schema)
        case let backup as BackupError:
            self.init(category: .refused, messages: [backup.description], remedy: .chooseAnotherDestination)
        case let database as DatabaseError:
            self.init(database)
        case let fenced as MoveFence.Fenced:
            self.init(category: .busy, messages: [fenced.description], remedy: .retryLater)
        default:
            self.init(category: .internal, messages: ["internal error: \(error)"])
        }
    }

    /// A report from its parts.
    public init(category: FailureCategory, messages: [String], remedy: Remedy? = nil) {
        self.category = category
        self.messages = messages
        self.remedy = remedy
    }

    private init(_ error: SchemaError) {
        switch error {
        case .foreignKeyViolation:
            self.init(category: .internal, messages: [error.description])
        case .migrationsPending, .definitionsPending:
            self.init(category: .unusableDatabase, messages: [error.description], remedy: .migrate)
        case .foreignDatabase, .newerSchema, .checksumMismatch, .migrationFailed:
            self.init(category: .unusableDatabase, messages: [error.description], remedy: .useAnotherFile)
        }
    }

    private init(_ error: DatabaseError) {
        switch error.kind {
        case .busy:
            self.init(
                category: .busy, messages: ["the database is busy: another process held its lock past the timeout"],
                remedy: .retryLater)
        case .notADatabase:
            self.init(category: .unusableDatabase, messages: [error.message], remedy: .useAnotherFile)
        case .io, .walUnavailable:
            self.init(category: .io, messages: [error.message])
        case .constraint where error.isRefusal("user_erased"):
            // Refused by the customer's state (their data was erased), not by the input.
            self.init(
                category: .refused,
                messages: [Self.constraintReason(error).replacingOccurrences(of: "user_erased: ", with: "")])
        case .constraint:
            self.init(
                category: .invalidInput, messages: ["the database refused the change: " + Self.constraintReason(error)])
        case .typeMismatch, .misuse, .other:
            self.init(category: .internal, messages: ["internal error: \(error)"])
        }
    }

    /// A constraint failure in words: a trigger's own sentence, or which kind of rule and
    /// column, without SQL.
    private static func constraintReason(_ error: DatabaseError) -> String {
        switch error.constraint {
        case .trigger(_, let message): message
        case .unique(let table, let columns), .primaryKey(let table, let columns):
            "another row already has the same " + columns.map { "\(table).\($0)" }.joined(separator: ", ")
        case .notNull(let table, let column): "\(table).\(column) must have a value"
        case .foreignKey: "it refers to a row that does not exist"
        case .check, .other, nil: "it breaks a rule of the schema (a CHECK constraint)"
        }
    }
}
