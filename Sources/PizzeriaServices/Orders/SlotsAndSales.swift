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

public struct SlotUsage: Sendable, Hashable, Record {
    /// Its start.
    public internal(set) var start: Date = Date(timeIntervalSince1970: 0)
    /// The service day it belongs to.
    public internal(set) var serviceDay = LocalDate(days: 0)
    /// `19:30`, pizzeria time (`02:30 +01:00` for a time that happens twice that day; `Sat 00:30`
    /// after midnight).
    public internal(set) var local: String = ""
    /// Pizzas booked by orders that are not cancelled.
    public internal(set) var booked: Int = 0
    /// The slot's capacity.
    public internal(set) var capacity: Int = 0
    /// `capacity - booked`, never negative.
    public var remaining: Int { max(0, capacity - booked) }
    /// Whether it can be booked now: past and too-soon slots are listed for the counter but never offered.
    public internal(set) var state: SlotState = .open
    /// The capacity rule its capacity came from (`fri 18:30-21:00`), or `nil` for `slot-capacity`.
    public internal(set) var capacityRule: String?
    /// The load of each station other than the oven (whose load is ``booked``), in the stations' order.
    public internal(set) var stations: [StationLoad] = []

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

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members: the documented JSON shape, declared once (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.member("booked", &booked)
        try visitor.member("capacity", &capacity)
        try visitor.member("capacity_rule", &capacityRule)
        try visitor.member("local", &local)
        try visitor.derived("remaining", Int64(remaining))
        try visitor.member("service_day", text: &serviceDay)
        try visitor.member("start", minute: &start)
        try visitor.member("state", raw: &state, absent: .open)
        try visitor.member("stations", objects: &stations)
    }
}

/// What a period sold, by service day and by pizza, from the orders' snapshots. Revenue counts
/// collected orders only; what is still booked (placed, preparing, ready), no-shows and
/// cancellations are their own columns.
public struct SalesReport: Sendable, Hashable, Record {
    /// One pizza's figures (one row per name it was sold under).
    public struct Row: Sendable, Hashable, Record {
        /// The pizza's id.
        public internal(set) var pizzaID: Pizza.ID = .blank
        /// The name on the orders.
        public internal(set) var name: String = ""
        /// The variant's name on the orders (`nil` for an item sold in one variant).
        public internal(set) var variant: String?
        /// The item's menu section now (`nil` if it has none).
        public internal(set) var category: String?
        /// Pizzas collected.
        public internal(set) var quantity: Int = 0
        /// Σ quantity × unit price of collected orders.
        public internal(set) var revenue: Money = Money(cents: 0)
        /// Pizzas in orders still booked (placed, preparing, ready).
        public internal(set) var bookedQuantity: Int = 0
        /// Their value.
        public internal(set) var bookedValue: Money = Money(cents: 0)
        /// Pizzas of no-shows.
        public internal(set) var noShowQuantity: Int = 0
        /// Pizzas of cancelled orders.
        public internal(set) var cancelledQuantity: Int = 0

        /// A value for a reader to fill (see ``Record``).
        public init(blank: RecordBlank) {}

        /// The members: the documented JSON shape, declared once (see ``Record``).
        public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
            try visitor.member("booked_quantity", &bookedQuantity)
            try visitor.derived("booked_value", plain: bookedValue)
            try visitor.member("booked_value_cents", cents: &bookedValue)
            try visitor.member("cancelled_quantity", &cancelledQuantity)
            try visitor.member("category", &category)
            try visitor.member("name", &name)
            try visitor.member("no_show_quantity", &noShowQuantity)
            try visitor.member("pizza_id", &pizzaID)
            try visitor.member("quantity", &quantity)
            try visitor.derived("revenue", plain: revenue)
            try visitor.member("revenue_cents", cents: &revenue)
            try visitor.member("variant", &variant)
        }

        /// `Margherita`, `Margherita Maxi`.
        public var label: String { name + (variant.map { " " + $0 } ?? "") }

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
    public struct Day: Sendable, Hashable, Record {
        /// The service day.
        public internal(set) var serviceDay = LocalDate(days: 0)
        /// Orders collected.
        public internal(set) var collectedOrders: Int = 0
        /// Their value: the revenue.
        public internal(set) var revenue: Money = Money(cents: 0)
        /// Orders still booked (placed, preparing, ready).
        public internal(set) var bookedOrders: Int = 0
        /// Their value.
        public internal(set) var bookedValue: Money = Money(cents: 0)
        /// Orders whose customer never came.
        public internal(set) var noShows: Int = 0
        /// Their value: made, not paid.
        public internal(set) var noShowValue: Money = Money(cents: 0)
        /// Orders cancelled.
        public internal(set) var cancelled: Int = 0

        /// A value for a reader to fill (see ``Record``).
        public init(blank: RecordBlank) {}

        /// The members: the documented JSON shape, declared once (see ``Record``).
        public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
            try visitor.member("booked_orders", &bookedOrders)
            try visitor.derived("booked_value", plain: bookedValue)
            try visitor.member("booked_value_cents", cents: &bookedValue)
            try visitor.member("cancelled", &cancelled)
            try visitor.member("collected_orders", &collectedOrders)
            try visitor.derived("no_show_value", plain: noShowValue)
            try visitor.member("no_show_value_cents", cents: &noShowValue)
            try visitor.member("no_shows", &noShows)
            try visitor.derived("revenue", plain: revenue)
            try visitor.member("revenue_cents", cents: &revenue)
            try visitor.member("service_day", text: &serviceDay)
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
    public internal(set) var from: LocalDate?
    /// Last service day included, if limited.
    public internal(set) var to: LocalDate?
    /// By pizza, best sellers first.
    public internal(set) var rows: [Row] = []
    /// By service day, in date order.
    public internal(set) var days: [Day] = []
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

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members: the documented JSON shape, declared once; the totals are derived from the rows and days (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.derived("categories", objects: categories)
        try visitor.derived("currency", "EUR")
        try visitor.member("days", objects: &days)
        try visitor.member("from", text: &from)
        try visitor.member("pizzas", objects: &rows)
        try visitor.member("to", text: &to)
        try visitor.derived("total_booked_value", plain: bookedValue)
        try visitor.derived("total_booked_value_cents", bookedValue.cents)
        try visitor.derived("total_quantity", Int64(quantity))
        try visitor.derived("total_revenue", plain: revenue)
        try visitor.derived("total_revenue_cents", revenue.cents)
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
