import Foundation
import PizzeriaServices
import PizzeriaTestSupport
import Testing

@Suite("README and docs/LIBRARY.md: every embedding example is compiled code, and works when run twice")
struct EmbeddingExampleTests {
    static let examples = [
        "Opening", "Menu", "Booking", "Counter", "Picker", "Schedule", "Router", "Feed", "Errors", "Notify",
    ]

    /// The README and the library guide, where the examples are shown.
    static func documentation() throws -> String {
        try ["README.md", "docs/LIBRARY.md"].map {
            try String(contentsOf: packageRoot.appendingPathComponent($0), encoding: .utf8)
        }
        .joined(separator: "\n")
    }

    /// The text between `start` and `end`.
    static func block(_ text: String, from start: String, to end: String) -> String? {
        guard let a = text.range(of: start), let b = text.range(of: end, range: a.upperBound..<text.endIndex) else {
            return nil
        }
        return String(text[a.upperBound..<b.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(
        "each README block is the code of its file in ReadmeExamples/, and every block has a file", arguments: examples)
    func blocksMatch(name: String) throws {
        let source = try String(
            contentsOf: packageRoot.appendingPathComponent("Tests/PizzeriaServicesTests/ReadmeExamples/\(name).swift"),
            encoding: .utf8)
        let readme = try Self.documentation()
        let code = Self.block(source, from: "// README-EXAMPLE-BEGIN", to: "// README-EXAMPLE-END")
        let documented = Self.block(readme, from: "<!-- example: \(name) -->\n```swift", to: "```")
        #expect(code != nil && code == documented, "README block '\(name)' differs from ReadmeExamples/\(name).swift")
    }

    @Test("the documentation shows each example once and names none without a file")
    func noStrayBlocks() throws {
        let named = try Self.documentation().components(separatedBy: "<!-- example: ").dropFirst()
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(named.sorted() == Self.examples.sorted(), "each example is shown exactly once")
    }

    @Test("the examples run, and run again on the same file")
    func examplesRun() async throws {
        let directory = TemporaryDirectory()
        // The examples book "tomorrow at 19:30", and which tomorrow is open depends on the day they
        // run: a Sunday's tomorrow is the Monday the schedule example closes on the first run,
        // the 24th's is Christmas. They run on a fixed clock (Tuesday 1 December 2026, 10:00 in
        // Rome), through the database the opening example opened.
        let now = try #require(ISO8601DateFormatter().date(from: "2026-12-01T09:00:00Z"))
        for _ in 0..<2 {
            let opened = try await openingExample(path: directory.path("embedded.sqlite"))
            let pizzeria = Pizzeria(database: opened.database, now: { now })
            let diavola = try await menuExample(pizzeria)
            #expect(diavola.name == "Diavola" && diavola.price == Money(cents: 900))
            let cursor = try await pizzeria.read { try $0.orders.latestEventCursor() }
            let order = try await bookingExample(pizzeria, pizza: diavola.id)
            #expect(order.lines.first?.quantity == 2 && order.total == Money(cents: 1800))
            // The second run's key returned the first order.
            #expect(try await pizzeria.read { try $0.orders.list() }.filter { $0.userID == order.userID }.count == 1)
            let called = try await counterExample(pizzeria, pizza: diavola.id)
            #expect(called.status == .placed && called.note == "ring the bell" && called.pizzaCount >= 2)
            #expect(called.history.map(\.kind).starts(with: [.placed, .moved, .edited, .status, .undo]))
            let path = try await routerExample(pizzeria, user: order.userID, pizza: diavola.id)
            #expect(path == [.route(.pizza(id: diavola.id))])
            let events = try await feedExample(pizzeria, after: cursor)
            // The feed from before the booking: anna's order first, and the first change stops the example.
            #expect(!events.isEmpty && events.first?.order.id == order.id && events.last?.kind != .placed)
            #expect(await errorsExample(pizzeria) == .invalidInput)
            let picked = try await pickerExample(pizzeria)
            #expect(picked.slots.count == 5 && picked.slots.allSatisfy { $0.remaining >= 4 } && picked.reason == nil)
            let eve = try await scheduleExample(pizzeria)
            #expect(eve.basis == .special && eve.summary == "12:00-16:00")
            var outbox: [String: String] = [:]
            let sent = try notifyExample(pizzeria, outbox: &outbox)
            // Each run starts from the whole history (`from: .start`); a customer with a phone gets one text per event.
            #expect(sent.delivered > 0 && sent.failures == 0)
            #expect(outbox.values.allSatisfy { $0.hasPrefix("+") && $0.contains("your order is") })
        }
    }
}
