import Foundation

/// How ``OrderService/sales(by:from:to:)`` groups the collected orders, beside the service days
/// and items of ``SalesReport``.
public enum SalesGrouping: String, Sendable, Hashable, CaseIterable {
    /// By the local hour of pickup (`19:00`): when the oven is busiest.
    case hour
    /// By who handed the orders over (and the payments each took).
    case staff
}

/// One group of collected orders: how many, their items, their revenue, and the payments.
///
/// JSON: `{"items", "key", "orders", "paid", "paid_cents", "payments", "revenue", "revenue_cents"}`
/// (`key`: `"19:00"`, or the staff name, `null` where nobody was named).
public struct SalesGroup: Sendable, Hashable, JSONMembers {
    /// The hour (`19:00`) or the staff name; `nil` for orders nobody was named on.
    public let key: String?
    /// Collected orders.
    public let orders: Int
    /// Their items (pizzas, drinks: every line's quantity).
    public let items: Int
    /// Their totals.
    public let revenue: Money
    /// Payments: of these orders (by hour), or taken by this person (by staff).
    public let payments: Int
    /// Their sum.
    public let paid: Money

    /// The documented JSON shape, defined once (see ``JSONMembers``).
    public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        try writer.member("items", items)
        try writer.member("key", key)
        try writer.member("orders", orders)
        try writer.member("paid", plain: paid)
        try writer.member("paid_cents", paid.cents)
        try writer.member("payments", payments)
        try writer.member("revenue", plain: revenue)
        try writer.member("revenue_cents", revenue.cents)
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }
}

extension OrderService {
    /// The collected orders of the service days `from` through `to` (all when `nil`) by hour of
    /// pickup or by staff.
    /// - Throws: ``ValidationError`` when `from` is after `to`.
    public func sales(by grouping: SalesGrouping, from: LocalDate? = nil, to: LocalDate? = nil) throws -> [SalesGroup] {
        let (lower, upper) = try Self.period(from: from, to: to)
        return try database.read { db in
            switch grouping {
            case .hour: try OrderStore.salesByHour(from: lower, to: upper, in: db)
            case .staff: try OrderStore.salesByStaff(from: lower, to: upper, in: db)
            }
        }
    }
}
