import Foundation
import PizzeriaStorage

/// The SQL of navigation. Every query is by `user_id` first, through the primary key of
/// `navigation_stack`/`navigation_sheets` or the `(user_id, id)` index of the history, so its cost
/// does not grow with the history's length. One user's operations touch only that user's rows.
enum NavigationStore {
    static let stackSQL = """
        SELECT kind, pizza_id, order_id, opaque_type, opaque_json FROM navigation_stack
        WHERE user_id = ? ORDER BY depth
        """

    /// The latest change to the stack; its `top_before` is the router's "previous".
    static let previousSQL = """
        SELECT top_before, id FROM navigation_events
        WHERE user_id = ? AND action NOT IN ('sheet_open', 'sheet_set', 'sheet_save', 'sheet_dismiss')
        ORDER BY id DESC LIMIT 1
        """

    static let historySQL = """
        SELECT id, at, action, routes, depth_after, detail FROM navigation_events
        WHERE user_id = ? ORDER BY id DESC LIMIT ?
        """

    static func stack(userID: User.ID, in db: Connection) throws -> [NavigationElement] {
        try db.fetchAll(stackSQL, [userID]) { try element($0) }.compactMap { $0 }
    }

    /// A user's stack with the user's handle and open sheet, in one statement (the user's row
    /// joined to the sheet and the stack): no row when the user does not exist, one row of
    /// NULL stack columns on the menu. What every router operation starts from and returns.
    static let routerStateSQL = """
        SELECT s.kind, s.pizza_id, s.order_id, s.opaque_type, s.opaque_json, u.handle,
               h.kind, h.pizza_id, h.base_version, h.draft_name, h.draft_price_cents, h.opened_at, h.updated_at
        FROM users u LEFT JOIN navigation_sheets h ON h.user_id = u.id LEFT JOIN navigation_stack s ON s.user_id = u.id
        WHERE u.id = ? ORDER BY s.depth
        """

    /// A user's stack in one statement (the user's row, joined to the stack): no row when the
    /// user does not exist, one row of NULLs on the menu. What the app needs to restore its path.
    static let pathSQL = """
        SELECT s.kind, s.pizza_id, s.order_id, s.opaque_type, s.opaque_json
        FROM users u LEFT JOIN navigation_stack s ON s.user_id = u.id
        WHERE u.id = ? ORDER BY s.depth
        """

    /// A user's stack: `nil` when the user does not exist, empty on the menu.
    static func path(of user: User.ID, in db: Connection) throws -> [NavigationElement]? {
        var found = false
        var path: [NavigationElement] = []
        try db.forEach(pathSQL, [user]) { row in
            found = true
            if let element = try element(row) { path.append(element) }
        }
        return found ? path : nil
    }

    static func routerState(of user: User.ID, in db: Connection) throws -> (handle: String, path: [NavigationElement], sheet: Sheet?)? {
        try state(user, sql: routerStateSQL, in: db).map { ($0.handle, $0.path, $0.sheet) }
    }

    /// ``routerStateSQL`` with the previous route (the latest stack change's `top_before`, and
    /// that event's id) as two more columns: a user's whole state in one statement, so one
    /// snapshot and no reader connection of its own.
    static let stateSQL = """
        SELECT s.kind, s.pizza_id, s.order_id, s.opaque_type, s.opaque_json, u.handle,
               h.kind, h.pizza_id, h.base_version, h.draft_name, h.draft_price_cents, h.opened_at, h.updated_at,
               (SELECT top_before FROM navigation_events WHERE user_id = u.id
                  AND action NOT IN ('sheet_open', 'sheet_set', 'sheet_save', 'sheet_dismiss') ORDER BY id DESC LIMIT 1),
               (SELECT id FROM navigation_events WHERE user_id = u.id
                  AND action NOT IN ('sheet_open', 'sheet_set', 'sheet_save', 'sheet_dismiss') ORDER BY id DESC LIMIT 1)
        FROM users u LEFT JOIN navigation_sheets h ON h.user_id = u.id LEFT JOIN navigation_stack s ON s.user_id = u.id
        WHERE u.id = ? ORDER BY s.depth
        """

    /// A user's state (handle, stack, sheet, previous route) in one statement, or `nil` when the
    /// user does not exist.
    static func state(of user: User.ID, in db: Connection) throws -> NavigationState? {
        try state(user, sql: stateSQL, in: db).map {
            NavigationState(userID: user, handle: $0.handle, path: $0.path, previous: $0.previous, sheet: $0.sheet)
        }
    }

