import Foundation
import PizzeriaStorage

/// The SQL of the menu. Every function takes the connection of an open transaction, so the
/// services compose several in one; values are always bound, never spliced into SQL.
enum PizzaStore {
    /// The columns ``Decoder`` reads. Every query that decodes a pizza selects these (spliced
    /// in as a constant, never input).
    static let columns =
        "id, name, price_cents, archived_at, version, created_at, updated_at, category_id, allergens, stock_left, stock_until"

    /// A pizza from a row of ``columns``: ``Pizza``'s stored members (see ``StoredMembers``).
    typealias Decoder = StoredDecoder<Pizza>

    static func pizza(id: Pizza.ID, in db: Connection) throws -> Pizza? {
        try db.fetchOne("SELECT " + columns + " FROM pizzas WHERE id = ?", [id], Decoder.self)
    }

    /// What a booking needs of an item: its name now, whether it is on the menu, whether its
    /// category uses the oven, its allergens, the variant booked (the one named, else the default)
    /// and how many it has, and whether it has modifier groups — one statement, so a line costs
    /// one lookup.
    struct BookingSnapshot {
        let name: String
        let isArchived: Bool
        let usesOven: Bool
        /// Where its category prepares it, or `nil`.
        let stationID: Station.ID?
        /// The VAT rate its lines are booked at: the category's, else the shop's.
        let vatRate: VATRate
        let allergens: Set<Allergen>
        let variant: (id: Variant.ID, name: String, price: Money)
        let variantCount: Int
        let hasGroups: Bool
        /// The item's limit ("sold out tonight"): how many more, until when.
        let stockLeft: Int?
        let stockUntil: Date?
    }

    struct SnapshotDecoder: RowDecoder {
        let name, archived, usesOven, allergens, variantID, variantName, price, variants, groups: Column
        let stockLeft, stockUntil, vatRate, station: Column

        init(columns: ColumnResolver) throws {
            (name, archived, usesOven) = (try columns("name"), try columns("archived"), try columns("uses_oven"))
            (allergens, variantID) = (try columns("allergens"), try columns("variant_id"))
            (variantName, price) = (try columns("variant_name"), try columns("price_cents"))
            (variants, groups) = (try columns("variants"), try columns("has_groups"))
            (stockLeft, stockUntil) = (try columns("stock_left"), try columns("stock_until"))
            (vatRate, station) = (try columns("vat_rate_bp"), try columns("station_id"))
        }

        func decode(_ row: Row) throws -> BookingSnapshot {
            BookingSnapshot(
                name: try row.string(name), isArchived: try row.int(archived) == 1,
                usesOven: try row.int(usesOven) == 1, stationID: try row.optionalInt64(station).map(Station.ID.init),
                vatRate: VATRate(basisPoints: try row.int(vatRate)) ?? .standardFood,
                allergens: Allergen.set(bits: try row.int64(allergens)),
                variant: (
                    Variant.ID(try row.int64(variantID)), try row.string(variantName),
                    Money(cents: try row.int64(price))
                ),
                variantCount: try row.int(variants), hasGroups: try row.int(groups) == 1,
                stockLeft: try row.optionalInt64(stockLeft).map { Int($0) },
                stockUntil: try row.optionalString(stockUntil).flatMap(Timestamp.date(from:)))
        }
    }

    /// The booking snapshot's statement with `variant`, the condition that picks the variant,
    /// spliced in: one of the two constants below, never input (the ids are bound).
    private static func snapshotSQL(variant: String) -> String {
        """
        SELECT p.name, p.archived_at IS NOT NULL AS archived, k.uses_oven, k.station_id, p.allergens, v.id AS variant_id,
               v.name AS variant_name, coalesce(v.price_cents, p.price_cents) AS price_cents,
               (SELECT count(*) FROM pizza_variants c WHERE c.pizza_id = p.id) AS variants,
               EXISTS (SELECT 1 FROM pizza_modifier_groups a WHERE a.pizza_id = p.id) AS has_groups,
               p.stock_left, p.stock_until, coalesce(k.vat_rate_bp, s.vat_rate_bp) AS vat_rate_bp
        FROM pizzas p JOIN categories k ON k.id = p.category_id JOIN shop s ON s.id = 1
             JOIN pizza_variants v ON \(variant) AND v.pizza_id = p.id
        WHERE p.id = ?
        """
    }
    static let defaultSnapshotSQL = snapshotSQL(variant: "v.is_default = 1")
    static let chosenSnapshotSQL = snapshotSQL(variant: "v.id = ?")

