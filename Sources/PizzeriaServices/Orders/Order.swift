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
public struct OrderStatusChange: Sendable, Hashable, Codable, JSONMembers {
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
        /// A payment (since migration 22): the status stays; `detail` says how much and how.
        case paid
        /// A refund (since migration 22): the status stays; `detail` says how much and why.
        case refunded
    }

    /// What happened.
    public let kind: Kind
    /// The status before; `nil` for the first event (the order was placed).
    public let from: OrderStatus?
    /// The status after.
    public let to: OrderStatus
    /// When.
    public let at: Date
    /// What changed, for people (`pickup … → …`, `+1 Diavola`).
    public let detail: String?
    /// Who made the change, when they said.
    public let actor: String?

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

    private enum CodingKeys: String, CodingKey { case kind, from, to, at, detail, actor = "by" }

    /// `{"at", "by", "detail", "from", "kind", "to"}`, defined once (see ``JSONMembers``).
    public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        try writer.member("at", timestamp: at)
        try writer.member("by", actor)
        try writer.member("detail", detail)
        try writer.member("from", from?.rawValue)
        try writer.member("kind", kind.rawValue)
        try writer.member("to", to.rawValue)
    }

    /// The JSON shape.
    public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }

    /// Reads the JSON shape.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            kind: try container.decodeIfPresent(Kind.self, forKey: .kind),
            from: try container.decodeIfPresent(OrderStatus.self, forKey: .from),
            to: try container.decode(OrderStatus.self, forKey: .to), at: try container.decodeTimestamp(forKey: .at),
            detail: try container.decodeIfPresent(String.self, forKey: .detail),
            actor: try container.decodeIfPresent(String.self, forKey: .actor))
    }
}

/// A booked order.
///
/// JSON: `{"id", "short_id" (``Identifier/short``: what people are shown), "user", "user_id", "customer_name", "customer_phone", "pickup_at" (UTC), "pickup_local", "time_zone", "status",
/// "lines": […], "total", "total_cents", "currency", "idempotency_key", "created_at",
/// "updated_at", "history": […], "party_id"}`.
public struct Order: Sendable, Hashable, Identifiable, Codable, JSONMembers {
    /// An order's id.
    public typealias ID = Identifier<Order>

    /// Its id.
    public let id: ID
    /// Who booked it.
    public let userID: User.ID
    /// Their handle.
    public let handle: String
    /// Their name and phone as they are now (both `nil` once the user is erased).
    public let customer: Customer
    /// The start of the pickup slot.
    public let pickupAt: Date
    /// The service day the pickup belongs to (a pickup after midnight can belong to the day before).
    public let serviceDay: LocalDate
    /// Where it is in its life.
    public let status: OrderStatus
    /// The pizzas, in the order they were booked.
    public let lines: [OrderLine]
    /// Σ quantity × unit price.
    public let total: Money
    /// The key it was booked with, if any.
    public let idempotencyKey: String?
    /// When it was booked.
    public let createdAt: Date
    /// When its status last changed.
    public let updatedAt: Date
    /// Every status it has had, oldest first.
    public let history: [OrderStatusChange]
    /// The pizzeria's time zone, for ``pickupLocal``.
    public let timeZone: TimeZone
    /// Whether it is still booked for a time the hours no longer cover (kept through a change of
    /// the hours with `keepOrders`).
    public let outsideHours: Bool
    /// The kitchen's note ("no basil"), if any.
    public let note: String?
    /// Bumped by every change: a move or edit made from an older version is refused.
    public let version: Int
    /// Its slot's effective capacity and the rule it came from (`nil` when the file has no load
    /// row for the slot, which the schema always keeps).
    public let slotCapacity: SlotCapacity?
    /// The party it belongs to (the id of the party's first order), when it was booked with
    /// others on consecutive slots (``OrderService/placeParty(_:by:override:)``); `nil` for an order on its own.
    public let partyID: ID?

