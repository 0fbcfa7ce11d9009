import Foundation

/// Where an order is in its life: `placed → preparing → ready → collected`, or `cancelled`
/// from `placed` or `preparing`.
public enum OrderStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Booked; the kitchen has not started.
    case placed
    /// In the oven.
    case preparing
    /// Waiting at the counter.
    case ready
    /// Picked up: the end.
    case collected
    /// Cancelled: the end; its pizzas no longer count against the slot.
    case cancelled

    /// The status `advance` moves to, or `nil` at the end of the line.
    public var next: OrderStatus? {
        switch self {
        case .placed: .preparing
        case .preparing: .ready
        case .ready: .collected
        case .collected, .cancelled: nil
        }
    }

    /// Whether `cancel` is allowed.
    public var isCancellable: Bool { self == .placed || self == .preparing }

    /// Whether a change from this status to `target` is allowed. The schema's trigger enforces
    /// the same table.
    public func canChange(to target: OrderStatus) -> Bool {
        target == next || (target == .cancelled && isCancellable)
    }
}

/// One pizza of an order, with the name and unit price as they were at booking time.
public struct OrderLine: Sendable, Hashable, Encodable {
    /// The pizza's id.
    public let pizzaID: String
    /// Its name when the order was booked.
    public let pizzaName: String
    /// Its price when the order was booked.
    public let unitPrice: Money
    /// 1–20.
    public let quantity: Int

    /// quantity × unit price.
    public var total: Money { Money(cents: unitPrice.cents * Int64(quantity)) }

    private enum CodingKeys: String, CodingKey {
        case pizzaID = "pizza_id", pizzaName = "name", quantity, unitPrice = "unit_price"
        case unitPriceCents = "unit_price_cents", total = "line_total", totalCents = "line_total_cents"
    }

    /// JSON with prices as `"6.00"` plus `*_cents`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(pizzaID, forKey: .pizzaID)
        try container.encode(pizzaName, forKey: .pizzaName)
        try container.encode(quantity, forKey: .quantity)
        try container.encode(unitPrice, forKey: .unitPrice, centsKey: .unitPriceCents)
        try container.encode(total, forKey: .total, centsKey: .totalCents)
    }
}

/// One status change of an order.
public struct OrderStatusChange: Sendable, Hashable, Encodable {
    /// The status before; `nil` for the first event (the order was placed).
    public let from: OrderStatus?
    /// The status after.
    public let to: OrderStatus
    /// When (ISO-8601 UTC).
    public let at: String
}

/// A booked order.
///
/// JSON: `{"id", "user", "pickup_at" (UTC), "pickup_local", "status", "lines": […], "total",
/// "total_cents", "currency", "idempotency_key", "created_at", "updated_at", "history": […]}`.
public struct Order: Sendable, Hashable, Identifiable, Encodable {
    /// Lowercase UUID text.
    public let id: String
    /// The user's handle.
    public let handle: String
    /// The start of the pickup slot.
    public let pickupAt: Date
    /// Where it is in its life.
    public let status: OrderStatus
    /// The pizzas, in the order they were booked.
    public let lines: [OrderLine]
    /// Σ quantity × unit price.
    public let total: Money
    /// The key it was booked with, if any.
    public let idempotencyKey: String?
    /// When it was booked (ISO-8601 UTC).
    public let createdAt: String
    /// When its status last changed (ISO-8601 UTC).
    public let updatedAt: String
    /// Every status it has had, oldest first.
    public let history: [OrderStatusChange]
    /// The pizzeria's time zone, for `pickup_local`.
    let timeZone: TimeZone

    /// The number of pizzas.
    public var pizzaCount: Int { lines.reduce(0) { $0 + $1.quantity } }

    /// `2026-12-01 19:30` in the pizzeria's time zone.
    public var pickupLocal: String { PickupTime.local(pickupAt, in: timeZone) }

    private enum CodingKeys: String, CodingKey {
        case id, user, pickupAt = "pickup_at", pickupLocal = "pickup_local", timeZone = "time_zone", status, lines
        case total, totalCents = "total_cents", currency, idempotencyKey = "idempotency_key"
        case createdAt = "created_at", updatedAt = "updated_at", history
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(handle, forKey: .user)
        try container.encode(PickupTime.utc(pickupAt), forKey: .pickupAt)
        try container.encode(pickupLocal, forKey: .pickupLocal)
        try container.encode(timeZone.identifier, forKey: .timeZone)
        try container.encode(status, forKey: .status)
        try container.encode(lines, forKey: .lines)
        try container.encode(total, forKey: .total, centsKey: .totalCents)
        try container.encode("EUR", forKey: .currency)
        try container.encode(idempotencyKey, forKey: .idempotencyKey)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(history, forKey: .history)
    }
}

/// What to book: a user, pizzas and quantities, a pickup time, optionally an idempotency key.
public struct OrderRequest: Sendable, Hashable {
    /// One pizza and how many.
    public struct Item: Sendable, Hashable {
        /// Id, unique id prefix or name, as for the menu.
        public var pizza: String
        /// 1–20.
        public var quantity: Int

        /// An item.
        public init(pizza: String, quantity: Int = 1) {
            self.pizza = pizza
            self.quantity = quantity
        }
    }

    /// The user's handle.
    public var user: String
    /// One or more items; the same pizza twice is merged.
    public var items: [Item]
    /// The start of a pickup slot.
    public var pickup: Date
    /// Booking again with the same key and content returns the first order.
    public var idempotencyKey: String?

    /// A request.
    public init(user: String, items: [Item], pickup: Date, idempotencyKey: String? = nil) {
        self.user = user
        self.items = items
        self.pickup = pickup
        self.idempotencyKey = idempotencyKey
    }

    /// The largest quantity of one pizza in one order.
    public static let maximumQuantity = 20

    /// Shape problems, found without the database.
    func problems() -> [FieldError] {
        var errors: [FieldError] = []
        if items.isEmpty { errors.append(FieldError(field: "items", message: "must name at least one pizza")) }
        for item in items where !(1...Self.maximumQuantity).contains(item.quantity) {
            errors.append(FieldError(field: "quantity", message: "must be from 1 to \(Self.maximumQuantity) (\(item.pizza): \(item.quantity))"))
        }
        if let key = idempotencyKey, key.isEmpty || key.count > 128 || key.unicodeScalars.contains(where: PizzaName.isForbidden) {
            errors.append(FieldError(field: "key", message: "must be 1 to 128 characters without control characters"))
        }
        return errors
    }
}