    /// The item with `variant` (its default when `nil`); `nil` when there is no such item, or
    /// the variant is not one of its.
    static func snapshot(id: Pizza.ID, variant: Variant.ID? = nil, in db: Connection) throws -> BookingSnapshot? {
        guard let variant else { return try db.fetchOne(defaultSnapshotSQL, [id], SnapshotDecoder.self) }
        return try db.fetchOne(chosenSnapshotSQL, [variant, id], SnapshotDecoder.self)
    }

    /// The menu in name order, straight from the `name_key` index (no sort), after `after` (a
    /// name key) when paging.
    static let listSQL =
        "SELECT " + columns + " FROM pizzas WHERE (? OR archived_at IS NULL) AND name_key > ? ORDER BY name_key LIMIT ?"

    static func list(includeArchived: Bool, after: String = "", limit: Int = -1, in db: Connection) throws -> [Pizza] {
        try db.fetchAll(listSQL, [includeArchived, after, limit], Decoder.self)
    }

    /// Calls `body` with each pizza of the menu in name order, without collecting them.
    /// The whole menu in name order, in one statement without the paging predicates.
    static let activeMenuSQL = "SELECT " + columns + " FROM pizzas WHERE archived_at IS NULL ORDER BY name_key"
    static let wholeMenuSQL = "SELECT " + columns + " FROM pizzas ORDER BY name_key"

    static func forEach(includeArchived: Bool, in db: Connection, _ body: (Pizza) throws -> Void) throws {
        try db.forEach(includeArchived ? wholeMenuSQL : activeMenuSQL, [], Decoder.self, body)
    }

    /// The pizza whose name equals `name` ignoring case, with full Unicode case folding: one
    /// lookup of the unique `name_key` index.
    static func sameName(as name: String, in db: Connection) throws -> Pizza? {
        try db.fetchOne(sameNameSQL, [PizzaName.foldKey(name)], Decoder.self)
    }

    /// Pizzas whose folded name starts with `key` (on the menu first), a range of the `name_key` index.
    static func withNamePrefix(_ key: String, limit: Int, in db: Connection) throws -> [Pizza] {
        try db.fetchAll(
            "SELECT " + columns
                + " FROM pizzas WHERE name_key >= ? AND name_key < ? ORDER BY archived_at IS NOT NULL, name_key LIMIT ?",
            [key, key + "\u{10FFFF}", limit], Decoder.self)
    }

    static let sameNameSQL = "SELECT " + columns + " FROM pizzas WHERE name_key = ?"

    /// The name key of a pizza, for a page cursor.
    static func nameKey(_ pizza: Pizza) -> String { PizzaName.foldKey(pizza.name) }

    /// Pizzas whose id starts with `prefix`, through the primary key index (a range, not LIKE).
    static func withIDPrefix(_ prefix: String, limit: Int, in db: Connection) throws -> [Pizza] {
        try db.fetchAll(
            "SELECT " + columns + " FROM pizzas WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
            [prefix, prefix + "\u{10FFFF}", limit], Decoder.self)
    }

