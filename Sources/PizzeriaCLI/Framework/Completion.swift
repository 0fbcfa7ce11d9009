import PizzeriaServices

/// What a shell completes for an argument or an option's value. The framework knows only the
/// kinds every program has; values only this program knows (pizza names, handles) come from a
/// ``CompletionProvider`` the command's declaration names, like argument-parser's
/// `CompletionKind.custom`.
enum Completion: Sendable {
    case none
    /// One of these words.
    case choices([String])
    /// File names (left to the shell).
    case files
    /// Live values from a provider.
    case custom(CompletionProvider)
}

/// Candidates for the word being typed, computed when the shell asks.
struct CompletionProvider: Sendable {
    /// `typed` is the word so far; `source` opens the database the command line names.
    let candidates: @Sendable (_ typed: String, _ source: CompletionSource) -> [String]
}

/// The database a command line being completed names (`--db`, else `$PIZZERIA_DB`, else
/// `./pizzeria.sqlite`), opened only when a provider asks and never written. A missing or
/// unusable database offers nothing: completion must not print errors into a command line.
struct CompletionSource: Sendable {
    let environment: [String: String]
    let databasePath: String?
    /// At most this many live values (a menu of a million pizzas offers the first matches).
    static let limit = 200

    /// The database, or `nil` when it cannot be opened.
    func open() -> Pizzeria? {
        let path = Context.databasePath(option: databasePath, environment: environment)
        return try? Pizzeria.open(path: path, access: .requireCurrent)
    }
}
