import Foundation

/// The `async` API of ``SettingsService``: each method runs its synchronous twin on the database's own
/// threads (reads concurrently, writes batched on the writer thread into one commit) and
/// suspends the caller meanwhile, so Swift's cooperative thread pool is never blocked. A task
/// cancelled before its work starts throws `CancellationError` and changes nothing.
extension SettingsService {
    /// The `async` form of ``current()``, run on the database's own threads.
    public func current() async throws -> Settings {
        try await database.perform(.read) { try self.current() }
    }

    /// The `async` form of ``update(_:keepOrders:)``, run on the database's own threads.
    @discardableResult
    public func update(_ change: SettingsChange, keepOrders: Bool = false) async throws -> Settings {
        try await database.perform(.write) { try self.update(change, keepOrders: keepOrders) }
    }

    /// The `async` form of ``update(_:parsing:keepOrders:)``, run on the database's own threads.
    @discardableResult
    public func update(_ key: SettingKey, parsing text: String, keepOrders: Bool = false) async throws -> Settings {
        try await database.perform(.write) { try self.update(key, parsing: text, keepOrders: keepOrders) }
    }
}
