import Foundation

/// The `async` API of ``UserService``: each method runs its synchronous twin on the database's own
/// threads (reads concurrently, writes batched on the writer thread into one commit) and
/// suspends the caller meanwhile, so Swift's cooperative thread pool is never blocked. A task
/// cancelled before its work starts throws `CancellationError` and changes nothing.
extension UserService {
    /// The `async` form of ``add(handle:displayName:phone:)``, run on the database's own threads.
    @discardableResult
    public func add(handle: String, displayName: String? = nil, phone: String? = nil) async throws -> User {
        try await database.perform(.write) { try self.add(handle: handle, displayName: displayName, phone: phone) }
    }

    /// The `async` form of ``edit(id:handle:displayName:phone:)``, run on the database's own threads.
    @discardableResult
    public func edit(id: User.ID, handle: String? = nil, displayName: FieldChange? = nil, phone: FieldChange? = nil)
        async throws -> User
    {
        try await database.perform(.write) {
            try self.edit(id: id, handle: handle, displayName: displayName, phone: phone)
        }
    }

    /// The `async` form of ``erase(id:by:waitingForReaders:)``, run on the database's own threads
    /// — outside the writer's batches (`.read` queue): the erasure ends by emptying the WAL, a
    /// checkpoint no batch's transaction may contain; its own transaction takes the write lock.
    @discardableResult
    public func erase(id: User.ID, by actor: String? = nil, waitingForReaders: TimeInterval = 2) async throws
        -> UserErasure
    {
        try await database.perform(.read) { try self.erase(id: id, by: actor, waitingForReaders: waitingForReaders) }
    }

    /// The `async` form of ``list()``, run on the database's own threads.
    public func list() async throws -> [User] {
        try await database.perform(.read) { try self.list() }
    }

    /// The `async` form of ``page(limit:after:)``, run on the database's own threads.
    public func page(limit: Int = 100, after cursor: PageCursor? = nil) async throws -> Page<User> {
        try await database.perform(.read) { try self.page(limit: limit, after: cursor) }
    }

    /// The `async` form of ``user(id:)``, run on the database's own threads.
    public func user(id: User.ID) async throws -> User? {
        try await database.perform(.read) { try self.user(id: id) }
    }

    /// The `async` form of ``user(handle:)``, run on the database's own threads.
    public func user(handle: String) async throws -> User? {
        try await database.perform(.read) { try self.user(handle: handle) }
    }
}
