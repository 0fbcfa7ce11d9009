// README-EXAMPLE-BEGIN
import Foundation
import PizzeriaServices

func bookingExample(_ pizzeria: Pizzeria, pizza: Pizza.ID) async throws -> Order {
    let anna: User
    if let existing = try await pizzeria.users.user(handle: "anna") {
        anna = existing
    } else {
        anna = try await pizzeria.users.add(handle: "anna", displayName: "Anna")
    }

    // Tomorrow at 19:30 in the pizzeria's zone. (`orders.pickup(parsing: "19:30")` reads times as
    // people type them, refusing with a reason a time the clocks skip or pass twice.)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try await pizzeria.settings.current().timeZone
    guard let tomorrow = calendar.date(byAdding: .day, value: 1, to: .now),
        let pickup = calendar.date(bySettingHour: 19, minute: 30, second: 0, of: tomorrow)
    else { throw CancellationError() }

    // The key makes a retry after a lost answer safe: same key and content, same order.
    let request = OrderRequest(
        user: anna.id, items: [.init(pizza: pizza, quantity: 2)],
        pickup: pickup, idempotencyKey: "app-anna-\(calendar.component(.day, from: pickup))")
    let (order, created) = try await pizzeria.orders.place(request)
    _ = created  // false when the key had already booked it

    // The lifecycle: placed → preparing → ready → collected, or cancelled early.
    let preparing = try await pizzeria.orders.advance(id: order.id)
    return preparing.status == .preparing ? preparing : order
}
// README-EXAMPLE-END