    /// An order from its parts; stores use it when reading rows.
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
        public let name: String?
        /// Their phone number in E.164 (`+390815551234`), if they gave one.
        public let phone: String?

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

    private enum CodingKeys: String, CodingKey {
        case id, user, userID = "user_id", customerName = "customer_name", customerPhone = "customer_phone", pickupAt =
            "pickup_at", pickupLocal = "pickup_local", timeZone = "time_zone"
        case status, lines, total, totalCents = "total_cents", currency, idempotencyKey = "idempotency_key"
        case createdAt = "created_at", updatedAt = "updated_at", history, serviceDay = "service_day", outsideHours =
            "outside_hours", note, version, partyID = "party_id"
        case slotCapacity = "slot_capacity", capacityRule = "capacity_rule"
    }

    /// The documented JSON shape, defined once (see ``JSONMembers``).
    public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        try writer.member("capacity_rule", slotCapacity?.rule)
        try writer.member("created_at", timestamp: createdAt)
        try writer.member("currency", "EUR")
        try writer.member("customer_name", customer.name)
        try writer.member("customer_phone", customer.phone)
        try writer.member("history", objects: history)
        try writer.member("id", id: id)
        try writer.member("idempotency_key", idempotencyKey)
        try writer.member("lines", objects: lines)
        try writer.member("note", note)
        try writer.member("outside_hours", outsideHours)
        try writer.member("party_id", partyID?.description)
        try writer.member("pickup_at", minute: pickupAt)
        try writer.member("pickup_local", pickupLocal)
        try writer.member("service_day", serviceDay.description)
        try writer.member("short_id", id.short)
        try writer.member("slot_capacity", slotCapacity?.capacity)
        try writer.member("status", status.rawValue)
        try writer.member("time_zone", timeZone.identifier)
        try writer.member("total", plain: total)
        try writer.member("total_cents", total.cents)
        try writer.member("updated_at", timestamp: updatedAt)
        try writer.member("user", handle)
        try writer.member("user_id", id: userID)
        try writer.member("version", version)
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }

    /// Reads the documented JSON shape.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let zoneName = try container.decode(String.self, forKey: .timeZone)
        guard let zone = TimeZone(identifier: zoneName) else {
            throw DecodingError.dataCorruptedError(
                forKey: .timeZone, in: container, debugDescription: "unknown time zone '\(zoneName)'")
        }
        self.init(
            id: try container.decode(ID.self, forKey: .id), userID: try container.decode(User.ID.self, forKey: .userID),
            handle: try container.decode(String.self, forKey: .user),
            customer: Customer(
                name: try container.decodeIfPresent(String.self, forKey: .customerName),
                phone: try container.decodeIfPresent(String.self, forKey: .customerPhone)),
            pickupAt: try container.decodeTimestamp(forKey: .pickupAt),
            serviceDay: try container.decode(LocalDate.self, forKey: .serviceDay),
            status: try container.decode(OrderStatus.self, forKey: .status),
            lines: try container.decode([OrderLine].self, forKey: .lines),
            total: try container.decodeMoney(centsKey: .totalCents),
            idempotencyKey: try container.decodeIfPresent(String.self, forKey: .idempotencyKey),
            createdAt: try container.decodeTimestamp(forKey: .createdAt),
            updatedAt: try container.decodeTimestamp(forKey: .updatedAt),
            history: try container.decode([OrderStatusChange].self, forKey: .history), timeZone: zone,
            outsideHours: try container.decodeIfPresent(Bool.self, forKey: .outsideHours) ?? false,
            note: try container.decodeIfPresent(String.self, forKey: .note),
            version: try container.decodeIfPresent(Int.self, forKey: .version) ?? 1,
            slotCapacity: try container.decodeIfPresent(Int.self, forKey: .slotCapacity).map {
                SlotCapacity(capacity: $0, rule: try container.decodeIfPresent(String.self, forKey: .capacityRule))
            }, partyID: try container.decodeIfPresent(ID.self, forKey: .partyID))
    }
}
