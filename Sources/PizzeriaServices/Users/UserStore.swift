import Foundation
import PizzeriaStorage

/// The SQL of users. Column lists are constants, spliced in with `+` (never input).
enum UserStore {
    /// The columns ``Decoder`` reads.
    static let columns = "id, handle, display_name, phone, created_at, (SELECT erased_at FROM user_erasures e WHERE e.user_id = users.id) AS erased_at"

    /// A user from a row of ``columns``.
    struct Decoder: RowDecoder {
        let id, handle, displayName, phone, createdAt, erasedAt: Column

        init(columns: ColumnResolver) throws {
            (id, handle, displayName) = (try columns("id"), try columns("handle"), try columns("display_name"))
            (phone, createdAt, erasedAt) = (try columns("phone"), try columns("created_at"), try columns("erased_at"))
        }

        func decode(_ row: Row) throws -> User {
            let id: User.ID = try row.id(self.id)
            return User(id: id, handle: try row.string(handle), displayName: try row.optionalString(displayName), phone: try row.optionalString(phone),
                        createdAt: try row.timestamp(createdAt, table: "users", id: id),
                        erasedAt: try row.optionalTimestamp(erasedAt, table: "users", id: id))
        }
    }

    static func user(handle: String, in db: Connection) throws -> User? {
        try db.fetchOne("SELECT " + columns + " FROM users WHERE handle = ?", [UserRules.normalizeHandle(handle)], Decoder.self)
    }

    static func user(id: User.ID, in db: Connection) throws -> User? {
        try db.fetchOne("SELECT " + columns + " FROM users WHERE id = ?", [id], Decoder.self)
    }

    /// The handle of the user with `id`, or `nil` when there is none.
    static func handle(of id: User.ID, in db: Connection) throws -> String? {
        try db.fetchOne("SELECT handle FROM users WHERE id = ?", [id]) { try $0.string("handle") }
    }

    /// The handle of a user who may book: ``UserError/notFound(_:)`` for no such user,
    /// ``UserError/erased(_:)`` for one whose data was erased. One statement, as booking is hot.
    static func bookingHandle(of id: User.ID, in db: Connection) throws -> String {
        let sql = "SELECT handle, EXISTS (SELECT 1 FROM user_erasures e WHERE e.user_id = users.id) AS erased FROM users WHERE id = ?"
        guard let (handle, erased) = try db.fetchOne(sql, [id], { (try $0.string("handle"), try $0.int("erased") != 0) }) else {
            throw UserError.notFound(id.description)
        }
        guard !erased else { throw UserError.erased(handle) }
        return handle
    }

    /// The user with `id`, or ``UserError/notFound(_:)``.
    static func required(_ id: User.ID, in db: Connection) throws -> User {
        guard let user = try user(id: id, in: db) else { throw UserError.notFound(id.description) }
        return user
    }

    /// Users by handle, after `after` (a handle) when paging.
    static func list(after: String = "", limit: Int = -1, in db: Connection) throws -> [User] {
        try db.fetchAll("SELECT " + columns + " FROM users WHERE handle > ? ORDER BY handle LIMIT ?", [after, limit], Decoder.self)
    }

    /// Inserts a user.
    static func insert(id: User.ID, handle: String, displayName: String?, phone: String?, in db: Connection) throws -> User {
        try db.run("INSERT INTO users (id, handle, display_name, phone) VALUES (?, ?, ?, ?)", [id, handle, displayName, phone])
        return try required(id, in: db)
    }

    /// Sets a user's handle, name and phone.
    static func update(id: User.ID, handle: String, displayName: String?, phone: String?, in db: Connection) throws {
        try db.run("UPDATE users SET handle = ?, display_name = ?, phone = ? WHERE id = ?", [handle, displayName, phone, id])
    }

    /// Erases a user's personal data: the erasure is recorded first (it is what lets their
    /// navigation history be deleted), then the name, phone and handle go, and the navigation.
    static func erase(id: User.ID, actor: String?, at: Date, in db: Connection) throws {
        try db.run("INSERT INTO user_erasures (user_id, erased_at, actor) VALUES (?, ?, ?)", [id, Timestamp.string(from: at), actor])
        try db.run("UPDATE users SET handle = ?, display_name = NULL, phone = NULL WHERE id = ?", [UserRules.pseudonym(for: id), id])
        try db.run("DELETE FROM navigation_sheets WHERE user_id = ?", [id])
        try db.run("DELETE FROM navigation_stack WHERE user_id = ?", [id])
        try db.run("DELETE FROM navigation_events WHERE user_id = ?", [id])
    }
}
