import Foundation
import PizzeriaStorage

/// The SQL of navigation. Every query is by `user_id` first, through the primary key of
/// `navigation_stack`/`navigation_sheets` or the `(user_id, id)` index of the history, so its cost
/// does not grow with the history's length. One user's operations touch only that user's rows.
enum NavigationStore {
    /// The columns of a stack element, from `navigation_stack s` (a constant); aliased so they
    /// can share a row with a sheet's.
    static let elementColumns =
        "s.kind AS stack_kind, s.pizza_id AS stack_pizza_id, s.order_id AS stack_order_id, s.category_id AS stack_category_id, s.opaque_type, s.opaque_json"
    /// The columns of a sheet, from `navigation_sheets h` (a constant).
    static let sheetColumns = """
        h.kind AS sheet_kind, h.pizza_id AS sheet_pizza_id, h.base_version, h.draft_name, h.draft_price_cents, h.draft_choices, \
        h.opened_at AS sheet_opened_at, h.updated_at AS sheet_updated_at
        """

    /// A stack element from ``elementColumns``; `nil` for the row of NULLs an empty stack joins to.
    struct ElementDecoder: RowDecoder {
        let kind, pizzaID, orderID, categoryID, opaqueType, opaqueJSON: Column

        init(columns: ColumnResolver) throws {
            (kind, pizzaID, orderID) = (
                try columns("stack_kind"), try columns("stack_pizza_id"), try columns("stack_order_id")
            )
            categoryID = try columns("stack_category_id")
            (opaqueType, opaqueJSON) = (try columns("opaque_type"), try columns("opaque_json"))
        }

        func decode(_ row: Row) throws -> NavigationElement? {
            // One value lookup: NULL (the empty stack's row) or the kind's first byte.
            guard let kind = try row.optionalTextBytes(kind) else { return nil }
            return switch kind.first {
            case UInt8(ascii: "p"): .route(.pizza(id: try row.id(pizzaID)))
            case UInt8(ascii: "o") where !row.isNull(orderID): .route(.order(id: try row.id(orderID)))
            case UInt8(ascii: "c") where !row.isNull(categoryID):
                .route(.category(id: Category.ID(try row.int64(categoryID))))
            default: .opaque(typeName: try row.string(opaqueType), json: try row.string(opaqueJSON))
            }
        }
    }

    /// A sheet from ``sheetColumns``; `nil` when the user has none (the LEFT JOIN's NULLs). Part
    /// of ``StateDecoder``: the user's id comes from the query's argument.
    struct SheetDecoder {
        let kind, pizzaID, baseVersion, draftName, draftPriceCents, draftChoices, openedAt, updatedAt: Column

        init(columns: ColumnResolver) throws {
            (kind, pizzaID, baseVersion) = (
                try columns("sheet_kind"), try columns("sheet_pizza_id"), try columns("base_version")
            )
            (draftName, draftPriceCents) = (try columns("draft_name"), try columns("draft_price_cents"))
            draftChoices = try columns("draft_choices")
            (openedAt, updatedAt) = (try columns("sheet_opened_at"), try columns("sheet_updated_at"))
        }

        func decode(_ row: Row, userID: User.ID) throws -> Sheet? {
            if row.isNull(kind) { return nil }
            let mode: PizzaDraft.Mode =
                try row.string(kind) == "edit_pizza"
                ? .edit(pizzaID: try row.id(pizzaID), baseVersion: try row.int(baseVersion)) : .add
            var draft = PizzaDraft(
                mode: mode, name: try row.string(draftName), price: Money(cents: try row.int64(draftPriceCents)))
            if let text = try row.optionalString(draftChoices) {
                do {
                    try JSONDecoder().decode(PizzaDraft.Choices.self, from: Data(text.utf8)).apply(to: &draft)
                } catch {
                    throw DataError.damagedRow(
                        table: "navigation_sheets", id: userID.description, problem: "draft_choices: \(error)")
                }
            }
            return Sheet(
                draft: draft,
                openedAt: try row.timestamp(openedAt, table: "navigation_sheets", id: userID),
                updatedAt: try row.timestamp(updatedAt, table: "navigation_sheets", id: userID))
        }
    }

    /// A user's whole state in one statement — the user's row joined to the sheet and the stack,
    /// with the previous route (the `top_before` of the event `users.last_stack_change` names, the
    /// user's latest stack change, kept by triggers since migration 33; and that event's id) —
    /// so one snapshot serves `nav show`: no row when the user does not exist, one row of NULL
    /// stack columns on the menu.
    static let stateSQL = stateSQL(withPrevious: true, visibleOnly: true)

