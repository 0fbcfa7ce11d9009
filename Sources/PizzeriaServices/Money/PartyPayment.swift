import Foundation

/// One payment for every order of a party, as the counter took it: one amount, one method, one
/// reference and one cash tendered, spread over the members' orders as ``shares`` (each a
/// ``Payment`` of that order). The shares are the members' balances in pickup order, each paid
/// whole before the next, until the amount is spent.
///
/// JSON: `{"id", "party_id", "amount", "amount_cents", "method", "reference", "tendered_cents",
/// "change_cents", "at", "by", "shares": [payment…]}`.
public struct PartyPayment: Sendable, Hashable, Identifiable, Encodable {
    /// Its row id (`party_payments.id`).
    public let id: Int64
    /// The party: its first order's id.
    public let partyID: Order.ID
    /// What was taken in all.
    public let amount: Money
    /// How.
    public let method: PaymentMethod
    /// The terminal's or provider's reference, unique per method.
    public let reference: String?
    /// Cash handed over for the whole party, when more than the amount.
    public let tendered: Money?
    /// When.
    public let at: Date
    /// Who took it.
    public let actor: String?
    /// Each member's share, in pickup order.
    public let shares: [Payment]

    /// A value; stores use it when reading rows.
    public init(
        id: Int64, partyID: Order.ID, amount: Money, method: PaymentMethod, reference: String?, tendered: Money?,
        at: Date, actor: String?, shares: [Payment]
    ) {
        (self.id, self.partyID, self.amount, self.method, self.reference) = (id, partyID, amount, method, reference)
        (self.tendered, self.at, self.actor, self.shares) = (tendered, at, actor, shares)
    }

    /// The change handed back: tendered − amount (0 without a tendered amount).
    public var change: Money { Money(cents: max((tendered?.cents ?? amount.cents) - amount.cents, 0)) }

    private enum CodingKeys: String, CodingKey {
        case id, partyID = "party_id", amount, amountCents = "amount_cents", method, reference
        case tenderedCents = "tendered_cents", changeCents = "change_cents", at, actor = "by", shares
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(partyID, forKey: .partyID)
        try container.encode(amount.plain, forKey: .amount)
        try container.encode(amount.cents, forKey: .amountCents)
        try container.encode(method, forKey: .method)
        try container.encode(reference, forKey: .reference)
        try container.encode(tendered?.cents, forKey: .tenderedCents)
        try container.encode(change.cents, forKey: .changeCents)
        try container.encode(Timestamp.string(from: at), forKey: .at)
        try container.encode(actor, forKey: .actor)
        try container.encode(shares, forKey: .shares)
    }

    /// How the shares are made: `balances` (each member's, in pickup order) paid whole one after
    /// the other until `amount` is spent; members owing nothing take no share. The one statement
    /// of the rule.
    static func spread(_ amount: Money, over balances: [(order: Order.ID, balance: Money)]) -> [(
        order: Order.ID, amount: Money
    )] {
        var left = amount.cents, shares: [(order: Order.ID, amount: Money)] = []
        for member in balances where left > 0 && member.balance.cents > 0 {
            let share = min(left, member.balance.cents)
            shares.append((member.order, Money(cents: share)))
            left -= share
        }
        return shares
    }
}
