// README-EXAMPLE-BEGIN
import Foundation
import PizzeriaServices

func bookingExample(_ pizzeria: Pizzeria, pizza: Pizza.ID) async throws -> Order {
    let anna: User
    if let existing = try await pizzeria.read({ try $0.users.user(handle: "anna") }) {
        anna = existing
    } else {
        anna = try await pizzeria.write { try $0.users.add(handle: "anna", displayName: "Anna") }
    }

    // Tomorrow at 19:30 in the pizzeria's zone: the clock refuses a time the clocks skip or pass
    // twice. (`orders.pickup(parsing: "19:30")` reads times as people type them.)
    let clock = try await pizzeria.read { try $0.settings.current().clock }
    let tomorrow = clock.date(of: pizzeria.currentDate).adding(days: 1)
    guard let halfPastSeven = LocalTime(hour: 19, minute: 30) else { throw CancellationError() }
    let pickup = try clock.instant(on: tomorrow, at: halfPastSeven)

    // The key makes a retry after a lost answer safe: same key and content, same order.
    let request = OrderRequest(
        user: anna.id, items: [.init(pizza: pizza, quantity: 2)],
        pickup: pickup, idempotencyKey: "app-anna-\(tomorrow)")
    let (order, created) = try await pizzeria.write { try $0.orders.place(request) }
    _ = created  // false when the key had already booked it

    // The lifecycle: placed → preparing → ready → collected, or cancelled early.
    let preparing = try await pizzeria.write { try $0.orders.advance(id: order.id) }
    return preparing.status == .preparing ? preparing : order
}
// README-EXAMPLE-END