    /// Inserts a new pizza; `RETURNING` gives the row as stored (defaults and all), so nothing
    /// is read back. A name taken (the unique `name_key` index) is `MenuError.duplicateName`.
    static func insert(
        id: Pizza.ID, name: String, price: Money, category: Category.ID = Category.defaultID, at now: Date,
        in db: Connection
    ) throws -> Pizza {
        let stamp = Timestamp.string(from: now)
        let pizza = try uniqueName(name, in: db) {
            try db.fetchOne(
                """
                INSERT INTO pizzas (id, name, name_key, price_cents, created_at, updated_at, category_id)
                VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING
                """ + " " + columns, [id, name, PizzaName.foldKey(name), price.cents, stamp, stamp, category],
                Decoder.self)
        }
        guard let pizza else {
            throw DataError.damagedRow(
                table: "pizzas", id: id.description, problem: "the inserted row did not come back")
        }
        return pizza
    }

    /// Compare-and-set: changes the row only if it is still at `version`, bumping the version and
    /// the time itself (the history trigger sees a bumped version and keeps it; `now` is one value
    /// for the whole statement, triggers included), so `RETURNING` gives the row as it ends up.
    /// Returns `nil` when the pizza was not at `version` (or does not exist).
    static func update(id: Pizza.ID, version: Int, name: String, price: Money, at now: Date, in db: Connection) throws
        -> Pizza?
    {
        // Most edits change only the price. Naming the name columns in SET would make SQLite
        // rewrite the name indexes and run the name triggers even when the value is unchanged,
        // so a statement that sets the price alone is tried first; it matches only when the
        // stored name is exactly the one saved. The schema's trigger bumps the version, stamps
        // updated_at and records the history — only when the price really changed, so an edit
        // that changes nothing keeps its version. RETURNING would show the row before the
        // trigger's changes, so the saved row is read back by its primary key (cached pages).
        // (Setting the version and time here too and reading them with RETURNING, as below, was
        // measured slower than this read-back: docs/archive/PERFORMANCE-HISTORY.md.)
        if try db.run(priceEditSQL, [price.cents, id, version, name]) == 1, let saved = try pizza(id: id, in: db) {
            return saved
        }
        return try uniqueName(name, in: db) {
            try db.fetchOne(
                """
                UPDATE pizzas SET name = ?1, name_key = ?2, price_cents = ?3,
                       version = version + (name IS NOT ?1 OR price_cents IS NOT ?3),
                       updated_at = CASE WHEN name IS NOT ?1 OR price_cents IS NOT ?3 THEN ?6 ELSE updated_at END
                WHERE id = ?4 AND version = ?5 RETURNING
                """ + " " + columns,
                [name, PizzaName.foldKey(name), price.cents, id, version, Timestamp.string(from: now)], Decoder.self)
        }
    }

    static let priceEditSQL = "UPDATE pizzas SET price_cents = ?1 WHERE id = ?2 AND version = ?3 AND name = ?4"

    /// Runs `write`; a violation of the unique name key becomes ``MenuError/duplicateName(name:existing:)``
    /// naming the pizza that has the name (looked up only then: the index did the checking).
    private static func uniqueName<T>(_ name: String, in db: Connection, _ write: () throws -> T) throws -> T {
        do {
            return try write()
        } catch let error as DatabaseError where error.constraint == .unique(table: "pizzas", columns: ["name_key"]) {
            guard let existing = try sameName(as: name, in: db) else { throw error }
            throw MenuError.duplicateName(name: name, existing: existing)
        }
    }

    /// Sets (or with `left: nil` lifts) an item's limit, counting the change (for the audit trail).
    static func setStock(id: Pizza.ID, left: Int?, until: Date?, in db: Connection) throws {
        try db.run(
            "UPDATE pizzas SET stock_left = ?, stock_until = ?, stock_changes = stock_changes + 1 WHERE id = ?",
            [left, until.map(Timestamp.string(from:)), id])
    }

    static func setArchived(id: Pizza.ID, at date: Date?, in db: Connection) throws {
        try db.run("UPDATE pizzas SET archived_at = ? WHERE id = ?", [date.map(Timestamp.string(from:)), id])
    }

    /// The columns ``ChangeDecoder`` reads.
    static let changeColumns =
        "change, old_name, new_name, old_price_cents, new_price_cents, version, changed_at, id, pizza_id"

