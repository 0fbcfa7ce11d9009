import Foundation
// README-EXAMPLE-BEGIN
import PizzeriaServices

func notifyExample(_ pizzeria: Pizzeria, outbox: inout [String: String]) throws -> NotifierSummary {
    // Every event a customer should hear of, once each, in order: the cursor is kept in the file,
    // so a restarted service resumes; a delivery that throws is retried with backoff.
    guard let name = NotifierName("sms") else { return NotifierSummary() }
    return try pizzeria.notifications.run(name, from: .start, policy: NotifierPolicy(once: true)) { note in
        guard let phone = note.event.order.customer.phone else { return }  // nobody to text
        // A redelivery (the service died mid-send) carries the same token: send it only once.
        if outbox[note.token] == nil { outbox[note.token] = "\(phone): your order is \(note.kind.rawValue)" }
    }
}
// README-EXAMPLE-END
