import Foundation
import PizzeriaServices

/// The reference workload of BENCHMARK.md: sizes (defaults as documented) and one seeded
/// random sequence, so the project and the baseline do exactly the same operations.
struct Workload {
    var pizzas = 10_000
    var users = 1_000
    var orders = 20_000
    var navigations = 100_000
    var pathReads = 100_000
    var menuReads = 200
    var edits = 10_000
    /// Calls of the pickup-time picker.
    var pickerCalls = 10_000
    var seed: UInt64 = 2026
    /// Navigation events already in the file (the scaling point: 10,000,000).
    var existingEvents = 0
    /// Orders already booked in the file (the scaling point: 1,000,000), on past days.
    var existingOrders = 0
    /// Days of pickup slots the orders spread over, starting tomorrow.
    var days = 60
    /// Capacity per slot for the benchmark, so most bookings fit (the check still runs).
    var slotCapacity = 100

    func pizzaName(_ index: Int) -> String { String(format: "Pizza %05d", index + 1) }
    func handle(_ index: Int) -> String { String(format: "user%04d", index + 1) }
    /// 4.00–20.00 EUR, spread evenly.
    func priceCents(_ index: Int) -> Int64 { 400 + Int64(index) * 1600 / Int64(max(1, pizzas - 1)) }

    /// The menu's shape (BENCHMARK.md): every 20th item, 5 %, is a drink (category `Bevande`,
    /// not using the oven, no extras); the others are spread over four oven categories.
    func isDrink(_ index: Int) -> Bool { index % 20 == 19 }
    /// The extras of group `Aggiunte`: 0.50–2.50 EUR, spread evenly.
    static let extras = 10
    static func extraCents(_ index: Int) -> Int64 { 50 + Int64(index) * 200 / Int64(extras - 1) }
    /// A `Maxi` costs 3.00 EUR more than the item's `Normale`.
    static let maxiSurcharge: Int64 = 300

    /// One line of a booking: an item, its quantity, its variant (`Normale` or `Maxi`) and 0–2
    /// distinct extras (none for a drink).
    struct Line {
        let pizza: Int
        let quantity: Int
        let maxi: Bool
        let extras: [Int]
    }

    /// One booking: a user, 1–3 distinct items with quantities 1–3, a slot.
    struct Booking {
        let user: Int
        let lines: [Line]
        let day: Int
        let slot: Int
    }

    /// One navigation operation.
    enum Navigation {
        case push(user: Int, pizza: Int)
        case pop(user: Int)
        case popToRoot(user: Int)
    }

    /// Scales the operation counts (not the data set).
    mutating func scale(by factor: Double) {
        func scaled(_ value: Int) -> Int { max(1, Int(Double(value) * factor)) }
        orders = scaled(orders)
        navigations = scaled(navigations)
        pathReads = scaled(pathReads)
        menuReads = scaled(menuReads)
        edits = scaled(edits)
        pickerCalls = scaled(pickerCalls)
    }

    /// One call of the picker: an order of 1–9 pizzas, from a moment within the booking days.
    struct PickerCall {
        let pizzas: Int
        /// Minutes after today's midnight (UTC).
        let minute: Int
    }

    func pickerCalls(seed offset: UInt64 = 4) -> [PickerCall] {
        var random = SplitMix(seed: seed &+ offset)
        return (0..<pickerCalls).map { _ in
            PickerCall(pizzas: 1 + Int(random.next() % 9), minute: 24 * 60 + Int(random.next() % UInt64(days * 1440)))
        }
    }

    /// The bookings, on days `dayOffset + 1 …` (the concurrent phase uses other slots).
    func bookings(dayOffset: Int = 0) -> [Booking] {
        var random = SplitMix(seed: seed &+ UInt64(dayOffset))
        return (0..<orders).map { _ in
            var chosen: [Int] = []
            let count = 1 + Int(random.next() % 3)
            while chosen.count < count {
                let pizza = Int(random.next() % UInt64(pizzas))
                if !chosen.contains(pizza) { chosen.append(pizza) }
            }
            let lines = chosen.map { pizza -> Line in
                let quantity = 1 + Int(random.next() % 3)
                let maxi = random.next() % 10 >= 8  // 80 % Normale
                var extras: [Int] = []
                let wanted = Int(random.next() % 3)
                while extras.count < wanted {
                    let extra = Int(random.next() % UInt64(Workload.extras))
                    if !extras.contains(extra) { extras.append(extra) }
                }
                return Line(pizza: pizza, quantity: quantity, maxi: maxi, extras: isDrink(pizza) ? [] : extras)
            }
            return Booking(
                user: Int(random.next() % UInt64(users)), lines: lines,
                day: dayOffset + 1 + Int(random.next() % UInt64(days)), slot: Int(random.next() % 44))
        }
    }

    func navigationOperations() -> [Navigation] {
        var random = SplitMix(seed: seed &+ 1)
        return (0..<navigations).map { _ in
            let user = Int(random.next() % UInt64(users))
            switch random.next() % 10 {
            case 0..<6: return .push(user: user, pizza: Int(random.next() % UInt64(pizzas)))
            case 6..<9: return .pop(user: user)
            default: return .popToRoot(user: user)
            }
        }
    }

    func pathReadUsers() -> [Int] {
        var random = SplitMix(seed: seed &+ 2)
        return (0..<pathReads).map { _ in Int(random.next() % UInt64(users)) }
    }

    func editOperations() -> [(pizza: Int, cents: Int64)] {
        var random = SplitMix(seed: seed &+ 3)
        return (0..<edits).map { _ in (Int(random.next() % UInt64(pizzas)), 400 + Int64(random.next() % 1601)) }
    }
}

/// The project's seeded generator: the same sequence for the project and the baseline.
typealias SplitMix = SeededGenerator
