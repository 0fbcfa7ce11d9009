import Foundation
import PizzeriaStorage

/// Each user's router: the stack of routes over the menu, the sheet on top, and the history.
///
/// The operations are those of the app's router — push one or several, pop, pop several, pop to
/// root, pop to a depth or a route, replace, open a deep link, random — and each is one
/// `BEGIN IMMEDIATE` transaction that updates the stack and appends its history event together.
/// A refused operation changes nothing. Two processes navigating one user queue on the write
/// lock, so every operation lands and the history replays to the stack.
///
/// ```swift
/// let router = pizzeria.navigation
/// try router.push("anna", [.pizza(id: margherita.id)])
/// let state = try router.state(of: "anna")   // state.current, state.previous, state.depth
/// ```
public final class NavigationService: Sendable {
    let database: Database
    let now: @Sendable () -> Date

    /// Who acts through this handle, for the audit log.
    let acting: Acting

    init(database: Database, now: @escaping @Sendable () -> Date, acting: Acting = .library) {
        self.database = database
        self.now = now
        self.acting = acting
    }

    // MARK: - Reading

    /// The user's stack, previous route and sheet.
    /// - Throws: ``UserError/notFound(_:)``.
    public func state(of user: User.ID) throws -> NavigationState {
        try database.readStatement { db in try Self.state(of: user, in: db) }
    }

    /// The user's stack alone, bottom first: what the app needs to restore its
    /// `NavigationStack` (one indexed query; no labels, no previous route, no sheet).
    /// - Throws: ``UserError/notFound(_:)``.
    public func path(of user: User.ID) throws -> [NavigationElement] {
        try database.readStatement { db in
            guard let path = try NavigationStore.path(of: user, in: db) else {
                throw UserError.notFound(user.description)
            }
            return path
        }
    }

    /// The user's state inside a transaction.
    /// - Throws: ``UserError/notFound(_:)``.
    static func state(of user: User.ID, in db: Connection) throws -> NavigationState {
        guard let state = try NavigationStore.state(of: user, in: db) else {
            throw UserError.notFound(user.description)
        }
        return state
    }

    /// A readable label for each element, for people: the pizza's name (with "(archived)"),
    /// `order 1a2b3c4d`, or an opaque element's type and JSON. One query for the whole path.
    public func labels(for elements: [NavigationElement]) throws -> [String] {
        try database.readStatement { try NavigationStore.labels(elements, in: $0) }
    }

    /// The user's latest `limit` events, oldest of them first.
    /// - Throws: ``UserError/notFound(_:)``.
    public func history(of user: User.ID, limit: Int = 50) throws -> [NavigationEvent] {
        try database.read { db in
            try NavigationStore.history(userID: try UserStore.required(user, in: db).id, limit: max(0, limit), in: db)
        }
    }

    /// The most viewed pizzas: how often each detail was pushed, over all users.
    public func mostViewed(limit: Int = 10) throws -> [PizzaViews] {
        try database.read { try NavigationStore.views(limit: max(0, limit), in: $0) }
    }

    /// The stack in an export format, and how many elements the format could not hold.
    public func export(
        _ user: User.ID, format: NavigationFormat = .routes,
        routeTypeName: String = NavigationFormat.defaultRouteTypeName
    ) throws -> (text: String, omitted: Int) {
        if let problem = NavigationLimits.problems(typeName: routeTypeName) {
            throw NavigationError.malformedTypeName(problem)
        }
        return try NavigationCodec.export(try path(of: user), format: format, routeTypeName: routeTypeName)
    }

    // MARK: - The router

    /// Pushes one or several routes at once.
    /// - Throws: ``NavigationError/unknownTarget(_:)`` when a pizza or order does not exist.
    @discardableResult
    public func push(_ user: User.ID, _ routes: [Route]) throws -> NavigationState {
        guard !routes.isEmpty else {
            throw ValidationError([FieldError(field: "route", message: "must name at least one route")])
        }
        return try change(user, action: .push) { _, stack in
            // The foreign keys refuse a route to nothing (NavigationStore.push names it).
            let pushed = routes.map(NavigationElement.route)
            return (stack + pushed, pushed)
        }
    }

