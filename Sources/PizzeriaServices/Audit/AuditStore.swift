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
    ///
    /// One object's entries come from the views `audit_trail` is the union of, each read through
    /// its index (migration 34): the audit rows of no history row by their object, an item's
    /// name, price and archive entries by the ids of its history's chain (migration 35), an
    /// order's history by the order. Other filters read `audit_trail`.
    static func entries(since: String?, object: String?, actor: String?, limit: Int, in db: Connection) throws
        -> [AuditEntry]
    {
        let (sql, arguments) = entriesSQL(since: since, object: object, actor: actor)
        return try db.fetchAll(sql, arguments + [limit], Decoder.self)
    }

    /// The statement of ``entries(since:object:actor:limit:in:)`` and its arguments but the
    /// last, the limit.
    static func entriesSQL(since: String?, object: String?, actor: String?) -> (
        sql: String, arguments: [any DatabaseValueConvertible]
    ) {
        var common: [String] = [], commonArguments: [any DatabaseValueConvertible] = []
        if let since { common.append("at >= ?"); commonArguments.append(since) }
        if let actor { common.append("actor = ?"); commonArguments.append(actor) }
        // Each arm: a constant view name and constant fragments with their `?`.
        var arms: [(view: String, conditions: [String], arguments: [any DatabaseValueConvertible])] = []
        if let object, object.hasSuffix(":") {
            arms.append(("audit_trail", ["object >= ? AND object < ?"], [object, object + "\u{10FFFF}"]))
        } else if let object {
            arms.append(("audit_log_entries", ["object = ?"], [object]))
            if let id = object.dropPrefix("pizza:") {
                // The item's history rows, through its chain (migration 35; a constant with one `?`).
                arms.append(("audit_pizza_entries", ["history_id IN (" + PizzaStore.changeChainSQL + ")"], [id]))
            }
            if let id = object.dropPrefix("order:") { arms.append(("audit_order_entries", ["order_id = ?"], [id])) }
        } else {
            arms.append(("audit_trail", [], []))
        }
        var sql: [String] = [], arguments: [any DatabaseValueConvertible] = []
        for arm in arms {
            let conditions = arm.conditions + common
            let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
            sql.append("SELECT " + columns + ", kind, seq FROM " + arm.view + filter)
            arguments += arm.arguments + commonArguments
        }
        return (sql.joined(separator: " UNION ALL ") + " ORDER BY at, kind, seq LIMIT ?", arguments)
    }
}

extension String {
    /// The rest after `prefix`, when it is not empty (`pizza:ID` → `ID`).
    fileprivate func dropPrefix(_ prefix: String) -> String? {
        guard hasPrefix(prefix), count > prefix.count else { return nil }
        return String(dropFirst(prefix.count))
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