    /// Reads a state statement: stack columns 0–4, handle 5, sheet 6–12, previous 13–14 (if any).
    private static func state(_ user: User.ID, sql: String, in db: Connection) throws
        -> (handle: String, path: [NavigationElement], sheet: Sheet?, previous: NavigationElement?)? {
        var state: (handle: String, sheet: Sheet?, previous: NavigationElement?)?
        var path: [NavigationElement] = []
        try db.forEach(sql, [user]) { row in
            if state == nil {
                var previous: NavigationElement?
                if row.count > 13, let text = try row.optionalString(13) {
                    let eventID = try row.int64(14)
                    previous = try readable(table: "navigation_events", id: eventID, column: "top_before") { try RouteJSON.decodeElement(text) }
                }
                state = (try row.string(5), try row.isNull(6) ? nil : sheet(row, from: 6, userID: user), previous)
            }
            if let element = try element(row) { path.append(element) }
        }
        return state.map { ($0.handle, path, $0.sheet, $0.previous) }
    }

    /// The element of a stack row (columns kind, pizza_id, order_id, opaque_type, opaque_json);
    /// `nil` for the NULL row of an empty stack.
    static func element(_ row: Row) throws -> NavigationElement? {
        if row.isNull(0) { return nil }
        return switch try row.withUTF8(0, { $0.first }) {
        case UInt8(ascii: "p"): .route(.pizza(id: try row.id(1)))
        case UInt8(ascii: "o") where !row.isNull(2): .route(.order(id: try row.id(2)))
        default: .opaque(typeName: try row.string(3), json: try row.string(4))
        }
    }

    /// Puts `elements` on top of a stack of `depth`. A route to a pizza or order that does not
    /// exist is refused by the foreign keys and reported as ``NavigationError/unknownTarget(_:)``.
    static func push(_ elements: [NavigationElement], userID: User.ID, above depth: Int, in db: Connection) throws {
        for (offset, element) in elements.enumerated() {
            let position = depth + offset + 1
            do {
                switch element {
                case .route(.pizza(let id)):
                    try db.run("INSERT INTO navigation_stack (user_id, depth, kind, pizza_id) VALUES (?, ?, 'pizza', ?)", [userID, position, id])
                case .route(.order(let id)):
                    try db.run("INSERT INTO navigation_stack (user_id, depth, kind, order_id) VALUES (?, ?, 'order', ?)", [userID, position, id])
                case .opaque(let type, let json):
                    try db.run("INSERT INTO navigation_stack (user_id, depth, kind, opaque_type, opaque_json) VALUES (?, ?, 'opaque', ?, ?)",
                               [userID, position, type, json])
                }
            } catch let error as DatabaseError where error.isForeignKeyViolation {
                guard let route = element.route, try !exists(route, in: db) else { throw error }
                throw NavigationError.unknownTarget(route)
            }
        }
    }

    /// Removes everything above `depth`.
    static func truncate(userID: User.ID, to depth: Int, in db: Connection) throws {
        try db.run("DELETE FROM navigation_stack WHERE user_id = ? AND depth > ?", [userID, depth])
    }

    static func appendEvent(userID: User.ID, action: NavigationAction, routes: [NavigationElement], depthAfter: Int,
                            topBefore: NavigationElement?, detail: String?, in db: Connection) throws {
        try db.run("""
            INSERT INTO navigation_events (user_id, action, routes, depth_after, top_before, detail)
            VALUES (?, ?, ?, ?, ?, ?)
            """, [userID, action.rawValue, try RouteJSON.encodeElements(routes), depthAfter, try topBefore.map(RouteJSON.encodeElement), detail])
    }

    static func previous(userID: User.ID, in db: Connection) throws -> NavigationElement? {
        let row = try db.fetchOne(previousSQL, [userID]) { (try $0.optionalString(0), try $0.int64(1)) }
        guard let (text, id) = row, let text else { return nil }
        return try readable(table: "navigation_events", id: id, column: "top_before") { try RouteJSON.decodeElement(text) }
    }

    static func history(userID: User.ID, limit: Int, in db: Connection) throws -> [NavigationEvent] {
        try db.fetchAll(historySQL, [userID, limit]) { row in
            let id = try row.int64(0), routes = try row.string(3)
            let actionText = try row.string(2)
            guard let action = NavigationAction(rawValue: actionText) else {
                throw DataError.damagedRow(table: "navigation_events", id: String(id), problem: "unknown action '\(actionText)'")
            }
            return NavigationEvent(id: id, at: try row.timestamp(1, table: "navigation_events", id: id), action: action,
                                   routes: try readable(table: "navigation_events", id: id, column: "routes") {
                                       try RouteJSON.decodeElements(routes)
                                   },
                                   depthAfter: try row.int(4), detail: try row.optionalString(5))
        }.reversed()
    }

