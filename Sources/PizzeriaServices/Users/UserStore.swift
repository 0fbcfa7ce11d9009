import PizzeriaStorage

/// The SQL of users. Column lists are constants, spliced in with `+` (never input).
enum UserStore {
    /// The columns ``decode(_:)`` reads, in its order.
    static let columns = "id, handle, display_name, created_at"

    static func decode(_ row: Row) throws -> User {
        let id: User.ID = try row.id(0)
        return User(id: id, handle: try row.string(1), displayName: try row.optionalString(2),
                    createdAt: try row.timestamp(3, table: "users", id: id))
    }

    static func user(handle: String, in db: Connection) throws -> User? {
        try db.fetchOne("SELECT " + columns + " FROM users WHERE handle = ?", [UserRules.normalizeHandle(handle)], decode)
    }

    static func user(id: User.ID, in db: Connection) throws -> User? {
        try db.fetchOne("SELECT " + columns + " FROM users WHERE id = ?", [id], decode)
    }

    /// The user with `id`, or ``UserError/notFound(_:)``.
    static func required(_ id: User.ID, in db: Connection) throws -> User {
        guard let user = try user(id: id, in: db) else { throw UserError.notFound(id.description) }
        return user
    }

    /// Users by handle, after `after` (a handle) when paging.
    static func list(after: String = "", limit: Int = -1, in db: Connection) throws -> [User] {
        try db.fetchAll("SELECT " + columns + " FROM users WHERE handle > ? ORDER BY handle LIMIT ?", [after, limit], decode)
    }

    /// Inserts a user; `RETURNING` gives the row as stored, so nothing is read back.
    static func insert(id: User.ID, handle: String, displayName: String?, in db: Connection) throws -> User {
        guard let user = try db.fetchOne("INSERT INTO users (id, handle, display_name) VALUES (?, ?, ?) RETURNING " + columns,
                                         [id, handle, displayName], decode) else {
            throw DataError.damagedRow(table: "users", id: id.description, problem: "the inserted row did not come back")
        }
        return user
    }
}
