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
    /// Slot length, capacity, opening hours, time zone.
    public let settings: SettingsService
    /// Booking, lifecycle, slots and sales.
    public let orders: OrderService
    /// Each user's router: stack, sheet, history, deep links.
    public let navigation: NavigationService

    /// Wraps an open database whose schema is current.
    /// - Parameter now: the clock; tests pass a fixed one.
    public init(database: Database, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.menu = MenuService(database: database)
        self.users = UserService(database: database)
        self.settings = SettingsService(database: database)
        self.orders = OrderService(database: database, now: now)
        self.navigation = NavigationService(database: database)
    }

    /// Opens (by default creating and migrating) the database at `path`.
    /// - Throws: ``SchemaError`` when the file is not one Pizzeria may use; ``DatabaseError``.
    public static func open(path: String, access: SchemaMigrator.Access = .migrate,
                            configuration: DatabaseConfiguration = .init(),
                            now: @escaping @Sendable () -> Date = { Date() }) throws -> Pizzeria {
        Pizzeria(database: try SchemaMigrator().open(path: path, access: access, configuration: configuration), now: now)
    }
}
