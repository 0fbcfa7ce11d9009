// A kitchen service: eight tills book orders at once while the kitchen display watches the
// live feed and prints each order as it arrives. Run: swift run KitchenService [DATABASE]
import Foundation
import PizzeriaServices

@main
struct KitchenService {
    static func main() async throws {
        let path =
            CommandLine.arguments.dropFirst().first
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("kitchen-\(UUID().uuidString).sqlite").path

        // One Pizzeria for the whole service: it is Sendable, and its async API never blocks the
        // cooperative thread pool (the SQLite work runs on the library's own threads).
        let pizzeria = try await Pizzeria.open(path: path)

        // The menu and the tills' customers, added once (re-running the service adds nothing), in
        // one trip to the writer thread: every call inside is the synchronous API.
        let customers = try await pizzeria.write { pizzeria in
            for (name, cents) in [("Margherita", 600), ("Diavola", 850), ("Quattro Formaggi", 950)]
            where try pizzeria.menu.pizza(named: name) == nil {
                var draft = PizzaDraft.blank
                draft.name = name
                draft.price = Money(cents: Int64(cents))
                _ = try pizzeria.menu.save(draft)
            }
            return try (1...8).map { index in
                try pizzeria.users.user(handle: "till\(index)")?.id ?? pizzeria.users.add(handle: "till\(index)").id
            }
        }
        let menu = try await pizzeria.read { try $0.menu.list() }
        // Tomorrow in the pizzeria's zone; its clock turns a local time into the instant.
        let clock = try await pizzeria.read { try $0.settings.current().clock }
        let day = clock.date(of: Date()).adding(days: 1)

        // The kitchen display: the live feed, from now on.
        let feed = try await pizzeria.orders.feed()
        let expected = customers.count
        let display = Task {
            var seen = 0
            for try await event in feed where event.kind == .placed {
                let order = event.order
                print(
                    "kitchen: #\(event.cursor) \(order.handle) at \(order.pickupLocal): "
                        + order.lines.map { "\($0.quantity) × \($0.pizzaName)" }.joined(separator: ", "))
                seen += 1
                if seen == expected { break }
            }
            return seen
        }

        // Eight tills book at once, each for its own slot tomorrow; a retry with the same key
        // would return the same order instead of booking twice.
        let run = UUID().uuidString.prefix(8)
        let booked = try await withThrowingTaskGroup(of: Order.self) { group in
            for (index, customer) in customers.enumerated() {
                let pizza = menu[index % menu.count].id
                group.addTask {
                    let time = LocalTime(hour: 18 + index / 4, minute: (index % 4) * 15) ?? .midnight
                    let pickup = try clock.instant(on: day, at: time)
                    let request = OrderRequest(
                        user: customer, items: [.init(pizza: pizza, quantity: 1 + index % 2)],
                        pickup: pickup, idempotencyKey: "kitchen-\(run)-\(index)")
                    return try await pizzeria.write { try $0.orders.place(request) }.order
                }
            }
            var orders: [Order] = []
            for try await order in group { orders.append(order) }
            return orders
        }
        print("tills: booked \(booked.count) orders")

        // The display must see every booking; give it ten seconds at most.
        let timeout = Task {
            try await Task.sleep(for: .seconds(10))
            display.cancel()
        }
        let seen = try await display.value
        timeout.cancel()
        print("kitchen: saw \(seen) of \(booked.count) bookings")
        if seen != booked.count { exit(1) }
    }
}
