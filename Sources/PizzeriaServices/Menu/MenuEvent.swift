import Foundation

/// A change to the menu, read from the append-only `pizza_history` table: whoever made it (this
/// process, another one, an analyst in `sqlite3`), in commit order, resumable from ``cursor``.
public struct MenuEvent: Sendable, Hashable, Codable {
    /// The event's position in the feed, tied to this file's history; pass it as `after` to resume.
    public let cursor: EventCursor
    /// What changed.
    public let change: PizzaChange
    /// The pizza as it is now.
    public let pizza: Pizza

    /// An event.
    public init(cursor: EventCursor, change: PizzaChange, pizza: Pizza) {
        self.cursor = cursor
        self.change = change
        self.pizza = pizza
    }
}

extension MenuService {
    /// The menu changes after `cursor`, oldest first, with each pizza as it is now.
    /// - Throws: ``FeedError/foreignCursor(_:newest:)`` when this file's history does not have
    ///   the cursor's change (a file restored from an earlier backup, or another file).
    public func events(after cursor: EventCursor, limit: Int = 100) throws -> [MenuEvent] {
        try database.read { db in
            try PizzaStore.events(after: cursor, limit: min(max(1, limit), 1_000), in: db).map { event in
                guard let pizza = try PizzaStore.pizza(id: event.pizzaID, in: db) else {
                    throw DataError.damagedRow(
                        table: "pizza_history", id: String(event.cursor), problem: "its pizza is missing")
                }
                return MenuEvent(cursor: PizzaStore.cursor(of: event), change: event.change, pizza: pizza)
            }
        }
    }

    /// The cursor of the newest menu change: a feed started from it sees only what happens next.
    public func latestEventCursor() throws -> EventCursor {
        try database.read { try PizzaStore.latestEvent(in: $0) }
    }
}
