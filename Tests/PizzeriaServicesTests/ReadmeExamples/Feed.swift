import Foundation
// README-EXAMPLE-BEGIN
import PizzeriaServices

func feedExample(_ pizzeria: Pizzeria, after cursor: EventCursor?) async throws -> [OrderEvent] {
    // Every booking and status change, by any process, in commit order, from a cursor (nil: from
    // now on). A kitchen display keeps the last cursor to resume after a restart.
    var events: [OrderEvent] = []
    for try await event in try await pizzeria.orders.feed(after: cursor) {
        events.append(event)  // event.kind, event.order (with its lines), event.cursor
        if event.kind != .placed { break }
    }
    return events
}
// README-EXAMPLE-END