    /// Pops `count` routes (1 by default).
    /// - Throws: ``NavigationError/emptyStack`` on the menu; ``NavigationError/cannotPop(count:depth:)``
    ///   when `count` is below 1 or above the depth.
    @discardableResult
    public func pop(_ user: User.ID, count: Int = 1) throws -> NavigationState {
        try change(user, action: .pop, detail: count == 1 ? nil : "count=\(count)") { _, stack in
            guard count >= 1 else { throw NavigationError.cannotPop(count: count, depth: stack.count) }
            guard !stack.isEmpty else { throw NavigationError.emptyStack }
            guard count <= stack.count else { throw NavigationError.cannotPop(count: count, depth: stack.count) }
            return (Array(stack.dropLast(count)), Array(stack.suffix(count)))
        }
    }

    /// Back to the menu. Always succeeds (on the menu it records that nothing was left to pop).
    @discardableResult
    public func popToRoot(_ user: User.ID) throws -> NavigationState {
        try change(user, action: .popToRoot) { _, stack in ([], stack) }
    }

    /// Back to `depth` (0 is the menu).
    /// - Throws: ``NavigationError/cannotPopTo(depth:current:)`` outside 0…depth.
    @discardableResult
    public func popTo(_ user: User.ID, depth: Int) throws -> NavigationState {
        try change(user, action: .popTo, detail: "depth=\(depth)") { _, stack in
            guard (0...stack.count).contains(depth) else {
                throw NavigationError.cannotPopTo(depth: depth, current: stack.count)
            }
            return (Array(stack.prefix(depth)), Array(stack.dropFirst(depth)))
        }
    }

    /// Back to the last occurrence of `route`, which stays on top.
    /// - Throws: ``NavigationError/routeNotInStack(_:)``.
    @discardableResult
    public func popTo(_ user: User.ID, route: Route) throws -> NavigationState {
        try change(user, action: .popTo, detail: "\(route.kind):\(route.id)") { _, stack in
            guard let index = stack.lastIndex(of: .route(route)) else { throw NavigationError.routeNotInStack(route) }
            return (Array(stack.prefix(index + 1)), Array(stack.dropFirst(index + 1)))
        }
    }

    /// Replaces the whole stack.
    /// - Throws: ``NavigationError/unknownTarget(_:)``.
    @discardableResult
    public func replace(_ user: User.ID, path: [NavigationElement]) throws -> NavigationState {
        try change(user, action: .replace) { db, _ in
            try Self.requireExisting(path.compactMap(\.route), for: user, in: db)
            return (path, path)
        }
    }

    /// Opens a deep link: its routes replace the whole stack (the usual practice for deep links).
    /// Pizzas may be named by id, id prefix or (URL-encoded) name.
    /// - Throws: ``NavigationError/malformedLink(url:reason:)``; not-found errors for
    ///   unresolvable references. Nothing changes when it throws.
    @discardableResult
    public func open(_ user: User.ID, url: String) throws -> NavigationState {
        let pairs = try DeepLink.parse(url)
        return try change(user, action: .openURL, detail: url) { db, _ in
            let routes = try pairs.map {
                try LookupService.route(kind: $0.kind, reference: $0.reference, for: user, in: db)
            }
            let path = routes.map(NavigationElement.route)
            return (path, path)
        }
    }

    /// Pushes the detail of a random pizza on the menu, as the app's "Random" button does; the
    /// same `seed` picks the same pizza from the same menu.
    /// - Throws: ``NavigationError/emptyMenu``.
    @discardableResult
    public func random(_ user: User.ID, seed: UInt64? = nil) throws -> NavigationState {
        try change(user, action: .random, detail: seed.map { "seed=\($0)" }) { db, stack in
            let menu = try PizzaStore.list(includeArchived: false, in: db).map(\.id).sorted()  // ids in text order
            guard !menu.isEmpty else { throw NavigationError.emptyMenu }
            var generator: any RandomNumberGenerator =
                seed.map { SeededGenerator(seed: $0) } ?? SystemRandomNumberGenerator()
            let pushed = NavigationElement.route(.pizza(id: menu[Int(generator.next() % UInt64(menu.count))]))
            return (stack + [pushed], [pushed])
        }
    }