    /// ``stateSQL`` without the previous route, and with every stored row: what a router
    /// operation starts from (it knows the previous route already: the old top), saving a lookup of
    /// the event per operation; it changes the rows as stored, and shows only what ``visible(_:of:in:)`` keeps.
    static let routerStateSQL = stateSQL(withPrevious: false, visibleOnly: false)

    /// Joins a user's stack rows, leaving out order routes that are not the user's (a file written
    /// before the rule, or by hand): no customer is ever shown another's order.
    static let visibleStack = """
        LEFT JOIN navigation_stack s ON s.user_id = u.id
              AND (s.order_id IS NULL OR EXISTS (SELECT 1 FROM orders o WHERE o.id = s.order_id AND o.user_id = u.id))
        """

    /// The state statement, with or without the previous route's two columns and the
    /// ownership filter (constant text).
    private static func stateSQL(withPrevious: Bool, visibleOnly: Bool) -> String {
        let previous = """
            ,
                   (SELECT top_before FROM navigation_events WHERE id = u.last_stack_change) AS previous_route,
                   u.last_stack_change AS previous_event_id
            """
        return "SELECT " + elementColumns + ", u.handle, " + sheetColumns + (withPrevious ? previous : "")
            + " FROM users u LEFT JOIN navigation_sheets h ON h.user_id = u.id "
            + (visibleOnly ? visibleStack : "LEFT JOIN navigation_stack s ON s.user_id = u.id")
            + " WHERE u.id = ? ORDER BY s.depth"
    }

    /// The first row's share of a state: handle, sheet, previous route.
    struct StateDecoder: RowDecoder {
        let element: ElementDecoder, sheet: SheetDecoder
        let handle: Column
        /// Absent from ``routerStateSQL``.
        let previousRoute, previousEventID: Column?

        init(columns: ColumnResolver) throws {
            (element, sheet) = (try ElementDecoder(columns: columns), try SheetDecoder(columns: columns))
            (handle, previousRoute, previousEventID) = (
                try columns("handle"), try columns.optional("previous_route"), try columns.optional("previous_event_id")
            )
        }

        /// Only the element: the state's other parts are read from the first row (``decodeFirst``).
        func decode(_ row: Row) throws -> NavigationElement? { try element.decode(row) }

        func decodeFirst(_ row: Row, userID: User.ID) throws -> (
            handle: String, sheet: Sheet?, previous: NavigationElement?
        ) {
            var previous: NavigationElement?
            if let previousRoute, let previousEventID, let text = try row.optionalString(previousRoute) {
                let eventID = try row.int64(previousEventID)
                previous = try readable(table: "navigation_events", id: eventID, column: "top_before") {
                    try RouteJSON.decodeElement(text)
                }
            }
            return (try row.string(handle), try sheet.decode(row, userID: userID), previous)
        }
    }

    /// A user's state (handle, stack, sheet and — unless `withPrevious` is false — previous
    /// route) in one statement, or `nil` when the user does not exist.
    static func state(of user: User.ID, withPrevious: Bool = true, in db: Connection) throws -> NavigationState? {
        var first: (handle: String, sheet: Sheet?, previous: NavigationElement?)?
        var path: [NavigationElement] = []
        try db.forEachRow(withPrevious ? stateSQL : routerStateSQL, [user], StateDecoder.self) { row, decoder in
            if first == nil { first = try decoder.decodeFirst(row, userID: user) }
            if let element = try decoder.decode(row) { path.append(element) }
        }
        return first.map {
            NavigationState(userID: user, handle: $0.handle, path: path, previous: $0.previous, sheet: $0.sheet)
        }
    }

    /// A user's stack in one statement (the user's row, joined to the stack): no row when the
    /// user does not exist, one row of NULLs on the menu. What the app needs to restore its path.
    static let pathSQL =
        "SELECT " + elementColumns + " FROM users u " + visibleStack + " WHERE u.id = ? ORDER BY s.depth"

    /// The elements of `path` the user may see: order routes of other users' orders left out.
    static func visible(_ path: [NavigationElement], of user: User.ID, in db: Connection) throws -> [NavigationElement]
    {
        guard path.contains(where: { if case .route(.order) = $0 { true } else { false } }) else { return path }
        return try path.filter { element in
            guard case .route(let route) = element, case .order = route else { return true }
            return try exists(route, for: user, in: db)
        }
    }

