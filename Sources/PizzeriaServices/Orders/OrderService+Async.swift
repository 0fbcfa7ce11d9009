import Foundation

/// The `async` API of ``OrderService``: each method runs its synchronous twin on the database's own
/// threads (reads concurrently, writes batched on the writer thread into one commit) and
/// suspends the caller meanwhile, so Swift's cooperative thread pool is never blocked. A task
/// cancelled before its work starts throws `CancellationError` and changes nothing.
extension OrderService {
    /// The `async` form of ``place(_:by:)``, run on the database's own threads.
    @discardableResult
    public func place(_ request: OrderRequest, by actor: String? = nil) async throws -> (order: Order, created: Bool) {
        try await database.perform(.write) { try self.place(request, by: actor) }
    }

    /// The `async` form of ``pickup(parsing:)``, run on the database's own threads.
    public func pickup(parsing text: String) async throws -> Date {
        try await database.perform(.read) { try self.pickup(parsing: text) }
    }

    /// The `async` form of ``order(id:)``, run on the database's own threads.
    public func order(id: Order.ID) async throws -> Order? {
        try await database.perform(.read) { try self.order(id: id) }
    }

    /// The `async` form of ``page(_:limit:after:)``, run on the database's own threads.
    public func page(_ filter: OrderFilter = OrderFilter(), limit: Int = 100, after cursor: PageCursor? = nil)
        async throws -> Page<Order>
    {
        try await database.perform(.read) { try self.page(filter, limit: limit, after: cursor) }
    }

    /// The `async` form of ``list(_:)``, run on the database's own threads.
    public func list(_ filter: OrderFilter = OrderFilter()) async throws -> [Order] {
        try await database.perform(.read) { try self.list(filter) }
    }

    /// The `async` form of ``today()``, run on the database's own threads.
    public func today() async throws -> LocalDate {
        try await database.perform(.read) { try self.today() }
    }

    /// The `async` form of ``slots(on:)``, run on the database's own threads.
    public func slots(on day: LocalDate? = nil) async throws -> [SlotUsage] {
        try await database.perform(.read) { try self.slots(on: day) }
    }

    /// The `async` form of ``availableSlots(pizzas:after:limit:)``, run on the database's own threads.
    public func availableSlots(pizzas: Int = 1, after: Date? = nil, limit: Int = 10) async throws -> SlotAvailability {
        try await database.perform(.read) { try self.availableSlots(pizzas: pizzas, after: after, limit: limit) }
    }

    /// The `async` form of ``sales(from:to:)``, run on the database's own threads.
    public func sales(from: LocalDate? = nil, to: LocalDate? = nil) async throws -> SalesReport {
        try await database.perform(.read) { try self.sales(from: from, to: to) }
    }

    /// The `async` form of ``advance(id:by:)``, run on the database's own threads.
    @discardableResult
    public func advance(id: Order.ID, by actor: String? = nil) async throws -> Order {
        try await database.perform(.write) { try self.advance(id: id, by: actor) }
    }

    /// The `async` form of ``cancel(id:by:)``, run on the database's own threads.
    @discardableResult
    public func cancel(id: Order.ID, by actor: String? = nil) async throws -> Order {
        try await database.perform(.write) { try self.cancel(id: id, by: actor) }
    }

    /// The `async` form of ``markNoShow(id:by:)``, run on the database's own threads.
    @discardableResult
    public func markNoShow(id: Order.ID, by actor: String? = nil) async throws -> Order {
        try await database.perform(.write) { try self.markNoShow(id: id, by: actor) }
    }

    /// The `async` form of ``move(id:to:expectedVersion:by:)``, run on the database's own threads.
    @discardableResult
    public func move(id: Order.ID, to pickup: Date, expectedVersion: Int? = nil, by actor: String? = nil) async throws
        -> Order
    {
        try await database.perform(.write) {
            try self.move(id: id, to: pickup, expectedVersion: expectedVersion, by: actor)
        }
    }

    /// The `async` form of ``edit(id:_:expectedVersion:by:)``, run on the database's own threads.
    @discardableResult
    public func edit(id: Order.ID, _ change: OrderEdit, expectedVersion: Int? = nil, by actor: String? = nil)
        async throws -> Order
    {
        try await database.perform(.write) {
            try self.edit(id: id, change, expectedVersion: expectedVersion, by: actor)
        }
    }

    /// The `async` form of ``undo(id:by:)``, run on the database's own threads.
    @discardableResult
    public func undo(id: Order.ID, by actor: String? = nil) async throws -> Order {
        try await database.perform(.write) { try self.undo(id: id, by: actor) }
    }

    /// The `async` form of ``events(after:limit:)``, run on the database's own threads.
    public func events(after cursor: EventCursor, limit: Int = 100) async throws -> [OrderEvent] {
        try await database.perform(.read) { try self.events(after: cursor, limit: limit) }
    }

    /// The `async` form of ``latestEventCursor()``, run on the database's own threads.
    public func latestEventCursor() async throws -> EventCursor {
        try await database.perform(.read) { try self.latestEventCursor() }
    }
}
