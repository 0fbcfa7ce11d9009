import Foundation
import PizzeriaStorage

/// The SQL of `notify_cursors`. Every write that moves a notifier names its holder (and, for the
/// cursor, the cursor it moves from), so a process that lost its lease changes nothing.
enum NotifierStore {
    /// A notifier's row as stored.
    struct Stored {
        let name: NotifierName
        let after: EventCursor
        let pending: EventCursor?
        let kinds: [NotificationKind]
        let delivered, failures: Int
        let lastError: String?
        let lastErrorAt: Date?
        let holder: NotifierHolder?
        let heartbeatAt: Date?
        let createdBy: String?
        let createdAt, updatedAt: Date
    }

    private static let columns = """
        name, after_event, pending_event, kinds, delivered, failures, last_error, last_error_at, holder_host, \
        holder_pid, heartbeat_at, created_by, created_at, updated_at
        """

    private static func decode(_ row: Row) throws -> Stored {
        let nameText = try row.string("name")
        func damaged(_ problem: String) -> DataError {
            DataError.damagedRow(table: "notify_cursors", id: nameText, problem: problem)
        }
        func time(_ column: String) throws -> Date? {
            guard let text = try row.optionalString(column) else { return nil }
            guard let date = Timestamp.date(from: text) else { throw damaged("\(column) '\(text)' is not a UTC time") }
            return date
        }
        func cursor(_ column: String) throws -> EventCursor? {
            guard let text = try row.optionalString(column) else { return nil }
            guard let cursor = EventCursor(text) else { throw damaged("\(column) '\(text)' is not an event cursor") }
            return cursor
        }
        guard let name = NotifierName(nameText) else { throw damaged("the name \(NotifierName.rule)") }
        let kindsText = try row.string("kinds")
        let kinds = kindsText.split(separator: ",").compactMap { NotificationKind(rawValue: String($0)) }
        guard !kinds.isEmpty else { throw damaged("kinds '\(kindsText)' names no kind") }
        guard let after = try cursor("after_event"), let createdAt = try time("created_at"),
            let updatedAt = try time("updated_at")
        else { throw damaged("a required column is empty") }
        let host = try row.optionalString("holder_host"), pid = try row.optionalInt64("holder_pid")
        return Stored(
            name: name, after: after, pending: try cursor("pending_event"), kinds: kinds,
            delivered: try row.int("delivered"), failures: try row.int("failures"),
            lastError: try row.optionalString("last_error"), lastErrorAt: try time("last_error_at"),
            holder: host.flatMap { host in pid.map { NotifierHolder(host: host, pid: Int32(clamping: $0)) } },
            heartbeatAt: try time("heartbeat_at"), createdBy: try row.optionalString("created_by"),
            createdAt: createdAt, updatedAt: updatedAt)
    }

    static func notifier(_ name: NotifierName, in db: Connection) throws -> Stored? {
        try db.fetchOne("SELECT " + columns + " FROM notify_cursors WHERE name = ?", [name.description], decode)
    }

    static func all(in db: Connection) throws -> [Stored] {
        try db.fetchAll("SELECT " + columns + " FROM notify_cursors ORDER BY name", [], decode)
    }

    /// Order events after `position`, of any kind.
    static func waiting(after position: Int64, in db: Connection) throws -> Int {
        try db.fetchOne("SELECT count(*) AS n FROM order_status_events WHERE id > ?", [position]) { try $0.int("n") }
            ?? 0
    }

    private static func text(_ kinds: [NotificationKind]) -> String { kinds.map(\.rawValue).joined(separator: ",") }

