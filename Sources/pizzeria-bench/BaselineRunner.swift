import CPizzeriaSQLite
import Foundation

/// The same workload, issuing the same SQL statements as the project (its stores' queries, in
/// the same transactions), straight through the C API. Only the Swift layers differ.
struct BaselineRunner {
    let sqlite: RawSQLite
    let workload: Workload
    let pizzaIDs: [String]

    /// What the project's decoders build from a pizza row, so both sides do the same work.
    struct PizzaRow {
        let id: String, name: String, priceCents: Int64, archivedAt: String?, version: Int64, createdAt: String, updatedAt: String
    }

    private func pizza(_ id: String) throws -> PizzaRow? {
        var found: PizzaRow?
        try sqlite.query("SELECT id, name, price_cents, archived_at, version, created_at, updated_at FROM pizzas WHERE id = ?", [id]) { s in
            found = decodePizza(s)
        }
        return found
    }

    private func decodePizza(_ s: OpaquePointer) -> PizzaRow {
        PizzaRow(id: sqlite.text(s, 0), name: sqlite.text(s, 1), priceCents: sqlite3_column_int64(s, 2),
                 archivedAt: sqlite3_column_type(s, 3) == SQLITE_NULL ? nil : sqlite.text(s, 3),
                 version: sqlite3_column_int64(s, 4), createdAt: sqlite.text(s, 5), updatedAt: sqlite.text(s, 6))
    }

    private func userID(_ handle: String) throws -> String {
        var id = ""
        try sqlite.query("SELECT id, handle, display_name, created_at FROM users WHERE handle = ?", [handle]) { id = sqlite.text($0, 0) }
        return id
    }

    func placeOrders(_ bookings: [Workload.Booking], pickup: (Workload.Booking) -> String) throws -> Int {
        var refused = 0
        for booking in bookings {
            try sqlite.transaction {
                let user = try userID(workload.handle(booking.user))
                var lines: [(PizzaRow, Int)] = []
                for line in booking.lines { if let row = try pizza(pizzaIDs[line.pizza]) { lines.append((row, line.quantity)) } }
                var capacity: Int64 = 0
                try sqlite.query("SELECT slot_minutes, slot_capacity, opens_at, closes_at, time_zone FROM settings WHERE id = 1") {
                    capacity = sqlite3_column_int64($0, 1)
                }
                for (row, _) in lines { _ = try pizza(row.id) }
                let at = pickup(booking)
                var load: Int64 = 0
                try sqlite.query("""
                    SELECT coalesce(sum(l.quantity), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                    WHERE o.pickup_at = ? AND o.status <> 'cancelled'
                    """, [at]) { load = sqlite3_column_int64($0, 0) }
                let requested = lines.reduce(0) { $0 + $1.1 }
                guard load + Int64(requested) <= capacity else { refused += 1; return }
                let id = UUID().uuidString.lowercased()
                try sqlite.run("INSERT INTO orders (id, user_id, pickup_at, idempotency_key, request_fingerprint) VALUES (?, ?, ?, ?, ?)",
                               [id, user, at, NSNull(), NSNull()])
                for (number, (row, quantity)) in lines.enumerated() {
                    try sqlite.run("""
                        INSERT INTO order_lines (order_id, line_no, pizza_id, pizza_name, unit_price_cents, quantity)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """, [id, number + 1, row.id, row.name, row.priceCents, quantity])
                }
                try sqlite.query("""
                    SELECT o.id, u.handle, o.pickup_at, o.status, o.total_cents, o.idempotency_key,
                           o.request_fingerprint, o.created_at, o.updated_at
                    FROM orders o JOIN users u ON u.id = o.user_id WHERE o.id = ?
                    """, [id]) { _ in }
                try sqlite.query("SELECT pizza_id, pizza_name, unit_price_cents, quantity FROM order_lines WHERE order_id = ? ORDER BY line_no", [id]) { _ in }
                try sqlite.query("SELECT from_status, to_status, at FROM order_status_events WHERE order_id = ? ORDER BY id", [id]) { _ in }
            }
        }
        return refused
    }

    private func stack(_ user: String) throws -> [String] {
        var stack: [String] = []
        try sqlite.query("SELECT kind, pizza_id, order_id, opaque_type, opaque_json FROM navigation_stack WHERE user_id = ? ORDER BY depth", [user]) {
            stack.append(sqlite.text($0, 1))
        }
        return stack
    }

