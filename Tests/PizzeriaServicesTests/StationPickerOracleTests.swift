import Foundation
import PizzeriaStorage
import PizzeriaTestSupport
import Testing

@testable import PizzeriaServices

/// The picker for a cart and the booking agree with stations: for random fryer and oven
/// capacities (the fryer's in half the cases also by time, a rule over part of the evening), bookings and carts, the slots `availableSlots(for:)` lists are exactly the first
/// instants (every 5 minutes from now) where booking that cart succeeds — the booking itself,
/// run and rolled back, is the oracle.
@Suite("The cart's picker and the booking agree, every station considered (property test with an oracle)")
struct StationPickerOracleTests {
    struct Rollback: Error {}

    @Test("80 random cases: every listed slot takes the cart, every slot that takes it within the limit is listed")
    func cartPickerEqualsBooking() throws {
        var rng = PickerOracleTests.SplitMix(state: 62)
        var failures: [String] = [], nonEmpty = 0, tooLarge = 0, ruledCases = 0
        for seed in 0..<80 {
            let k = try StationTests.kitchen()
            let f = k.f, orders = f.pizzeria.orders
            func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &rng)] }
            let fryer = Int.random(in: 1...4, using: &rng), oven = Int.random(in: 1...5, using: &rng)
            _ = try f.pizzeria.menu.editStation(k.friggitrice.id, capacity: .some(fryer))
            // Half the cases give the fryer a capacity by time over part of the evening.
            var largestFryer = fryer
            if Bool.random(using: &rng) {
                let ruled = Int.random(in: 1...6, using: &rng)
                let range = "\(pick(["18:30", "19:00", "19:30", "20:00"]))-\(pick(["20:30", "21:00", "22:00"]))"
                _ = try f.pizzeria.capacity.set(
                    Weekday.allCases.map { .weekday($0) }, try HoursSyntax.parseInterval(range), capacity: ruled,
                    at: k.friggitrice.id)
                largestFryer = max(fryer, ruled)
                ruledCases += 1
            }
            try f.pizzeria.settings.update(.slotCapacity(oven))
            // Two days ahead: the oracle tries every 5 minutes of them when nothing fits.
            try f.pizzeria.settings.update(.bookingHorizonDays(1))
            let margherita = try f.pizza("Margherita")
            let anna = try f.user("anna")
            let times = (18...22).flatMap { hour in [0, 15, 30, 45].map { String(format: "%02d:%02d", hour, $0) } }
            for _ in 0..<Int.random(in: 0...14, using: &rng) {
                let items: [OrderRequest.Item] = [
                    .init(pizza: k.crocche, quantity: Int.random(in: 1...2, using: &rng)),
                    .init(pizza: margherita, quantity: Int.random(in: 0...2, using: &rng)),
                ].filter { $0.quantity > 0 }
                _ = try? orders.place(OrderRequest(user: anna, items: items, pickup: try f.at(pick(times))))
            }
            // The clock within the evening, often off the 5-minute grid.
            f.clock.advance(
                minutes: Double(Int.random(in: 0...11, using: &rng) * 60 + Int.random(in: 0...59, using: &rng)))
            let cart: [OrderRequest.Item] = [
                .init(pizza: k.crocche, quantity: Int.random(in: 1...5, using: &rng)),
                .init(pizza: margherita, quantity: Int.random(in: 0...3, using: &rng)),
                .init(pizza: k.acqua, quantity: Int.random(in: 0...2, using: &rng)),
            ].filter { $0.quantity > 0 }
            let limit = Int.random(in: 1...4, using: &rng)
            let answer = try orders.availableSlots(for: cart, limit: limit)
            let fried = cart.first { $0.pizza == k.crocche }?.quantity ?? 0
            let baked = cart.first { $0.pizza == margherita }?.quantity ?? 0
            if baked > oven {
                if answer.reason != .tooLarge { failures.append("seed \(seed): \(baked) over \(oven): \(answer)") }
                continue
            }
            if fried > largestFryer {
                tooLarge += 1
                if answer.reason != .tooLarge || !(answer.message ?? "").contains("Friggitrice") {
                    failures.append("seed \(seed): \(fried) fried over \(largestFryer) per slot, answered \(answer)")
                }
                continue
            }
            // The oracle: the booking itself at every 5-minute instant, rolled back.
            let now = f.clock.now
            var expected: [Date] = []
            var instant = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 300).rounded(.up) * 300)
            let horizon = now.addingTimeInterval(Double(try f.pizzeria.settings.current().bookingHorizonDays) * 86_400)
            while expected.count < limit, instant <= horizon {
                defer { instant = instant.addingTimeInterval(300) }
                let request = OrderRequest(user: anna, items: cart, pickup: instant)
                do {
                    try f.pizzeria.database.write { db in
                        _ = try OrderService.place(request, actor: nil, now: now, in: db)
                        throw Rollback()
                    }
                } catch is Rollback {
                    expected.append(instant)
                } catch {}
            }
            if !expected.isEmpty { nonEmpty += 1 }
            let listed = answer.slots.map(\.start)
            if listed != expected, failures.count < 5 {
                failures.append(
                    "seed \(seed): fryer \(fryer), oven \(oven), cart \(cart.map { "\($0.pizza)x\($0.quantity)" }), "
                        + "now \(PickupTime.utc(now)), listed \(listed.map(PickupTime.utc)), "
                        + "expected \(expected.map(PickupTime.utc)), answer \(answer.reason as Any) \(answer.message ?? "")"
                )
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(
            nonEmpty > 25 && tooLarge > 5 && ruledCases > 20,
            "\(nonEmpty) cases with a slot, \(tooLarge) too large for the fryer, \(ruledCases) with a fryer rule")
    }
}
