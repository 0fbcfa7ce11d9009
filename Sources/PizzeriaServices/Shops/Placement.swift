import Foundation
import PizzeriaStorage

/// Which node serves which shop: the directory a router reads (docs/SHOPS.md, "The placement").
///
/// A small SQLite file of its own (`--placement FILE`, `$PIZZERIA_PLACEMENT`) with three tables:
/// `nodes` (each node's shops directory and the replica directory its replicator streams to),
/// `placements` (each shop's node, and `moving` with a target while a move runs) and `moves` (every
/// move: who, when, how it ended). A router sends a shop's requests to its node; a shop `moving`
/// takes no writes (retry); ``ShopMove`` changes a placement.
public final class Placement: Sendable {
    /// The placement file.
    public let path: String
    let database: Database
    let now: @Sendable () -> Date
    let acting: Acting

    /// The placement at `path`. Only `create` makes the file and its tables (when missing): a
    /// router's read opens what exists and writes nothing.
    /// - Throws: ``PlacementError/noPlacementFile(_:)`` for a missing file (without `create`) or
    ///   a SQLite file without the placement's tables; storage errors (a file that is not SQLite is
    ///   ``DatabaseError/Kind/notADatabase``).
    public init(
        path: String, create: Bool = false, now: @escaping @Sendable () -> Date = { Date() },
        acting: Acting = .library
    ) throws {
        guard create || FileManager.default.fileExists(atPath: path) else {
            throw PlacementError.noPlacementFile(path)
        }
        var configuration = DatabaseConfiguration()
        configuration.maximumReaderCount = 1
        let database = try Database(path: path, configuration: configuration, create: create)
        if create {
            try database.write { try PlacementStore.createSchema($0) }
        } else if try !database.read({ try PlacementStore.hasSchema($0) }) {
            throw PlacementError.noPlacementFile(path)
        }
        (self.path, self.database, self.now, self.acting) = (path, database, now, acting)
    }

    var stamp: (at: String, by: String) {
        (Timestamp.string(from: now()), acting.name.map { "\($0) (\(acting.source))" } ?? acting.source)
    }

    /// Every node, by name, with how many shops each serves.
    public func nodes() throws -> [PlacementNode] { try database.read { try PlacementStore.nodes($0) } }

    /// The node named `name`.
    /// - Throws: ``PlacementError/noNode(_:)``.
    public func node(_ name: ShopName) throws -> PlacementNode {
        guard let node = try database.read({ try PlacementStore.node(named: name.description, $0) }) else {
            throw PlacementError.noNode(name.description)
        }
        return node
    }

    /// Adds a node: its shops directory and its replica directory (both absolute). The shops
    /// already in the directory and placed nowhere are placed on it, serving; they are returned.
    /// - Throws: ``ValidationError`` for a relative directory; ``PlacementError/nodeExists(_:)``.
    @discardableResult
    public func addNode(_ name: ShopName, shopsDirectory: String, replicaDirectory: String) throws -> [ShopName] {
        var problems: [FieldError] = []
        if !shopsDirectory.hasPrefix("/") {
            problems.append(FieldError(field: "dir", message: "must be an absolute path, not '\(shopsDirectory)'"))
        }
        if !replicaDirectory.hasPrefix("/") {
            problems.append(
                FieldError(field: "replica", message: "must be an absolute path, not '\(replicaDirectory)'"))
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        let found = try Shops(directory: shopsDirectory).names()
        let stamp = stamp
        return try database.write { db in
            guard try PlacementStore.node(named: name.description, db) == nil else {
                throw PlacementError.nodeExists(name.description)
            }
            try PlacementStore.addNode(
                PlacementNode(
                    name: name.description, shopsDirectory: shopsDirectory, replicaDirectory: replicaDirectory,
                    shops: 0), at: stamp.at, by: stamp.by, db)
            return try found.filter {
                try PlacementStore.place($0.description, on: name.description, at: stamp.at, by: stamp.by, db)
            }
        }
    }

    /// Every shop's place (or only `node`'s), by shop.
    public func placements(on node: ShopName? = nil) throws -> [ShopPlacement] {
        try database.read { db in
            let nodes = Dictionary(uniqueKeysWithValues: try PlacementStore.nodes(db).map { ($0.name, $0) })
            return try PlacementStore.placements(node: node?.description, db).map { row in
                try Self.entry(row, nodes: nodes)
            }
        }
    }

    static func entry(
        _ row: (shop: String, node: String, state: String, target: String?), nodes: [String: PlacementNode]
    ) throws -> ShopPlacement {
        guard let shop = ShopName(row.shop), let node = nodes[row.node] else {
            throw DataError.damagedRow(table: "placements", id: row.shop, problem: "names no node or an invalid shop")
        }
        return ShopPlacement(
            shop: row.shop, node: row.node, state: row.target == nil ? .serving : .moving, target: row.target,
            path: Shops.path(of: shop, in: node.shopsDirectory))
    }

    /// Where `shop` is served: its node and its file there.
    /// - Throws: ``PlacementError/notPlaced(_:)``; ``PlacementError/moving(shop:from:to:)`` while
    ///   it moves (busy: retry); ``PlacementError/elsewhere(shop:node:asked:)`` when `node` is
    ///   given and the shop is on another.
    public func locate(_ shop: ShopName, on node: ShopName? = nil) throws -> ShopPlacement {
        let place = try database.read { db -> ShopPlacement? in
            guard let row = try PlacementStore.placement(of: shop.description, db) else { return nil }
            let nodes = Dictionary(uniqueKeysWithValues: try PlacementStore.nodes(db).map { ($0.name, $0) })
            return try Self.entry(row, nodes: nodes)
        }
        guard let place else { throw PlacementError.notPlaced(shop.description) }
        if let target = place.target {
            throw PlacementError.moving(shop: shop.description, from: place.node, to: target)
        }
        if let node, node.description != place.node {
            throw PlacementError.elsewhere(shop: shop.description, node: place.node, asked: node.description)
        }
        return place
    }

    /// Creates `shop` on `node`: a new, migrated file in the node's directory, placed there.
    /// - Throws: ``PlacementError/noNode(_:)``; ``ShopsError/exists(_:)`` when the shop is placed
    ///   anywhere or its file exists.
    @discardableResult
    public func create(_ shop: ShopName, on node: ShopName, configuration: PizzeriaConfiguration = .init()) throws
        -> String
    {
        let place = try self.node(node)
        if try database.read({ try PlacementStore.placement(of: shop.description, $0) }) != nil {
            throw ShopsError.exists(shop)
        }
        let path = try Shops(directory: place.shopsDirectory, configuration: configuration).create(shop)
        let stamp = stamp
        try database.write { db in
            guard try PlacementStore.place(shop.description, on: node.description, at: stamp.at, by: stamp.by, db)
            else { throw ShopsError.exists(shop) }
        }
        return path
    }

    /// Removes `shop`'s placement (its file is ``Shops/remove(_:)``'s).
    public func unplace(_ shop: ShopName) throws {
        try database.write { try PlacementStore.unplace(shop.description, $0) }
    }
}

/// A node of the placement: where its shops live and where its replicator streams them.
///
/// JSON: `{"name", "shops_dir", "replica_dir", "shops"}`.
public struct PlacementNode: Sendable, Hashable, Record {
    /// The node's name (the rule of a shop's name).
    public internal(set) var name: String = ""
    /// Its `--shops` directory.
    public internal(set) var shopsDirectory: String = ""
    /// The directory its replicator (`scripts/replicate-shops`) streams its shops to.
    public internal(set) var replicaDirectory: String = ""
    /// How many shops it serves (or is moving away).
    public internal(set) var shops: Int = 0

