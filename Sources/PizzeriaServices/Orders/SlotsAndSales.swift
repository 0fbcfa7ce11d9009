import Foundation

/// One pickup slot of a day and how full it is.
/// Whether a slot can be booked now, and if not, why.
public enum SlotState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Room left, and far enough ahead.
    case open
    /// No room left.
    case full
    /// Ahead, but within the lead time.
    case tooSoon = "too_soon"
    /// Already started.
    case past
    /// Bookings are paused at this time.
    case paused

    /// Whether an order can be placed for it now (room permitting for the order's size).
    public var isBookable: Bool { self == .open }

    /// For people: `open`, `full`, `too soon`, `past`, `paused`.
    public var label: String { rawValue.replacingOccurrences(of: "_", with: " ") }
}

public struct SlotUsage: Sendable, Hashable, Codable, JSONMembers {
    /// Its start.
    public let start: Date
    /// The service day it belongs to.
    public let serviceDay: LocalDate
    /// `19:30`, pizzeria time (`02:30 +01:00` for a time that happens twice that day; `Sat 00:30`
    /// after midnight).
    public let local: String
    /// Pizzas booked by orders that are not cancelled.
    public let booked: Int
    /// The slot's capacity.
    public let capacity: Int
    /// `capacity - booked`, never negative.
    public var remaining: Int { max(0, capacity - booked) }
    /// Whether it can be booked now: past and too-soon slots are listed for the counter but never offered.
    public let state: SlotState
    /// The capacity rule its capacity came from (`fri 18:30-21:00`), or `nil` for `slot-capacity`.
    public let capacityRule: String?
    /// The load of each station other than the oven (whose load is ``booked``), in the stations' order.
    public let stations: [StationLoad]

    /// A slot.
    public init(
        start: Date, serviceDay: LocalDate, local: String, booked: Int, capacity: Int, state: SlotState = .open,
        capacityRule: String? = nil, stations: [StationLoad] = []
    ) {
        self.capacityRule = capacityRule
        self.stations = stations
        self.start = start
        self.serviceDay = serviceDay
        self.local = local
        self.booked = booked
        self.capacity = capacity
        self.state = state
    }

    private enum CodingKeys: String, CodingKey {
        case start, serviceDay = "service_day", local, booked, capacity, remaining, state, capacityRule =
            "capacity_rule", stations
    }

    /// The documented JSON shape, defined once (see ``JSONMembers``).
    public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        try writer.member("booked", booked)
        try writer.member("capacity", capacity)
        try writer.member("capacity_rule", capacityRule)
        try writer.member("local", local)
        try writer.member("remaining", remaining)
        try writer.member("service_day", serviceDay.description)
        try writer.member("start", minute: start)
        try writer.member("state", state.rawValue)
        try writer.member("stations", objects: stations)
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }

    /// Reads the JSON shape.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            start: try container.decodeTimestamp(forKey: .start),
            serviceDay: try container.decode(LocalDate.self, forKey: .serviceDay),
            local: try container.decode(String.self, forKey: .local),
            booked: try container.decode(Int.self, forKey: .booked),
            capacity: try container.decode(Int.self, forKey: .capacity),
            state: try container.decodeIfPresent(SlotState.self, forKey: .state) ?? .open,
            capacityRule: try container.decodeIfPresent(String.self, forKey: .capacityRule),
            stations: try container.decodeIfPresent([StationLoad].self, forKey: .stations) ?? [])
    }
}

/// What a period sold, by service day and by pizza, from the orders' snapshots. Revenue counts
/// collected orders only; what is still booked (placed, preparing, ready), no-shows and
/// cancellations are their own columns.
public struct SalesReport: Sendable, Hashable, Codable {
    /// One pizza's figures (one row per name it was sold under).
    public struct Row: Sendable, Hashable, Codable, JSONMembers {
        /// The pizza's id.
        public let pizzaID: Pizza.ID
        /// The name on the orders.
        public let name: String
        /// The variant's name on the orders (`nil` for an item sold in one variant).
        public let variant: String?
        /// The item's menu section now (`nil` if it has none).
        public let category: String?
        /// Pizzas collected.
        public let quantity: Int
        /// Σ quantity × unit price of collected orders.
        public let revenue: Money
        /// Pizzas in orders still booked (placed, preparing, ready).
        public let bookedQuantity: Int
        /// Their value.
        public let bookedValue: Money
        /// Pizzas of no-shows.
        public let noShowQuantity: Int
        /// Pizzas of cancelled orders.
        public let cancelledQuantity: Int

        private enum CodingKeys: String, CodingKey {
            case pizzaID = "pizza_id", name, quantity, revenue, revenueCents = "revenue_cents", bookedQuantity =
                "booked_quantity"
            case bookedValue = "booked_value", bookedValueCents = "booked_value_cents", noShowQuantity =
                "no_show_quantity"
            case cancelledQuantity = "cancelled_quantity", variant, category
        }