    static func insert(
        _ name: NotifierName, after: EventCursor, kinds: [NotificationKind], holder: NotifierHolder, by actor: String?,
        at: Date, in db: Connection
    ) throws {
        let now = Timestamp.string(from: at)
        try db.run(
            """
            INSERT INTO notify_cursors (name, after_event, kinds, holder_host, holder_pid, heartbeat_at, created_by,
                                        created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                name.description, after.description, text(kinds), holder.host, Int(holder.pid), now, actor, now, now,
            ])
    }

    /// Takes the lease (and, when given, new kinds or a new cursor, which clears the event in flight).
    static func claim(
        _ name: NotifierName, holder: NotifierHolder, kinds: [NotificationKind]?, after: EventCursor?, at: Date,
        in db: Connection
    ) throws {
        let now = Timestamp.string(from: at)
        try db.run(
            """
            UPDATE notify_cursors
            SET holder_host = ?, holder_pid = ?, heartbeat_at = ?, updated_at = ?, kinds = coalesce(?, kinds),
                after_event = coalesce(?, after_event),
                pending_event = CASE WHEN ? IS NULL THEN pending_event END
            WHERE name = ?
            """,
            [
                holder.host, Int(holder.pid), now, now, kinds.map(text), after?.description, after?.description,
                name.description,
            ])
    }

    /// Moves the cursor without a lease (`notify reset`; the caller checked nobody holds it).
    static func reset(_ name: NotifierName, after: EventCursor, at: Date, in db: Connection) throws -> Bool {
        try db.run(
            "UPDATE notify_cursors SET after_event = ?, pending_event = NULL, updated_at = ? WHERE name = ?",
            [after.description, Timestamp.string(from: at), name.description]) == 1
    }

    /// The event about to be handed to the command; `false` when the lease is not `holder`'s.
    static func markPending(
        _ name: NotifierName, _ cursor: EventCursor, holder: NotifierHolder, at: Date, in db: Connection
    ) throws -> Bool {
        let now = Timestamp.string(from: at)
        return try db.run(
            """
            UPDATE notify_cursors SET pending_event = ?, heartbeat_at = ?, updated_at = ?
            WHERE name = ? AND holder_host = ? AND holder_pid = ?
            """,
            [cursor.description, now, now, name.description, holder.host, Int(holder.pid)]) == 1
    }

    /// Moves the cursor from `from` to `to` (`delivered`: one more delivered event); `false` when
    /// the lease is not `holder`'s or the cursor is not at `from`.
    static func advance(
        _ name: NotifierName, from: EventCursor, to: EventCursor, delivered: Bool, holder: NotifierHolder, at: Date,
        in db: Connection
    ) throws -> Bool {
        let now = Timestamp.string(from: at)
        return try db.run(
            """
            UPDATE notify_cursors
            SET after_event = ?, pending_event = NULL, delivered = delivered + ?, heartbeat_at = ?, updated_at = ?
            WHERE name = ? AND after_event = ? AND holder_host = ? AND holder_pid = ?
            """,
            [
                to.description, delivered ? 1 : 0, now, now, name.description, from.description, holder.host,
                Int(holder.pid),
            ]) == 1
    }

    static func recordFailure(
        _ name: NotifierName, error: String, holder: NotifierHolder, at: Date, in db: Connection
    ) throws -> Bool {
        let now = Timestamp.string(from: at)
        return try db.run(
            """
            UPDATE notify_cursors
            SET failures = failures + 1, last_error = ?, last_error_at = ?, heartbeat_at = ?, updated_at = ?
            WHERE name = ? AND holder_host = ? AND holder_pid = ?
            """,
            [String(error.prefix(200)), now, now, now, name.description, holder.host, Int(holder.pid)]) == 1
    }

    static func heartbeat(_ name: NotifierName, holder: NotifierHolder, at: Date, in db: Connection) throws -> Bool {
        try db.run(
            "UPDATE notify_cursors SET heartbeat_at = ? WHERE name = ? AND holder_host = ? AND holder_pid = ?",
            [Timestamp.string(from: at), name.description, holder.host, Int(holder.pid)]) == 1
    }

    static func release(_ name: NotifierName, holder: NotifierHolder, in db: Connection) throws {
        try db.run(
            """
            UPDATE notify_cursors SET holder_host = NULL, holder_pid = NULL
            WHERE name = ? AND holder_host = ? AND holder_pid = ?
            """,
            [name.description, holder.host, Int(holder.pid)])
    }

    static func delete(_ name: NotifierName, in db: Connection) throws -> Bool {
        try db.run("DELETE FROM notify_cursors WHERE name = ?", [name.description]) == 1
    }
}
