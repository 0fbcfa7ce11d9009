import Foundation
import PizzeriaStorage

/// The SQL of users. Column lists are constants, spliced in with `+` (never input).
enum UserStore {
    /// The columns ``Decoder`` reads.
    static let columns =
        "id, handle, display_name, phone, created_at, (SELECT erased_at FROM user_erasures e WHERE e.user_id = users.id) AS erased_at"

    /// A user from a row of ``columns``.
    typealias Decoder = StoredDecoder<User>

    static func user(handle: String, in db: Connection) throws -> User? {
        try db.fetchOne(
            "SELECT " + columns + " FROM users WHERE handle = ?", [UserRules.normalizeHandle(handle)], Decoder.self)
    }

    static func user(id: User.ID, in db: Connection) throws -> User? {
        try db.fetchOne("SELECT " + columns + " FROM users WHERE id = ?", [id], Decoder.self)
    }

    /// The handle of the user with `id`, or `nil` when there is none.
    static func handle(of id: User.ID, in db: Connection) throws -> String? {
        try db.fetchOne("SELECT handle FROM users WHERE id = ?", [id]) { try $0.string("handle") }
    }

    /// The handle, name and phone of a user who may book: ``UserError/notFound(_:)`` for no such
    /// user, ``UserError/erased(_:)`` for one whose data was erased. One statement, as booking is hot.
    static func booking(_ id: User.ID, in db: Connection) throws -> (handle: String, contact: Order.Customer) {
        let sql = """
            SELECT handle, display_name, phone,
                   EXISTS (SELECT 1 FROM user_erasures e WHERE e.user_id = users.id) AS erased
            FROM users WHERE id = ?
            """
        guard
            let (handle, contact, erased) = try db.fetchOne(
                sql, [id],
                {
                    (
                        try $0.string("handle"),
                        Order.Customer(
                            name: try $0.optionalString("display_name"), phone: try $0.optionalString("phone")),
                        try $0.int("erased") != 0
                    )
                })
        else {
            throw UserError.notFound(id.description)
        }
        guard !erased else { throw UserError.erased(handle) }
        return (handle, contact)
    }

    /// The user with `id`, or ``UserError/notFound(_:)``.
    static func required(_ id: User.ID, in db: Connection) throws -> User {
        guard let user = try user(id: id, in: db) else { throw UserError.notFound(id.description) }
        return user
    }

    /// Users by handle, after `after` (a handle) when paging.
    static func list(after: String = "", limit: Int = -1, in db: Connection) throws -> [User] {
        try db.fetchAll(
            "SELECT " + columns + " FROM users WHERE handle > ? ORDER BY handle LIMIT ?", [after, limit], Decoder.self)
    }

    /// Users whose handle or display name contains `text` (ignoring ASCII case), or whose phone
    /// contains `digits` (when given), by handle; erased customers are never found.
    static func find(_ text: String, digits: String?, limit: Int, in db: Connection) throws -> [User] {
        // The typed text is a LIKE pattern's middle: its own wildcards are escaped.
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        let pattern = "%" + escaped + "%"
        return try db.fetchAll(
            "SELECT " + columns + """
                 FROM users
                WHERE NOT EXISTS (SELECT 1 FROM user_erasures e WHERE e.user_id = users.id)
                  AND (handle LIKE ?1 ESCAPE '\\' OR display_name LIKE ?1 ESCAPE '\\' OR (?2 IS NOT NULL AND phone LIKE '%' || ?2 || '%'))
                ORDER BY handle LIMIT ?3
                """, [pattern, digits, limit], Decoder.self)
    }

    /// The members a new user's row is written with (its erasure comes later, by its own table).
    private static let insertedKeys: [StaticString] = ["id", "handle", "display_name", "phone", "created_at"]
    private static let insertSQL = User.insertStatement(insertedKeys)

    /// Inserts a user: the row is written from the record's own declaration.
    static func insert(
        id: User.ID, handle: String, displayName: String?, phone: String?, at now: Date, in db: Connection
    ) throws -> User {
        let user = User(id: id, handle: handle, displayName: displayName, phone: phone, createdAt: now)
        try db.run(insertSQL, try user.arguments(insertedKeys))
        return try required(id, in: db)
    }

    /// Sets a user's handle, name and phone.
    static func update(id: User.ID, handle: String, displayName: String?, phone: String?, in db: Connection) throws {
        try db.run(
            "UPDATE users SET handle = ?, display_name = ?, phone = ? WHERE id = ?", [handle, displayName, phone, id])
    }

    /// What one erasure removed: row counts, and the orders it cancelled.
    struct ErasureCounts {
        var navigationRows = 0
        var notes = 0
        var historyEntries = 0
        var keys = 0
        var cancelled: [Order.ID] = []
        var ordersKept = 0
    }

