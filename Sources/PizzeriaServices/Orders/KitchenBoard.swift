import Foundation
import PizzeriaStorage

/// What the kitchen makes next: a service day's open orders (placed, preparing, ready) slot by
/// slot, each slot with the items still to make at each station and each order's state and
/// lateness; one station's board holds only what that station makes. Items prepared at no station
/// (bottled drinks) are not things to make: they are listed per order, for the counter.
///
/// JSON (`pizzeria order board --json`, for a screen app): `{"day", "now", "station", "slots":
/// [{"start", "local", "pieces", "bake": [{"station", "item", "quantity"}], "orders": [{"id",
/// "handle", "name", "status", "items", "counter", "owing", "done", "late_minutes", "due"}]}]}`. A
/// station's part marked done (`order bump`) is no longer to make, and leaves that station's board.
public struct KitchenBoard: Sendable, Hashable, Encodable {
    /// One item to bake, summed over a slot's placed and preparing orders.
    public struct Bake: Sendable, Hashable, Encodable {
        /// The station that makes it.
        public let station: String
        /// `Margherita Maxi + Aggiunte: bufala + senza basilico`.
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
        /// What the board's stations make of it: `2 × Margherita Maxi + Aggiunte: bufala`.
        public let items: String
        /// What the counter hands over with it (items prepared at no station): `1 × Coca-Cola`, or `nil`.
        public let counter: String?
        /// The stations whose part is not marked done yet, in the stations' order.
        public let owing: [String]
        /// The stations that marked their part done (`order bump`), in the stations' order.
        public let done: [String]
        /// Minutes past its pickup, for a placed or preparing order whose pickup has passed (`LATE 12 min`).
        public let lateMinutes: Int?
        /// A placed or preparing order whose pickup is within the lead time from now (`DUE`).
        public let due: Bool
        /// What it still owes (due − kept; zero when paid): the counter takes it as it hands the
        /// order over (`order collect --pay`).
        public let balance: Money

        private enum CodingKeys: String, CodingKey {
            case id, handle, name, status, items, counter, owing, done, lateMinutes = "late_minutes", due
            case balanceCents = "balance_cents"
        }

        /// The documented JSON shape (`name` and `late_minutes` are `null` when there is none).
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(handle, forKey: .handle)
            try container.encode(name, forKey: .name)
            try container.encode(status, forKey: .status)
            try container.encode(items, forKey: .items)
            try container.encode(counter, forKey: .counter)
            try container.encode(owing, forKey: .owing)
            try container.encode(balance.cents, forKey: .balanceCents)
            try container.encode(done, forKey: .done)
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
        /// What to make for it (placed and preparing orders), by station in the stations' order,
        /// largest first within one.
        public let bake: [Bake]
        /// Its open orders.
        public let orders: [Entry]

        /// The pieces to make: the sum of ``bake``.
        public var pieces: Int { bake.reduce(0) { $0 + $1.quantity } }

        private enum CodingKeys: String, CodingKey { case start, local, pieces, bake, orders }

        /// The documented JSON shape.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(PickupTime.utc(start), forKey: .start)
            try container.encode(local, forKey: .local)
            try container.encode(pieces, forKey: .pieces)
            try container.encode(bake, forKey: .bake)
            try container.encode(orders, forKey: .orders)
        }
    }

    /// The service day.
    public let day: LocalDate
    /// When it was read.
    public let now: Date
    /// The station whose board it is, or `nil` for every station's.
    public let station: String?
    /// Its slots with open orders, in time order.
    public let slots: [Slot]

    private enum CodingKeys: String, CodingKey { case day, now, station, slots }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(day.description, forKey: .day)
        try container.encode(Timestamp.string(from: now), forKey: .now)
        try container.encode(station, forKey: .station)
        try container.encode(slots, forKey: .slots)
    }
}

