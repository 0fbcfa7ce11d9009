import Foundation
import PizzeriaStorage

/// Who acts through a ``Pizzeria`` handle, and through what: the audit log records both with
/// every change the handle makes to the menu, users, settings, hours, capacity and staff.
///
/// ```swift
/// let pizzeria = try Pizzeria.open(path: path, acting: Acting(name: "giulia", source: "till 2"))
/// ```
public struct Acting: Sendable, Hashable {
    /// The staff name (1–64 Unicode scalars), or `nil` when nobody says.
    public var name: String?
    /// The command or API that makes the changes: `pizzeria pizza edit`, `library`, `till 2`.
    public var source: String

    /// Someone acting through `source`.
    public init(name: String? = nil, source: String = "library") {
        self.name = name.flatMap { $0.isEmpty ? nil : $0 }
        self.source = String(source.prefix(100))
    }

    /// Nobody in particular, through the library.
    public static let library = Acting()

    /// The same source with `name` acting, when one is given (a call's own `by:`).
    func named(_ name: String?) -> Acting { name.map { Acting(name: $0, source: source) } ?? self }
}

extension Database {
    /// A write transaction whose changes the audit log records as made by `acting` at `now`
    /// (``AuditStore``): the context is set first and cleared before the commit, so nothing
    /// else — a later hand edit in `sqlite3` — is ever attributed to them.
    func audited<T>(_ acting: Acting, at now: Date, _ body: (Connection) throws -> T) throws -> T {
        if let name = acting.name {
            let problems = TextLimit.problems(name, field: "by", maximum: OrderService.maximumActorLength)
            guard problems.isEmpty else { throw ValidationError(problems) }
        }
        return try write { db in
            try AuditStore.enter(acting, at: now, in: db)
            let result = try body(db)
            try AuditStore.leave(in: db)
            return result
        }
    }
}