    /// A row of the menu's history, with its cursor (the row's id) and pizza.
    struct ChangeDecoder: RowDecoder {
        let id, pizzaID: Column
        let change: StoredDecoder<PizzaChange>

        init(columns: ColumnResolver) throws {
            (id, pizzaID) = (try columns("id"), try columns("pizza_id"))
            change = try StoredDecoder(columns: columns)
        }

        func decode(_ row: Row) throws -> (cursor: Int64, pizzaID: Pizza.ID, change: PizzaChange) {
            (try row.int64(id), try row.id(pizzaID), try change.decode(row))
        }
    }

    /// The ids of one item's history rows, its id bound as the one `?`: the chain from the item's
    /// `last_change` through each row's `previous_change` (migration 35), one lookup by id per
    /// change — no per-item index of the history.
    static let changeChainSQL = """
        WITH RECURSIVE chain(id) AS (
            SELECT last_change FROM pizzas WHERE id = ?
            UNION ALL
            SELECT h.previous_change FROM pizza_history h JOIN chain c ON h.id = c.id WHERE h.previous_change IS NOT NULL)
        SELECT id FROM chain
        """

    /// One item's changes, oldest first (``changeChainSQL``, a constant, with the item's id bound).
    static let historySQL =
        "SELECT " + changeColumns + " FROM pizza_history WHERE id IN (" + changeChainSQL + ") ORDER BY id"

    static func history(of id: Pizza.ID, in db: Connection) throws -> [PizzaChange] {
        try db.fetchAll(historySQL, [id], ChangeDecoder.self).map(\.change)
    }

    /// A menu change as read for the feed.
    typealias FeedRow = (cursor: Int64, pizzaID: Pizza.ID, change: PizzaChange)

    /// The cursor of a menu change.
    static func cursor(of row: FeedRow) -> EventCursor {
        EventCursor(position: row.cursor, subject: row.pizzaID, at: row.change.changedAt)
    }

    /// Menu changes after `cursor` (the history table's id), oldest first, once the cursor's
    /// own change has been found where it says.
    /// - Throws: ``FeedError/foreignCursor(_:newest:)``.
    static func events(after cursor: EventCursor, limit: Int, in db: Connection) throws -> ArraySlice<FeedRow> {
        let rows = try db.fetchAll(
            "SELECT " + changeColumns + " FROM pizza_history WHERE id >= ? ORDER BY id LIMIT ?",
            [cursor.position, limit + 1], ChangeDecoder.self)
        return try FeedHistory.rows(
            after: cursor, rows, limit: limit, cursorOf: cursor(of:), newest: { try latestEvent(in: db) })
    }

    /// The newest change's cursor (``EventCursor/start`` when there is none).
    static func latestEvent(in db: Connection) throws -> EventCursor {
        try db.fetchOne(
            "SELECT " + changeColumns + " FROM pizza_history ORDER BY id DESC LIMIT 1", [], ChangeDecoder.self
        )
        .map(cursor(of:)) ?? .start
    }

    // MARK: - Names for people (completion, suggestions)

    /// Up to `limit` names whose fold key starts with `key`, in key order: a range of the unique
    /// `name_key` index, however large the menu.
    static func names(withKeyPrefix key: String, limit: Int, in db: Connection) throws -> [String] {
        try db.fetchAll(
            "SELECT name FROM pizzas WHERE name_key >= ? AND name_key < ? ORDER BY name_key LIMIT ?",
            [key, key + "\u{10FFFF}", limit]
        ) { try $0.string("name") }
    }

    /// The first `limit` names, the menu's before the archived ones: where a misspelling is looked for.
    static func firstNames(limit: Int, in db: Connection) throws -> [String] {
        try db.fetchAll("SELECT name FROM pizzas ORDER BY archived_at IS NOT NULL, name_key LIMIT ?", [limit]) {
            try $0.string("name")
        }
    }
}
