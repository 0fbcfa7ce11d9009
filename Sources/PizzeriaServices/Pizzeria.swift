import Foundation
import PizzeriaStorage

/// The backend in one value: open a database file and use its services.
///
/// ```swift
/// import PizzeriaServices
///
/// let pizzeria = try Pizzeria.open(path: "pizzeria.sqlite")
/// var draft = PizzaDraft.blank
/// draft.name = "Margherita"
/// draft.price = Money(cents: 600)
/// let margherita = try pizzeria.menu.save(draft)
/// ```
///
/// `Pizzeria` is `Sendable`: share one instance between threads and tasks. Each service call is
/// one transaction.
public final class Pizzeria: Sendable {
    /// The underlying database, for embedders that need SQL of their own.
    public let database: Database
    /// Pizzas and the add/edit flows.
    public let menu: MenuService
    /// Users.
    public let users: UserService
    /// Slot length, capacity, lead time, time zone, booking horizon.
    public let settings: SettingsService
    /// The week: opening hours by weekday, date exceptions, the hours of a service day.
    public let schedule: ScheduleService
    /// Capacity rules, pause and rush.
    public let capacity: CapacityService
    /// Booking, lifecycle, slots and sales.
    public let orders: OrderService
    /// Each user's router: stack, sheet, history, deep links.
    public let navigation: NavigationService
    /// Forgiving lookups for people at a keyboard (id prefixes, names, handles).
    public let lookup: LookupService

    /// Wraps an open database whose schema is current.
    /// - Parameter now: the clock; tests pass a fixed one.
    public init(database: Database, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.menu = MenuService(database: database, now: now)
        self.users = UserService(database: database, now: now)
        self.settings = SettingsService(database: database, now: now)
        self.schedule = ScheduleService(database: database, now: now)
        self.capacity = CapacityService(database: database, now: now)
        self.orders = OrderService(database: database, now: now)
        self.navigation = NavigationService(database: database, now: now)
        self.lookup = LookupService(database: database, now: now)
    }

    /// How ``open(path:access:configuration:now:)`` treats the file.
    public enum Access: Sendable, Equatable {
        /// Create the file if missing and apply pending migrations.
        case migrate
        /// The file must exist and be fully migrated; it is never created or migrated.
        case requireCurrent
    }

    /// Opens (by default creating and migrating) the database at `path`.
    /// - Throws: ``MaintenanceError/noDatabase(path:)`` when the file is missing and `access` does
    ///   not create it; `SchemaError` when the file is not one Pizzeria may use (a foreign or
    ///   newer file, an edited migration, pending migrations with ``Access/requireCurrent``);
    ///   `DatabaseError`. ``FailureReport`` classifies any of them.
    public static func open(path: String, access: Access = .migrate, configuration: PizzeriaConfiguration = .init(),
                            now: @escaping @Sendable () -> Date = { Date() }) throws -> Pizzeria {
        if access != .migrate { try requireFile(path) }
        let database = try migrator.open(path: path, access: access == .migrate ? .migrate : .requireCurrent,
                                         configuration: configuration.database)
        return Pizzeria(database: database, now: now)
    }

    /// The `async` form of ``open(path:access:configuration:now:)``: opening (and migrating) runs
    /// on another thread while the caller is suspended.
    public static func open(path: String, access: Access = .migrate, configuration: PizzeriaConfiguration = .init(),
                            now: @escaping @Sendable () -> Date = { Date() }) async throws -> Pizzeria {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try open(path: path, access: access, configuration: configuration, now: now) })
            }
        }
    }

    /// The embedded migrations, with the steps in Swift that complete them.
    static let migrator = SchemaMigrator(dataSteps: ["0005_edges.sql": PizzaStore.fillNameKeys,
                                                     "0006_week.sql": OrderStore.fillLocalTimes,
                                                     "0009_every_path.sql": Rehoming.markKept])

    /// Throws ``MaintenanceError/noDatabase(path:)`` when nothing (not even a link) is at `path`.
    static func requireFile(_ path: String) throws {
        let manager = FileManager.default
        guard manager.fileExists(atPath: path) || manager.isSymbolicLink(path) else {
            throw MaintenanceError.noDatabase(path: path)
        }
    }
}

extension FileManager {
    /// Whether `path` is a symbolic link (dangling or not).
    fileprivate func isSymbolicLink(_ path: String) -> Bool {
        (try? attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeSymbolicLink
    }
}
