import PizzeriaStorage

/// The SQL of users. Column lists are constants, spliced in with `+` (never input).
enum UserStore {
    /// The columns ``Decoder`` reads.
    static let columns = "id, handle, display_name, created_at"

    /// A user from a row of ``columns``.
    struct Decoder: RowDecoder {
        let id, handle, displayName, createdAt: Column

        init(columns: ColumnResolver) throws {
            (id, handle, displayName, createdAt) = (try columns("id"), try columns("handle"), try columns("display_name"), try columns("created_at"))
        }

        func decode(_ row: Row) throws -> User {
            let id: User.ID = try row.id(self.id)
            return User(id: id, handle: try row.string(handle), displayName: try row.optionalString(displayName),
                        createdAt: try row.timestamp(createdAt, table: "users", id: id))
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

    /// The user with `id`, or ``UserError/notFound(_:)``.
    static func required(_ id: User.ID, in db: Connection) throws -> User {
        guard let user = try user(id: id, in: db) else { throw UserError.notFound(id.description) }
        return user
    }

    /// Users by handle, after `after` (a handle) when paging.
    static func list(after: String = "", limit: Int = -1, in db: Connection) throws -> [User] {
        try db.fetchAll("SELECT " + columns + " FROM users WHERE handle > ? ORDER BY handle LIMIT ?", [after, limit], Decoder.self)
    }

    /// Inserts a user; `RETURNING` gives the row as stored, so nothing is read back.
    static func insert(id: User.ID, handle: String, displayName: String?, in db: Connection) throws -> User {
        guard let user = try db.fetchOne("INSERT INTO users (id, handle, display_name) VALUES (?, ?, ?) RETURNING " + columns,
                                         [id, handle, displayName], Decoder.self) else {
            throw DataError.damagedRow(table: "users", id: id.description, problem: "the inserted row did not come back")
        }
        return user
    }
}
