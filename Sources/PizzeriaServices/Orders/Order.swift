import Foundation

/// Where an order is in its life: `placed → preparing → ready → collected`, `ready → no_show`
/// when the customer never comes, or `cancelled` from `placed` or `preparing`.
public enum OrderStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Booked; the kitchen has not started.
    case placed
    /// In the oven.
    case preparing
    /// Waiting at the counter.
    case ready
    /// Picked up: the end.
    case collected
    /// Ready, but never picked up: the end; counted apart from revenue.
    case noShow = "no_show"
    /// Cancelled: the end; its pizzas no longer count against the slot.
    case cancelled

    /// The status `advance` moves to, or `nil` at the end of the line.
    public var next: OrderStatus? {
        switch self {
        case .placed: .preparing
        case .preparing: .ready
        case .ready: .collected
        case .collected, .noShow, .cancelled: nil
        }
    }

    /// Whether the order still holds its pickup: placed, preparing or ready.
    public var isBooked: Bool { self == .placed || self == .preparing || self == .ready }

    /// Whether `cancel` is allowed.
    public var isCancellable: Bool { self == .placed || self == .preparing }

    /// Whether a change from this status to `target` is allowed. The schema's trigger enforces
    /// the same table.
    public func canChange(to target: OrderStatus) -> Bool {
        target == next || (target == .cancelled && isCancellable) || (self == .ready && target == .noShow)
    }

    /// Whether the order's pizzas count against its slot's capacity: every status but cancelled.
    public var holdsCapacity: Bool { self != .cancelled }
}

/// One entry of an order's history: booked, a status change, an undo, a move or an edit — with
/// who made it and when. The history is append-only: an undo is a new entry, never a rewrite.
public struct OrderStatusChange: Sendable, Hashable, Record {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Booked.
        case placed
        /// A status change.
        case status
        /// The last status change taken back.
        case undo
        /// Moved to another pickup.
        case moved
        /// Lines or note changed.
        case edited
        /// A payment: the status stays; `detail` says how much and how.
        case paid
        /// A refund: the status stays; `detail` says how much and why.
        case refunded
    }

    /// What happened.
    public internal(set) var kind: Kind = .placed
    /// The status before; `nil` for the first event (the order was placed).
    public internal(set) var from: OrderStatus?
    /// The status after.
    public internal(set) var to: OrderStatus = .placed
    /// When.
    public internal(set) var at: Date = Date(timeIntervalSince1970: 0)
    /// What changed, for people (`pickup … → …`, `+1 Diavola`).
    public internal(set) var detail: String?
    /// Who made the change, when they said.
    public internal(set) var actor: String?

    /// An entry.
    public init(
        kind: Kind? = nil, from: OrderStatus?, to: OrderStatus, at: Date, detail: String? = nil, actor: String? = nil
    ) {
        self.kind = kind ?? (from == nil ? .placed : .status)
        self.from = from
        self.to = to
        self.at = at
        self.detail = detail
        self.actor = actor
    }

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members, `{"at", "by", "detail", "from", "kind", "to"}`, declared once (see ``Record``);
    /// an entry without a kind reads as placed (no `from`) or a status change (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.member("at", timestamp: &at)
        try visitor.member("by", &actor)
        try visitor.member("detail", &detail)
        try visitor.member("from", raw: &from)
        try visitor.member("kind", raw: &kind, absent: from == nil ? .placed : .status)
        try visitor.member("to", raw: &to, absent: nil)
    }
}

/// A booked order.
///
/// JSON: `{"id", "short_id" (``Identifier/short``: what people are shown), "user", "user_id", "customer_name", "customer_phone", "pickup_at" (UTC), "pickup_local", "time_zone", "status",
/// "lines": […], "total", "total_cents", "currency", "idempotency_key", "created_at",
/// "updated_at", "history": […], "party_id"}`.
public struct Order: Sendable, Hashable, Identifiable, Record {
    /// An order's id.
    public typealias ID = Identifier<Order>

