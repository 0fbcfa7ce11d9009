import Foundation

/// The `async` door to every service: one call, instead of an `async` twin of each method.
///
/// ```swift
/// let slots = try await pizzeria.read { try $0.orders.availableSlots(pizzas: 2) }
/// let (order, _) = try await pizzeria.write { try $0.orders.place(request) }
/// ```
///
/// `work` is the synchronous API — any service calls, several in a row if it likes — and runs
/// on the database's own threads while the caller is suspended, so Swift's cooperative thread
/// pool is never blocked. Reads run concurrently on the reader pool; writes run on the writer
/// thread, where writes queued together share one commit (group commit, see
/// `Database.perform(_:_:)`), each still atomic and durable when its call returns. A task
/// cancelled before its work starts throws `CancellationError` and nothing is done.
extension Pizzeria {
    /// Runs `work`, which only reads, on the database's reader threads and returns its result.
    ///
    /// Each service call inside `work` is its own read transaction; to read several things as
    /// of one moment use `database.read` inside `work`. A write made from here is still correct
    /// (it takes the write lock itself) but is not batched with other writes: use ``write(_:)``.
    public func read<T: Sendable>(_ work: @escaping @Sendable (Pizzeria) throws -> T) async throws -> T {
        try await database.perform(.read) { try work(self) }
    }

    /// Runs `work`, which changes the database, on the writer thread and returns its result.
    ///
    /// Every write `work` makes becomes a savepoint of the batch's one transaction: when `work`
    /// throws, only its own changes roll back; other callers' writes in the batch commit.
    @discardableResult
    public func write<T: Sendable>(_ work: @escaping @Sendable (Pizzeria) throws -> T) async throws -> T {
        try await database.perform(.write) { try work(self) }
    }
}
