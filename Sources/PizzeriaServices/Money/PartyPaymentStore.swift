import Foundation
import PizzeriaStorage

/// The SQL of a party's payments (`party_payments` and their shares in `payments`). Functions
/// take the connection of an open transaction.
enum PartyPaymentStore {
    static let columns =
        "q.id, q.party_id, q.amount_cents, q.method, q.reference, q.tendered_cents, q.at, q.actor AS by"

    static func insert(
        party: Order.ID, amount: Money, method: PaymentMethod, reference: String?, tendered: Money?, actor: String?,
        at: Date, in db: Connection
    ) throws -> Int64 {
        try db.run(
            """
            INSERT INTO party_payments (party_id, amount_cents, method, reference, tendered_cents, at, actor)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [party, amount.cents, method.rawValue, reference, tendered?.cents, Timestamp.string(from: at), actor])
        return db.lastInsertRowID
    }

    /// A member's share of the party payment `id`.
    static func insertShare(
        of id: Int64, order: Order.ID, amount: Money, method: PaymentMethod, actor: String?, at: Date,
        in db: Connection
    ) throws -> Payment {
        try db.run(
            """
            INSERT INTO payments (order_id, amount_cents, method, reference, tendered_cents, at, actor, party_payment_id)
            VALUES (?, ?, ?, NULL, NULL, ?, ?, ?)
            """, [order, amount.cents, method.rawValue, Timestamp.string(from: at), actor, id])
        return Payment(
            id: db.lastInsertRowID, orderID: order, amount: amount, method: method, reference: nil, tendered: nil,
            at: at, actor: actor, partyPaymentID: id)
    }

    /// The party payment recorded with this reference, with its shares.
    static func payment(method: PaymentMethod, reference: String, in db: Connection) throws -> PartyPayment? {
        guard
            let found = try db.fetchOne(
                "SELECT " + columns + " FROM party_payments q WHERE q.method = ? AND q.reference = ?",
                [method.rawValue, reference], header)
        else { return nil }
        return try withShares(found, in: db)
    }

    /// Every payment of a party (by its first order), oldest first, with their shares.
    static func payments(ofParty party: Order.ID, in db: Connection) throws -> [PartyPayment] {
        try db.fetchAll(
            "SELECT " + columns + " FROM party_payments q WHERE q.party_id = ? ORDER BY q.id", [party], header
        )
        .map { try withShares($0, in: db) }
    }

    /// Party payments whose shares do not add up to them (`check`): id, amount, the shares' sum.
    static func unbalanced(in db: Connection) throws -> [(id: Int64, amount: Int64, shares: Int64)] {
        try db.fetchAll(
            """
            SELECT q.id, q.amount_cents,
                   (SELECT coalesce(sum(p.amount_cents), 0) FROM payments p WHERE p.party_payment_id = q.id) AS shares
            FROM party_payments q
            WHERE q.amount_cents <> (SELECT coalesce(sum(p.amount_cents), 0) FROM payments p WHERE p.party_payment_id = q.id)
            ORDER BY q.id
            """
        ) { (try $0.int64("id"), try $0.int64("amount_cents"), try $0.int64("shares")) }
    }

    /// A party payment from a row of ``columns``, its shares still to be read (``withShares``).
    private static func header(_ row: Row) throws -> PartyPayment { try PartyPayment(row: row) }

    private static func withShares(_ payment: PartyPayment, in db: Connection) throws -> PartyPayment {
        let shares = try db.fetchAll(
            "SELECT " + PaymentStore.paymentColumns
                + " FROM payments p JOIN orders o ON o.id = p.order_id WHERE p.party_payment_id = ?"
                + " ORDER BY o.pickup_at, o.id",
            [payment.id], PaymentStore.payment)
        var whole = payment
        whole.shares = shares
        return whole
    }
}