    /// Its id.
    public internal(set) var id: ID = .blank
    /// Who booked it.
    public internal(set) var userID: User.ID = .blank
    /// Their handle.
    public internal(set) var handle: String = ""
    /// Their name and phone as they are now (both `nil` once the user is erased).
    public internal(set) var customer: Customer = Customer()
    /// The start of the pickup slot.
    public internal(set) var pickupAt: Date = Date(timeIntervalSince1970: 0)
    /// The service day the pickup belongs to (a pickup after midnight can belong to the day before).
    public internal(set) var serviceDay = LocalDate(days: 0)
    /// Where it is in its life.
    public internal(set) var status: OrderStatus = .placed
    /// The pizzas, in the order they were booked.
    public internal(set) var lines: [OrderLine] = []
    /// Σ quantity × unit price.
    public internal(set) var total: Money = Money(cents: 0)
    /// The key it was booked with, if any.
    public internal(set) var idempotencyKey: String?
    /// When it was booked.
    public internal(set) var createdAt: Date = Date(timeIntervalSince1970: 0)
    /// When its status last changed.
    public internal(set) var updatedAt: Date = Date(timeIntervalSince1970: 0)
    /// Every status it has had, oldest first.
    public internal(set) var history: [OrderStatusChange] = []
    /// The pizzeria's time zone, for ``pickupLocal``.
    public internal(set) var timeZone = Order.placeholderZone
    /// Whether it is still booked for a time the hours no longer cover (kept through a change of
    /// the hours with `keepOrders`).
    public internal(set) var outsideHours: Bool = false
    /// The kitchen's note ("no basil"), if any.
    public internal(set) var note: String?
    /// Bumped by every change: a move or edit made from an older version is refused.
    public internal(set) var version: Int = 1
    /// Its slot's effective capacity and the rule it came from (`nil` when the file has no load
    /// row for the slot, which the schema always keeps).
    public internal(set) var slotCapacity: SlotCapacity?
    /// The party it belongs to (the id of the party's first order), when it was booked with
    /// others on consecutive slots (``OrderService/placeParty(_:by:override:)``); `nil` for an order on its own.
    public internal(set) var partyID: ID?

    /// A blank order's zone, made once (a placeholder reading replaces).
    static let placeholderZone = TimeZone(identifier: "UTC") ?? TimeZone.current

    /// An order from its parts; the order store assembles one from its header, lines and history.
    public init(
        id: ID, userID: User.ID, handle: String, customer: Customer = Customer(), pickupAt: Date, serviceDay: LocalDate,
        status: OrderStatus,
        lines: [OrderLine],
        total: Money, idempotencyKey: String?, createdAt: Date, updatedAt: Date,
        history: [OrderStatusChange], timeZone: TimeZone, outsideHours: Bool = false, note: String? = nil,
        version: Int = 1,
        slotCapacity: SlotCapacity? = nil, partyID: ID? = nil
    ) {
        self.slotCapacity = slotCapacity
        self.partyID = partyID
        self.id = id
        self.userID = userID
        self.handle = handle
        self.customer = customer
        self.pickupAt = pickupAt
        self.serviceDay = serviceDay
        self.status = status
        self.lines = lines
        self.total = total
        self.idempotencyKey = idempotencyKey
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.history = history
        self.timeZone = timeZone
        self.outsideHours = outsideHours
        self.note = note
        self.version = version
    }

    /// Who to call about an order: the booking user's display name and phone (E.164), read with
    /// the order, so staff at the counter and a notifier see them beside the handle.
    public struct Customer: Sendable, Hashable {
        /// Their display name, if they gave one.
        public internal(set) var name: String?
        /// Their phone number in E.164 (`+390815551234`), if they gave one.
        public internal(set) var phone: String?

        /// A customer's contact details.
        public init(name: String? = nil, phone: String? = nil) {
            self.name = name
            self.phone = phone
        }
    }

    /// The number of pizzas.
    public var pizzaCount: Int { lines.reduce(0) { $0 + $1.quantity } }

    /// `2026-12-01 19:30` in the pizzeria's time zone.
    public var pickupLocal: String { PickupTime.local(pickupAt, in: timeZone) }

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members: the documented JSON shape, declared once (see ``Record``); an order is
    /// assembled from several tables, not read from one row (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        var rule = slotCapacity?.rule
        try visitor.member("capacity_rule", &rule)
        try visitor.member("created_at", timestamp: &createdAt)
        try visitor.derived("currency", "EUR")
        try visitor.member("customer_name", &customer.name)
        try visitor.member("customer_phone", &customer.phone)
        try visitor.member("history", objects: &history)
        try visitor.member("id", &id)
        try visitor.member("idempotency_key", &idempotencyKey)
        try visitor.member("lines", objects: &lines)
        try visitor.member("note", &note)
        try visitor.member("outside_hours", &outsideHours, absent: false)
        try visitor.member("party_id", text: &partyID)
        try visitor.member("pickup_at", minute: &pickupAt)
        try visitor.derived("pickup_local", pickupLocal)
        try visitor.member("service_day", text: &serviceDay)
        try visitor.derived("short_id", id.short)
        var capacity = slotCapacity?.capacity
        try visitor.member("slot_capacity", &capacity)
        slotCapacity = capacity.map { SlotCapacity(capacity: $0, rule: rule) }
        try visitor.member("status", raw: &status, absent: nil)
        try visitor.member("time_zone", timeZone: &timeZone)
        try visitor.derived("total", plain: total)
        try visitor.member("total_cents", cents: &total)
        try visitor.member("updated_at", timestamp: &updatedAt)
        try visitor.member("user", &handle)
        try visitor.member("user_id", &userID)
        try visitor.member("version", &version, absent: 1)
    }
}