    /// The members: the documented JSON shape, declared once (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.member("name", &name)
        try visitor.member("replica_dir", &replicaDirectory)
        try visitor.member("shops", &shops)
        try visitor.member("shops_dir", &shopsDirectory)
    }
}

extension PlacementNode {
    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}
}

/// Where one shop is served.
///
/// JSON: `{"shop", "node", "state": "serving"|"moving", "target", "path"}`.
public struct ShopPlacement: Sendable, Hashable, Record {
    /// Whether the shop takes requests.
    public enum State: String, Sendable, Hashable, Codable, CaseIterable {
        /// Served by its node.
        case serving
        /// Being moved to ``ShopPlacement/target``: no writes until the move ends (retry).
        case moving
    }

    /// The shop.
    public internal(set) var shop: String = ""
    /// The node serving it.
    public internal(set) var node: String = ""
    /// Serving or moving.
    public internal(set) var state: State = .serving
    /// The node it is moving to, while it moves.
    public internal(set) var target: String?
    /// Its file on its node.
    public internal(set) var path: String = ""

    /// The members: the documented JSON shape, declared once (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.member("node", &node)
        try visitor.member("path", &path)
        try visitor.member("shop", &shop)
        try visitor.member("state", raw: &state, absent: nil)
        try visitor.member("target", &target)
    }
}

extension ShopPlacement {
    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}
}

/// Why the placement refused.
public enum PlacementError: PizzeriaFailure, Equatable {
    /// No node has this name.
    case noNode(String)
    /// A node has this name already.
    case nodeExists(String)
    /// The shop is placed nowhere.
    case notPlaced(String)
    /// The shop is moving: its writes wait for the move (retry).
    case moving(shop: String, from: String, to: String)
    /// The shop is on another node than the one asked.
    case elsewhere(shop: String, node: String, asked: String)
    /// A move cannot start or could not finish (the shop stays where it was).
    case moveFailed(shop: String, reason: String)
    /// No placement file was given.
    case noPlacement
    /// No placement at this path (or a file without its tables).
    case noPlacementFile(String)

    /// Not found, refused, busy or invalid.
    public var category: FailureCategory {
        switch self {
        case .noNode, .notPlaced, .elsewhere, .noPlacementFile: .notFound
        case .nodeExists, .moveFailed: .refused
        case .moving: .busy
        case .noPlacement: .invalidInput
        }
    }

    /// A sentence for people.
    public var description: String {
        switch self {
        case .noNode(let name): "node: no node named '\(name)' in the placement"
        case .nodeExists(let name): "node: a node named '\(name)' exists already"
        case .notPlaced(let shop): "shop: '\(shop)' is placed on no node"
        case .moving(let shop, let from, let to):
            "shop: '\(shop)' is moving from node \(from) to node \(to); it takes no writes until the move ends"
        case .elsewhere(let shop, let node, let asked): "shop: '\(shop)' is on node \(node), not on node \(asked)"
        case .moveFailed(let shop, let reason): "move: shop '\(shop)' did not move (it stays where it was): \(reason)"
        case .noPlacement: "the placement file is needed: --placement FILE or $PIZZERIA_PLACEMENT"
        case .noPlacementFile(let path): "placement: no placement at \(path)"
        }
    }
}

/// A write refused because the shop's file is fenced by a move (busy: retry on the shop's node).
public typealias FencedForMove = MoveFence.Fenced
