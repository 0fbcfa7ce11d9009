import Foundation

/// One pickup slot of a day and how full it is.
public struct SlotUsage: Sendable, Hashable, Encodable {
    /// Its start (UTC).
    public let start: Date
    /// `19:30`, pizzeria time.
    public let local: String
    /// Pizzas booked by orders that are not cancelled.
    public let booked: Int
    /// The slot's capacity.
    public let capacity: Int
    /// `capacity - booked`, never negative.
    public var remaining: Int { max(0, capacity - booked) }

    private enum CodingKeys: String, CodingKey { case start, local, booked, capacity, remaining }

    /// `{"start": UTC, "local": "19:30", "booked", "capacity", "remaining"}`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(PickupTime.utc(start), forKey: .start)
        try container.encode(local, forKey: .local)
        try container.encode(booked, forKey: .booked)
        try container.encode(capacity, forKey: .capacity)
        try container.encode(remaining, forKey: .remaining)
    }
}

/// Quantity and revenue per pizza over a period, from the orders' snapshots (cancelled orders
/// excluded).
public struct SalesReport: Sendable, Hashable, Encodable {
    /// One pizza's sales (one row per name it was sold under).
    public struct Row: Sendable, Hashable, Encodable {
        /// The pizza's id.
        public let pizzaID: String
        /// The name on the orders.
        public let name: String
        /// Pizzas sold.
        public let quantity: Int
        /// Σ quantity × unit price at booking.
        public let revenue: Money

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
    }

    /// First day included (`YYYY-MM-DD`, pizzeria time), if limited.
    public let from: String?
    /// Last day included, if limited.
    public let to: String?
    /// Best sellers first.
    public let rows: [Row]
    /// All pizzas sold.
    public var quantity: Int { rows.reduce(0) { $0 + $1.quantity } }
    /// All revenue.
    public var revenue: Money { Money(cents: rows.reduce(0) { $0 + $1.revenue.cents }) }

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
}
