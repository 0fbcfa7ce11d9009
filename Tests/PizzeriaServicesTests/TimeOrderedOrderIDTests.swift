import Foundation
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

@Suite("Order ids: time-ordered (version 7), told apart by their last 8 characters")
struct TimeOrderedOrderIDTests {
    /// The 12 hex digits of `date` in milliseconds since 1970: a version 7 id's first 48 bits.
    static func milliseconds(_ date: Date) -> String {
        let digits = String(Int64((date.timeIntervalSince1970 * 1_000).rounded(.down)), radix: 16)
        return String(repeating: "0", count: 12 - digits.count) + digits
    }

    /// A version 7 id made at `date` whose last 12 characters are `tail`.
    static func id(at date: Date, tail: String) -> String {
        let time = milliseconds(date)
        return "\(time.prefix(8))-\(time.suffix(4))-7000-8000-\(tail)"
    }

    @Test(
        "a booking's id is version 7: its first 48 bits the clock's millisecond, later bookings sort after, its short id its last 8 characters"
    )
    func booked() throws {
        let f = try OrderFixture()
        let first = try f.place("anna", "19:00", ("Margherita", 1)).order
        let text = first.id.description, characters = Array(text)
        #expect(text.replacingOccurrences(of: "-", with: "").prefix(12) == Self.milliseconds(f.clock.now))
        #expect(characters[14] == "7" && "89ab".contains(characters[19]), "\(text)")
        #expect(first.id.isTimeOrdered && first.id.short == String(text.suffix(8)) && first.id.short == shortID(text))
        #expect(try f.pizzeria.orders.order(id: first.id)?.id == first.id)
        f.clock.advance(minutes: 0.001)  // 60 ms
        let second = try f.place("marco", "19:15", ("Marinara", 1)).order
        #expect(second.id > first.id && second.id.description.prefix(13) != text.prefix(13))
        // Made in one millisecond, ids still differ (74 random bits).
        let same = Date(timeIntervalSince1970: 1_765_000_000)
        let many = (0..<10_000).map { _ in Order.ID.timeOrdered(at: same) }
        #expect(Set(many).count == many.count && Set(many.map { $0.description.prefix(13) }).count == 1)
    }

    @Test("the short id: a random id's first 8 characters, a time-ordered one's last 8 — as the tests' own rule says")
    func shortIDs() {
        let random = (0..<1_000).map { _ in Order.ID.random() }
        #expect(random.allSatisfy { !$0.isTimeOrdered && $0.short == String($0.description.prefix(8)) })
        let ordered = (0..<1_000).map { Order.ID.timeOrdered(at: Date(timeIntervalSince1970: Double($0) * 1_469_000)) }
        #expect(ordered.allSatisfy { $0.isTimeOrdered && $0.short == String($0.description.suffix(8)) })
        #expect((random + ordered).allSatisfy { $0.short == shortID($0.description) })
        #expect(zip(ordered, ordered.dropFirst()).allSatisfy { $0.0 < $0.1 }, "made later, sorted after")
        #expect(Order.ID.timeOrdered(at: Date(timeIntervalSince1970: -5)).description.hasPrefix("00000000-0000-7"))
    }

    /// Orders written by hand with chosen ids (anna's), on a fixture's file: two recent ones
    /// sharing the start of their short id, a recent and an old one sharing another, and one
    /// with a random id as files had before.
    static func handWritten(_ f: OrderFixture) throws -> [String: String] {
        let now = f.clock.now, old = now.addingTimeInterval(-100 * 86_400)
        let ids = [
            "a": id(at: now, tail: "0000abcd1234"), "b": id(at: now, tail: "0000abcd9999"),
            "recent": id(at: now, tail: "0000fedc5555"), "old": id(at: old, tail: "0000fedc0001"),
            "random": "33333333-3333-4333-8333-333333333333",
        ]
        let pickups = ["17:00", "17:15", "17:30", "17:45", "18:00"]
        try f.pizzeria.database.write { db in
            for ((_, id), utc) in zip(ids.sorted(by: { $0.key < $1.key }), pickups) {
                let local = "\(Int(utc.prefix(2)).map { $0 + 1 } ?? 0)" + utc.dropFirst(2)
                _ = try db.run(
                    """
                    INSERT INTO orders (id, user_id, pickup_at, service_day, pickup_local)
                    SELECT ?, id, ?, '2026-12-01', ? FROM users WHERE handle = 'anna'
                    """, [id, "2026-12-01T\(utc):00Z", "2026-12-01T\(local)+01:00"])
            }
        }
        return ids
    }

