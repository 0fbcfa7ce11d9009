import Foundation
import PizzeriaStorage

/// A live feed of changes read from an append-only table by its integer key: every change made
/// by any process, in commit order, resumable from a cursor. It wakes at once when this process
/// commits, and polls (cheaply: one indexed query) for other processes' commits. It ends — the
/// loop finishes — when the task is cancelled.
///
/// ```swift
/// for try await event in pizzeria.orders.feed() {   // from now on
///     print(event.kind, event.order.id)             // event.cursor resumes the feed later
/// }
/// ```
public struct ChangeFeed<Event: Sendable>: AsyncSequence, Sendable {
    /// The events, oldest first.
    public typealias Element = Event

    let start: EventCursor
    let pollInterval: Duration
    let signal: CommitSignal
    let fetch: @Sendable (EventCursor) async throws -> [Event]
    let cursor: @Sendable (Event) -> EventCursor

    /// The iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(feed: self, position: start)
    }

    /// Reads batches of events and hands them out one at a time.
    public struct Iterator: AsyncIteratorProtocol {
        let feed: ChangeFeed
        var position: EventCursor
        var buffer: [Event] = []

        /// The next event; `nil` once the task is cancelled.
        /// - Throws: ``FeedError/foreignCursor(_:newest:)`` when the feed started from a cursor
        ///   of another history (see ``EventCursor``), and the errors of reading.
        public mutating func next() async throws -> Event? {
            while buffer.isEmpty {
                if Task.isCancelled { return nil }
                let batch: [Event]
                do {
                    batch = try await feed.fetch(position)
                } catch is CancellationError {
                    return nil
                }
                if let last = batch.last {
                    position = feed.cursor(last)
                    buffer = batch
                } else {
                    await Self.wait(for: feed.signal, upTo: feed.pollInterval)
                }
            }
            return buffer.removeFirst()
        }

        /// Until this process commits, or the poll interval passes, or the task is cancelled.
        static func wait(for signal: CommitSignal, upTo interval: Duration) async {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await signal.next() }
                group.addTask { try? await Task.sleep(for: interval) }
                await group.next()
                group.cancelAll()
            }
        }
    }
}

/// A service whose changes a ``ChangeFeed`` follows: the cursor of its newest event and the
/// events after a cursor. Its public `feed(after:pollInterval:)` is
/// ``changeFeed(after:pollInterval:positionOf:)``.
protocol ChangeFeedSource: Sendable {
    /// What the feed hands out.
    associatedtype Event: Sendable
    /// Where the events are read.
    var database: Database { get }
    /// The newest event's cursor: a feed started from it sees only what happens next.
    func latestEventCursor() throws -> EventCursor
    /// At most `limit` events after `cursor`, oldest first.
    func events(after cursor: EventCursor, limit: Int) throws -> [Event]
}

extension ChangeFeedSource {
    /// The feed from `cursor`, or from the newest event when `nil`; `positionOf` gives an event's
    /// own cursor. Batches of 100 events.
    func changeFeed(
        after cursor: EventCursor?, pollInterval: Duration, positionOf: @escaping @Sendable (Event) -> EventCursor
    ) async throws -> ChangeFeed<Event> {
        let start: EventCursor
        if let cursor {
            start = cursor
        } else {
            start = try await database.perform(.read) { [self] in try latestEventCursor() }
        }
        return ChangeFeed(
            start: start, pollInterval: pollInterval, signal: database.commits,
            fetch: { [self] position in
                try await database.perform(.read) { try self.events(after: position, limit: 100) }
            },
            cursor: positionOf)
    }
}

extension OrderService: ChangeFeedSource {
    /// Every booking, status change and cancellation after `cursor` (from now on when `nil`), by
    /// any process, as it happens. See ``ChangeFeed``.
    public func feed(after cursor: EventCursor? = nil, pollInterval: Duration = .milliseconds(200)) async throws
        -> ChangeFeed<OrderEvent>
    {
        try await changeFeed(after: cursor, pollInterval: pollInterval, positionOf: \.cursor)
    }
}

extension MenuService: ChangeFeedSource {
    /// Every change to the menu (added, edited, archived, restored) after `cursor` (from now on
    /// when `nil`), by any process, as it happens. See ``ChangeFeed``.
    public func feed(after cursor: EventCursor? = nil, pollInterval: Duration = .milliseconds(200)) async throws
        -> ChangeFeed<MenuEvent>
    {
        try await changeFeed(after: cursor, pollInterval: pollInterval, positionOf: \.cursor)
    }
}
