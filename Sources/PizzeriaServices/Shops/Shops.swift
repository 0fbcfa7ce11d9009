import Foundation
import PizzeriaStorage
import Synchronization

/// A platform of pizzerias: one SQLite file per shop under one directory, opened by name.
///
/// Layout: `DIRECTORY/ab/cd/NAME.sqlite` (``ShopName/buckets``), each file a whole Pizzeria file
/// with its `-wal` beside it; nothing else is kept, so the directory *is* the list of shops. A
/// shop is opened through a pool that keeps at most ``maximumOpen`` shops open (the least
/// recently used closed first, once no caller still holds it), safe from any number of threads;
/// any number of processes may open the same shop (each shop is a file with SQLite's locking).
/// A shop whose file needs migrations is refused at open (``ShopsError/needsMigration(_:)``)
/// unless the platform opted into ``migrateOnOpen``; ``migrateAll(jobs:)`` upgrades every shop.
///
/// ```swift
/// let shops = try Shops(directory: "/srv/pizzerie", maximumOpen: 200)
/// let napoli = try shops.open(ShopName.parse("napoli-centro"))
/// let menu = try napoli.menu.pizzas()
/// ```
public final class Shops: Sendable {
    /// The directory holding every shop.
    public let directory: String
    /// The most shops the pool keeps open.
    public let maximumOpen: Int
    /// Whether opening a shop applies its pending migrations (else it is refused).
    public let migrateOnOpen: Bool
    /// How each shop is opened.
    public let configuration: PizzeriaConfiguration
    let now: @Sendable () -> Date
    let acting: Acting

    /// The open shops, with when each was last asked for.
    private let pool = Mutex<(shops: [ShopName: (pizzeria: Pizzeria, used: UInt64)], clock: UInt64)>(([:], 0))

    /// The default bound on open shops.
    public static let defaultMaximumOpen = 50

    /// How a platform's shops are opened unless the embedder says otherwise: reads run on a
    /// shop's writer connection whenever it is idle (``PizzeriaConfiguration/readsOnIdleWriter``),
    /// so a shop that is read and written one call at a time — most of a platform's shops — holds
    /// one connection and parses its schema once, not twice: here a cold open and first read
    /// takes about 5 ms instead of 10, and an open idle shop 2.2 MB instead of 3.9 (each
    /// connection holds the parsed schema, 1.5 MB). A read that overlaps a write still gets a
    /// reader connection of its own; a long read on the idle writer holds up that shop's writes
    /// in this process, so a platform with a few busy shops passes a configuration without it.
    public static var defaultConfiguration: PizzeriaConfiguration {
        var configuration = PizzeriaConfiguration()
        configuration.readsOnIdleWriter = true
        return configuration
    }

