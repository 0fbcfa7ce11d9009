import Foundation

/// A change to the menu, read from the append-only `pizza_history` table: whoever made it (this
/// process, another one, an analyst in `sqlite3`), in commit order, resumable from ``cursor``.
public struct MenuEvent: Sendable, Hashable, Codable {
    /// The event's position in the feed; pass it as `after` to resume.
    public let cursor: Int64
    /// What changed.
    public let change: PizzaChange
    /// The pizza as it is now.
    public let pizza: Pizza

    /// An event.
    public init(cursor: Int64, change: PizzaChange, pizza: Pizza) {
        self.cursor = cursor
        self.change = change
        self.pizza = pizza
    }
}

extension MenuService {
    /// The menu changes after `cursor`, oldest first, with each pizza as it is now.
    public func events(after cursor: Int64, limit: Int = 100) throws -> [MenuEvent] {
        try database.read { db in
            try PizzaStore.events(after: cursor, limit: min(max(1, limit), 1_000), in: db).map { event in
                guard let pizza = try PizzaStore.pizza(id: event.pizzaID, in: db) else {
                    throw DataError.damagedRow(table: "pizza_history", id: String(event.cursor), problem: "its pizza is missing")
                }
                return MenuEvent(cursor: event.cursor, change: event.change, pizza: pizza)
            }
        }
    }

    /// The cursor of the newest menu change: a feed started from it sees only what happens next.
    public func latestEventCursor() throws -> Int64 {
        try database.read { db in try db.fetchOne("SELECT coalesce(max(id), 0) AS latest FROM pizza_history") { try $0.int64("latest") } ?? 0 }
    }

    /// The `async` form of ``events(after:limit:)``.
    public func events(after cursor: Int64, limit: Int = 100) async throws -> [MenuEvent] {
        try await database.perform(.read) { try self.events(after: cursor, limit: limit) }
    }

    /// The `async` form of ``latestEventCursor()``.
    public func latestEventCursor() async throws -> Int64 {
        try await database.perform(.read) { try self.latestEventCursor() }
    }
}
