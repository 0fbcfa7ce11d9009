import Foundation
import PizzeriaStorage

/// The SQL of the audit log: the context its triggers read, and its listing. Functions take the
/// connection of an open transaction; values are always bound.
enum AuditStore {
    /// Sets who acts, through what and when, for the triggers of this transaction.
    static func enter(_ acting: Acting, at now: Date, in db: Connection) throws {
        try db.run(
            "UPDATE audit_context SET actor = ?, source = ?, at = ? WHERE id = 1",
            [acting.name, acting.source, Timestamp.string(from: now)])
    }

    /// Clears the context before the commit.
    static func leave(in db: Connection) throws {
        try db.run("UPDATE audit_context SET actor = NULL, source = NULL, at = NULL WHERE id = 1")
    }

    /// The columns ``Decoder`` reads, from the `audit_trail` view (a constant).
    static let columns = "at, actor, source, object, action, old, new"

    struct Decoder: RowDecoder {
        let at, actor, source, object, action, old, new: Column

        init(columns: ColumnResolver) throws {
            (at, actor, source, object) = (
                try columns("at"), try columns("actor"), try columns("source"), try columns("object")
            )
            (action, old, new) = (try columns("action"), try columns("old"), try columns("new"))
        }

        func decode(_ row: Row) throws -> AuditEntry {
            let text = try row.string(at)
            guard let date = Timestamp.date(from: text) else {
                throw DataError.damagedRow(table: "audit_log", id: text, problem: "at '\(text)' is not a UTC time")
            }
            return AuditEntry(
                at: date, actor: try row.optionalString(actor), source: try row.string(source),
                object: try row.string(object),
                action: try row.string(action), old: try row.optionalString(old), new: try row.optionalString(new))
        }
    }

    /// The trail (audit log and order histories) matching the filter, oldest first: `since`
    /// (UTC text), an object (exact, or a prefix ending in `:`), an actor.
    static func entries(since: String?, object: String?, actor: String?, limit: Int, in db: Connection) throws
        -> [AuditEntry]
    {
        var conditions: [String] = [], arguments: [any DatabaseValueConvertible] = []
        if let since { conditions.append("at >= ?"); arguments.append(since) }
        if let object {
            if object.hasSuffix(":") {
                conditions.append("object >= ? AND object < ?"); arguments += [object, object + "\u{10FFFF}"]
            } else {
                conditions.append("object = ?"); arguments.append(object)
            }
        }
        if let actor { conditions.append("actor = ?"); arguments.append(actor) }
        // Each condition is a constant fragment with its `?`.
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return try db.fetchAll(
            "SELECT " + columns + " FROM audit_trail" + filter + " ORDER BY at, kind, seq LIMIT ?", arguments + [limit],
            Decoder.self)
    }
}

/// One change in the audit trail: who, when, what object, old → new, through what.
///
/// JSON: `{"at", "actor", "source", "object", "action", "old", "new"}` (`old`/`new` are the
/// object's fields as JSON text, or `null`).
public struct AuditEntry: Sendable, Hashable, Encodable, JSONMembers {
    /// When.
    public let at: Date
    /// Who (`nil`: nobody said, as for a change typed into `sqlite3`).
    public let actor: String?
    /// Through what: `pizzeria pizza edit`, `library`, `sql`, `order history`.
    public let source: String
    /// The object: `pizza:ID`, `user:ID`, `order:ID`, `settings`, `hours`, `capacity`, `staff:NAME`.
    public let object: String
    /// What happened: `add`, `price`, `archive`, `erase`, `pause`, `close`, …
    public let action: String
    /// The fields before, as JSON text.
    public let old: String?
    /// The fields after, as JSON text.
    public let new: String?

    /// The documented JSON shape, defined once (see ``JSONMembers``).
    public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        try writer.member("action", action)
        try writer.member("actor", actor)
        try writer.member("at", timestamp: at)
        try writer.member("new", new)
        try writer.member("object", object)
        try writer.member("old", old)
        try writer.member("source", source)
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }
}

/// The audit trail: every change to the menu, users, settings, hours, capacity and staff, and
/// the orders' histories, with who, when and what.
public final class AuditService: Sendable {
    let database: Database

    init(database: Database) { self.database = database }

    /// The most entries one call returns.
    public static let maximumLimit = 100_000

    /// The trail, oldest first, from `since`, of one object (`pizza:ID`; `user:` for all users)
    /// and by one actor when given.
    public func entries(since: Date? = nil, object: String? = nil, actor: String? = nil, limit: Int = 1_000) throws
        -> [AuditEntry]
    {
        let size = min(max(1, limit), Self.maximumLimit)
        return try database.read {
            try AuditStore.entries(
                since: since.map(Timestamp.string(from:)), object: object, actor: actor, limit: size, in: $0)
        }
    }
}
