import CPizzeriaSQLite
import Foundation

/// The workload as a competent C programmer writes it on the same schema: statements prepared
/// once, values bound, the fewest statements that keep the same semantics (the checks the
/// project makes, the rows it writes, the triggers it fires), `RETURNING` where it saves a
/// statement, nothing read back that is already known, the same pragmas and durability.
final class Baseline {
    let database: CDatabase
    let pizzaIDs: [String]
    let userIDs: [String]

    private let begin, commit, rollback: CStatement
    private let settings, pizza, slotLoad, insertOrder, insertLine: CStatement
    private let top, pushRow, popRow, popAll, insertEvent: CStatement
    private let path, menu, pizzaForEdit, updatePrice: CStatement

    init(path file: String, synchronous: String, pizzaIDs: [String], userIDs: [String]) throws {
        database = try CDatabase(path: file, synchronous: synchronous)
        self.pizzaIDs = pizzaIDs
        self.userIDs = userIDs
        let db = database
        begin = try db.prepare("BEGIN IMMEDIATE")
        commit = try db.prepare("COMMIT")
        rollback = try db.prepare("ROLLBACK")
        settings = try db.prepare("SELECT slot_minutes, slot_capacity, opens_at, closes_at FROM settings WHERE id = 1")
        pizza = try db.prepare("SELECT name, price_cents, archived_at IS NULL FROM pizzas WHERE id = ?")
        slotLoad = try db.prepare("""
            SELECT coalesce(sum(l.quantity), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
            WHERE o.pickup_at = ? AND o.status <> 'cancelled'
            """)
        insertOrder = try db.prepare("INSERT INTO orders (id, user_id, pickup_at) VALUES (?, ?, ?)")
        insertLine = try db.prepare("""
            INSERT INTO order_lines (order_id, line_no, pizza_id, pizza_name, unit_price_cents, quantity) VALUES (?, ?, ?, ?, ?, ?)
            """)
        top = try db.prepare("SELECT depth, kind, pizza_id, order_id FROM navigation_stack WHERE user_id = ? ORDER BY depth DESC LIMIT 1")
        pushRow = try db.prepare("INSERT INTO navigation_stack (user_id, depth, kind, pizza_id) VALUES (?, ?, 'pizza', ?)")
        popRow = try db.prepare("DELETE FROM navigation_stack WHERE user_id = ? AND depth = ?")
        popAll = try db.prepare("DELETE FROM navigation_stack WHERE user_id = ? RETURNING depth, kind, pizza_id, order_id")
        insertEvent = try db.prepare("""
            INSERT INTO navigation_events (user_id, action, routes, depth_after, top_before) VALUES (?, ?, ?, ?, ?)
            """)
        self.path = try db.prepare("""
            SELECT s.kind, s.pizza_id, s.order_id, s.opaque_type, s.opaque_json
            FROM users u LEFT JOIN navigation_stack s ON s.user_id = u.id
            WHERE u.id = ? ORDER BY s.depth
            """)
        menu = try db.prepare("""
            SELECT id, name, price_cents, archived_at, version, created_at, updated_at FROM pizzas
            WHERE archived_at IS NULL ORDER BY name_key
            """)
        pizzaForEdit = try db.prepare("SELECT name, price_cents, version FROM pizzas WHERE id = ?")
        updatePrice = try db.prepare("UPDATE pizzas SET price_cents = ? WHERE id = ? AND version = ?")
    }

    private func transaction(_ body: () throws -> Bool) throws {
        try begin.bind().run()
        do {
            if try body() { try commit.bind().run() } else { try rollback.bind().run() }
        } catch {
            if sqlite3_get_autocommit(database.db) == 0 { try rollback.bind().run() }
            throw error
        }
    }

    // MARK: - Orders

    /// Books each booking in its own transaction: the rules the project checks (the pizza is on
    /// the menu, the slot is on the grid and open, the capacity), then the order and its lines.
    /// - Returns: bookings refused for capacity.
    func placeOrders(_ bookings: [Workload.Booking], pickup: (Workload.Booking) -> (utc: String, minutes: Int)) throws -> Int {
        var refused = 0
        for booking in bookings {
            let (at, minutes) = pickup(booking)
            try transaction {
                guard try settings.bind().step() else { throw BenchError("no settings") }
                let slot = settings.int(0), capacity = settings.int(1)
                let opens = clock(settings.text(2)), closes = clock(settings.text(3))
                sqlite3_reset(settings.handle)
                var lines: [(id: String, name: String, price: Int64, quantity: Int)] = []
                for line in booking.lines {
                    let id = pizzaIDs[line.pizza]
                    guard try pizza.bind(id).step(), pizza.int(2) == 1 else { throw BenchError("pizza \(id) is not on the menu") }
                    lines.append((id, pizza.text(0), pizza.int(1), line.quantity))
                    sqlite3_reset(pizza.handle)
                }
                guard Int64(minutes) % slot == 0, minutes >= opens, Int64(minutes) + slot <= closes else { throw BenchError("not a slot") }
                guard try slotLoad.bind(at).step() else { throw BenchError("no load") }
                let load = slotLoad.int(0)
                sqlite3_reset(slotLoad.handle)
                guard load + Int64(lines.reduce(0) { $0 + $1.quantity }) <= capacity else {
                    refused += 1
                    return false
                }
                let id = randomUUID()
                try insertOrder.bind(id, userIDs[booking.user], at).run()
                for (number, line) in lines.enumerated() {
                    try insertLine.bind(id, number + 1, line.id, line.name, line.price, line.quantity).run()
                }
                return true
            }
        }
        return refused
    }

