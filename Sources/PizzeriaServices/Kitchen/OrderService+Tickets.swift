import Foundation

/// The kitchen's tickets.
extension OrderService {
    /// The kitchen ticket of order `id`, printed now.
    /// - Throws: ``OrderError/notFound(_:)``.
    public func ticket(of id: Order.ID) throws -> KitchenTicket {
        let printedAt = now()
        guard let order = try order(id: id) else { throw OrderError.notFound(id.description) }
        return KitchenTicket(order: order, printedAt: printedAt)
    }
}
