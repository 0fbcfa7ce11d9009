import Foundation
import PizzeriaStorage

/// Turns stored order rows into ``Order`` values inside one read or write transaction: the
/// settings and the schedule are read once, and each order is flagged when it is still booked for
/// a time the hours no longer cover (a change applied with `keepOrders`).
final class OrderAssembler {
    let settings: Settings
    private let schedule: Schedule
    private let now: Date
    private let db: Connection
    /// The slot instants of each service day asked about.
    private var slots: [LocalDate: Set<Date>] = [:]

    init(now: Date, in db: Connection) throws {
        settings = try SettingsStore.current(in: db)
        schedule = ScheduleStore.schedule(settings, in: db)
        self.now = now
        self.db = db
    }

    /// The full order of a header: its lines and history read by its id.
    func order(_ header: OrderStore.Header) throws -> Order {
        let (lines, history) = try OrderStore.details(of: header.id, in: db)
        return try order(header, lines: lines, history: history)
    }

    /// An order from a header and the lines and history read with it.
    func order(_ header: OrderStore.Header, lines: [OrderLine], history: [OrderStatusChange]) throws -> Order {
        Order(
            id: header.id, userID: header.userID, handle: header.handle,
            customer: Order.Customer(name: header.customerName, phone: header.customerPhone), pickupAt: header.pickupAt,
            serviceDay: header.serviceDay,
            status: header.status, lines: lines, total: Money(cents: header.totalCents), idempotencyKey: header.key,
            createdAt: header.createdAt, updatedAt: header.updatedAt, history: history, timeZone: settings.timeZone,
            outsideHours: try isOutsideHours(header), note: header.note, version: header.version,
            slotCapacity: header.slotCapacity, partyID: header.partyID)
    }

    /// Whether a future booked order's pickup is no slot of its service day any more.
    private func isOutsideHours(_ header: OrderStore.Header) throws -> Bool {
        guard header.status.isBooked, header.pickupAt > now else { return false }
        if let known = slots[header.serviceDay] { return !known.contains(header.pickupAt) }
        let day = Set(try schedule.slots(of: header.serviceDay).map(\.start))
        slots[header.serviceDay] = day
        return !day.contains(header.pickupAt)
    }
}