    private func clock(_ text: String) -> Int {
        let parts = text.split(separator: ":")
        return (Int(parts.first ?? "") ?? 0) * 60 + (Int(parts.last ?? "") ?? 0)
    }

    // MARK: - Navigation

    /// Each operation in its own transaction: the stack row changed and one history event.
    /// - Returns: pops refused on an empty stack.
    func navigate(_ operations: [Workload.Navigation]) throws -> Int {
        var refused = 0
        for operation in operations {
            try transaction {
                switch operation {
                case .push(let user, let pizza):
                    let userID = userIDs[user]
                    let (depth, before) = try topOf(userID)
                    let route = #"[{"pizza":{"id":""# + pizzaIDs[pizza] + #""}}]"#
                    try pushRow.bind(userID, depth + 1, pizzaIDs[pizza]).run()
                    try insertEvent.bind(userID, "push", route, depth + 1, before).run()
                case .pop(let user):
                    let userID = userIDs[user]
                    let (depth, before) = try topOf(userID)
                    guard let before else {
                        refused += 1
                        return false
                    }
                    try popRow.bind(userID, depth).run()
                    try insertEvent.bind(userID, "pop", "[" + before + "]", depth - 1, before).run()
                case .popToRoot(let user):
                    let userID = userIDs[user]
                    var popped: [(Int64, String)] = []
                    popAll.bind(userID)
                    while try popAll.step() { popped.append((popAll.int(0), element(popAll, kind: 1))) }
                    popped.sort { $0.0 < $1.0 }
                    try insertEvent.bind(userID, "pop_to_root", "[" + popped.map(\.1).joined(separator: ",") + "]", 0,
                                         popped.last?.1).run()
                }
                return true
            }
        }
        return refused
    }

    /// The top of a user's stack: its depth (0 on the menu) and its JSON element.
    private func topOf(_ user: String) throws -> (Int64, String?) {
        defer { sqlite3_reset(top.handle) }
        guard try top.bind(user).step() else { return (0, nil) }
        return (top.int(0), element(top, kind: 1))
    }

    /// `{"pizza":{"id":"…"}}` or `{"order":{"id":"…"}}` from columns kind, pizza_id, order_id.
    private func element(_ statement: CStatement, kind column: Int32) -> String {
        let kind = statement.text(column)
        let id = statement.text(kind == "pizza" ? column + 1 : column + 2)
        return #"{""# + kind + #"":{"id":""# + id + #""}}"#
    }

    /// A user's stack, decoded, in one statement.
    func readPaths(_ users: [Int]) throws -> Int {
        var total = 0
        for user in users {
            var elements: [Element] = []
            path.bind(userIDs[user])
            while try path.step() {
                if path.isNull(0) { continue }
                switch path.text(0) {
                case "pizza": elements.append(.pizza(path.text(1)))
                case "order": elements.append(.order(path.text(2)))
                default: elements.append(.opaque(path.text(3), path.text(4)))
                }
            }
            total += elements.count
        }
        return total
    }

    enum Element { case pizza(String), order(String), opaque(String, String) }

    // MARK: - The menu

    /// A pizza decoded into a value, as a C programmer's struct would hold it.
    struct PizzaRow {
        let id: String, name: String, priceCents: Int64, archivedAt: String?, version: Int64, createdAt: String, updatedAt: String
    }

    /// The active menu in name order, each row decoded into a value.
    func readMenu(_ times: Int) throws -> Int {
        var rows = 0
        for _ in 0..<times {
            menu.bind()
            while try menu.step() {
                let row = PizzaRow(id: menu.text(0), name: menu.text(1), priceCents: menu.int(2),
                                   archivedAt: menu.isNull(3) ? nil : menu.text(3), version: menu.int(4),
                                   createdAt: menu.text(5), updatedAt: menu.text(6))
                rows += row.priceCents > 0 ? 1 : 0
            }
        }
        return rows
    }

    // MARK: - Edits

    /// The edit path: read the pizza (the sheet's draft), validate, then compare-and-set the
    /// price at the version read, in its own transaction (the trigger records the history).
    func editPrices(_ edits: [(pizza: Int, cents: Int64)]) throws -> Int {
        for edit in edits {
            let id = pizzaIDs[edit.pizza]
            guard try pizzaForEdit.bind(id).step() else { throw BenchError("no pizza \(id)") }
            let version = pizzaForEdit.int(2)
            sqlite3_reset(pizzaForEdit.handle)
            guard edit.cents > 0, edit.cents <= 100_000 else { throw BenchError("invalid price") }
            try transaction {
                try updatePrice.bind(edit.cents, id, version).run()
                guard sqlite3_changes(database.db) == 1 else { throw BenchError("conflict") }
                return true
            }
        }
        return edits.count
    }

    /// A version 4 UUID, lowercase, from SQLite's generator.
    private func randomUUID() -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        sqlite3_randomness(16, &bytes)
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(45) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
