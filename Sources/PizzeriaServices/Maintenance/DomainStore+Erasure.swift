import Foundation
import PizzeriaStorage

// The SQL of `check`'s erasure checks and their repairs: nothing of an erased customer is left
// but the pseudonym.
extension DomainStore {
    /// Erased users whose identity is not the pseudonym, and how many navigation rows they still have.
    static func erasureLeftovers(in db: Connection) throws -> [(
        id: String, identity: Bool, navigation: Int, money: Int
    )] {
        try db.fetchAll(
            """
            SELECT u.id,
                   (u.handle IS NOT 'erased-' || substr(u.id, 1, 13) OR u.display_name IS NOT NULL OR u.phone IS NOT NULL) AS identity,
                   (SELECT count(*) FROM navigation_stack n WHERE n.user_id = u.id)
                   + (SELECT count(*) FROM navigation_sheets n WHERE n.user_id = u.id)
                   + (SELECT count(*) FROM navigation_events n WHERE n.user_id = u.id) AS navigation,
                   (SELECT count(*) FROM orders o JOIN payments p ON p.order_id = o.id
                    WHERE o.user_id = u.id AND p.reference IS NOT NULL)
                   + (SELECT count(*) FROM orders o JOIN payments p ON p.order_id = o.id JOIN refunds r ON r.payment_id = p.id
                      WHERE o.user_id = u.id AND r.reason <> '[erased]')
                   + (SELECT count(*) FROM orders o JOIN order_lines l ON l.order_id = o.id
                      WHERE o.user_id = u.id AND l.note IS NOT NULL)
                   + (SELECT count(*) FROM orders o JOIN party_payments q ON q.party_id = o.id
                      WHERE o.user_id = u.id AND q.reference IS NOT NULL)
                   + (SELECT count(*) FROM orders o JOIN order_discounts d ON d.order_id = o.id
                      WHERE o.user_id = u.id AND d.reason <> '[erased]') AS money
            FROM users u JOIN user_erasures e ON e.user_id = u.id
            WHERE identity OR navigation > 0 OR money > 0
            ORDER BY u.id
            """
        ) { (try $0.string("id"), try $0.int("identity") != 0, try $0.int("navigation"), try $0.int("money")) }
    }

    /// Future bookings of erased customers (their erasure predates migration 9, which cancels them).
    static func erasedCustomersBookings(after now: Date, in db: Connection) throws -> [String] {
        try db.fetchAll(
            """
            SELECT o.id FROM orders o JOIN user_erasures e ON e.user_id = o.user_id
            WHERE o.pickup_at > ? AND o.status IN ('placed', 'preparing') ORDER BY o.pickup_at, o.id
            """, [PickupTime.utc(now)]
        ) { try $0.string("id") }
    }

    /// Cancels an erased customer's future booking, as their erasure does (`erased` in its history).
    static func cancelErased(_ id: String, at now: Date, in db: Connection) throws {
        try db.run(
            "UPDATE orders SET status = 'cancelled', changed_at = ?, change_note = 'erased' WHERE id = ?",
            [Timestamp.string(from: now), id])
    }

    /// Applies an erasure again: the pseudonym, no name or phone, no navigation.
    static func reapplyErasure(_ id: String, in db: Connection) throws {
        try db.run(
            "UPDATE users SET handle = 'erased-' || substr(id, 1, 13), display_name = NULL, phone = NULL WHERE id = ?",
            [id])
        try db.run("DELETE FROM navigation_sheets WHERE user_id = ?", [id])
        try db.run("DELETE FROM navigation_stack WHERE user_id = ?", [id])
        try db.run("DELETE FROM navigation_events WHERE user_id = ?", [id])
        try db.run(
            "UPDATE payments SET reference = NULL WHERE order_id IN (SELECT id FROM orders WHERE user_id = ?) AND reference IS NOT NULL",
            [id])
        try db.run(
            "UPDATE party_payments SET reference = NULL WHERE party_id IN (SELECT id FROM orders WHERE user_id = ?) AND reference IS NOT NULL",
            [id])
        try db.run(
            "UPDATE order_discounts SET reason = '[erased]' WHERE order_id IN (SELECT id FROM orders WHERE user_id = ?) AND reason <> '[erased]'",
            [id])
        try db.run(
            "UPDATE order_lines SET note = NULL WHERE order_id IN (SELECT id FROM orders WHERE user_id = ?) AND note IS NOT NULL",
            [id])
        try db.run(
            """
            UPDATE refunds SET reason = '[erased]'
            WHERE payment_id IN (SELECT p.id FROM payments p JOIN orders o ON o.id = p.order_id WHERE o.user_id = ?)
              AND reason <> '[erased]'
            """, [id])
    }
}
