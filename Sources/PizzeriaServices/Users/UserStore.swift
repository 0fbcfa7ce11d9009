import PizzeriaStorage

/// The SQL of users.
enum UserStore {
    static func decode(_ row: Row) throws -> User {
        User(id: try row.string(0), handle: try row.string(1), displayName: try row.optionalString(2), createdAt: try row.string(3))
    }

    static func user(handle: String, in db: Connection) throws -> User? {
        try db.fetchOne("SELECT id, handle, display_name, created_at FROM users WHERE handle = ?",
                        [UserRules.normalizeHandle(handle)], decode)
    }

    static func user(id: String, in db: Connection) throws -> User? {
        try db.fetchOne("SELECT id, handle, display_name, created_at FROM users WHERE id = ?", [id], decode)
    }

    /// The user with `handle`, or ``UserError/notFound(handle:)``: never a silent creation.
    static func required(handle: String, in db: Connection) throws -> User {
        guard let user = try user(handle: handle, in: db) else { throw UserError.notFound(handle: handle) }
        return user
    }

    static func list(in db: Connection) throws -> [User] {
        try db.fetchAll("SELECT id, handle, display_name, created_at FROM users ORDER BY handle", [], decode)
    }

    static func insert(id: String, handle: String, displayName: String?, in db: Connection) throws {
        try db.run("INSERT INTO users (id, handle, display_name) VALUES (?, ?, ?)", [id, handle, displayName])
    }
}