    @Test(
        "staff find an order by the start of its short id: two recent ones sharing it are ambiguous, an old one does not make a recent one so and is found when no recent one has it; a random id by its start"
    )
    func lookup() throws {
        let f = try OrderFixture()
        let ids = try Self.handWritten(f)
        let lookup = f.pizzeria.lookup
        #expect(try lookup.order("abcd1234").id.description == ids["a"])
        #expect(try lookup.order("ABCD9999").id.description == ids["b"])
        let ambiguous = #expect(throws: OrderError.self) { try lookup.order("abcd") }
        #expect(ambiguous?.description == "'abcd' matches 2 orders: abcd9999, abcd1234")
        #expect(try lookup.order("fedc").id.description == ids["recent"], "the recent one, not the old one too")
        #expect(try lookup.order("fedc0001").id.description == ids["old"], "older than 62 days, still found")
        #expect(try lookup.order("3333").id.description == ids["random"])
        #expect(try lookup.order("33333333").id.short == "33333333")
        // An id's own start still works (the time part: all four made now share it).
        let start = String(try #require(ids["a"]).prefix(13))
        let byTime = #expect(throws: OrderError.self) { try lookup.order(start) }
        #expect(byTime?.description.hasPrefix("'\(start)' matches 3 orders: ") == true, "\(String(describing: byTime))")
        #expect(try lookup.order(try #require(ids["old"])).id.short == "fedc0001")
        #expect(throws: OrderError.notFound("beef")) { try lookup.order("beef") }
        // Completion offers short ids for what they start, whole ids otherwise.
        #expect(try lookup.orderIDs(startingWith: "ABCD").map(\.short).sorted() == ["abcd1234", "abcd9999"])
        #expect(try lookup.orderIDs(startingWith: start).count == 3)
    }

    @Test(
        "a customer's route names only their orders by short id; the views label an order by its short id, from the end of a time-ordered one"
    )
    func routesAndViews() throws {
        let f = try OrderFixture()
        let ids = try Self.handWritten(f)
        let anna = try f.user("anna"), marco = try f.user("marco")
        let booked = try f.place("anna", "20:00", ("Margherita", 1)).order
        let state = try f.pizzeria.navigation.open(
            anna, url: "pizzeria://order/abcd1234/order/3333/order/\(booked.id.short)")
        #expect(state.path.compactMap(\.route).map(\.id) == [ids["a"], ids["random"], booked.id.description])
        #expect(throws: NavigationError.noSuchOrder) {
            try f.pizzeria.navigation.open(marco, url: "pizzeria://order/abcd1234")
        }
        let expected = ["order abcd1234", "order 33333333", "order \(booked.id.short)"]
        #expect(try f.pizzeria.navigation.labels(for: state.path) == expected)
        try f.pizzeria.database.read { db in
            let labels = try db.fetchAll(
                "SELECT label FROM navigation_stack_labels WHERE user_id = ? ORDER BY depth", [anna]
            ) { try $0.string("label") }
            #expect(labels == expected)
            let history = try db.fetchOne(
                "SELECT routes FROM navigation_history ORDER BY event_id DESC LIMIT 1"
            ) { try $0.string("routes") }
            #expect(history == expected.joined(separator: " › "))
        }
    }
}
