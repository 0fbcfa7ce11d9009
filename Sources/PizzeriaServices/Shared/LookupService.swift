import Foundation
import PizzeriaStorage

/// The forgiving lookups people use at a keyboard: a pizza by id, name or id prefix; an order
/// by id or id prefix; a user by handle or id. The CLI resolves what admins type through this,
/// then calls the exact-id APIs; a program should keep ids and use those directly.
public final class LookupService: Sendable {
    let database: Database
    let now: @Sendable () -> Date

    init(database: Database, now: @escaping @Sendable () -> Date) {
        self.database = database
        self.now = now
    }

    /// The shortest id prefix accepted.
    public static let minimumPrefix = 4

    /// How far back a short id is looked for first: orders made in the last 62 days (two months).
    public static let recentOrderDays = 62

    /// The pizza `query` names: its id (any case), its name ignoring case, or a unique prefix of
    /// at least four characters of its id — in that order of precedence.
    /// - Throws: ``MenuError/notFound(_:)``, or ``MenuError/ambiguous(query:candidates:)``
    ///   listing the pizzas a prefix matches.
    public func pizza(_ query: String) throws -> Pizza {
        try database.read { try Self.pizza(query, in: $0) }
    }

    /// The order `query` names: its id (any case), or at least four characters that start its id
    /// or its short id (``Identifier/short``) and name no other order. A short id is looked for
    /// among the orders made in the last ``recentOrderDays`` days first, and among all orders
    /// only when none of those has it: the counter reads short ids off today's board and receipts,
    /// and an old order that shares one does not make them ambiguous.
    /// - Throws: ``OrderError/notFound(_:)``, ``OrderError/ambiguous(query:candidates:)``.
    public func order(_ query: String) throws -> Order {
        let now = now()
        return try database.read { db in
            let id = try Self.orderID(query, among: .all(now: now), in: db)
            guard let header = try OrderStore.header(id: id, in: db) else { throw OrderError.notFound(query) }
            return try OrderAssembler(now: now, in: db).order(header)
        }
    }

    /// The user `reference` names: a handle (any case) or an id.
    /// - Throws: ``UserError/notFound(_:)``.
    public func user(_ reference: String) throws -> User {
        try database.read { try Self.user(reference, in: $0) }
    }

    /// A customer by handle or id, else by what ``UserService/find(_:limit:)`` matches (part of
    /// the name, the phone's digits in any common format) when exactly one user matches.
    /// - Throws: ``UserError/notFound(_:)``; ``UserError/ambiguous(query:handles:)`` naming up
    ///   to five of the users matched; ``ValidationError`` for a text over 64 characters.
    public func customer(_ text: String) throws -> User {
        try database.read { db in
            if let user = try UserStore.user(handle: text, in: db) { return user }
            if let id = User.ID(text.trimmingWhitespace()), let user = try UserStore.user(id: id, in: db) {
                return user
            }
            let matches = try UserService.find(text, limit: 5, in: db)
            guard let first = matches.first else { throw UserError.notFound(text) }
            guard matches.count == 1 else { throw UserError.ambiguous(query: text, handles: matches.map(\.handle)) }
            return first
        }
    }

    /// `pizza:PIZZA`, `order:ORDER` or `category:CATEGORY` (its name ignoring case, or its id) as
    /// a route, each part looked up as above.
    /// - Throws: ``NavigationError/malformedRoute(_:)``; not-found errors.
    ///
    /// An `order:` route names one of `user`'s orders only: another customer's order is not
    /// found, exactly like a missing one, so ids of other customers' orders are never confirmed.
    public func route(_ text: String, for user: User.ID) throws -> Route {
        guard let colon = text.firstIndex(of: ":") else { throw NavigationError.malformedRoute(text) }
        let kind = text[..<colon].lowercased(), reference = String(text[text.index(after: colon)...])
        guard Route.kinds.contains(kind), !reference.isEmpty else { throw NavigationError.malformedRoute(text) }
        return try database.read { db in try Self.route(kind: kind, reference: reference, for: user, in: db) }
    }

    // MARK: - Completion

    /// Up to `limit` names of pizzas (archived ones too) that start with `prefix` ignoring case,
    /// in name order: a range of the unique `name_key` index, however large the menu.
    public func pizzaNames(startingWith prefix: String, limit: Int = 200) throws -> [String] {
        let key = PizzaName.foldKey(prefix)
        return try database.readStatement { db in try PizzaStore.names(withKeyPrefix: key, limit: limit, in: db) }
    }

    /// Up to `limit` user handles that start with `prefix` (handles are lowercase), in order.
    public func handles(startingWith prefix: String, limit: Int = 200) throws -> [String] {
        let start = prefix.lowercased()
        return try database.readStatement { db in try UserStore.handles(withPrefix: start, limit: limit, in: db) }
    }