    /// Erases a customer's personal data in the caller's transaction, with deleted content
    /// overwritten (`secure_delete`, on for every connection): the erasure is recorded first (it is
    /// what lets the history's redaction and the navigation's deletion through the triggers), their
    /// future orders are cancelled (`erased` in the history), the free text of their orders
    /// (notes, the end of history details that carried one) is redacted, their name as an actor
    /// becomes the pseudonym, their idempotency keys are dropped, then the identity and the
    /// navigation go.
    static func erase(_ user: User, actor: String?, at: Date, in db: Connection) throws -> ErasureCounts {
        let id = user.id, stamp = Timestamp.string(from: at), pseudonym = UserRules.pseudonym(for: id)
        var counts = ErasureCounts()
        try db.run("INSERT INTO user_erasures (user_id, erased_at, actor) VALUES (?, ?, ?)", [id, stamp, actor])
        counts.cancelled = try db.fetchAll(
            """
            SELECT id FROM orders WHERE user_id = ? AND pickup_at > ? AND status IN ('placed', 'preparing') ORDER BY pickup_at, id
            """, [id, PickupTime.utc(at)]
        ) { try $0.id("id") }
        for order in counts.cancelled {
            try db.run(
                """
                UPDATE orders SET status = 'cancelled', changed_by = ?, changed_at = ?, change_note = 'erased' WHERE id = ?
                """, [actor, stamp, order])
        }
        // The free text of their rows (notes, references, reasons), each column as `ErasureStore` lists it.
        let redacted = try ErasureStore.redact(id.description, in: db)
        counts.notes = redacted[.note] ?? 0
        // The free text of a history detail (`note: …`, `override: …`, `reason: …`, `unpaid: …`) runs to its end:
        // it becomes `[erased]`; so do a payment's reference (`paid 5.00 card (REF)`) and a refund's
        // reason (`refunded 5.00 card: …`).
        counts.historyEntries = try db.run(
            """
            UPDATE order_status_events
            SET detail = CASE
                    WHEN kind = 'paid' AND instr(detail, ' (') > 0 THEN substr(detail, 1, instr(detail, ' (')) || '[erased]'
                    WHEN kind = 'refunded' AND instr(detail, ': ') > 0 THEN substr(detail, 1, instr(detail, ': ') + 1) || '[erased]'
                    WHEN free < 100000 THEN substr(detail, 1, free - 1) || '[erased]'
                    ELSE detail END,
                actor = CASE WHEN actor IN (?1, ?2) THEN ?3 ELSE actor END
            FROM (SELECT e.id AS event,
                         min(coalesce(nullif(instr(e.detail, 'note: '), 0), 100000),
                             coalesce(nullif(instr(e.detail, 'override: '), 0), 100000),
                             coalesce(nullif(instr(e.detail, 'reason: '), 0), 100000),
                             coalesce(nullif(instr(e.detail, 'unpaid: '), 0), 100000)) AS free
                  FROM order_status_events e JOIN orders o ON o.id = e.order_id WHERE o.user_id = ?4) f
            WHERE order_status_events.id = f.event
              AND ((kind = 'paid' AND instr(detail, ' (') > 0 AND substr(detail, -8) <> '[erased]')
                   OR (kind = 'refunded' AND instr(detail, ': ') > 0 AND substr(detail, -8) <> '[erased]')
                   OR (free < 100000 AND substr(detail, -8) <> '[erased]') OR actor IN (?1, ?2))
            """,
            [user.handle, user.displayName ?? user.handle, pseudonym, id])
        counts.historyEntries += redacted[.record] ?? 0
        counts.keys = try db.run(
            "UPDATE orders SET idempotency_key = NULL, request_fingerprint = NULL WHERE user_id = ? AND idempotency_key IS NOT NULL",
            [id])
        counts.ordersKept =
            try db.fetchOne("SELECT count(*) AS n FROM orders WHERE user_id = ?", [id]) { try $0.int("n") } ?? 0
        // The audit log's rows of this customer keep that they happened, not their values.
        counts.historyEntries += try db.run(
            "UPDATE audit_log SET old = NULL, new = NULL WHERE object = ? AND (old IS NOT NULL OR new IS NOT NULL)",
            ["user:" + id.description])
        try db.run("UPDATE users SET handle = ?, display_name = NULL, phone = NULL WHERE id = ?", [pseudonym, id])
        counts.navigationRows =
            try db.run("DELETE FROM navigation_sheets WHERE user_id = ?", [id])
            + db.run("DELETE FROM navigation_stack WHERE user_id = ?", [id])
            + db.run("DELETE FROM navigation_events WHERE user_id = ?", [id])
        return counts
    }

    /// Every erased customer's id, oldest erasure first.
    static func erasedIDs(in db: Connection) throws -> [User.ID] {
        try db.fetchAll("SELECT user_id FROM user_erasures ORDER BY erased_at, user_id") { try $0.id("user_id") }
    }

    /// When the latest erasure was, if any.
    static func latestErasure(in db: Connection) throws -> Date? {
        try db.fetchOne("SELECT max(erased_at) AS latest FROM user_erasures") { try $0.optionalString("latest") }?
            .flatMap(Timestamp.date(from:))
    }

    /// Whether this file has the user and has not erased them.
    static func isLiveUser(_ id: User.ID, in db: Connection) throws -> Bool {
        try db.fetchOne(
            "SELECT NOT EXISTS (SELECT 1 FROM user_erasures e WHERE e.user_id = users.id) AS live FROM users WHERE id = ?",
            [id]
        ) {
            try $0.int("live") == 1
        } ?? false
    }

    /// Erasures whose data may still be in the write-ahead log (it was not emptied after them).
    static func erasuresPendingInWAL(in db: Connection) throws -> [User.ID] {
        try db.fetchAll("SELECT user_id FROM user_erasures WHERE wal_cleared_at IS NULL ORDER BY erased_at") {
            try $0.id("user_id")
        }
    }

    /// Records that the WAL was emptied after these erasures.
    static func markWALCleared(_ ids: [User.ID], at: Date, in db: Connection) throws {
        for id in ids {
            try db.run(
                "UPDATE user_erasures SET wal_cleared_at = ? WHERE user_id = ? AND wal_cleared_at IS NULL",
                [Timestamp.string(from: at), id])
        }
    }

    /// Up to `limit` handles that start with `prefix` (handles are lowercase), in order.
    static func handles(withPrefix prefix: String, limit: Int, in db: Connection) throws -> [String] {
        try db.fetchAll(
            "SELECT handle FROM users WHERE handle >= ? AND handle < ? ORDER BY handle LIMIT ?",
            [prefix, prefix + "\u{10FFFF}", limit]
        ) { try $0.string("handle") }
    }
}
