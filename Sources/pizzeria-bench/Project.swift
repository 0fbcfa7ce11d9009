import Foundation
@_spi(Benchmark) import PizzeriaServices

/// The workload through the project's public API, as an embedding service calls it.
struct Project {
    let pizzeria: Pizzeria
    let dataSet: DataSet
    var pizzaIDs: DataSet.PizzaIDs { dataSet.pizzaIDs }
    var userIDs: [User.ID] { dataSet.userIDs }

    /// The app's request: each line names the variant shown (the default preselected) and the extras ticked.
    func request(_ booking: Workload.Booking, pickup: Date) -> OrderRequest {
        OrderRequest(
            user: userIDs[booking.user],
            items: booking.lines.map { line in
                .init(
                    pizza: dataSet.pizzaIDs[line.pizza], quantity: line.quantity,
                    variant: Variant.ID(
                        line.maxi ? dataSet.variants.maxi(line.pizza) : dataSet.variants.normale(line.pizza)),
                    modifiers: line.extras.map { dataSet.extraIDs[$0] })
            }, pickup: pickup)
    }

    func placeOrders(_ bookings: [Workload.Booking], pickup: (Workload.Booking) -> Date) throws -> Int {
        var refused = 0
        for booking in bookings {
            do { try pizzeria.orders.place(request(booking, pickup: pickup(booking))) } catch OrderError.slotFull {
                refused += 1
            }
        }
        return refused
    }

    /// The same bookings from `callers` concurrent tasks through the async API: the library
    /// commits what they queue together (group commit); each call returns once its booking is
    /// committed with the configured durability.
    func placeOrdersConcurrently(
        _ bookings: [Workload.Booking], callers: Int, pickup: @escaping @Sendable (Workload.Booking) -> Date
    ) async throws -> Int {
        let requests = bookings.map { request($0, pickup: pickup($0)) }
        let pizzeria = self.pizzeria
        return try await withThrowingTaskGroup(of: Int.self) { group in
            for caller in 0..<callers {
                let mine = stride(from: caller, to: requests.count, by: callers).map { requests[$0] }
                group.addTask {
                    var refused = 0
                    for request in mine {
                        do { _ = try await pizzeria.write { try $0.orders.place(request) } } catch OrderError.slotFull {
                            refused += 1
                        }
                    }
                    return refused
                }
            }
            var refused = 0
            for try await count in group { refused += count }
            return refused
        }
    }

    /// The picker for each call, through the public API; a checksum of the answers (slot starts
    /// and remaining pizzas) to compare with the baseline's.
    func availableSlots(_ calls: [Workload.PickerCall], today: Double) throws -> Int {
        var checksum = 0
        for call in calls {
            let answer = try pizzeria.orders.availableSlots(
                pizzas: call.pizzas, after: Date(timeIntervalSince1970: today + Double(call.minute) * 60))
            checksum = checksum &+ Self.hash(answer.slots)
        }
        return checksum
    }

    /// Each call's answer as a hash (``hash(_:)``), read the way `reading`
    /// says: `--picker-before` compares the picker with the one before migration 11, call by call.
    func pickerAnswers(_ calls: [Workload.PickerCall], today: Double, reading: OrderService.PickerReading) throws
        -> [Int]
    {
        try calls.map { call in
            let answer = try pizzeria.orders.availableSlots(
                pizzas: call.pizzas, after: Date(timeIntervalSince1970: today + Double(call.minute) * 60),
                reading: reading)
            return Self.hash(answer.slots)
        }
    }

    /// An answer's hash: each slot's start, service day, offset, remaining, capacity and rule
    /// (its text's length), folded as the baseline folds its own.
    static func hash(_ slots: [AvailableSlot]) -> Int {
        var hash = 0
        for slot in slots {
            hash = Baseline.hash(
                hash, start: Int(slot.start.timeIntervalSince1970), serviceDay: Int(slot.serviceDay.daysSinceEpoch),
                offset: slot.offsetSeconds, remaining: slot.remaining, capacity: slot.capacity,
                rule: slot.capacityRule?.utf8.count ?? -1)
        }
        return hash
    }

    func navigate(_ operations: [Workload.Navigation]) throws -> Int {
        var refused = 0
        let router = pizzeria.navigation
        for operation in operations {
            switch operation {
            case .push(let user, let pizza):
                try router.push(userIDs[user], [.pizza(id: pizzaIDs[pizza])])
            case .pop(let user):
                do { try router.pop(userIDs[user]) } catch NavigationError.emptyStack { refused += 1 }
            case .popToRoot(let user):
                try router.popToRoot(userIDs[user])
            }
        }
        return refused
    }

    func readPaths(_ users: [Int]) throws -> Int {
        var total = 0
        for user in users { total += try pizzeria.navigation.path(of: userIDs[user]).count }
        return total
    }

    /// The whole menu the app's menu screen reads — categories, items with their variants and
    /// groups, the groups with their modifiers — one item at a time (`forEachEntry`: memory flat
    /// in the menu's size). Counts the entries, their variants and their groups.
    func readMenu(_ times: Int) throws -> Int {
        var rows = 0
        for _ in 0..<times {
            let outline = try pizzeria.menu.forEachEntry { entry in
                rows += (entry.pizza.price.cents > 0 ? 1 : 0) + entry.variants.count + entry.groupIDs.count
            }
            rows += outline.groups.isEmpty || outline.categories.isEmpty ? 1 : 0
        }
        return rows
    }

    func editPrices(_ edits: [(pizza: Int, cents: Int64)]) throws -> Int {
        for edit in edits {
            var draft = try pizzeria.menu.editDraft(for: pizzaIDs[edit.pizza])
            draft.price = Money(cents: edit.cents)
            _ = try pizzeria.menu.save(draft)
        }
        return edits.count
    }
}
