import Foundation

/// One payment for every order of a party, as the counter took it: one amount, one method, one
/// reference and one cash tendered, spread over the members' orders as ``shares`` (each a
/// ``Payment`` of that order). The shares are the members' balances in pickup order, each paid
/// whole before the next, until the amount is spent.
///
/// JSON: `{"id", "party_id", "amount", "amount_cents", "method", "reference", "tendered_cents",
/// "change_cents", "at", "by", "shares": [payment…]}`.
public struct PartyPayment: Sendable, Hashable, Identifiable, Record {
    /// Its row id (`party_payments.id`).
    public internal(set) var id: Int64 = 0
    /// The party: its first order's id.
    public internal(set) var partyID: Order.ID = .blank
    /// What was taken in all.
    public internal(set) var amount: Money = Money(cents: 0)
    /// How.
    public internal(set) var method: PaymentMethod = .unknown
    /// The terminal's or provider's reference, unique per method.
    public internal(set) var reference: String?
    /// Cash handed over for the whole party, when more than the amount.
    public internal(set) var tendered: Money?
    /// When.
    public internal(set) var at: Date = Date(timeIntervalSince1970: 0)
    /// Who took it.
    public internal(set) var actor: String?
    /// Each member's share, in pickup order.
    public internal(set) var shares: [Payment] = []

    /// A value from its parts (rows are read through its members, see ``Record``).
    public init(
        id: Int64, partyID: Order.ID, amount: Money, method: PaymentMethod, reference: String?, tendered: Money?,
        at: Date, actor: String?, shares: [Payment]
    ) {
        (self.id, self.partyID, self.amount, self.method, self.reference) = (id, partyID, amount, method, reference)
        (self.tendered, self.at, self.actor, self.shares) = (tendered, at, actor, shares)
    }

    /// The change handed back: tendered − amount (0 without a tendered amount).
    public var change: Money { Money(cents: max((tendered?.cents ?? amount.cents) - amount.cents, 0)) }

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members: the documented JSON shape, declared once (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.derived("amount", plain: amount)
        try visitor.member("amount_cents", cents: &amount)
        try visitor.member("at", timestamp: &at)
        try visitor.member("by", &actor)
        try visitor.derived("change_cents", change.cents)
        try visitor.member("id", &id)
        try visitor.member("method", raw: &method, absent: nil)
        try visitor.member("party_id", &partyID)
        try visitor.member("reference", &reference)
        try visitor.member("shares", assembled: &shares)
        try visitor.member("tendered_cents", cents: &tendered)
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

extension PartyPayment: StoredMembers {
    static let table = "party_payments"
}
