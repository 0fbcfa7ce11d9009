import Foundation
import PizzeriaStorage

// The SQL of `check`'s erasure checks and their repairs: nothing of an erased customer is left
// but the pseudonym.
extension DomainStore {
    /// Erased users whose identity is not the pseudonym, how many navigation rows they still have,
    /// and how many of their rows still carry text the erasure clears (``ErasureStore``).
    static func erasureLeftovers(in db: Connection) throws -> [(
        id: String, identity: Bool, navigation: Int, text: Int
    )] {
        try db.fetchAll(
            """
            SELECT u.id,
                   (u.handle IS NOT 'erased-' || substr(u.id, 1, 13) OR u.display_name IS NOT NULL OR u.phone IS NOT NULL) AS identity,
                   (SELECT count(*) FROM navigation_stack n WHERE n.user_id = u.id)
                   + (SELECT count(*) FROM navigation_sheets n WHERE n.user_id = u.id)
                   + (SELECT count(*) FROM navigation_events n WHERE n.user_id = u.id) AS navigation,
                   \(ErasureStore.leftovers) AS text
            FROM users u JOIN user_erasures e ON e.user_id = u.id
            WHERE identity OR navigation > 0 OR text > 0
            ORDER BY u.id
            """  // ErasureStore.leftovers: an expression built from its constants
        ) { (try $0.string("id"), try $0.int("identity") != 0, try $0.int("navigation"), try $0.int("text")) }
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
        _ = try ErasureStore.redact(id, in: db)
    }
}
