import Foundation
import PizzeriaStorage

/// The placement file's SQL (docs/SHOPS.md, "The placement"): which node serves which shop. Its
/// own small schema, made on first open; not a shop's file and not migrated with the shops.
enum PlacementStore {
    /// The schema, `IF NOT EXISTS`: nodes, where each shop is, and every move.
    static let schema = """
        CREATE TABLE IF NOT EXISTS nodes (
          name TEXT PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 63 AND name NOT GLOB '*[^a-z0-9-]*' AND name NOT GLOB '-*'),
          shops_dir TEXT NOT NULL CHECK (shops_dir GLOB '/*'),
          replica_dir TEXT NOT NULL CHECK (replica_dir GLOB '/*'),
          added_at TEXT NOT NULL,
          added_by TEXT NOT NULL
        ) STRICT;
        CREATE TABLE IF NOT EXISTS placements (
          shop TEXT PRIMARY KEY CHECK (length(shop) BETWEEN 1 AND 63 AND shop NOT GLOB '*[^a-z0-9-]*' AND shop NOT GLOB '-*'),
          node TEXT NOT NULL REFERENCES nodes(name),
          state TEXT NOT NULL CHECK (state IN ('serving', 'moving')),
          target TEXT REFERENCES nodes(name),
          changed_at TEXT NOT NULL,
          changed_by TEXT NOT NULL,
          CHECK ((state = 'moving') = (target IS NOT NULL) AND target IS NOT node)
        ) STRICT;
        CREATE INDEX IF NOT EXISTS placements_by_node ON placements(node, shop);
        CREATE TABLE IF NOT EXISTS moves (
          id INTEGER PRIMARY KEY,
          shop TEXT NOT NULL,
          from_node TEXT NOT NULL,
          to_node TEXT NOT NULL,
          fence INTEGER NOT NULL CHECK (fence <> 0),
          started_at TEXT NOT NULL,
          finished_at TEXT,
          outcome TEXT CHECK (outcome IN ('moved', 'aborted')),
          detail TEXT,
          by TEXT NOT NULL,
          CHECK ((finished_at IS NULL) = (outcome IS NULL))
        ) STRICT;
        """

    static func createSchema(_ db: Connection) throws { try db.execute(schema) }

    /// Whether the file has the placement's three tables.
    static func hasSchema(_ db: Connection) throws -> Bool {
        try db.fetchOne(
            "SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table' AND name IN ('nodes', 'placements', 'moves')"
        ) { try $0.int("n") } == 3
    }

    static func node(_ row: Row) throws -> PlacementNode {
        PlacementNode(
            name: try row.string("name"), shopsDirectory: try row.string("shops_dir"),
            replicaDirectory: try row.string("replica_dir"), shops: try row.int("shops"))
    }

    static func nodes(_ db: Connection) throws -> [PlacementNode] {
        try db.fetchAll(
            """
            SELECT n.name, n.shops_dir, n.replica_dir,
                   (SELECT count(*) FROM placements p WHERE p.node = n.name) AS shops
            FROM nodes n ORDER BY n.name
            """, [], node)
    }

    static func node(named name: String, _ db: Connection) throws -> PlacementNode? {
        try db.fetchOne(
            """
            SELECT n.name, n.shops_dir, n.replica_dir,
                   (SELECT count(*) FROM placements p WHERE p.node = n.name) AS shops
            FROM nodes n WHERE n.name = ?
            """, [name], node)
    }

    static func addNode(_ node: PlacementNode, at: String, by: String, _ db: Connection) throws {
        try db.run(
            "INSERT INTO nodes (name, shops_dir, replica_dir, added_at, added_by) VALUES (?, ?, ?, ?, ?)",
            [node.name, node.shopsDirectory, node.replicaDirectory, at, by])
    }

    static func placement(_ row: Row) throws -> (shop: String, node: String, state: String, target: String?) {
        (try row.string("shop"), try row.string("node"), try row.string("state"), try row.optionalString("target"))
    }

    static func placements(node: String?, _ db: Connection) throws -> [(
        shop: String, node: String, state: String, target: String?
    )] {
        try db.fetchAll(
            "SELECT shop, node, state, target FROM placements WHERE ?1 IS NULL OR node = ?1 ORDER BY shop",
            [node], placement)
    }

    static func placement(of shop: String, _ db: Connection) throws -> (
        shop: String, node: String, state: String, target: String?
    )? {
        try db.fetchOne("SELECT shop, node, state, target FROM placements WHERE shop = ?", [shop], placement)
    }

    /// Places `shop` on `node`, serving; a shop already placed keeps its place (`false`).
    @discardableResult
    static func place(_ shop: String, on node: String, at: String, by: String, _ db: Connection) throws -> Bool {
        try db.run(
            """
            INSERT INTO placements (shop, node, state, changed_at, changed_by) VALUES (?, ?, 'serving', ?, ?)
            ON CONFLICT (shop) DO NOTHING
            """, [shop, node, at, by]) == 1
    }

    static func unplace(_ shop: String, _ db: Connection) throws {
        try db.run("DELETE FROM placements WHERE shop = ?", [shop])
    }

    /// Marks `shop` moving to `target` and opens its move's record; returns the move's id.
    static func beginMove(
        _ shop: String, from: String, to target: String, fence: Int32, at: String, by: String, _ db: Connection
    ) throws -> Int64 {
        try db.run(
            """
            UPDATE placements SET state = 'moving', target = ?, changed_at = ?, changed_by = ?
            WHERE shop = ? AND node = ? AND state = 'serving'
            """, [target, at, by, shop, from])
        try db.run(
            "INSERT INTO moves (shop, from_node, to_node, fence, started_at, by) VALUES (?, ?, ?, ?, ?, ?)",
            [shop, from, target, Int64(fence), at, by])
        return db.lastInsertRowID
    }

    /// Ends move `id`: the shop serving on `node` (the target when moved, the source when aborted).
    static func endMove(
        _ id: Int64, shop: String, servingOn node: String, outcome: String, detail: String?, at: String, by: String,
        _ db: Connection
    ) throws {
        try db.run(
            """
            UPDATE placements SET node = ?, state = 'serving', target = NULL, changed_at = ?, changed_by = ?
            WHERE shop = ?
            """, [node, at, by, shop])
        try db.run(
            "UPDATE moves SET finished_at = ?, outcome = ?, detail = ? WHERE id = ?", [at, outcome, detail, id])
    }
}

extension PlacementStore {
    /// The move of `shop` still open (a mover killed midway), if any.
    static func openMove(of shop: String, _ db: Connection) throws -> (id: Int64, fence: Int32)? {
        try db.fetchOne(
            "SELECT id, fence FROM moves WHERE shop = ? AND finished_at IS NULL ORDER BY id DESC LIMIT 1", [shop]
        ) { (try $0.int64("id"), Int32(truncatingIfNeeded: try $0.int64("fence"))) }
    }
}
