import Foundation
import PizzeriaStorage

/// Users: adding, listing, finding by id or handle. An unknown user is always an error, never a
/// silent creation. Thread-safe; each method has an `async` twin.
public final class UserService: Sendable {
    let database: Database

    init(database: Database) { self.database = database }

    /// Adds a user.
    /// - Parameters:
    ///   - handle: 1–32 characters of `a-z 0-9 . _ -`; uppercase letters are lowered.
    ///   - displayName: optional; trimmed, at most 80 characters.
    /// - Throws: ``ValidationError`` (every broken rule), ``UserError/duplicateHandle(_:)``.
    @discardableResult
    public func add(handle: String, displayName: String? = nil) throws -> User {
        let handle = UserRules.normalizeHandle(handle)
        let name = UserRules.normalizeDisplayName(displayName)
        let problems = UserRules.handleProblems(handle) + UserRules.displayNameProblems(name)
        guard problems.isEmpty else { throw ValidationError(problems) }
        return try database.write { db in
            guard try UserStore.user(handle: handle, in: db) == nil else { throw UserError.duplicateHandle(handle) }
            return try UserStore.insert(id: .random(), handle: handle, displayName: name, in: db)
        }
    }

    /// Every user, by handle.
    public func list() throws -> [User] {
        try database.read { try UserStore.list(in: $0) }
    }

    /// Calls `body` with every user, by handle, a page of 1,000 at a time: memory stays that of
    /// one page however many users there are.
    public func forEach(_ body: (User) throws -> Void) throws {
        try Page.forEach({ try page(limit: 1_000, after: $0) }, body)
    }

    /// Up to `limit` users by handle, starting after `cursor`.
    public func page(limit: Int = 100, after cursor: PageCursor? = nil) throws -> Page<User> {
        let after = try cursor?.parts(1)[0] ?? ""
        let size = max(1, limit)
        let users = try database.read { try UserStore.list(after: after, limit: size, in: $0) }
        return Page(items: users, next: users.count < size ? nil : users.last.map { PageCursor([$0.handle]) })
    }

    /// The user with this id, or `nil`.
    public func user(id: User.ID) throws -> User? {
        try database.read { try UserStore.user(id: id, in: $0) }
    }

    /// The user with this handle (in any case), or `nil`.
    public func user(handle: String) throws -> User? {
        try database.read { try UserStore.user(handle: handle, in: $0) }
    }
}
