import Foundation
import Testing
import PizzeriaServices
import PizzeriaTestSupport

/// A booking's fate is decided once: either its work runs and its caller gets the result, or
/// it never runs and its caller gets `CancellationError`. A caller told "cancelled" who retries
/// without a key must not book twice.
@Suite("Cancelling async bookings: no ghost orders")
struct BookingCancellationTests {
    /// What one booking task ended with.
    enum Outcome: Sendable { case booked(Order.ID), cancelled, refused(String) }

    @Test(
        "thousands of bookings cancelled at random moments: every cancelled one wrote nothing, every booked one is there"
    )
    func noGhosts() async throws {
        let fixture = try OrderFixture(capacity: 10_000)
        let anna = try fixture.user("anna"), margherita = try fixture.pizza("Margherita")
        // Rounds go on until both outcomes have happened thousands of times (how many rounds that
        // takes depends on the machine's load), within a bound — and the slots hold every booking
        // the bound allows (12 × 10,000 ≥ 3,000 × 32), so none is ever refused for room.
        let tasksPerRound = 32, enough = (cancelled: 2_000, booked: 1_000), maximumRounds = 3_000
        let slots = try (0..<12).map { try fixture.at(String(format: "%02d:%02d", 19 + $0 / 4, ($0 % 4) * 15)) }
        #expect(slots.count * 10_000 >= maximumRounds * tasksPerRound)
        var outcomes: [String: Outcome] = [:]
        var rng = SystemRandomNumberGenerator()
        var round = 0, cancellations = 0, bookings = 0
        while round < maximumRounds, cancellations < enough.cancelled || bookings < enough.booked {
            defer { round += 1 }
            var tasks: [(key: String, task: Task<Outcome, Never>, cancelAfter: Int?)] = []
            for index in 0..<tasksPerRound {
                let key = "r\(round)-\(index)"
                let request = OrderRequest(
                    user: anna, items: [.init(pizza: margherita)], pickup: slots[index % slots.count],
                    idempotencyKey: key)
                let task = Task { () -> Outcome in
                    do {
                        return .booked(try await fixture.pizzeria.write { try $0.orders.place(request) }.order.id)
                    } catch is CancellationError { return .cancelled } catch {
                        return .refused(String(describing: error))
                    }
                }
                // About half are cancelled, from at once to a few hundred microseconds in —
                // before, while and after the writer thread takes them into a batch.
                tasks.append((key, task, Bool.random(using: &rng) ? Int.random(in: 0...400, using: &rng) : nil))
            }
            for entry in tasks {
                guard let delay = entry.cancelAfter else { continue }
                if delay > 0 { try await Task.sleep(for: .microseconds(delay)) }
                entry.task.cancel()
            }
            for entry in tasks {
                let outcome = await entry.task.value
                outcomes[entry.key] = outcome
                switch outcome {
                case .cancelled: cancellations += 1
                case .booked: bookings += 1
                case .refused: break
                }
            }
        }
        let written = Dictionary(
            try await fixture.pizzeria.read { try $0.orders.list() }.compactMap { order in
                order.idempotencyKey.map { ($0, order.id) }
            },
            uniquingKeysWith: { first, _ in first })
        var cancelled = 0, booked = 0
        for (key, outcome) in outcomes.sorted(by: { $0.key < $1.key }) {
            switch outcome {
            case .cancelled:
                cancelled += 1
                #expect(
                    written[key] == nil,
                    "\(key) was told it was cancelled, yet order \(written[key].map { "\($0)" } ?? "") was written")
            case .booked(let id):
                booked += 1
                #expect(written[key] == id, "\(key) was booked as \(id) but is not in the file")
            case .refused(let error):
                Issue.record("\(key) was refused: \(error)")
            }
        }
        // The race needs both outcomes in number to mean anything.
        #expect(cancelled >= enough.cancelled, "only \(cancelled) cancellations in \(round) rounds")
        #expect(booked >= enough.booked, "only \(booked) bookings in \(round) rounds")
        #expect(written.count == booked)
    }
}