    /// Decodes a stored JSON column; a value the router could not have written is a damaged row.
    private static func readable<T>(table: String, id: Int64, column: String, _ decode: () throws -> T) throws -> T {
        do {
            return try decode()
        } catch is DecodingError {
            throw DataError.damagedRow(table: table, id: String(id), problem: "\(column) is not a route or an opaque element")
        }
    }

    /// A label for each element: the pizzas' names in one query (their ids as one JSON array).
    static func labels(_ elements: [NavigationElement], in db: Connection) throws -> [String] {
        let pizzaIDs = elements.compactMap { element -> Pizza.ID? in
            if case .route(.pizza(let id)) = element { id } else { nil }
        }
        var names: [Pizza.ID: String] = [:]
        if !pizzaIDs.isEmpty {
            try db.forEach("SELECT id, name, archived_at IS NOT NULL FROM pizzas WHERE id IN (SELECT value FROM json_each(?))",
                           ["[" + pizzaIDs.map { "\"\($0)\"" }.joined(separator: ",") + "]"]) { row in
                names[try row.id(0)] = try row.string(1) + (try row.int(2) == 1 ? " (archived)" : "")
            }
        }
        return elements.map { element in
            switch element {
            case .route(.pizza(let id)): names[id] ?? "pizza \(id.description.prefix(8))"
            case .route(.order(let id)): "order \(id.description.prefix(8))"
            case .opaque(let type, let json): "\(type) \(json)"
            }
        }
    }

    /// Whether the route's pizza or order exists (archived pizzas do).
    static func exists(_ route: Route, in db: Connection) throws -> Bool {
        switch route {
        case .pizza(let id): try db.fetchOne("SELECT 1 FROM pizzas WHERE id = ?", [id]) { _ in true } ?? false
        case .order(let id): try db.fetchOne("SELECT 1 FROM orders WHERE id = ?", [id]) { _ in true } ?? false
        }
    }

    // MARK: - Sheets

    static func sheet(userID: User.ID, in db: Connection) throws -> Sheet? {
        try db.fetchOne("""
            SELECT kind, pizza_id, base_version, draft_name, draft_price_cents, opened_at, updated_at
            FROM navigation_sheets WHERE user_id = ?
            """, [userID]) { try sheet($0, from: 0, userID: userID) }
    }

    /// A sheet from seven columns starting at `first`: kind, pizza_id, base_version, draft_name,
    /// draft_price_cents, opened_at, updated_at.
    static func sheet(_ row: Row, from first: Int, userID: User.ID) throws -> Sheet {
        let mode: PizzaDraft.Mode = try row.string(first) == "edit_pizza"
            ? .edit(pizzaID: try row.id(first + 1), baseVersion: try row.int(first + 2)) : .add
        return Sheet(draft: PizzaDraft(mode: mode, name: try row.string(first + 3), price: Money(cents: try row.int64(first + 4))),
                     openedAt: try row.timestamp(first + 5, table: "navigation_sheets", id: userID),
                     updatedAt: try row.timestamp(first + 6, table: "navigation_sheets", id: userID))
    }

    static func openSheet(_ draft: PizzaDraft, userID: User.ID, in db: Connection) throws {
        var pizzaID: Pizza.ID?, version: Int?
        if case .edit(let id, let base) = draft.mode { (pizzaID, version) = (id, base) }
        try db.run("""
            INSERT INTO navigation_sheets (user_id, kind, pizza_id, base_version, draft_name, draft_price_cents)
            VALUES (?, ?, ?, ?, ?, ?)
            """, [userID, pizzaID == nil ? "add_pizza" : "edit_pizza", pizzaID, version, draft.name, draft.price.cents])
    }

    static func updateSheet(userID: User.ID, name: String, price: Money, at date: Date, in db: Connection) throws {
        try db.run("UPDATE navigation_sheets SET draft_name = ?, draft_price_cents = ?, updated_at = ? WHERE user_id = ?",
                   [name, price.cents, Timestamp.string(from: date), userID])
    }

    static func closeSheet(userID: User.ID, in db: Connection) throws {
        try db.run("DELETE FROM navigation_sheets WHERE user_id = ?", [userID])
    }

    // MARK: - Statistics

    /// Pushes per pizza over the whole history (an analytic scan, not a hot path).
    static func views(limit: Int, in db: Connection) throws -> [PizzaViews] {
        try db.fetchAll("""
            SELECT p.id, p.name, count(*) AS views
            FROM navigation_events e, json_each(e.routes) j
            JOIN pizzas p ON p.id = json_extract(j.value, '$.pizza.id')
            WHERE e.action IN ('push', 'random')
            GROUP BY p.id ORDER BY views DESC, p.name LIMIT ?
            """, [limit]) { row in
            PizzaViews(pizzaID: try row.id(0), name: try row.string(1), views: try row.int(2))
        }
    }
}