extension OrderService {
    /// The kitchen board of a service day (today when `nil`), read in one transaction: every
    /// station's, or `station`'s alone (only the orders it makes something of).
    public func board(day: LocalDate? = nil, station: Station.ID? = nil) throws -> KitchenBoard {
        let now = now()
        return try database.read { db in
            let settings = try SettingsStore.current(in: db)
            let date = try day ?? ScheduleService.today(at: now, in: db)
            let stations = try StationStore.list(in: db)
            let names = Dictionary(uniqueKeysWithValues: stations.map { ($0.id, $0.name) })
            let rank = Dictionary(uniqueKeysWithValues: stations.enumerated().map { ($1.id, $0) })
            let filter = OrderFilter(serviceDay: date)
            let headers = try OrderStore.headers(filter, after: nil, limit: 100_000, in: db)
            let (lines, _) = try OrderStore.attach(to: headers, filter: filter, in: db)
            let bumped = try StationStore.bumps(of: headers.filter { $0.status.isBooked }.map(\.id), in: db)
            // What each order still owes: the day's payments and refunds, two queries.
            let payments = Dictionary(grouping: try PaymentStore.payments(ofDay: date, in: db), by: \.orderID)
            let paymentOrder = payments.values.flatMap { $0 }.reduce(into: [Int64: Order.ID]()) {
                $0[$1.id] = $1.orderID
            }
            let refunds = Dictionary(grouping: try PaymentStore.refunds(ofDay: date, in: db)) {
                paymentOrder[$0.paymentID]
            }
            let lead = Double(settings.effectiveLeadMinutes(at: now) * 60)
            var slots: [KitchenBoard.Slot] = []
            var index = 0
            while index < headers.count {
                let start = headers[index].pickupAt
                // Keyed by station and label: a line's remarks and each modifier (a removal too) are
                // part of the label, so lines that differ are never merged.
                var bake: [Station.ID: [String: Int]] = [:], order: [Station.ID: [String]] = [:]
                var entries: [KitchenBoard.Entry] = []
                while index < headers.count, headers[index].pickupAt == start {
                    let header = headers[index]
                    defer { index += 1 }
                    guard header.status.isBooked else { continue }
                    let done = bumped[header.id] ?? []
                    let made = lines[index].filter { line in
                        line.stationID.map { (station == nil || $0 == station) && !done.contains($0) } ?? false
                    }
                    let counter = lines[index].filter { $0.stationID == nil }
                    let owing = Set(lines[index].compactMap(\.stationID)).subtracting(done)
                        .sorted { (rank[$0] ?? 0, $0.rawValue) < (rank[$1] ?? 0, $1.rawValue) }
                    // A station's board leaves out what it finished; every station's keeps the order.
                    guard
                        !made.isEmpty
                            || (station == nil && (!counter.isEmpty || header.status == .ready || !done.isEmpty))
                    else { continue }
                    let open = header.status != .ready
                    if open {
                        for line in made {
                            guard let id = line.stationID else { continue }
                            if bake[id]?[line.labelWithNote] == nil {
                                order[id, default: []].append(line.labelWithNote)
                            }
                            bake[id, default: [:]][line.labelWithNote, default: 0] += line.quantity
                        }
                    }
                    let late = open && start < now ? Int(now.timeIntervalSince(start) / 60) : nil
                    entries.append(
                        KitchenBoard.Entry(
                            id: header.id, handle: header.handle, name: header.customerName, status: header.status,
                            items: made.map { "\($0.quantity) × \($0.labelWithNote)" }.joined(separator: ", "),
                            counter: counter.isEmpty
                                ? nil : counter.map { "\($0.quantity) × \($0.labelWithNote)" }.joined(separator: ", "),
                            owing: header.status == .ready ? [] : owing.map { names[$0] ?? $0.description },
                            done: done.sorted { (rank[$0] ?? 0, $0.rawValue) < (rank[$1] ?? 0, $1.rawValue) }.map {
                                names[$0] ?? $0.description
                            },
                            lateMinutes: late, due: open && late == nil && start.timeIntervalSince(now) <= lead,
                            balance: OrderPayments(
                                orderID: header.id, status: header.status, total: Money(cents: header.totalCents),
                                payments: payments[header.id] ?? [], refunds: refunds[header.id] ?? []
                            ).balance))
                }
                guard !entries.isEmpty else { continue }
                let made = order.keys.sorted { (rank[$0] ?? 0, $0.rawValue) < (rank[$1] ?? 0, $1.rawValue) }.flatMap {
                    id in
                    (order[id] ?? []).map {
                        KitchenBoard.Bake(station: names[id] ?? id.description, item: $0, quantity: bake[id]?[$0] ?? 0)
                    }.sorted { $0.quantity > $1.quantity }
                }
                slots.append(
                    KitchenBoard.Slot(
                        start: start, local: PickupTime.local(start, in: settings.timeZone), bake: made,
                        orders: entries))
            }
            return KitchenBoard(day: date, now: now, station: station.flatMap { names[$0] }, slots: slots)
        }
    }
}
