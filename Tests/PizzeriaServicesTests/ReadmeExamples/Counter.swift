// README-EXAMPLE-BEGIN
import Foundation
import PizzeriaServices

func counterExample(_ pizzeria: Pizzeria, pizza: Pizza.ID) async throws -> Order {
    var marco = try await pizzeria.read { try $0.users.user(handle: "marco") }
    if marco == nil {
        marco = try await pizzeria.write { try $0.users.add(handle: "marco", phone: "+39 333 123 4567") }
    }
    guard let marco else { throw CancellationError() }
    let clock = try await pizzeria.read { try $0.settings.current().clock }
    let tomorrow = clock.date(of: pizzeria.currentDate).adding(days: 1)
    guard let eightPM = LocalTime(hour: 20, minute: 0), let quarterPastEight = LocalTime(hour: 20, minute: 15) else {
        throw CancellationError()
    }
    let eight = try clock.instant(on: tomorrow, at: eightPM),
        quarterPast = try clock.instant(on: tomorrow, at: quarterPastEight)
    let request = OrderRequest(
        user: marco.id, items: [.init(pizza: pizza, quantity: 1)], pickup: eight,
        idempotencyKey: "phone-marco-\(tomorrow)")
    let (order, _) = try await pizzeria.write { try $0.orders.place(request) }

    // The customer calls: a quarter of an hour later, one more pizza, a note for the kitchen. Each
    // change checks the order is still at the version the counter saw (else .versionConflict).
    let moved = try await pizzeria.write {
        try $0.orders.move(
            id: order.id, to: quarterPast, expectedVersion: order.version, by: "giulia")
    }
    var change = OrderEdit(add: [.init(pizza: pizza, quantity: 1)])
    change.note = .set("ring the bell")
    let edited = try await pizzeria.write { [change] in
        try $0.orders.edit(id: order.id, change, expectedVersion: moved.version, by: "giulia")
    }

    // A slip of the finger: advanced by mistake, taken back within the undo window (10 minutes).
    _ = try await pizzeria.write { try $0.orders.advance(id: order.id, by: "giulia") }
    _ = try await pizzeria.write { try $0.orders.undo(id: order.id, by: "giulia") }
    // Placed again; the history keeps all of it.
    return try await pizzeria.read { try $0.orders.order(id: edited.id) } ?? edited
}
// README-EXAMPLE-END
