import Foundation
import PizzeriaStorage

/// The SQL of the menu's categories. Functions take the connection of an open transaction.
enum CategoryStore {
    /// The columns ``Decoder`` reads.
    static let columns = "id, name, position, uses_oven, vat_rate_bp, station_id"

    /// A category from a row of ``columns``.
    typealias Decoder = StoredDecoder<Category>

    /// Every category in menu order: by position, then name.
    static func list(in db: Connection) throws -> [Category] {
        try db.fetchAll(
            "SELECT " + columns + " FROM categories ORDER BY position, name COLLATE NOCASE, id", [], Decoder.self)
    }

    static func category(id: Category.ID, in db: Connection) throws -> Category? {
        try db.fetchOne("SELECT " + columns + " FROM categories WHERE id = ?", [id], Decoder.self)
    }

    /// The category called `name`, ignoring ASCII case (the column's collation).
    /// The handles of the users whose navigation stack shows the category (at most 10).
    static func viewers(of id: Category.ID, in db: Connection) throws -> [String] {
        try db.fetchAll(
            """
            SELECT DISTINCT u.handle FROM navigation_stack s JOIN users u ON u.id = s.user_id
            WHERE s.category_id = ? ORDER BY u.handle LIMIT 10
            """, [id]
        ) { try $0.string("handle") }
    }

    static func category(named name: String, in db: Connection) throws -> Category? {
        try db.fetchOne("SELECT " + columns + " FROM categories WHERE name = ?", [name], Decoder.self)
    }

    /// The last position in use (0 with no category).
    static func lastPosition(in db: Connection) throws -> Int {
        try db.fetchOne("SELECT coalesce(max(position), 0) AS last FROM categories") { try $0.int("last") } ?? 0
    }

    /// Inserts a category prepared at `station` (or nowhere); `uses_oven` says whether the
    /// station holds the slot capacity, as the schema's trigger keeps it.
    static func insert(name: String, position: Int, station: Station?, in db: Connection) throws -> Category {
        let inserted = try db.fetchOne(
            "INSERT INTO categories (name, position, uses_oven, station_id) VALUES (?, ?, ?, ?) RETURNING " + columns,
            [name, position, station?.holdsSlotCapacity ?? false, station?.id], Decoder.self)
        guard let inserted else { throw DataError.damagedRow(table: "categories", id: name, problem: "not inserted") }
        return inserted
    }

    static func update(_ category: Category, in db: Connection) throws {
        try db.run(
            "UPDATE categories SET name = ?, position = ?, station_id = ?, uses_oven = ? WHERE id = ?",
            [category.name, category.position, category.stationID, category.usesOven, category.id])
    }

    /// Moves every other category at `position` or after one place down, to make room.
    static func makeRoom(at position: Int, except id: Category.ID?, in db: Connection) throws {
        try db.run(
            "UPDATE categories SET position = min(position + 1, ?) WHERE position >= ? AND id IS NOT ?",
            [Category.maximumPosition, position, id])
    }

    static func delete(id: Category.ID, in db: Connection) throws {
        try db.run("DELETE FROM categories WHERE id = ?", [id])
    }

    /// How many items (archived ones included) are in the category.
    static func itemCount(of id: Category.ID, in db: Connection) throws -> Int {
        try db.fetchOne("SELECT count(*) AS items FROM pizzas WHERE category_id = ?", [id]) { try $0.int("items") }
            ?? 0
    }

    /// Puts a pizza in a category (the schema's trigger refuses an unknown one).
    static func move(pizza id: Pizza.ID, to category: Category.ID, in db: Connection) throws {
        try db.run("UPDATE pizzas SET category_id = ? WHERE id = ?", [category, id])
    }
}