    /// Users whose stored stack shows another customer's order (a file written before the rule):
    /// each `handle: order SHORT-ID`, for `pizzeria check`.
    static func foreignOrderRoutes(in db: Connection) throws -> [String] {
        try db.fetchAll(
            """
            SELECT u.handle, s.order_id FROM navigation_stack s JOIN users u ON u.id = s.user_id JOIN orders o ON o.id = s.order_id
            WHERE o.user_id <> s.user_id ORDER BY u.handle, s.depth
            """
        ) { "\(try $0.string("handle")): order \(try $0.id("order_id", as: Order.ID.self).short)" }
    }

    /// A user's stack: `nil` when the user does not exist, empty on the menu.
    static func path(of user: User.ID, in db: Connection) throws -> [NavigationElement]? {
        var found = false
        var path: [NavigationElement] = []
        try db.forEach(pathSQL, [user], ElementDecoder.self) { element in
            found = true
            if let element { path.append(element) }
        }
        return found ? path : nil
    }

    /// Puts `elements` on top of a stack of `depth`. A route to a pizza or order that does not
    /// exist is refused by the foreign keys and reported as ``NavigationError/unknownTarget(_:)``.
    static func push(_ elements: [NavigationElement], userID: User.ID, above depth: Int, in db: Connection) throws {
        for (offset, element) in elements.enumerated() {
            let position = depth + offset + 1
            do {
                switch element {
                case .route(.pizza(let id)):
                    try db.run(
                        "INSERT INTO navigation_stack (user_id, depth, kind, pizza_id) VALUES (?, ?, 'pizza', ?)",
                        [userID, position, id])
                case .route(.order(let id)):
                    try db.run(
                        "INSERT INTO navigation_stack (user_id, depth, kind, order_id) VALUES (?, ?, 'order', ?)",
                        [userID, position, id])
                case .route(.category(let id)):
                    try db.run(
                        "INSERT INTO navigation_stack (user_id, depth, kind, category_id) VALUES (?, ?, 'category', ?)",
                        [userID, position, id])
                case .opaque(let type, let json):
                    try db.run(
                        "INSERT INTO navigation_stack (user_id, depth, kind, opaque_type, opaque_json) VALUES (?, ?, 'opaque', ?, ?)",
                        [userID, position, type, json])
                }
            } catch let error as DatabaseError
                where error.constraint == .foreignKey || error.isRefusal("route_not_owned")
            {
                guard let route = element.route, try !exists(route, for: userID, in: db) else { throw error }
                throw NavigationError.unknownTarget(route)
            }
        }
    }

    /// Removes everything above `depth`.
    static func truncate(userID: User.ID, to depth: Int, in db: Connection) throws {
        try db.run("DELETE FROM navigation_stack WHERE user_id = ? AND depth > ?", [userID, depth])
    }

