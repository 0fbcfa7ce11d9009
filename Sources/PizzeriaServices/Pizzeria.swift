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

    /// Wraps an open database whose schema is current.
    public init(database: Database) {
        self.database = database
        self.menu = MenuService(database: database)
    }

    /// Opens (by default creating and migrating) the database at `path`.
    /// - Throws: ``SchemaError`` when the file is not one Pizzeria may use; ``DatabaseError``.
    public static func open(path: String, access: SchemaMigrator.Access = .migrate,
                            configuration: DatabaseConfiguration = .init()) throws -> Pizzeria {
        Pizzeria(database: try SchemaMigrator().open(path: path, access: access, configuration: configuration))
    }
}
