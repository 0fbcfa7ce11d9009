import Synchronization

/// A statement's SQL with a number of its own, for the hottest paths: a connection finds its
/// prepared statement for a key by the number, at an index of an array, where the SQL text would
/// be hashed and compared on every call.
///
/// Declare keys once, as `static let`s beside the SQL they name (SQL stays in stores); each
/// connection prepares a key's statement on its first use and keeps it like any cached statement.
///
/// ```swift
/// static let generation = StatementKey("SELECT generation FROM config_generation WHERE id = 1")
/// let generation = try db.fetchOne(Self.generation) { try $0.int64("generation") }
/// ```
public final class StatementKey: Sendable {
    /// The statement's SQL.
    public let sql: String
    /// Its number, unique in the process (keys are few: one per hot statement).
    let number: Int

    private static let issued = Atomic<Int>(0)

    /// A key for `sql`, numbered in the order keys are made.
    public init(_ sql: String) {
        self.sql = sql
        number = Self.issued.add(1, ordering: .relaxed).oldValue
    }
}
