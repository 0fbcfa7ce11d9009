import Foundation

/// The `async` API of ``NavigationService``: each method runs its synchronous twin on the database's own
/// threads (reads concurrently, writes batched on the writer thread into one commit) and
/// suspends the caller meanwhile, so Swift's cooperative thread pool is never blocked. A task
/// cancelled before its work starts throws `CancellationError` and changes nothing.
extension NavigationService {
    /// The `async` form of ``state(of:)``, run on the database's own threads.
    public func state(of user: User.ID) async throws -> NavigationState {
        try await database.perform(.read) { try self.state(of: user) }
    }

    /// The `async` form of ``path(of:)``, run on the database's own threads.
    public func path(of user: User.ID) async throws -> [NavigationElement] {
        try await database.perform(.read) { try self.path(of: user) }
    }

    /// The `async` form of ``history(of:limit:)``, run on the database's own threads.
    public func history(of user: User.ID, limit: Int = 50) async throws -> [NavigationEvent] {
        try await database.perform(.read) { try self.history(of: user, limit: limit) }
    }

    /// The `async` form of ``mostViewed(limit:)``, run on the database's own threads.
    public func mostViewed(limit: Int = 10) async throws -> [PizzaViews] {
        try await database.perform(.read) { try self.mostViewed(limit: limit) }
    }

    /// The `async` form of ``export(_:format:routeTypeName:)``, run on the database's own threads.
    public func export(
        _ user: User.ID, format: NavigationFormat = .routes,
        routeTypeName: String = NavigationFormat.defaultRouteTypeName
    ) async throws -> (text: String, omitted: Int) {
        try await database.perform(.read) { try self.export(user, format: format, routeTypeName: routeTypeName) }
    }

    /// The `async` form of ``push(_:_:)``, run on the database's own threads.
    @discardableResult
    public func push(_ user: User.ID, _ routes: [Route]) async throws -> NavigationState {
        try await database.perform(.write) { try self.push(user, routes) }
    }

    /// The `async` form of ``pop(_:count:)``, run on the database's own threads.
    @discardableResult
    public func pop(_ user: User.ID, count: Int = 1) async throws -> NavigationState {
        try await database.perform(.write) { try self.pop(user, count: count) }
    }

    /// The `async` form of ``popToRoot(_:)``, run on the database's own threads.
    @discardableResult
    public func popToRoot(_ user: User.ID) async throws -> NavigationState {
        try await database.perform(.write) { try self.popToRoot(user) }
    }

    /// The `async` form of ``popTo(_:depth:)``, run on the database's own threads.
    @discardableResult
    public func popTo(_ user: User.ID, depth: Int) async throws -> NavigationState {
        try await database.perform(.write) { try self.popTo(user, depth: depth) }
    }

    /// The `async` form of ``popTo(_:route:)``, run on the database's own threads.
    @discardableResult
    public func popTo(_ user: User.ID, route: Route) async throws -> NavigationState {
        try await database.perform(.write) { try self.popTo(user, route: route) }
    }

    /// The `async` form of ``replace(_:path:)``, run on the database's own threads.
    @discardableResult
    public func replace(_ user: User.ID, path: [NavigationElement]) async throws -> NavigationState {
        try await database.perform(.write) { try self.replace(user, path: path) }
    }

    /// The `async` form of ``open(_:url:)``, run on the database's own threads.
    @discardableResult
    public func open(_ user: User.ID, url: String) async throws -> NavigationState {
        try await database.perform(.write) { try self.open(user, url: url) }
    }

    /// The `async` form of ``random(_:seed:)``, run on the database's own threads.
    @discardableResult
    public func random(_ user: User.ID, seed: UInt64? = nil) async throws -> NavigationState {
        try await database.perform(.write) { try self.random(user, seed: seed) }
    }

    /// The `async` form of ``importPath(_:text:format:routeTypeName:)``, run on the database's own threads.
    @discardableResult
    public func importPath(
        _ user: User.ID, text: String, format: NavigationFormat? = nil,
        routeTypeName: String = NavigationFormat.defaultRouteTypeName
    ) async throws -> ImportResult {
        try await database.perform(.write) {
            try self.importPath(user, text: text, format: format, routeTypeName: routeTypeName)
        }
    }

    /// The `async` form of ``openSheet(_:_:)``, run on the database's own threads.
    @discardableResult
    public func openSheet(_ user: User.ID, _ request: SheetRequest) async throws -> NavigationState {
        try await database.perform(.write) { try self.openSheet(user, request) }
    }

    /// The `async` form of ``setSheet(_:name:price:)``, run on the database's own threads.
    @discardableResult
    public func setSheet(_ user: User.ID, name: String? = nil, price: Money? = nil) async throws -> NavigationState {
        try await database.perform(.write) { try self.setSheet(user, name: name, price: price) }
    }

    /// The `async` form of ``saveSheet(_:)``, run on the database's own threads.
    @discardableResult
    public func saveSheet(_ user: User.ID) async throws -> (pizza: Pizza, state: NavigationState) {
        try await database.perform(.write) { try self.saveSheet(user) }
    }

    /// The `async` form of ``dismissSheet(_:)``, run on the database's own threads.
    @discardableResult
    public func dismissSheet(_ user: User.ID) async throws -> NavigationState {
        try await database.perform(.write) { try self.dismissSheet(user) }
    }
}
