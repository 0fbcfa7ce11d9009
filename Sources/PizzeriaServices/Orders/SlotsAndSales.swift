import Foundation

/// One pickup slot of a day and how full it is.
public struct SlotUsage: Sendable, Hashable, Codable {
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

    /// A slot.
    public init(start: Date, serviceDay: LocalDate, local: String, booked: Int, capacity: Int) {
        self.start = start
        self.serviceDay = serviceDay
        self.local = local
        self.booked = booked
        self.capacity = capacity
    }

    private enum CodingKeys: String, CodingKey { case start, serviceDay = "service_day", local, booked, capacity, remaining }

    /// `{"start": UTC, "service_day", "local": "19:30", "booked", "capacity", "remaining"}`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(PickupTime.utc(start), forKey: .start)
        try container.encode(serviceDay, forKey: .serviceDay)
        try container.encode(local, forKey: .local)
        try container.encode(booked, forKey: .booked)
        try container.encode(capacity, forKey: .capacity)
        try container.encode(remaining, forKey: .remaining)
    }

    /// Reads the JSON shape.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(start: try container.decodeTimestamp(forKey: .start), serviceDay: try container.decode(LocalDate.self, forKey: .serviceDay),
                  local: try container.decode(String.self, forKey: .local),
                  booked: try container.decode(Int.self, forKey: .booked), capacity: try container.decode(Int.self, forKey: .capacity))
    }
}

/// Quantity and revenue per pizza over a period, from the orders' snapshots (cancelled orders
/// excluded).
public struct SalesReport: Sendable, Hashable, Codable {
    /// One pizza's sales (one row per name it was sold under).
    public struct Row: Sendable, Hashable, Codable {
        /// The pizza's id.
        public let pizzaID: Pizza.ID
        /// The name on the orders.
        public let name: String
        /// Pizzas sold.
        public let quantity: Int
        /// Σ quantity × unit price at booking.
        public let revenue: Money

        /// A row.
        public init(pizzaID: Pizza.ID, name: String, quantity: Int, revenue: Money) {
            self.pizzaID = pizzaID
            self.name = name
            self.quantity = quantity
            self.revenue = revenue
        }

        private enum CodingKeys: String, CodingKey {
            case pizzaID = "pizza_id", name, quantity, revenue, revenueCents = "revenue_cents"
        }

        /// Money as `"6.00"` plus cents.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(pizzaID, forKey: .pizzaID)
            try container.encode(name, forKey: .name)
            try container.encode(quantity, forKey: .quantity)
            try container.encode(revenue, forKey: .revenue, centsKey: .revenueCents)
        }

        /// Reads the JSON shape.
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(pizzaID: try container.decode(Pizza.ID.self, forKey: .pizzaID), name: try container.decode(String.self, forKey: .name),
                      quantity: try container.decode(Int.self, forKey: .quantity), revenue: try container.decodeMoney(centsKey: .revenueCents))
        }
    }

    /// First service day included, if limited.
    public let from: LocalDate?
    /// Last service day included, if limited.
    public let to: LocalDate?
    /// Best sellers first.
    public let rows: [Row]
    /// All pizzas sold.
    public var quantity: Int { rows.reduce(0) { $0 + $1.quantity } }
    /// All revenue.
    public var revenue: Money { Money(cents: rows.reduce(0) { $0 + $1.revenue.cents }) }

    /// A report.
    public init(from: LocalDate?, to: LocalDate?, rows: [Row]) {
        self.from = from
        self.to = to
        self.rows = rows
    }

    private enum CodingKeys: String, CodingKey {
        case from, to, rows = "pizzas", quantity = "total_quantity", revenue = "total_revenue"
        case revenueCents = "total_revenue_cents", currency
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(from, forKey: .from)
        try container.encode(to, forKey: .to)
        try container.encode(rows, forKey: .rows)
        try container.encode(quantity, forKey: .quantity)
        try container.encode(revenue, forKey: .revenue, centsKey: .revenueCents)
        try container.encode("EUR", forKey: .currency)
    }

    /// Reads the JSON shape.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(from: try container.decodeIfPresent(LocalDate.self, forKey: .from), to: try container.decodeIfPresent(LocalDate.self, forKey: .to),
                  rows: try container.decode([Row].self, forKey: .rows))
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

    /// A filter; with no arguments, every order.
    public init(user: User.ID? = nil, status: OrderStatus? = nil, serviceDay: LocalDate? = nil, pickupFrom: Date? = nil, pickupBefore: Date? = nil) {
        self.user = user
        self.status = status
        self.serviceDay = serviceDay
        self.pickupFrom = pickupFrom
        self.pickupBefore = pickupBefore
    }
}
