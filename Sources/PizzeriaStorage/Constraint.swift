/// Which constraint refused a change, recognised by SQLite's extended result code and the table
/// and columns its message names (`UNIQUE constraint failed: pizzas.name_key`): code matches
/// the failure's identity, never its free text.
///
/// Triggers of this schema raise messages that start with a stable token
/// (`capacity_exceeded: …`); ``trigger(token:message:)`` carries it apart from the sentence.
public enum Constraint: Sendable, Hashable {
    /// A `UNIQUE` index or constraint on these columns.
    case unique(table: String, columns: [String])
    /// The primary key.
    case primaryKey(table: String, columns: [String])
    /// A `NOT NULL` column.
    case notNull(table: String, column: String)
    /// A foreign key (SQLite does not say which).
    case foreignKey
    /// A `CHECK` (SQLite names the constraint, or quotes its expression).
    case check(String)
    /// A trigger's `RAISE`: its token (`nil` for the sentences of earlier migrations) and message.
    case trigger(token: String?, message: String)
    /// Any other constraint.
    case other

    /// The constraint of a failure with extended `code` and SQLite's `message`.
    init(code: ResultCode, message: String) {
        let detail =
            message.split(separator: ":", maxSplits: 1).dropFirst().first.map { $0.trimmingCharacters(in: " ") } ?? ""
        func columns() -> (table: String, columns: [String]) {
            let names = detail.split(separator: ",").map { $0.trimmingCharacters(in: " ") }
            let table = names.first.flatMap { $0.split(separator: ".").first.map(String.init) } ?? ""
            return (table, names.map { String($0.split(separator: ".").last ?? "") })
        }
        switch code {
        case .SQLITE_CONSTRAINT_UNIQUE:
            let (table, columns) = columns()
            self = .unique(table: table, columns: columns)
        case .SQLITE_CONSTRAINT_PRIMARYKEY:
            let (table, columns) = columns()
            self = .primaryKey(table: table, columns: columns)
        case .SQLITE_CONSTRAINT_NOTNULL:
            let (table, columns) = columns()
            self = .notNull(table: table, column: columns.first ?? "")
        case .SQLITE_CONSTRAINT_FOREIGNKEY:
            self = .foreignKey
        case .SQLITE_CONSTRAINT_CHECK:
            self = .check(detail)
        case .SQLITE_CONSTRAINT_TRIGGER:
            self = .trigger(token: Self.token(of: message), message: message)
        default:
            self = .other
        }
    }

    /// `capacity_exceeded` of `capacity_exceeded: the slot is full`: a lowercase identifier
    /// before the first colon.
    static func token(of message: String) -> String? {
        guard let colon = message.firstIndex(of: ":") else { return nil }
        let token = message[..<colon]
        guard !token.isEmpty, token.allSatisfy({ $0 == "_" || ("a"..."z").contains($0) || ("0"..."9").contains($0) })
        else { return nil }
        return String(token)
    }
}

private extension Substring {
    func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}
