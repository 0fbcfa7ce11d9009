import Foundation

/// The `async` API of ``LookupService``: each method runs its synchronous twin on the database's own
/// threads (reads concurrently, writes batched on the writer thread into one commit) and
/// suspends the caller meanwhile, so Swift's cooperative thread pool is never blocked. A task
/// cancelled before its work starts throws `CancellationError` and changes nothing.
extension LookupService {
    /// The `async` form of ``pizza(_:)``, run on the database's own threads.
    public func pizza(_ query: String) async throws -> Pizza {
        try await database.perform(.read) { try self.pizza(query) }
    }

    /// The `async` form of ``order(_:)``, run on the database's own threads.
    public func order(_ query: String) async throws -> Order {
        try await database.perform(.read) { try self.order(query) }
    }

    /// The `async` form of ``user(_:)``, run on the database's own threads.
    public func user(_ reference: String) async throws -> User {
        try await database.perform(.read) { try self.user(reference) }
    }

    /// The `async` form of ``route(_:for:)``, run on the database's own threads.
    public func route(_ text: String, for user: User.ID) async throws -> Route {
        try await database.perform(.read) { try self.route(text, for: user) }
    }
}
