import Foundation

/// The kitchen's tickets.
extension OrderService {
    /// The kitchen ticket of order `id`, printed now: every line, or those `station` makes.
    /// - Throws: ``OrderError/notFound(_:)``; ``MenuError`` for a station that is not there.
    public func ticket(of id: Order.ID, station: Station.ID? = nil) throws -> KitchenTicket {
        let printedAt = now()
        guard let order = try order(id: id) else { throw OrderError.notFound(id.description) }
        guard let station else { return KitchenTicket(order: order, printedAt: printedAt) }
        let name = try database.read { db in try MenuService.requiredStation(station, in: db).name }
        return KitchenTicket(
            order: order, station: name, lines: order.lines.filter { $0.stationID == station }, printedAt: printedAt)
    }
}
