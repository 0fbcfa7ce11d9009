import PizzeriaStorage

/// The SQL of the menu. Every function takes the connection of an open transaction, so the
/// services compose several in one; values are always bound, never spliced into SQL.
enum PizzaStore {
    /// The columns ``decode(_:)`` reads, in its order. Every query that decodes a pizza selects
    /// exactly these (spliced in as a constant, never input).
    static let columns = "id, name, price_cents, archived_at, version, created_at, updated_at"

    static func decode(_ row: Row) throws -> Pizza {
        Pizza(id: try row.string(0), name: try row.string(1), price: Money(cents: try row.int64(2)),
              archivedAt: try row.optionalString(3), version: try row.int(4),
              createdAt: try row.string(5), updatedAt: try row.string(6))
    }

    static func pizza(id: String, in db: Connection) throws -> Pizza? {
        try db.fetchOne("SELECT " + columns + " FROM pizzas WHERE id = ?", [id], decode)
    }

    static func list(includeArchived: Bool, in db: Connection) throws -> [Pizza] {
        try db.fetchAll("SELECT " + columns + " FROM pizzas WHERE ? OR archived_at IS NULL ORDER BY name_key",
                        [includeArchived], decode)
    }

    /// The pizza whose name equals `name` ignoring case, with full Unicode case folding: one
    /// lookup of the unique `name_key` index.
    static func sameName(as name: String, in db: Connection) throws -> Pizza? {
        try db.fetchOne("SELECT " + columns + " FROM pizzas WHERE name_key = ?", [PizzaName.foldKey(name)], decode)
    }

    /// Pizzas whose id starts with `prefix`, through the primary key index (a range, not LIKE).
    static func withIDPrefix(_ prefix: String, limit: Int, in db: Connection) throws -> [Pizza] {
        try db.fetchAll("SELECT " + columns + " FROM pizzas WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
                        [prefix, prefix + "\u{10FFFF}", limit], decode)
    }

    static func insert(id: String, name: String, price: Money, in db: Connection) throws {
        try db.run("INSERT INTO pizzas (id, name, name_key, price_cents) VALUES (?, ?, ?, ?)",
                   [id, name, PizzaName.foldKey(name), price.cents])
    }

    /// Compare-and-set: changes the row only if it is still at `version`. The history trigger
    /// bumps the version and records the change. Returns whether the row was at `version`.
    static func update(id: String, version: Int, name: String, price: Money, in db: Connection) throws -> Bool {
        try db.run("UPDATE pizzas SET name = ?, name_key = ?, price_cents = ? WHERE id = ? AND version = ?",
                   [name, PizzaName.foldKey(name), price.cents, id, version]) == 1
    }

    static func setArchived(id: String, at timestamp: String?, in db: Connection) throws {
        try db.run("UPDATE pizzas SET archived_at = ? WHERE id = ?", [timestamp, id])
    }

    static func history(of id: String, in db: Connection) throws -> [PizzaChange] {
        try db.fetchAll("""
            SELECT change, old_name, new_name, old_price_cents, new_price_cents, version, changed_at, id
            FROM pizza_history WHERE pizza_id = ? ORDER BY id
            """, [id]) { row in
            guard let change = PizzaChange.Kind(rawValue: try row.string(0)) else {
                throw DataError.damagedRow(table: "pizza_history", id: String(try row.int64(7)), problem: "unknown change '\(try row.string(0))'")
            }
            return PizzaChange(change: change,
                               oldName: try row.optionalString(1), newName: try row.string(2),
                               oldPrice: try row.optionalInt64(3).map(Money.init(cents:)),
                               newPrice: Money(cents: try row.int64(4)), version: try row.int(5),
                               changedAt: try row.string(6))
        }
    }

    /// Migration 5's data step: names with non-ASCII characters get their full case folding as
    /// `name_key` (the SQL could only use `lower()`). Two names that fold alike stop the migration.
    @Sendable static func fillNameKeys(_ db: Connection) throws {
        let names = try db.fetchAll("SELECT id, name FROM pizzas WHERE name GLOB '*[^ -~]*'") { (try $0.string(0), try $0.string(1)) }
        for (id, name) in names {
            do {
                try db.run("UPDATE pizzas SET name_key = ? WHERE id = ?", [PizzaName.foldKey(name), id])
            } catch let error as DatabaseError where error.isUniqueViolation {
                throw DatabaseError(extendedResultCode: error.extendedResultCode,
                                    message: "pizza '\(name)' (\(id)) has the same name as another pizza ignoring case; rename one of them, then migrate again")
            }
        }
    }
}
