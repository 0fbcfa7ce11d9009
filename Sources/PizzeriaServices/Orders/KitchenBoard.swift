import Foundation
import PizzeriaStorage

/// What the kitchen bakes next: a service day's open orders (placed, preparing, ready) slot by
/// slot, each slot with the items still to bake and each order's state and lateness.
///
/// JSON (`pizzeria order board --json`, for a screen app): `{"day", "now", "slots": [{"start",
/// "local", "bake": [{"item", "quantity"}], "orders": [{"id", "handle", "name", "status", "items",
/// "late_minutes", "due"}]}]}`.
public struct KitchenBoard: Sendable, Hashable, Encodable {
    /// One item to bake, summed over a slot's placed and preparing orders.
    public struct Bake: Sendable, Hashable, Encodable {
        /// `Margherita Maxi + bufala`.
        public let item: String
        /// How many.
        public let quantity: Int
    }

    /// One order on the board.
    public struct Entry: Sendable, Hashable, Encodable {
        /// The order.
        public let id: Order.ID
        /// The customer's handle.
        public let handle: String
        /// The customer's name, if known.
        public let name: String?
        /// Its status: placed, preparing or ready.
        public let status: OrderStatus
        /// `2 × Margherita Maxi + bufala, 1 × Coca-Cola`.
        public let items: String
        /// Minutes past its pickup, for a placed or preparing order whose pickup has passed (`LATE 12 min`).
        public let lateMinutes: Int?
        /// A placed or preparing order whose pickup is within the lead time from now (`DUE`).
        public let due: Bool

        private enum CodingKeys: String, CodingKey {
            case id, handle, name, status, items, lateMinutes = "late_minutes", due
        }

        /// The documented JSON shape (`name` and `late_minutes` are `null` when there is none).
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(handle, forKey: .handle)
            try container.encode(name, forKey: .name)
            try container.encode(status, forKey: .status)
            try container.encode(items, forKey: .items)
            try container.encode(lateMinutes, forKey: .lateMinutes)
            try container.encode(due, forKey: .due)
        }
    }

    /// One pickup slot.
    public struct Slot: Sendable, Hashable, Encodable {
        /// Its start.
        public let start: Date
        /// Its start, local: `2026-12-04 19:30`.
        public let local: String
        /// What to bake for it (placed and preparing orders), largest first.
        public let bake: [Bake]
        /// Its open orders.
        public let orders: [Entry]

        private enum CodingKeys: String, CodingKey { case start, local, bake, orders }

        /// The documented JSON shape.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(PickupTime.utc(start), forKey: .start)
            try container.encode(local, forKey: .local)
            try container.encode(bake, forKey: .bake)
            try container.encode(orders, forKey: .orders)
        }
    }

    /// The service day.
    public let day: LocalDate
    /// When it was read.
    public let now: Date
    /// Its slots with open orders, in time order.
    public let slots: [Slot]

    private enum CodingKeys: String, CodingKey { case day, now, slots }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(day.description, forKey: .day)
        try container.encode(Timestamp.string(from: now), forKey: .now)
        try container.encode(slots, forKey: .slots)
    }
}

extension OrderService {
    /// The kitchen board of a service day (today when `nil`), read in one transaction.
    public func board(day: LocalDate? = nil) throws -> KitchenBoard {
        let now = now()
        return try database.read { db in
            let settings = try SettingsStore.current(in: db)
            let date = try day ?? ScheduleService.today(at: now, in: db)
            let filter = OrderFilter(serviceDay: date)
            let headers = try OrderStore.headers(filter, after: nil, limit: 100_000, in: db)
            let (lines, _) = try OrderStore.attach(to: headers, filter: filter, in: db)
            let lead = Double(settings.effectiveLeadMinutes(at: now) * 60)
            var slots: [KitchenBoard.Slot] = []
            var index = 0
            while index < headers.count {
                let start = headers[index].pickupAt
                var bake: [String: Int] = [:], order: [String] = [], entries: [KitchenBoard.Entry] = []
                while index < headers.count, headers[index].pickupAt == start {
                    let header = headers[index]
                    defer { index += 1 }
                    guard header.status.isBooked else { continue }
                    let open = header.status != .ready
                    if open {
                        // A line's note is part of what to make: noted lines are never merged with others.
                        for line in lines[index] {
                            if bake[line.labelWithNote] == nil { order.append(line.labelWithNote) }
                            bake[line.labelWithNote, default: 0] += line.quantity
                        }
                    }
                    let late = open && start < now ? Int(now.timeIntervalSince(start) / 60) : nil
                    entries.append(
                        KitchenBoard.Entry(
                            id: header.id, handle: header.handle, name: header.customerName, status: header.status,
                            items: lines[index].map { "\($0.quantity) × \($0.labelWithNote)" }.joined(separator: ", "),
                            lateMinutes: late, due: open && late == nil && start.timeIntervalSince(now) <= lead))
                }
                guard !entries.isEmpty else { continue }
                slots.append(
                    KitchenBoard.Slot(
                        start: start, local: PickupTime.local(start, in: settings.timeZone),
                        bake: order.map { KitchenBoard.Bake(item: $0, quantity: bake[$0] ?? 0) }
                            .sorted { $0.quantity > $1.quantity },
                        orders: entries))
            }
            return KitchenBoard(day: date, now: now, slots: slots)
        }
    }
}
