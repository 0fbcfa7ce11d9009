import Foundation
import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

/// A fresh Pizzeria on a new file, kept alive with its directory.
struct Fixture {
    let directory: TemporaryDirectory
    let pizzeria: Pizzeria
    var path: String { directory.path("pizzeria.sqlite") }

    init(directory: TemporaryDirectory = TemporaryDirectory(), now: @escaping @Sendable () -> Date = { Date() }) throws
    {
        self.directory = directory
        pizzeria = try Pizzeria.open(path: directory.path("pizzeria.sqlite"), now: now)
    }

    /// Adds a pizza through the add flow.
    @discardableResult
    func add(_ name: String, _ cents: Int64) throws -> Pizza {
        var draft = PizzaDraft.blank
        draft.name = name
        draft.price = Money(cents: cents)
        return try pizzeria.menu.save(draft)
    }

    /// Every row of a table, as text, to prove a refused change wrote nothing.
    func snapshot() throws -> [String] {
        try pizzeria.database.read { db in
            let tables = try db.fetchAll("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") {
                try $0.string("name")
            }
            // Table names come from sqlite_schema itself, not from input.
            return try tables.flatMap { table in
                try db.fetchAll("SELECT * FROM \"\(table)\"") { row in
                    table + ": " + row.columns.map { "\(row[$0])" }.joined(separator: "|")
                }
            }
        }
    }
}

/// The code a trigger's refusal starts with (`slot_loads_derived`, `pizza_name_key`), `nil` when
/// `body` succeeds, or the error's text for any other failure: what a hand-written statement
/// typed as an analyst would into sqlite3 was refused by.
func triggerToken(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch let error as DatabaseError {
        if case .trigger(let token, _)? = error.constraint { return token }
        return "\(error)"
    } catch {
        return "\(error)"
    }
}
