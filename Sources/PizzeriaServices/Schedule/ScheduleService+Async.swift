import Foundation

/// The `async` API of ``ScheduleService``: each method runs its synchronous twin on the database's
/// own threads, so Swift's cooperative thread pool is never blocked.
extension ScheduleService {
    /// ``week()`` on the library's threads.
    public func week() async throws -> Week { try await database.perform(.read) { try self.week() } }

    /// ``exceptions(in:)`` on the library's threads.
    public func exceptions(in range: LocalDateRange? = nil) async throws -> [ScheduleException] {
        try await database.perform(.read) { try self.exceptions(in: range) }
    }

    /// ``hours(in:)`` on the library's threads.
    public func hours(in range: LocalDateRange) async throws -> [DayHours] {
        try await database.perform(.read) { try self.hours(in: range) }
    }

    /// ``hours(of:)`` on the library's threads.
    public func hours(of date: LocalDate) async throws -> DayHours {
        try await database.perform(.read) { try self.hours(of: date) }
    }

    /// ``setHours(_:_:keepOrders:)`` on the library's writer thread.
    @discardableResult
    public func setHours(_ days: Set<Weekday>, _ intervals: [OpeningInterval], keepOrders: Bool = false) async throws
        -> Week
    {
        try await database.perform(.write) { try self.setHours(days, intervals, keepOrders: keepOrders) }
    }

    /// ``setWeek(_:keepOrders:)`` on the library's writer thread.
    @discardableResult
    public func setWeek(_ week: Week, keepOrders: Bool = false) async throws -> Week {
        try await database.perform(.write) { try self.setWeek(week, keepOrders: keepOrders) }
    }

    /// ``close(_:cutting:reason:keepOrders:)`` on the library's writer thread.
    @discardableResult
    public func close(
        _ range: LocalDateRange, cutting interval: OpeningInterval? = nil, reason: String? = nil,
        keepOrders: Bool = false
    ) async throws -> [ScheduleException] {
        try await database.perform(.write) {
            try self.close(range, cutting: interval, reason: reason, keepOrders: keepOrders)
        }
    }

    /// ``special(_:_:reason:keepOrders:)`` on the library's writer thread.
    @discardableResult
    public func special(
        _ range: LocalDateRange, _ intervals: [OpeningInterval], reason: String? = nil,
        keepOrders: Bool = false
    ) async throws -> [ScheduleException] {
        try await database.perform(.write) {
            try self.special(range, intervals, reason: reason, keepOrders: keepOrders)
        }
    }

    /// ``clear(_:keepOrders:)`` on the library's writer thread.
    @discardableResult
    public func clear(_ range: LocalDateRange, keepOrders: Bool = false) async throws -> Int {
        try await database.perform(.write) { try self.clear(range, keepOrders: keepOrders) }
    }
}
