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

        // The menu and the tills' customers, added once (re-running the service adds nothing).
        for (name, cents) in [("Margherita", 600), ("Diavola", 850), ("Quattro Formaggi", 950)] {
            guard try await pizzeria.menu.pizza(named: name) == nil else { continue }
            var draft = PizzaDraft.blank
            draft.name = name
            draft.price = Money(cents: Int64(cents))
            _ = try await pizzeria.menu.save(draft)
        }
        var customers: [User.ID] = []
        for index in 1...8 {
            if let existing = try await pizzeria.users.user(handle: "till\(index)") {
                customers.append(existing.id)
            } else {
                customers.append(try await pizzeria.users.add(handle: "till\(index)").id)
            }
        }
        let menu = try await pizzeria.menu.list()
        let day = try await tomorrow(pizzeria)

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
                    let time = String(format: "%02d:%02d", 18 + index / 4, (index % 4) * 15)
                    let pickup = try await pizzeria.orders.pickup(parsing: "\(day)T\(time)")
                    let request = OrderRequest(
                        user: customer, items: [.init(pizza: pizza, quantity: 1 + index % 2)],
                        pickup: pickup, idempotencyKey: "kitchen-\(run)-\(index)")
                    return try await pizzeria.orders.place(request).order
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

    /// Tomorrow's date in the pizzeria's time zone.
    static func tomorrow(_ pizzeria: Pizzeria) async throws -> String {
        let zone = try await pizzeria.settings.current().timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let date = calendar.date(byAdding: .day, value: 1, to: Date()) ?? Date()
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
