// README-EXAMPLE-BEGIN
import Foundation
import PizzeriaServices

func counterExample(_ pizzeria: Pizzeria, pizza: Pizza.ID) async throws -> Order {
    var marco = try await pizzeria.users.user(handle: "marco")
    if marco == nil { marco = try await pizzeria.users.add(handle: "marco", phone: "+39 333 123 4567") }
    guard let marco else { throw CancellationError() }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try await pizzeria.settings.current().timeZone
    guard let tomorrow = calendar.date(byAdding: .day, value: 1, to: .now),
        let eight = calendar.date(bySettingHour: 20, minute: 0, second: 0, of: tomorrow),
        let quarterPast = calendar.date(bySettingHour: 20, minute: 15, second: 0, of: tomorrow)
    else { throw CancellationError() }
    let request = OrderRequest(
        user: marco.id, items: [.init(pizza: pizza, quantity: 1)], pickup: eight,
        idempotencyKey: "phone-marco-\(calendar.component(.day, from: eight))")
    let (order, _) = try await pizzeria.orders.place(request)

    // The customer calls: a quarter of an hour later, one more pizza, a note for the kitchen. Each
    // change checks the order is still at the version the counter saw (else .versionConflict).
    let moved = try await pizzeria.orders.move(
        id: order.id, to: quarterPast, expectedVersion: order.version, by: "giulia")
    var change = OrderEdit(add: [.init(pizza: pizza, quantity: 1)])
    change.note = .set("ring the bell")
    let edited = try await pizzeria.orders.edit(id: order.id, change, expectedVersion: moved.version, by: "giulia")

    // A slip of the finger: advanced by mistake, taken back within the undo window (10 minutes).
    _ = try await pizzeria.orders.advance(id: order.id, by: "giulia")
    _ = try await pizzeria.orders.undo(id: order.id, by: "giulia")
    return try await pizzeria.orders.order(id: edited.id) ?? edited  // placed again; the history keeps all of it
}
// README-EXAMPLE-END
