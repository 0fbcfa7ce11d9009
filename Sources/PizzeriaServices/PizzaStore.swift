import PizzeriaStorage

/// The SQL of the menu. Every function takes the connection of an open transaction, so the
/// services compose several in one; values are always bound, never spliced into SQL.
enum PizzaStore {
    static func decode(_ row: Row) throws -> Pizza {
        Pizza(id: try row.string(0), name: try row.string(1), price: Money(cents: try row.int64(2)),
              archivedAt: try row.optionalString(3), version: try row.int(4),
              createdAt: try row.string(5), updatedAt: try row.string(6))
    }

    static func pizza(id: String, in db: Connection) throws -> Pizza? {
        try db.fetchOne("""
            SELECT id, name, price_cents, archived_at, version, created_at, updated_at
            FROM pizzas WHERE id = ?
            """, [id], decode)
    }

    static func list(includeArchived: Bool, in db: Connection) throws -> [Pizza] {
        try db.fetchAll("""
            SELECT id, name, price_cents, archived_at, version, created_at, updated_at
            FROM pizzas WHERE ? OR archived_at IS NULL ORDER BY lower(name), name
            """, [includeArchived], decode)
    }

    /// Pizzas whose name equals `name` ignoring case, with full Unicode folding.
    ///
    /// The `lower(name)` index finds ASCII-case matches; names with non-ASCII characters are few
    /// and compared here, because SQLite's `lower()` leaves them alone.
    static func sameName(as name: String, in db: Connection) throws -> [Pizza] {
        let key = PizzaName.foldKey(name)
        let ascii = try db.fetchAll("""
            SELECT id, name, price_cents, archived_at, version, created_at, updated_at
            FROM pizzas WHERE lower(name) = lower(?)
            """, [name], decode)
        let other = try db.fetchAll("""
            SELECT id, name, price_cents, archived_at, version, created_at, updated_at
            FROM pizzas WHERE name GLOB '*[^ -~]*'
            """, [], decode)
        var seen = Set<String>()
        return (ascii + other).filter { PizzaName.foldKey($0.name) == key && seen.insert($0.id).inserted }
    }

    /// Pizzas whose id starts with `prefix`, through the primary key index (a range, not LIKE).
    static func withIDPrefix(_ prefix: String, limit: Int, in db: Connection) throws -> [Pizza] {
        try db.fetchAll("""
            SELECT id, name, price_cents, archived_at, version, created_at, updated_at
            FROM pizzas WHERE id >= ? AND id < ? ORDER BY id LIMIT ?
            """, [prefix, prefix + "\u{10FFFF}", limit], decode)
    }

    static func insert(id: String, name: String, price: Money, in db: Connection) throws {
        try db.run("INSERT INTO pizzas (id, name, price_cents) VALUES (?, ?, ?)", [id, name, price.cents])
    }

    /// Compare-and-set: changes the row only if it is still at `version`. The history trigger
    /// bumps the version and records the change. Returns whether the row was at `version`.
    static func update(id: String, version: Int, name: String, price: Money, in db: Connection) throws -> Bool {
        try db.run("UPDATE pizzas SET name = ?, price_cents = ? WHERE id = ? AND version = ?",
                   [name, price.cents, id, version]) == 1
    }

    static func setArchived(id: String, at timestamp: String?, in db: Connection) throws {
        try db.run("UPDATE pizzas SET archived_at = ? WHERE id = ?", [timestamp, id])
    }

    static func history(of id: String, in db: Connection) throws -> [PizzaChange] {
        try db.fetchAll("""
            SELECT change, old_name, new_name, old_price_cents, new_price_cents, version, changed_at
            FROM pizza_history WHERE pizza_id = ? ORDER BY id
            """, [id]) { row in
            PizzaChange(change: PizzaChange.Kind(rawValue: try row.string(0)) ?? .edited,
                        oldName: try row.optionalString(1), newName: try row.string(2),
                        oldPrice: try row.optionalInt64(3).map(Money.init(cents:)),
                        newPrice: Money(cents: try row.int64(4)), version: try row.int(5),
                        changedAt: try row.string(6))
        }
    }
}
