import Foundation

/// The `async` API of ``CapacityService``: each method runs its synchronous twin on the
/// database's own threads, so Swift's cooperative thread pool is never blocked.
extension CapacityService {
    /// ``rules()`` on the library's threads.
    public func rules() async throws -> [CapacityRule] { try await database.perform(.read) { try self.rules() } }

    /// ``set(_:_:capacity:)`` on the library's writer thread.
    @discardableResult
    public func set(_ days: [CapacityRule.Days], _ range: OpeningInterval, capacity: Int) async throws -> [CapacityRule]
    {
        try await database.perform(.write) { try self.set(days, range, capacity: capacity) }
    }

    /// ``clear(_:range:)`` on the library's writer thread.
    @discardableResult
    public func clear(_ days: [CapacityRule.Days], range: OpeningInterval? = nil) async throws -> Int {
        try await database.perform(.write) { try self.clear(days, range: range) }
    }

    /// ``pause(until:reason:)`` on the library's writer thread.
    @discardableResult
    public func pause(until: Date? = nil, reason: String? = nil) async throws -> Pause {
        try await database.perform(.write) { try self.pause(until: until, reason: reason) }
    }

    /// ``resume()`` on the library's writer thread.
    public func resume() async throws { try await database.perform(.write) { try self.resume() } }

    /// ``rush(minutes:until:)`` on the library's writer thread.
    @discardableResult
    public func rush(minutes: Int, until: Date? = nil) async throws -> Rush {
        try await database.perform(.write) { try self.rush(minutes: minutes, until: until) }
    }

    /// ``endRush()`` on the library's writer thread.
    public func endRush() async throws { try await database.perform(.write) { try self.endRush() } }
}
