import Foundation

/// Money taken off an order at the counter: a `discount` (a percentage of what the order has
/// left, or an amount) or a `comp` (one line given free — the shop's "sconto" and "omaggio"). A
/// manager's, with who and why. It comes off each VAT rate of the order — a percentage of each
/// rate's gross, an amount in proportion to the rates' gross (the cents left over by the
/// largest-remainder method), a comp at its line's rate — so the VAT of each rate is recomputed
/// from what is left (``VATBreakdown/init(lines:discounts:)``).
///
/// JSON: `{"kind", "line", "item", "percent_bp", "amount_cents", "by_rate": [{"rate_bp", "amount_cents"}],
/// "reason", "by", "at"}`.
public struct OrderDiscount: Sendable, Hashable, Encodable {
    /// A discount or a comp.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Money off the order.
        case discount
        /// One line given free.
        case comp
    }

    /// Which.
    public let kind: Kind
    /// A comp's line (its number in the order, `order_lines.line_no`).
    public let line: Int?
    /// A comp's item, as its line was booked (`Coca-Cola 33cl`).
    public let lineName: String?
    /// A discount by percentage, in basis points (10 % = 1000).
    public let percentBasisPoints: Int?
    /// What came off each rate.
    public let byRate: [(rate: VATRate, amount: Money)]
    /// Why.
    public let reason: String
    /// Who gave it.
    public let actor: String?
    /// When.
    public let at: Date

    /// What came off in all.
    public var amount: Money { Money(cents: byRate.reduce(0) { $0 + $1.amount.cents }) }

    /// A value; stores use it when reading rows.
    public init(
        kind: Kind, line: Int?, lineName: String? = nil, percentBasisPoints: Int?,
        byRate: [(rate: VATRate, amount: Money)],
        reason: String, actor: String?, at: Date
    ) {
        (self.kind, self.line, self.lineName, self.percentBasisPoints, self.byRate) = (
            kind, line, lineName, percentBasisPoints, byRate
        )
        (self.reason, self.actor, self.at) = (reason, actor, at)
    }

    public static func == (lhs: OrderDiscount, rhs: OrderDiscount) -> Bool {
        lhs.kind == rhs.kind && lhs.line == rhs.line && lhs.percentBasisPoints == rhs.percentBasisPoints
            && lhs.byRate.map(\.rate) == rhs.byRate.map(\.rate) && lhs.byRate.map(\.amount) == rhs.byRate.map(\.amount)
            && lhs.reason == rhs.reason && lhs.actor == rhs.actor && lhs.at == rhs.at
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(line)
        hasher.combine(reason)
        hasher.combine(at)
        for (rate, amount) in byRate {
            hasher.combine(rate)
            hasher.combine(amount)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case kind, line, lineName = "item", percentBasisPoints = "percent_bp", amountCents = "amount_cents", byRate =
            "by_rate", reason
        case actor = "by", at
    }

    private struct RateAmount: Encodable {
        let rate_bp: Int
        let amount_cents: Int64
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(line, forKey: .line)
        try container.encode(lineName, forKey: .lineName)
        try container.encode(percentBasisPoints, forKey: .percentBasisPoints)
        try container.encode(amount.cents, forKey: .amountCents)
        try container.encode(
            byRate.map { RateAmount(rate_bp: $0.rate.basisPoints, amount_cents: $0.amount.cents) }, forKey: .byRate)
        try container.encode(reason, forKey: .reason)
        try container.encode(actor, forKey: .actor)
        try container.encode(Timestamp.string(from: at), forKey: .at)
    }

    /// How much comes off each rate of `gross` (what each rate has left): `amount` in proportion
    /// to the rates' gross, the cents left over to the largest remainders (then the lower rate).
    /// The one statement of the spread.
    static func spread(_ amount: Int64, over gross: [(rate: VATRate, cents: Int64)]) -> [(rate: VATRate, amount: Money)]
    {
        let total = gross.reduce(0) { $0 + $1.cents }
        guard total > 0, amount > 0 else { return [] }
        var shares = gross.map { amount * $0.cents / total }
        let remainders = gross.indices.map { (index: $0, remainder: amount * gross[$0].cents % total) }
        let left = Int(amount - shares.reduce(0, +))
        for entry in remainders.sorted(by: { ($1.remainder, $0.index) < ($0.remainder, $1.index) }).prefix(left) {
            shares[entry.index] += 1
        }
        return gross.indices.compactMap { shares[$0] > 0 ? (gross[$0].rate, Money(cents: shares[$0])) : nil }
    }
}