    /// Restores a stack from an export: routes whose pizza or order no longer exists are dropped
    /// and reported; archived pizzas stay (their detail is still viewable). Ids match in any case.
    /// - Throws: ``NavigationError/malformedImport(reason:)`` (see ``NavigationLimits``);
    ///   ``NavigationError/nothingToImport(missing:)`` when not one route of a non-empty input
    ///   exists here. Nothing changes when it throws.
    /// - Parameter progress: called as each element is checked (elements checked, elements in all).
    public func importPath(
        _ user: User.ID, text: String, format: NavigationFormat? = nil,
        routeTypeName: String = NavigationFormat.defaultRouteTypeName,
        progress: ((_ checked: Int, _ total: Int) -> Void)? = nil
    ) throws -> ImportResult {
        let elements = try NavigationCodec.parse(text, format: format, routeTypeName: routeTypeName)
        var dropped: [Route] = []
        let state = try change(user, action: .import, detail: "\(elements.count) element(s)") { db, _ in
            dropped = []
            var checked = 0
            let kept = try elements.filter { element in
                checked += 1
                progress?(checked, elements.count)
                guard let route = element.route else { return true }
                if try NavigationStore.exists(route, for: user, in: db) { return true }
                dropped.append(route)
                return false
            }
            if !elements.isEmpty, kept.isEmpty { throw NavigationError.nothingToImport(missing: dropped.count) }
            return (kept, kept)
        }
        return ImportResult(state: state, dropped: dropped)
    }

    // MARK: - One mechanism for every stack change

    /// Runs a stack change in one write transaction: reads the user's stack, lets `body` compute
    /// the new one (and the routes involved), writes the difference and appends the event.
    func change(
        _ user: User.ID, action: NavigationAction, detail: String? = nil,
        _ body: (Connection, [NavigationElement]) throws -> (stack: [NavigationElement], involved: [NavigationElement])
    ) throws -> NavigationState {
        try refusingErased(user) {
            try database.write { db in
                // The sheet is read with the stack: no operation here changes it.
                guard let state = try NavigationStore.state(of: user, withPrevious: false, in: db) else {
                    throw UserError.notFound(user.description)
                }
                let old = state.path
                let (new, involved) = try body(db, old)
                guard new.count <= NavigationLimits.maximumDepth else {
                    throw NavigationError.tooDeep(depth: new.count)
                }
                // Keep the common bottom of the stack; rewrite only what differs above it.
                let common = zip(old, new).prefix { $0 == $1 }.count
                if common < old.count { try NavigationStore.truncate(userID: user, to: common, in: db) }
                try NavigationStore.push(Array(new.dropFirst(common)), userID: user, above: common, in: db)
                try NavigationStore.appendEvent(
                    userID: user, action: action, routes: involved, depthAfter: new.count,
                    topBefore: old.last, detail: detail, at: now(), in: db)
                // Everything is known already: the new stack, the old top as "previous", the sheet.
                return NavigationState(
                    userID: user, handle: state.handle, path: try NavigationStore.visible(new, of: user, in: db),
                    previous: try NavigationStore.visible(old, of: user, in: db).last, sheet: state.sheet)
            }
        }
    }

    /// Runs `body`, turning the schema's refusal of an erased customer's navigation (the
    /// `user_erased` triggers: nothing more is recorded for them) into ``UserError/erased(_:)``.
    func refusingErased<T>(_ user: User.ID, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError where error.isRefusal("user_erased") {
            throw UserError.erased(try database.read { try UserStore.handle(of: user, in: $0) } ?? user.description)
        }
    }

    static func requireExisting(_ routes: [Route], for user: User.ID, in db: Connection) throws {
        for route in routes where try !NavigationStore.exists(route, for: user, in: db) {
            throw NavigationError.unknownTarget(route)
        }
    }
}