        /// The documented JSON shape, defined once (see ``JSONMembers``).
        public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
            try writer.member("booked_quantity", bookedQuantity)
            try writer.member("booked_value", plain: bookedValue)
            try writer.member("booked_value_cents", bookedValue.cents)
            try writer.member("cancelled_quantity", cancelledQuantity)
            try writer.member("category", category)
            try writer.member("name", name)
            try writer.member("no_show_quantity", noShowQuantity)
            try writer.member("pizza_id", id: pizzaID)
            try writer.member("quantity", quantity)
            try writer.member("revenue", plain: revenue)
            try writer.member("revenue_cents", revenue.cents)
            try writer.member("variant", variant)
        }

        /// The documented JSON shape.
        public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }

        /// `Margherita`, `Margherita Maxi`.
        public var label: String { name + (variant.map { " " + $0 } ?? "") }

        /// Reads the JSON shape (money from its cents).
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            pizzaID = try container.decode(Pizza.ID.self, forKey: .pizzaID)
            name = try container.decode(String.self, forKey: .name)
            variant = try container.decodeIfPresent(String.self, forKey: .variant)
            category = try container.decodeIfPresent(String.self, forKey: .category)
            quantity = try container.decode(Int.self, forKey: .quantity)
            revenue = try container.decodeMoney(centsKey: .revenueCents)
            bookedQuantity = try container.decode(Int.self, forKey: .bookedQuantity)
            bookedValue = try container.decodeMoney(centsKey: .bookedValueCents)
            noShowQuantity = try container.decode(Int.self, forKey: .noShowQuantity)
            cancelledQuantity = try container.decode(Int.self, forKey: .cancelledQuantity)
        }

        init(
            pizzaID: Pizza.ID, name: String, variant: String? = nil, category: String? = nil, quantity: Int,
            revenue: Money, bookedQuantity: Int, bookedValue: Money, noShowQuantity: Int, cancelledQuantity: Int
        ) {
            (self.pizzaID, self.name, self.quantity, self.revenue) = (pizzaID, name, quantity, revenue)
            (self.variant, self.category) = (variant, category)
            (self.bookedQuantity, self.bookedValue, self.noShowQuantity, self.cancelledQuantity) = (
                bookedQuantity, bookedValue, noShowQuantity, cancelledQuantity
            )
        }
    }

    /// One service day's orders by outcome.
    public struct Day: Sendable, Hashable, Codable, JSONMembers {
        /// The service day.
        public let serviceDay: LocalDate
        /// Orders collected.
        public let collectedOrders: Int
        /// Their value: the revenue.
        public let revenue: Money
        /// Orders still booked (placed, preparing, ready).
        public let bookedOrders: Int
        /// Their value.
        public let bookedValue: Money
        /// Orders whose customer never came.
        public let noShows: Int
        /// Their value: made, not paid.
        public let noShowValue: Money
        /// Orders cancelled.
        public let cancelled: Int

        private enum CodingKeys: String, CodingKey {
            case serviceDay = "service_day", collectedOrders = "collected_orders", revenue, revenueCents =
                "revenue_cents"
            case bookedOrders = "booked_orders", bookedValue = "booked_value", bookedValueCents = "booked_value_cents"
            case noShows = "no_shows", noShowValue = "no_show_value", noShowValueCents = "no_show_value_cents",
                cancelled
        }

        /// The documented JSON shape, defined once (see ``JSONMembers``).
        public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
            try writer.member("booked_orders", bookedOrders)
            try writer.member("booked_value", plain: bookedValue)
            try writer.member("booked_value_cents", bookedValue.cents)
            try writer.member("cancelled", cancelled)
            try writer.member("collected_orders", collectedOrders)
            try writer.member("no_show_value", plain: noShowValue)
            try writer.member("no_show_value_cents", noShowValue.cents)
            try writer.member("no_shows", noShows)
            try writer.member("revenue", plain: revenue)
            try writer.member("revenue_cents", revenue.cents)
            try writer.member("service_day", serviceDay.description)
        }

        /// The documented JSON shape.
        public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }

        /// Reads the JSON shape (money from its cents).
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            serviceDay = try container.decode(LocalDate.self, forKey: .serviceDay)
            collectedOrders = try container.decode(Int.self, forKey: .collectedOrders)
            revenue = try container.decodeMoney(centsKey: .revenueCents)
            bookedOrders = try container.decode(Int.self, forKey: .bookedOrders)
            bookedValue = try container.decodeMoney(centsKey: .bookedValueCents)
            noShows = try container.decode(Int.self, forKey: .noShows)
            noShowValue = try container.decodeMoney(centsKey: .noShowValueCents)
            cancelled = try container.decode(Int.self, forKey: .cancelled)
        }

        init(
            serviceDay: LocalDate, collectedOrders: Int, revenue: Money, bookedOrders: Int, bookedValue: Money,
            noShows: Int,
            noShowValue: Money, cancelled: Int
        ) {
            (self.serviceDay, self.collectedOrders, self.revenue, self.bookedOrders) = (
                serviceDay, collectedOrders, revenue, bookedOrders
            )
            (self.bookedValue, self.noShows, self.noShowValue, self.cancelled) = (
                bookedValue, noShows, noShowValue, cancelled
            )
        }
    }

    /// First service day included, if limited.
    public let from: LocalDate?
    /// Last service day included, if limited.
    public let to: LocalDate?
    /// By pizza, best sellers first.
    public let rows: [Row]
    /// By service day, in date order.
    public let days: [Day]
    /// By the items' menu section, in revenue order: the rows summed.
    public var categories: [CategoryTotal] {
        var totals: [String: CategoryTotal] = [:]
        var order: [String] = []
        for row in rows {
            let name = row.category ?? "-"
            if totals[name] == nil { order.append(name) }
            totals[name, default: CategoryTotal(category: name)].add(row)
        }
        return order.compactMap { totals[$0] }.sorted { ($0.revenue, $1.category) > ($1.revenue, $0.category) }
    }

    /// One menu section's figures: the sum of its rows.
    public struct CategoryTotal: Sendable, Hashable, Encodable, JSONMembers {
        /// The section's name.
        public let category: String
        /// Items collected.
        public private(set) var quantity = 0
        /// Their revenue.
        public private(set) var revenue = Money(cents: 0)
        /// Items in orders still booked.
        public private(set) var bookedQuantity = 0
        /// Their value.
        public private(set) var bookedValue = Money(cents: 0)
        /// Items of no-shows.
        public private(set) var noShowQuantity = 0
        /// Items of cancelled orders.
        public private(set) var cancelledQuantity = 0

        init(category: String) { self.category = category }

        mutating func add(_ row: Row) {
            quantity += row.quantity
            revenue = Money(cents: revenue.cents + row.revenue.cents)
            bookedQuantity += row.bookedQuantity
            bookedValue = Money(cents: bookedValue.cents + row.bookedValue.cents)
            noShowQuantity += row.noShowQuantity
            cancelledQuantity += row.cancelledQuantity
        }

        /// The documented JSON shape, defined once (see ``JSONMembers``).
        public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
            try writer.member("booked_quantity", bookedQuantity)
            try writer.member("booked_value", plain: bookedValue)
            try writer.member("booked_value_cents", bookedValue.cents)
            try writer.member("cancelled_quantity", cancelledQuantity)
            try writer.member("category", category)
            try writer.member("no_show_quantity", noShowQuantity)
            try writer.member("quantity", quantity)
            try writer.member("revenue", plain: revenue)
            try writer.member("revenue_cents", revenue.cents)
        }

        /// The documented JSON shape.
        public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }
    }

    /// All items collected (every line's quantity: pizzas, drinks, desserts).
    public var quantity: Int { rows.reduce(0) { $0 + $1.quantity } }
    /// All revenue (collected orders).
    public var revenue: Money { Money(cents: rows.reduce(0) { $0 + $1.revenue.cents }) }
    /// The value still booked.
    public var bookedValue: Money { Money(cents: days.reduce(0) { $0 + $1.bookedValue.cents }) }

    /// A report.
    public init(from: LocalDate?, to: LocalDate?, rows: [Row], days: [Day]) {
        self.from = from
        self.to = to
        self.rows = rows
        self.days = days
    }

    private enum CodingKeys: String, CodingKey {
        case from, to, rows = "pizzas", days, categories, quantity = "total_quantity", revenue = "total_revenue"
        case revenueCents = "total_revenue_cents", bookedValue = "total_booked_value", bookedValueCents =
            "total_booked_value_cents", currency
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(from, forKey: .from)
        try container.encode(to, forKey: .to)
        try container.encode(rows, forKey: .rows)
        try container.encode(days, forKey: .days)
        try container.encode(categories, forKey: .categories)
        try container.encode(quantity, forKey: .quantity)
        try container.encode(revenue, forKey: .revenue, centsKey: .revenueCents)
        try container.encode(bookedValue, forKey: .bookedValue, centsKey: .bookedValueCents)
        try container.encode("EUR", forKey: .currency)
    }

    /// Reads the JSON shape; the totals are derived again from the rows and days.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            from: try container.decodeIfPresent(LocalDate.self, forKey: .from),
            to: try container.decodeIfPresent(LocalDate.self, forKey: .to),
            rows: try container.decode([Row].self, forKey: .rows), days: try container.decode([Day].self, forKey: .days)
        )
    }
}

/// Which orders a list shows; every field given must match.
public struct OrderFilter: Sendable, Hashable {
    /// Orders of this user.
    public var user: User.ID?
    /// Orders in this status.
    public var status: OrderStatus?
    /// Pickups of this service day.
    public var serviceDay: LocalDate?
    /// Pickups at or after this time.
    public var pickupFrom: Date?
    /// Pickups before this time.
    public var pickupBefore: Date?
    /// Orders with a line of this item.
    public var item: Pizza.ID?
    /// Orders with a line carrying this modifier (what a sold-out `bufala` already has booked).
    public var modifier: Modifier.ID?

    /// A filter; with no arguments, every order.
    public init(
        user: User.ID? = nil, status: OrderStatus? = nil, serviceDay: LocalDate? = nil, pickupFrom: Date? = nil,
        pickupBefore: Date? = nil
    ) {
        self.user = user
        self.status = status
        self.serviceDay = serviceDay
        self.pickupFrom = pickupFrom
        self.pickupBefore = pickupBefore
    }
}
