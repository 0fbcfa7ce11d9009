import Foundation
import PizzeriaServices

/// The workload through the project's public API, as an embedding service would call it.
struct ProjectRunner {
    let pizzeria: Pizzeria
    let workload: Workload
    let pizzaIDs: [Pizza.ID]
    let userIDs: [User.ID]

    func placeOrders(_ bookings: [Workload.Booking], pickup: (Workload.Booking) -> Date) throws -> Int {
        var refused = 0
        for booking in bookings {
            let request = OrderRequest(user: userIDs[booking.user],
                                       items: booking.lines.map { .init(pizza: pizzaIDs[$0.pizza], quantity: $0.quantity) },
                                       pickup: pickup(booking))
            do { try pizzeria.orders.place(request) } catch OrderError.slotFull { refused += 1 }
        }
        return refused
    }

    func navigate(_ operations: [Workload.Navigation]) throws -> Int {
        var refused = 0
        for operation in operations {
            switch operation {
            case .push(let user, let pizza):
                try pizzeria.navigation.push(userIDs[user], [.pizza(id: pizzaIDs[pizza])])
            case .pop(let user):
                do { try pizzeria.navigation.pop(userIDs[user]) } catch NavigationError.emptyStack { refused += 1 }
            case .popToRoot(let user):
                try pizzeria.navigation.popToRoot(userIDs[user])
            }
        }
        return refused
    }

    func readPaths(_ users: [Int]) throws -> Int {
        var total = 0
        for user in users { total += try pizzeria.navigation.state(of: userIDs[user]).depth }
        return total
    }

    func readMenu(_ times: Int) throws -> Int {
        var total = 0
        for _ in 0..<times { total += try pizzeria.menu.list().count }
        return total
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
