import Foundation

/// What a customer may read of a notification: nothing staff wrote for themselves. A history
/// detail keeps what it says of the order (`delayed +10 min`, `paid 12.00 card`) up to its first
/// staff text — a kitchen note, an override's or a cancellation's reason, why it was left unpaid —
/// which goes; staff names go; the lines' kitchen notes and the order's note go.
///
/// The labels are the ones an erasure redacts in SQL (`UserStore.erase`): one list of what is
/// free text in a history detail, kept in both places.
extension OrderNotification {
    /// The labels that start staff's free text in a history detail.
    static let staffTextLabels = ["note: ", "override: ", "reason: ", "unpaid: "]

    /// `detail` without its staff text: up to the first label, separators trimmed; `nil` when
    /// nothing is left.
    static func customerPart(of detail: String?) -> String? {
        guard let detail else { return nil }
        let cut = staffTextLabels.compactMap { detail.range(of: $0)?.lowerBound }.min() ?? detail.endIndex
        let kept = detail[..<cut].trimmingCharacters(in: CharacterSet(charactersIn: " ;,:(-—"))
        return kept.isEmpty ? nil : kept
    }

    /// The notification as a customer may read it (what `notify run` delivers unless
    /// `--staff-text` asks for everything): no staff text in the event or its order's history,
    /// no staff names, no kitchen notes.
    public func forCustomers() -> OrderNotification {
        let order = event.order
        let history = order.history.map {
            OrderStatusChange(
                kind: $0.kind, from: $0.from, to: $0.to, at: $0.at, detail: Self.customerPart(of: $0.detail))
        }
        let plain = Order(
            id: order.id, userID: order.userID, handle: order.handle, customer: order.customer,
            pickupAt: order.pickupAt, serviceDay: order.serviceDay, status: order.status,
            lines: order.lines.map(\.forCustomer), total: order.total, idempotencyKey: order.idempotencyKey,
            createdAt: order.createdAt, updatedAt: order.updatedAt, history: history, timeZone: order.timeZone,
            outsideHours: order.outsideHours, note: nil, version: order.version, slotCapacity: order.slotCapacity,
            partyID: order.partyID)
        let change = OrderStatusChange(
            kind: event.changeKind, from: event.from, to: event.to, at: event.at,
            detail: Self.customerPart(of: event.detail))
        return with(OrderEvent(cursor: event.cursor, change: change, order: plain, then: event.then))
    }
}
