/// The fence a shop's move puts on its old file (docs/SHOPS.md, "Moving a shop"): the file's
/// header `application_id` set to the move's token (any value but 0) in the last transaction the
/// old node commits. Every write transaction of a ``Database`` opened with
/// ``DatabaseConfiguration/honoursMoveFence`` reads it after `BEGIN IMMEDIATE` — under the write
/// lock, so no write can slip in after the fence's commit — and a fenced file refuses the write
/// (``DatabaseError/Kind/busy``: retry against the shop's node). A copy restored from the replica
/// that carries *this move's* token holds every commit before it (a copy left fenced by an earlier
/// move carries another token); the move lifts the fence on the copy before it serves.
public enum MoveFence {
    private static let read = StatementKey("PRAGMA application_id")

    /// The file's fence: its move's token, or `nil` when it is open (read in `db`'s current
    /// transaction, if any).
    /// - Throws: ``DatabaseError``.
    public static func token(_ db: Connection) throws -> Int32? {
        let value = try db.fetchOne(read) { try $0.int("application_id") } ?? 0
        return value == 0 ? nil : Int32(truncatingIfNeeded: value)
    }

    /// A new move's token: random, never 0.
    public static func newToken() -> Int32 { Int32.random(in: 1...Int32.max) }

    /// Fences the file of `db` with `token`, or opens it (`nil`); run it inside a write transaction.
    /// - Throws: ``DatabaseError``.
    public static func set(_ token: Int32?, on db: Connection) throws {
        // A pragma's value cannot be bound; it is a whole number made here.
        try db.run("PRAGMA application_id = \(token ?? 0)")
    }

    /// Throws ``Fenced`` when the file of `db` is fenced: a write must not go on.
    static func requireOpen(_ db: Connection, path: String) throws {
        guard try token(db) != nil else { return }
        throw Fenced(path: path)
    }

    /// A write refused because its file is fenced: the shop is moving or has moved to another
    /// node. Retry against the shop's node (busy).
    public struct Fenced: Error, Equatable, CustomStringConvertible {
        /// The fenced file.
        public let path: String
        /// A sentence for people.
        public var description: String {
            "\(path) is fenced for a move (its application_id is set): its shop is moving or has moved to another node, so it takes no writes"
        }
    }
}