    static func appendEvent(
        userID: User.ID, action: NavigationAction, routes: [NavigationElement], depthAfter: Int,
        topBefore: NavigationElement?, detail: String?, at now: Date, in db: Connection
    ) throws {
        try db.run(
            """
            INSERT INTO navigation_events (user_id, action, routes, depth_after, top_before, detail, at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                userID, action.rawValue, try RouteJSON.encodeElements(routes), depthAfter,
                try topBefore.map(RouteJSON.encodeElement), detail,
                Timestamp.string(from: now),
            ])
    }

    static func history(userID: User.ID, limit: Int, in db: Connection) throws -> [NavigationEvent] {
        try db.fetchAll(historySQL, [userID, limit], EventDecoder.self).reversed()
    }

    static let historySQL = """
        SELECT id, at, action, routes, depth_after, detail FROM navigation_events
        WHERE user_id = ? ORDER BY id DESC LIMIT ?
        """

    /// A navigation event from its own row's columns.
    struct EventDecoder: RowDecoder {
        let id, at, action, routes, depthAfter, detail: Column

        init(columns: ColumnResolver) throws {
            (id, at, action) = (try columns("id"), try columns("at"), try columns("action"))
            (routes, depthAfter, detail) = (try columns("routes"), try columns("depth_after"), try columns("detail"))
        }

        func decode(_ row: Row) throws -> NavigationEvent {
            let id = try row.int64(self.id), routes = try row.string(self.routes)
            let actionText = try row.string(action)
            guard let action = NavigationAction(rawValue: actionText) else {
                throw DataError.damagedRow(
                    table: "navigation_events", id: String(id), problem: "unknown action '\(actionText)'")
            }
            return NavigationEvent(
                id: id, at: try row.timestamp(at, table: "navigation_events", id: id), action: action,
                routes: try readable(table: "navigation_events", id: id, column: "routes") {
                    try RouteJSON.decodeElements(routes)
                },
                depthAfter: try row.int(depthAfter), detail: try row.optionalString(detail))
        }
    }

    /// Decodes a stored JSON column; a value the router could not have written is a damaged row.
    fileprivate static func readable<T>(table: String, id: Int64, column: String, _ decode: () throws -> T) throws -> T
    {
        do {
            return try decode()
        } catch is DecodingError {
            throw DataError.damagedRow(
                table: table, id: String(id), problem: "\(column) is not a route or an opaque element")
        }
    }

    /// A label for each element: the pizzas' names in one query (their ids as one JSON array).
    static func labels(_ elements: [NavigationElement], in db: Connection) throws -> [String] {
        let pizzaIDs = elements.compactMap { element -> Pizza.ID? in
            if case .route(.pizza(let id)) = element { id } else { nil }
        }
        var names: [Pizza.ID: String] = [:]
        if !pizzaIDs.isEmpty {
            try db.forEach(
                "SELECT id, name, archived_at IS NOT NULL AS archived FROM pizzas WHERE id IN (SELECT value FROM json_each(?))",
                [JSONText.array(of: pizzaIDs)]
            ) { row in
                names[try row.id("id")] = try row.string("name") + (try row.int("archived") == 1 ? " (archived)" : "")
            }
        }
        var categories: [Category.ID: String] = [:]
        if elements.contains(where: { if case .route(.category) = $0 { true } else { false } }) {
            for category in try CategoryStore.list(in: db) { categories[category.id] = category.name }
        }
        return elements.map { element in
            switch element {
            case .route(.pizza(let id)): names[id] ?? "pizza \(id.short)"
            case .route(.order(let id)): "order \(id.short)"
            case .route(.category(let id)): categories[id] ?? "category \(id)"
            case .opaque(let type, let json): "\(type) \(json)"
            }
        }
    }

    /// Whether the route's pizza exists (archived pizzas do), or its order is one of `user`'s.
    static func exists(_ route: Route, for user: User.ID, in db: Connection) throws -> Bool {
        switch route {
        case .pizza(let id): try db.fetchOne("SELECT 1 AS found FROM pizzas WHERE id = ?", [id]) { _ in true } ?? false
        case .order(let id):
            try db.fetchOne("SELECT 1 AS found FROM orders WHERE id = ? AND user_id = ?", [id, user]) { _ in true }
                ?? false
        case .category(let id):
            try db.fetchOne("SELECT 1 AS found FROM categories WHERE id = ?", [id]) { _ in true } ?? false
        }
    }

    // MARK: - Sheets

    static func openSheet(_ draft: PizzaDraft, userID: User.ID, at now: Date, in db: Connection) throws {
        var pizzaID: Pizza.ID?, version: Int?
        if case .edit(let id, let base) = draft.mode { (pizzaID, version) = (id, base) }
        let stamp = Timestamp.string(from: now)
        try db.run(
            """
            INSERT INTO navigation_sheets (user_id, kind, pizza_id, base_version, draft_name, draft_price_cents, draft_choices,
                                           opened_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                userID, pizzaID == nil ? "add_pizza" : "edit_pizza", pizzaID, version, draft.name, draft.price.cents,
                try PizzaDraft.Choices(draft).stored, stamp, stamp,
            ])
    }

    static func updateSheet(_ draft: PizzaDraft, userID: User.ID, at date: Date, in db: Connection) throws {
        try db.run(
            """
            UPDATE navigation_sheets SET draft_name = ?, draft_price_cents = ?, draft_choices = ?, updated_at = ?
            WHERE user_id = ?
            """,
            [
                draft.name, draft.price.cents, try PizzaDraft.Choices(draft).stored, Timestamp.string(from: date),
                userID,
            ])
    }

    static func closeSheet(userID: User.ID, in db: Connection) throws {
        try db.run("DELETE FROM navigation_sheets WHERE user_id = ?", [userID])
    }

    // MARK: - Statistics

    /// Every time each pizza's detail was shown — pushed, at random, by a deep link, restored —
    /// over the whole history (the `pizza_views` view; an analytic scan, not a hot path).
    static func views(limit: Int, in db: Connection) throws -> [PizzaViews] {
        try db.fetchAll(
            """
            SELECT pizza_id, name, views, pushed, random, deep_links, imported FROM pizza_views ORDER BY views DESC, name LIMIT ?
            """, [limit]
        ) { row in
            PizzaViews(
                pizzaID: try row.id("pizza_id"), name: try row.string("name"), views: try row.int("views"),
                pushed: try row.int("pushed"), random: try row.int("random"), deepLinks: try row.int("deep_links"),
                restored: try row.int("imported"))
        }
    }
}
