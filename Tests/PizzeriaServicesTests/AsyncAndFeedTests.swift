import Foundation
import Synchronization
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

@Suite("The async API, group commit, cancellation, change feeds, Codable models")
struct AsyncAndFeedTests {
    /// Holds the write lock on another thread until `release` is signalled.
    final class HeldWriter: @unchecked Sendable {
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0),
            finished = DispatchSemaphore(value: 0)
        let held = Atomic<Bool>(false)

        init(_ database: Database) {
            Thread { [self] in
                try? database.write { _ in
                    held.store(true, ordering: .sequentiallyConsistent)
                    started.signal()
                    release.wait()
                    held.store(false, ordering: .sequentiallyConsistent)
                }
                finished.signal()
            }.start()
            started.wait()
        }

        func stop() {
            release.signal()
            finished.wait()
        }
    }

    @Test("work through the write door reads its own writes before the batch commits (read and single-statement read)")
    func writeDoorReadsItsOwnWrites() async throws {
        let fixture = try OrderFixture()
        let pizza = try fixture.pizza("Margherita")
        let (found, path) = try await fixture.pizzeria.write { pizzeria in
            let user = try pizzeria.users.add(handle: "door")
            try pizzeria.navigation.push(user.id, [.pizza(id: pizza)])
            // users.user(handle:) reads in a transaction; navigation.path(of:) in one statement.
            return (try pizzeria.users.user(handle: "door")?.id, try pizzeria.navigation.path(of: user.id))
        }
        #expect(found != nil)
        #expect(path == [.route(.pizza(id: pizza))])
        // And a failing job rolls back its own writes only.
        await #expect(throws: (any Error).self) {
            try await fixture.pizzeria.write { pizzeria in
                try pizzeria.users.add(handle: "rolled-back")
                try pizzeria.users.add(handle: "rolled-back")  // the same handle: refused
            }
        }
        #expect(try fixture.pizzeria.users.user(handle: "rolled-back") == nil)
    }

    @Test("while another thread holds the write lock and 8 async writes queue behind it, async reads all complete")
    func readsNotBlockedByWriter() async throws {
        let fixture = try OrderFixture()
        let pizzeria = fixture.pizzeria
        let writer = HeldWriter(pizzeria.database)
        // Eight writes queue for the writer (on its own thread, not on the cooperative pool) …
        let writes = Task {
            try await withThrowingTaskGroup(of: User.self) { group in
                for index in 0..<8 {
                    group.addTask { try await pizzeria.write { try $0.users.add(handle: "queued\(index)") } }
                }
                return try await group.reduce(into: [User]()) { $0.append($1) }
            }
        }
        // … and reads from more tasks than this machine has cooperative threads all finish.
        let completedWhileHeld = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    _ = try await pizzeria.read { try $0.menu.list() }
                    _ = try await pizzeria.read { try $0.orders.slots(on: LocalDate("2026-12-01")!) }
                    return writer.held.load(ordering: .sequentiallyConsistent)
                }
            }
            return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        #expect(completedWhileHeld == 40, "reads waited for the writer")
        writer.stop()
        #expect(try await writes.value.count == 8)
        #expect(try await pizzeria.read { try $0.users.list() }.count == 10)
    }

    @Test("a task cancelled before its transaction starts throws CancellationError and writes nothing")
    func cancellation() async throws {
        let fixture = try Fixture()
        let writer = HeldWriter(fixture.pizzeria.database)
        let task = Task { try await fixture.pizzeria.write { try $0.users.add(handle: "never") } }
        // Queued behind the held lock, then cancelled.
        #expect(await eventually { fixture.pizzeria.database.unfinishedWrites == 1 })
        task.cancel()
        writer.stop()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(try await fixture.pizzeria.read { try $0.users.user(handle: "never") } == nil)
        // Cancelled before it even started: nothing runs at all.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await fixture.pizzeria.write { try $0.users.add(handle: "never2") }
        }
        await #expect(throws: CancellationError.self) { try await early.value }
        #expect(try await fixture.pizzeria.read { try $0.users.user(handle: "never2") } == nil)
    }

    @Test("group commit: concurrent bookings share commits; a refused one rolls back only itself")
    func groupCommit() async throws {
        let fixture = try OrderFixture(capacity: 2)
        let anna = try fixture.user("anna"), margherita = try fixture.pizza("Margherita")
        let slots = try (0..<8).map { try fixture.at(String(format: "%02d:%02d", 19 + $0 / 4, ($0 % 4) * 15)) }
        let writer = HeldWriter(fixture.pizzeria.database)  // so the bookings queue up and batch
        let results = Task {
            await withTaskGroup(of: Result<Order, Error>.self) { group in
                // Two bookings per slot fit (capacity 2 pizzas); the third into slot 0 does not.
                for slot in slots + slots + [slots[0]] {
                    group.addTask {
                        do {
                            return .success(
                                try await fixture.pizzeria.write {
                                    try $0.orders.place(
                                        OrderRequest(user: anna, items: [.init(pizza: margherita)], pickup: slot)
                                    )
                                }.order)
                        } catch {
                            return .failure(error)
                        }
                    }
                }
                return await group.reduce(into: [Result<Order, Error>]()) { $0.append($1) }
            }
        }
        // Every booking queued behind the held lock, so they batch.
        #expect(await eventually { fixture.pizzeria.database.unfinishedWrites == 17 })
        writer.stop()
        let outcomes = await results.value
        let booked = outcomes.compactMap { try? $0.get() }
        #expect(booked.count == 16)
        #expect(outcomes.filter { if case .failure(OrderError.slotFull) = $0 { true } else { false } }.count == 1)
        #expect(try await fixture.pizzeria.read { try $0.orders.list() }.count == 16)
        let statistics = fixture.pizzeria.database.groupCommitStatistics
        #expect(statistics.writes == 17 && statistics.batches < statistics.writes, "\(statistics)")
        // Durable commits: the batches were committed without a sync of their own and synced by
        // the commit syncer before their callers were resumed — at most one sync per batch.
        #expect(statistics.syncs >= 1 && statistics.syncs <= statistics.batches, "\(statistics)")
    }

    @Test("the order feed sees this process's bookings at once and another connection's by polling; it ends on cancel")
    func orderFeed() async throws {
        let fixture = try OrderFixture()
        let feed = try await fixture.pizzeria.orders.feed(pollInterval: .milliseconds(50))
        let received = Task {
            var events: [OrderEvent] = []
            for try await event in feed {
                events.append(event)
                if events.count == 3 { break }
            }
            return events
        }
        let mine = try fixture.place("anna", "19:00", ("Margherita", 2)).order
        // Another Pizzeria on the same file stands for another process: its commits are polled.
        let other = try await Pizzeria.open(path: fixture.base.path, now: { fixture.now })
        let theirs = try await other.write {
            try $0.orders.place(
                OrderRequest(
                    user: try fixture.user("marco"), items: [.init(pizza: try fixture.pizza("Porcini"))],
                    pickup: try fixture.at("20:00"))
            )
        }.order
        try await other.write { try $0.orders.cancel(id: theirs.id) }
        let events = try await received.value
        #expect(events.map(\.kind) == [.placed, .placed, .cancelled])
        #expect(events.map(\.order.id) == [mine.id, theirs.id, theirs.id])
        #expect(events[0].order.lines.first?.quantity == 2)
        // Resuming from a cursor replays what came after it.
        let missed = try await fixture.pizzeria.read { try $0.orders.events(after: events[0].cursor) }
        #expect(missed.map(\.cursor) == events.dropFirst().map(\.cursor))
        // Cancelling the consuming task ends the loop cleanly.
        let endless = Task {
            var count = 0
            for try await _ in try await fixture.pizzeria.orders.feed(pollInterval: .milliseconds(20)) { count += 1 }
            return count
        }
        // The feed is waiting (it has read the empty history) when the task is cancelled.
        for _ in 0..<100 { await Task.yield() }
        endless.cancel()
        #expect(try await endless.value == 0)
    }

    @Test("the menu feed reports additions and edits from anyone")
    func menuFeed() async throws {
        let fixture = try Fixture()
        let start = try await fixture.pizzeria.read { try $0.menu.latestEventCursor() }
        let added = try fixture.add("Diavola", 850)
        var draft = PizzaDraft(editing: added)
        draft.price = Money(cents: 900)
        _ = try await fixture.pizzeria.write { [draft] in try $0.menu.save(draft) }
        var events: [MenuEvent] = []
        for try await event in try await fixture.pizzeria.menu.feed(after: start) {
            events.append(event)
            if events.count == 2 { break }
        }
        #expect(events.map(\.change.change) == [.created, .edited])
        #expect(events.last?.pizza.price.cents == 900)
    }

    @Test(
        "a cursor of another file's history is refused by events(after:) and by both feeds; the start and this file's own cursors are not"
    )
    func foreignCursors() async throws {
        let here = try OrderFixture(), there = try OrderFixture()
        for _ in 0..<3 { try here.place("anna", "19:00", ("Margherita", 1)) }
        try there.place("marco", "20:00", ("Porcini", 1))
        // Same positions, other events: each file refuses the other's cursors.
        let theirs = try await there.pizzeria.read { try $0.orders.latestEventCursor() }
        #expect(theirs.position == 1)
        await #expect(
            throws: FeedError.foreignCursor(
                theirs, newest: try await here.pizzeria.read { try $0.orders.latestEventCursor() })
        ) {
            try await here.pizzeria.read { try $0.orders.events(after: theirs) }
        }
        let mine = try await here.pizzeria.read { try $0.orders.events(after: .start) }
        #expect(mine.count == 3)
        #expect(
            try await here.pizzeria.read { try $0.orders.events(after: mine[0].cursor) }.map(\.cursor)
                == mine.dropFirst().map(\.cursor)
        )
        #expect(try await there.pizzeria.read { try $0.orders.events(after: .start) }.count == 1)
        // Past the newest event.
        await #expect(throws: FeedError.self) {
            try await there.pizzeria.read { try $0.orders.events(after: mine[2].cursor) }
        }
        // The feeds throw on their first read rather than wait forever.
        await #expect(throws: FeedError.self) {
            for try await _ in try await there.pizzeria.orders.feed(
                after: mine[2].cursor, pollInterval: .milliseconds(10))
            {}
        }
        let menuCursor = try await here.pizzeria.read { try $0.menu.latestEventCursor() }
        await #expect(throws: FeedError.self) {
            for try await _ in try await there.pizzeria.menu.feed(after: menuCursor, pollInterval: .milliseconds(10)) {}
        }
        // Text form round trip, and JSON as a string.
        #expect(EventCursor(mine[1].cursor.description) == mine[1].cursor)
        #expect(String(decoding: try JSONEncoder().encode(mine[1].cursor), as: UTF8.self) == "\"\(mine[1].cursor)\"")
    }

    @Test("models decode what they encode, in the documented shapes")
    func codableRoundTrips() throws {
        let fixture = try OrderFixture()
        let order = try fixture.place("anna", "19:00", ("Margherita", 2), ("Porcini", 1)).order
        let pizza = try fixture.pizzeria.lookup.pizza("Margherita")
        let anna = try fixture.pizzeria.lookup.user("anna")
        let state = try fixture.pizzeria.navigation.push(anna.id, [.pizza(id: pizza.id), .order(id: order.id)])
        let encoder = JSONEncoder(), decoder = JSONDecoder()
        func roundTrip<T: Codable & Equatable>(_ value: T) throws {
            let data = try encoder.encode(value)
            #expect(try decoder.decode(T.self, from: data) == value, "\(String(decoding: data, as: UTF8.self))")
        }
        try roundTrip(order)
        try roundTrip(pizza)
        try roundTrip(anna)
        try roundTrip(state)
        try roundTrip(try fixture.pizzeria.orders.slots(on: LocalDate("2026-12-01")!))
        try roundTrip(try fixture.pizzeria.orders.sales())
        try roundTrip(try fixture.pizzeria.orders.events(after: .start))
        try roundTrip(try fixture.pizzeria.menu.history(of: pizza.id))
        let json = try JSONSerialization.jsonObject(with: try encoder.encode(order)) as? [String: Any]
        #expect(
            json?["id"] as? String == order.id.description && json?["total"] as? String == "24.00"
                && json?["total_cents"] as? Int == 2400)
        #expect((json?["created_at"] as? String)?.hasSuffix("Z") == true)
        #expect(
            Pizza.ID(order.id.description.uppercased()) == nil
                || Order.ID(order.id.description.uppercased()) == order.id)
    }
}