    /// The shops under `directory` (created if missing).
    /// - Throws: ``ValidationError`` for a bound below 1; `CocoaError` when the directory cannot be made.
    public init(
        directory: String, maximumOpen: Int = Shops.defaultMaximumOpen, migrateOnOpen: Bool = false,
        configuration: PizzeriaConfiguration = Shops.defaultConfiguration,
        now: @escaping @Sendable () -> Date = { Date() }, acting: Acting = .library
    ) throws {
        guard maximumOpen >= 1 else {
            throw ValidationError([FieldError(field: "maximum-open", message: "must be at least 1, not \(maximumOpen)")]
            )
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        (self.directory, self.maximumOpen, self.migrateOnOpen) = (directory, maximumOpen, migrateOnOpen)
        var configuration = configuration
        configuration.honoursMoveFence = true
        (self.configuration, self.now, self.acting) = (configuration, now, acting)
    }

    /// Where `name`'s file is (whether or not it exists).
    public func path(of name: ShopName) -> String { Self.path(of: name, in: directory) }

    /// Where `name`'s file is in the shops directory `directory`: `directory/ab/cd/NAME.sqlite`.
    public static func path(of name: ShopName, in directory: String) -> String {
        let (first, second) = name.buckets
        return "\(directory)/\(first)/\(second)/\(name.description).sqlite"
    }

    /// Whether the shop exists.
    public func exists(_ name: ShopName) -> Bool { FileManager.default.fileExists(atPath: path(of: name)) }

    /// Creates a shop: a new, migrated file.
    /// - Throws: ``ShopsError/exists(_:)``; storage errors.
    @discardableResult
    public func create(_ name: ShopName) throws -> String {
        let path = path(of: name)
        guard !exists(name) else { throw ShopsError.exists(name) }
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = try Maintenance.initialize(path: path, configuration: configuration)
        return path
    }

    /// The shop, open (from the pool when it is there).
    /// - Throws: ``ShopsError/notFound(_:)``, ``ShopsError/needsMigration(_:)``; a file that is
    ///   not a Pizzeria file (`SchemaError`).
    public func open(_ name: ShopName) throws -> Pizzeria {
        if let kept = pool.withLock({ state -> Pizzeria? in
            guard let entry = state.shops[name] else { return nil }
            state.clock += 1
            state.shops[name] = (entry.pizzeria, state.clock)
            return entry.pizzeria
        }) {
            return kept
        }
        let path = path(of: name)
        guard FileManager.default.fileExists(atPath: path) else { throw ShopsError.notFound(name) }
        let pizzeria: Pizzeria
        do {
            pizzeria = try Pizzeria.open(
                path: path, access: migrateOnOpen ? .migrate : .requireCurrent, configuration: configuration, now: now,
                acting: acting)
        } catch SchemaError.migrationsPending, SchemaError.definitionsPending {
            throw ShopsError.needsMigration(name)
        }
        return pool.withLock { state in
            state.clock += 1
            // Another thread may have opened it meanwhile: one handle per shop.
            if let entry = state.shops[name] {
                state.shops[name] = (entry.pizzeria, state.clock)
                return entry.pizzeria
            }
            state.shops[name] = (pizzeria, state.clock)
            while state.shops.count > maximumOpen,
                let oldest = state.shops.min(by: { $0.value.used < $1.value.used })?.key
            {
                state.shops[oldest] = nil
            }
            return pizzeria
        }
    }

    /// How many shops the pool holds open.
    public var openCount: Int { pool.withLock { $0.shops.count } }

    /// Closes the pool's handle of `name` (a caller still holding it keeps it until released).
    public func close(_ name: ShopName) { pool.withLock { _ = $0.shops.removeValue(forKey: name) } }

    /// Every shop, by name.
    public func names() throws -> [ShopName] {
        let files = FileManager.default
        var names: [ShopName] = []
        for first in (try? files.contentsOfDirectory(atPath: directory)) ?? [] where first.count == 2 {
            for second in (try? files.contentsOfDirectory(atPath: "\(directory)/\(first)")) ?? []
            where second.count == 2 {
                for file in try files.contentsOfDirectory(atPath: "\(directory)/\(first)/\(second)")
                where file.hasSuffix(".sqlite") {
                    if let name = ShopName(String(file.dropLast(7))), name.buckets == (first, second) {
                        names.append(name)
                    }
                }
            }
        }
        return names.sorted()
    }

    /// Removes a shop: its file, `-wal` and `-shm` (its replicas and backups are the operator's).
    /// - Throws: ``ShopsError/notFound(_:)``; file-system errors.
    public func remove(_ name: ShopName) throws {
        guard exists(name) else { throw ShopsError.notFound(name) }
        close(name)
        let path = path(of: name)
        for suffix in ["-wal", "-shm", ""] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.removeItem(atPath: path + suffix)
        }
    }
}

/// Why a shop could not be found, made or opened.
public enum ShopsError: PizzeriaFailure, Equatable {
    /// No shop has this name.
    case notFound(ShopName)
    /// A shop has this name already.
    case exists(ShopName)
    /// The shop's file has migrations to apply (`pizzeria shops migrate`).
    case needsMigration(ShopName)
    /// No directory of shops was given.
    case noDirectory

    /// Not found, or refused by the current state.
    public var category: FailureCategory {
        switch self {
        case .notFound: .notFound
        case .exists, .needsMigration: .refused
        case .noDirectory: .invalidInput
        }
    }

    /// A sentence for people.
    public var description: String {
        switch self {
        case .notFound(let name): "no shop named '\(name)'"
        case .exists(let name): "a shop named '\(name)' exists already"
        case .needsMigration(let name): "shop '\(name)' has migrations to apply"
        case .noDirectory: "--shop needs the shops' directory: --shops DIR or $PIZZERIA_SHOPS"
        }
    }
}

/// A shop as `shops list` shows it: its name and its file.
///
/// JSON: `{"name", "path"}`.
public struct ShopEntry: Sendable, Hashable, Record {
    /// The shop's name.
    public internal(set) var name: String = ""
    /// Its file.
    public internal(set) var path: String = ""

    /// An entry.
    public init(name: String, path: String) { (self.name, self.path) = (name, path) }

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members, the documented JSON shape, declared once (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.member("name", &name)
        try visitor.member("path", &path)
    }
}

extension Shops {
    /// Every shop with its file, by name.
    public func entries() throws -> [ShopEntry] {
        try names().map { ShopEntry(name: $0.description, path: path(of: $0)) }
    }
}
