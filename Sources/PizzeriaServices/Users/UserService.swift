import Foundation
import PizzeriaStorage

/// Users: adding, listing, looking up by handle. Orders and navigation name users by handle,
/// and an unknown handle is always an error, never a silent creation.
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
            let id = UUID().uuidString.lowercased()
            try UserStore.insert(id: id, handle: handle, displayName: name, in: db)
            guard let user = try UserStore.user(id: id, in: db) else { throw UserError.notFound(handle: handle) }
            return user
        }
    }

    /// Every user, by handle.
    public func list() throws -> [User] {
        try database.read { try UserStore.list(in: $0) }
    }

    /// The user with `handle` (any case).
    /// - Throws: ``UserError/notFound(handle:)``.
    public func find(_ handle: String) throws -> User {
        try database.read { try UserStore.required(handle: handle, in: $0) }
    }
}