    /// What the project's router reads back after each operation: stack, labels, previous, sheet.
    private func readState(_ user: String) throws -> Int {
        let path = try stack(user)
        for id in path { _ = try pizza(id) }
        try sqlite.query("""
            SELECT top_before FROM navigation_events
            WHERE user_id = ? AND action NOT IN ('sheet_open', 'sheet_set', 'sheet_save', 'sheet_dismiss')
            ORDER BY id DESC LIMIT 1
            """, [user]) { _ in }
        try sqlite.query("""
            SELECT kind, pizza_id, base_version, draft_name, draft_price_cents, opened_at, updated_at
            FROM navigation_sheets WHERE user_id = ?
            """, [user]) { _ in }
        return path.count
    }

    private func routeJSON(_ id: String) -> String { #"{"pizza":{"id":""# + id + #""}}"# }

    func navigate(_ operations: [Workload.Navigation]) throws -> Int {
        var refused = 0
        for operation in operations {
            switch operation {
            case .push(let userIndex, let pizzaIndex):
                try sqlite.transaction {
                    let user = try userID(workload.handle(userIndex))
                    let id = pizzaIDs[pizzaIndex]
                    try sqlite.query("SELECT 1 FROM pizzas WHERE id = ?", [id]) { _ in }
                    let old = try stack(user)
                    try sqlite.run("INSERT INTO navigation_stack (user_id, depth, kind, pizza_id) VALUES (?, ?, 'pizza', ?)", [user, old.count + 1, id])
                    try sqlite.run("INSERT INTO navigation_events (user_id, action, routes, depth_after, top_before, detail) VALUES (?, ?, ?, ?, ?, ?)",
                                   [user, "push", "[" + routeJSON(id) + "]", old.count + 1, old.last.map(routeJSON) ?? NSNull(), NSNull()])
                    _ = try readState(user)
                }
            case .pop(let userIndex), .popToRoot(let userIndex):
                let isPop: Bool
                if case .pop = operation { isPop = true } else { isPop = false }
                try sqlite.transaction {
                    let user = try userID(workload.handle(userIndex))
                    let old = try stack(user)
                    if isPop && old.isEmpty { refused += 1; return }
                    let depth = isPop ? old.count - 1 : 0
                    try sqlite.run("DELETE FROM navigation_stack WHERE user_id = ? AND depth > ?", [user, depth])
                    let popped = "[" + old.dropFirst(depth).map(routeJSON).joined(separator: ",") + "]"
                    try sqlite.run("INSERT INTO navigation_events (user_id, action, routes, depth_after, top_before, detail) VALUES (?, ?, ?, ?, ?, ?)",
                                   [user, isPop ? "pop" : "pop_to_root", popped, depth, old.last.map(routeJSON) ?? NSNull(), NSNull()])
                    _ = try readState(user)
                }
            }
        }
        return refused
    }

    func readPaths(_ users: [Int]) throws -> Int {
        var total = 0
        for user in users {
            try sqlite.run("BEGIN DEFERRED")
            total += try readState(try userID(workload.handle(user)))
            try sqlite.run("COMMIT")
        }
        return total
    }

    func readMenu(_ times: Int) throws -> Int {
        var total = 0
        for _ in 0..<times {
            var menu: [PizzaRow] = []
            try sqlite.run("BEGIN DEFERRED")
            try sqlite.query("""
                SELECT id, name, price_cents, archived_at, version, created_at, updated_at
                FROM pizzas WHERE ? OR archived_at IS NULL ORDER BY lower(name), name
                """, [Int64(0)]) { menu.append(decodePizza($0)) }
            try sqlite.run("COMMIT")
            total += menu.count
        }
        return total
    }

    func editPrices(_ edits: [(pizza: Int, cents: Int64)]) throws -> Int {
        for edit in edits {
            let id = pizzaIDs[edit.pizza]
            try sqlite.run("BEGIN DEFERRED")
            guard let draft = try pizza(id) else { throw BenchError("missing pizza") }
            try sqlite.run("COMMIT")
            try sqlite.transaction {
                _ = try pizza(id)
                try sqlite.run("UPDATE pizzas SET name = ?, price_cents = ? WHERE id = ? AND version = ?", [draft.name, edit.cents, id, draft.version])
                _ = try pizza(id)
            }
        }
        return edits.count
    }
}