    /// Up to `limit` order ids whose text or short id (``Identifier/short``) starts with `prefix`
    /// (any case): those whose text does first, in id order, then short ids as ``order(_:)``
    /// looks for them.
    public func orderIDs(startingWith prefix: String, limit: Int = 200) throws -> [Order.ID] {
        let now = now()
        return try database.read { db in
            try Self.orderIDs(matching: prefix.lowercased(), among: .all(now: now), limit: limit, in: db)
        }
    }

    // MARK: - Inside a transaction

    static func pizza(_ query: String, in db: Connection) throws -> Pizza {
        let trimmed = query.trimmingWhitespace()
        if let id = Pizza.ID(trimmed), let exact = try PizzaStore.pizza(id: id, in: db) { return exact }
        if let named = try PizzaStore.sameName(as: trimmed, in: db) { return named }
        if trimmed.count >= minimumPrefix {
            let matches = try PizzaStore.withIDPrefix(trimmed.lowercased(), limit: 10, in: db)
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 { throw MenuError.ambiguous(query: query, candidates: matches) }
        }
        // The start of a name (`diav`): a range of the name index, like completion.
        if !trimmed.isEmpty {
            let named = try PizzaStore.withNamePrefix(PizzaName.foldKey(trimmed), limit: 10, in: db)
            if named.count == 1 { return named[0] }
            if named.count > 1 { throw MenuError.ambiguous(query: query, candidates: named) }
        }
        throw MenuError.notFound(query, closest: try closestName(to: trimmed, in: db))
    }

    /// The name `typed` most likely misspells (`margarita` → `Margherita`), among the first
    /// ``suggestionScanLimit`` names: only a failed lookup pays for it, and its cost is bounded.
    static func closestName(to typed: String, in db: Connection) throws -> String? {
        guard !typed.isEmpty, typed.count <= PizzaName.maximumLength else { return nil }
        let names = try PizzaStore.firstNames(limit: suggestionScanLimit, in: db)
        return Spelling.closest(to: typed, among: names)
    }

    /// How many names a did-you-mean compares at most.
    static let suggestionScanLimit = 5_000

    /// Which orders a typed reference may name.
    enum OrderScope {
        /// Only this customer's (a route they open): all of them, through their index.
        case customer(User.ID)
        /// Anyone's (staff at the counter): short ids among the recent ones first, as
        /// ``order(_:)`` says; `now` is when that is.
        case all(now: Date)

        var user: User.ID? {
            if case .customer(let user) = self { user } else { nil }
        }
    }

    /// The order `query` names (an id, or the unique start of an id or a short id) among `scope`.
    static func orderID(_ query: String, among scope: OrderScope, in db: Connection) throws -> Order.ID {
        let text = query.trimmingWhitespace().lowercased()
        if let id = Order.ID(text), let header = try OrderStore.header(id: id, in: db),
            scope.user == nil || header.userID == scope.user
        {
            return id
        }
        if text.count >= minimumPrefix {
            let ids = try orderIDs(matching: text, among: scope, limit: 10, in: db)
            if ids.count > 1 { throw OrderError.ambiguous(query: query, candidates: ids) }
            if let id = ids.first { return id }
        }
        if scope.user != nil { throw NavigationError.noSuchOrder }
        throw OrderError.notFound(query)
    }

    /// Up to `limit` orders of `scope` whose id starts with `text` (lowercase), then those whose
    /// short id does: a customer's (all of them), or anyone's made in the last
    /// ``recentOrderDays`` days (to a day ahead of now, for clocks that disagree) and, when
    /// neither search found one, anyone's.
    static func orderIDs(matching text: String, among scope: OrderScope, limit: Int, in db: Connection) throws
        -> [Order.ID]
    {
        var ids = try OrderStore.ids(withPrefix: text, of: scope.user, limit: limit, in: db)
        guard text.utf8.count <= 8, text.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            return ids
        }
        var shorts: [Order.ID]
        switch scope {
        case .customer(let user):
            shorts = try OrderStore.ids(withShortStart: text, of: user, limit: limit, in: db)
        case .all(let now):
            let days = Double(recentOrderDays) * 86_400
            shorts = try OrderStore.ids(
                withShortStart: text, made: now.addingTimeInterval(-days)...now.addingTimeInterval(86_400),
                limit: limit, in: db)
            if ids.isEmpty, shorts.isEmpty { shorts = try OrderStore.ids(withShortStart: text, limit: limit, in: db) }
        }
        for id in shorts where !ids.contains(id) { ids.append(id) }
        return Array(ids.prefix(limit))
    }

    static func user(_ reference: String, in db: Connection) throws -> User {
        if let user = try UserStore.user(handle: reference, in: db) { return user }
        if let id = User.ID(reference.trimmingWhitespace()), let user = try UserStore.user(id: id, in: db) {
            return user
        }
        throw UserError.notFound(reference)
    }

    static func route(kind: String, reference: String, for user: User.ID, in db: Connection) throws -> Route {
        switch kind {
        case "pizza": .pizza(id: try pizza(reference, in: db).id)
        case "category": .category(id: try MenuService.category(named: reference, in: db).id)
        default: .order(id: try orderID(reference, among: .customer(user), in: db))
        }
    }
}
