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
    /// Payments, refunds, VAT, receipts and the cash-up.
    public let payments: PaymentService
    /// Each user's router: stack, sheet, history, deep links.
    public let navigation: NavigationService
    /// Notifiers: the order feed handed, at least once and in order, to whatever tells the customer.
    public let notifications: NotificationService
    /// Forgiving lookups for people at a keyboard (id prefixes, names, handles).
    public let lookup: LookupService

    /// The clock every rule and timestamp reads.
    let now: @Sendable () -> Date

    /// The time every rule uses now: the clock given when opened (the CLI's `PIZZERIA_NOW`).
    public var currentDate: Date { now() }
    /// The audit trail: who changed what, when.
    public let audit: AuditService
    /// The staff list and the `require-staff` check.
    public let staff: StaffService
    /// Who acts through this handle (recorded in the audit log).
    public let acting: Acting
    /// The picker's configuration between calls, shared by the handles ``acting(as:)`` makes.
    let pickerConfiguration: PickerConfigurationCache

    /// Wraps an open database whose schema is current.
    /// - Parameter now: the clock; tests pass a fixed one.
    /// - Parameter acting: who acts through this handle, for the audit log.
    public convenience init(
        database: Database, now: @escaping @Sendable () -> Date = { Date() }, acting: Acting = .library
    ) {
        self.init(database: database, now: now, acting: acting, pickerConfiguration: PickerConfigurationCache())
    }

    init(
        database: Database, now: @escaping @Sendable () -> Date, acting: Acting,
        pickerConfiguration: PickerConfigurationCache
    ) {
        self.pickerConfiguration = pickerConfiguration
        self.database = database
        self.now = now
        self.acting = acting
        self.menu = MenuService(database: database, now: now, acting: acting)
        self.users = UserService(database: database, now: now, acting: acting)
        self.settings = SettingsService(database: database, now: now, acting: acting)
        self.schedule = ScheduleService(database: database, now: now, acting: acting)
        self.capacity = CapacityService(database: database, now: now, acting: acting)
        self.orders = OrderService(database: database, now: now, pickerConfiguration: pickerConfiguration)
        self.payments = PaymentService(database: database, now: now, acting: acting)
        self.navigation = NavigationService(database: database, now: now, acting: acting)
        self.notifications = NotificationService(database: database, now: now, orders: orders, acting: acting)
        self.lookup = LookupService(database: database, now: now)
        self.audit = AuditService(database: database)
        self.staff = StaffService(database: database, now: now, acting: acting)
    }

    /// The same file through another handle that acts as `acting` (the services share the
    /// connections): how a service names the staff member behind each request.
    public func acting(as acting: Acting) -> Pizzeria {
        Pizzeria(database: database, now: now, acting: acting, pickerConfiguration: pickerConfiguration)
    }

    /// How ``open(path:access:configuration:now:acting:)`` treats the file.
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
    public static func open(
        path: String, access: Access = .migrate, configuration: PizzeriaConfiguration = .init(),
        now: @escaping @Sendable () -> Date = { Date() }, acting: Acting = .library
    ) throws -> Pizzeria {
        if access != .migrate { try requireFile(path) }
        let database = try migrator.open(
            path: path, access: access == .migrate ? .migrate : .requireCurrent,
            configuration: configuration.database)
        return Pizzeria(database: database, now: now, acting: acting)
    }

    /// The `async` form of ``open(path:access:configuration:now:acting:)``: opening (and migrating) runs
    /// on another thread while the caller is suspended.
    public static func open(
        path: String, access: Access = .migrate, configuration: PizzeriaConfiguration = .init(),
        now: @escaping @Sendable () -> Date = { Date() }, acting: Acting = .library
    ) async throws -> Pizzeria {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result {
                        try open(path: path, access: access, configuration: configuration, now: now, acting: acting)
                    })
            }
        }
    }

    /// The embedded migrations, with the steps in Swift that complete them.
    static let migrator = SchemaMigrator(dataSteps: MigrationSteps.all)

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
