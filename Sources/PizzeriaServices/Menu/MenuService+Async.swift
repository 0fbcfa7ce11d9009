import Foundation

/// The `async` API of ``MenuService``: each method runs its synchronous twin on the database's own
/// threads (reads concurrently, writes batched on the writer thread into one commit) and
/// suspends the caller meanwhile, so Swift's cooperative thread pool is never blocked. A task
/// cancelled before its work starts throws `CancellationError` and changes nothing.
extension MenuService {
    /// The `async` form of ``list(includeArchived:)``, run on the database's own threads.
    public func list(includeArchived: Bool = false) async throws -> [Pizza] {
        try await database.perform(.read) { try self.list(includeArchived: includeArchived) }
    }

    /// The `async` form of ``page(includeArchived:limit:after:)``, run on the database's own threads.
    public func page(includeArchived: Bool = false, limit: Int = 100, after cursor: PageCursor? = nil) async throws
        -> Page<Pizza>
    {
        try await database.perform(.read) {
            try self.page(includeArchived: includeArchived, limit: limit, after: cursor)
        }
    }

    /// The `async` form of ``pizza(id:)``, run on the database's own threads.
    public func pizza(id: Pizza.ID) async throws -> Pizza? {
        try await database.perform(.read) { try self.pizza(id: id) }
    }

    /// The `async` form of ``pizza(named:)``, run on the database's own threads.
    public func pizza(named name: String) async throws -> Pizza? {
        try await database.perform(.read) { try self.pizza(named: name) }
    }

    /// The `async` form of ``history(of:)``, run on the database's own threads.
    public func history(of id: Pizza.ID) async throws -> [PizzaChange] {
        try await database.perform(.read) { try self.history(of: id) }
    }

    /// The `async` form of ``editDraft(for:)``, run on the database's own threads.
    public func editDraft(for id: Pizza.ID) async throws -> PizzaDraft {
        try await database.perform(.read) { try self.editDraft(for: id) }
    }

    /// The `async` form of ``save(_:)``, run on the database's own threads.
    @discardableResult
    public func save(_ draft: PizzaDraft) async throws -> Pizza {
        try await database.perform(.write) { try self.save(draft) }
    }

    /// The `async` form of ``archive(id:)``, run on the database's own threads.
    @discardableResult
    public func archive(id: Pizza.ID) async throws -> Pizza {
        try await database.perform(.write) { try self.archive(id: id) }
    }

    /// The `async` form of ``restore(id:)``, run on the database's own threads.
    @discardableResult
    public func restore(id: Pizza.ID) async throws -> Pizza {
        try await database.perform(.write) { try self.restore(id: id) }
    }
}
