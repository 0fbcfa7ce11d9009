import Foundation
import PizzeriaStorage

/// The menu: listing and looking up pizzas, and the add/edit sheet flows.
///
/// Every change validates first, then runs in one write transaction; a refused change writes
/// nothing. Thread-safe: share one instance.
public final class MenuService: Sendable {
    let database: Database
    let now: @Sendable () -> Date

    init(database: Database, now: @escaping @Sendable () -> Date) {
        self.database = database
        self.now = now
    }

    // MARK: - Reading

    /// The menu, by name; with `includeArchived`, archived pizzas too.
    public func list(includeArchived: Bool = false) throws -> [Pizza] {
        try database.read { try PizzaStore.list(includeArchived: includeArchived, in: $0) }
    }

    /// The pizza with this exact id, or `nil`.
    public func pizza(id: String) throws -> Pizza? {
        try database.read { try PizzaStore.pizza(id: id, in: $0) }
    }

    /// The pizza that `query` names: its id, its name ignoring case, or a unique prefix of at
    /// least four characters of its id — in that order of precedence.
    /// - Throws: ``MenuError/notFound(query:)``, or ``MenuError/ambiguous(query:candidates:)``
    ///   listing the pizzas a prefix matches.
    public func find(_ query: String) throws -> Pizza {
        try database.read { try Self.find(query, in: $0) }
    }

    static func find(_ query: String, in db: Connection) throws -> Pizza {
        let trimmed = query.trimmingWhitespace()
        if let exact = try PizzaStore.pizza(id: trimmed.lowercased(), in: db) { return exact }
        if let pizza = try PizzaStore.sameName(as: trimmed, in: db) { return pizza }
        if trimmed.count >= 4 {
            let matches = try PizzaStore.withIDPrefix(trimmed.lowercased(), limit: 10, in: db)
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 { throw MenuError.ambiguous(query: query, candidates: matches) }
        }
        throw MenuError.notFound(query: query)
    }

    /// The pizza that already has `name` (ignoring case, archived ones included), other than
    /// the one with id `excluding`; `nil` when the name is free.
    public func nameTakenBy(_ name: String, excluding id: String?) throws -> Pizza? {
        try database.read { db in
            try PizzaStore.sameName(as: name, in: db).flatMap { $0.id == id ? nil : $0 }
        }
    }

    /// A pizza's changes, oldest first.
    public func history(of pizzaID: String) throws -> [PizzaChange] {
        try database.read { try PizzaStore.history(of: pizzaID, in: $0) }
    }

    // MARK: - The sheet flows

    /// A draft for the edit sheet of the pizza `query` names.
    public func editDraft(for query: String) throws -> PizzaDraft {
        PizzaDraft(editing: try find(query))
    }

    /// Saves a draft: validates it (every field error at once), then adds or edits in one
    /// transaction.
    /// - Returns: the pizza as saved.
    /// - Throws: ``ValidationError`` listing every broken rule; ``MenuError/duplicateName(name:existing:)``;
    ///   ``MenuError/conflict(pizza:draftVersion:)`` when an edited pizza changed since the
    ///   draft was taken; ``MenuError/notFound(query:)``.
    public func save(_ draft: PizzaDraft) throws -> Pizza {
        let problems = draft.validate()
        guard problems.isEmpty else { throw ValidationError(problems) }
        return try database.write { try Self.save(draft, in: $0) }
    }

    /// The transactional half of ``save(_:)``, for flows that save as part of a larger write
    /// (the navigation sheet). The draft must already be valid.
    static func save(_ draft: PizzaDraft, in db: Connection) throws -> Pizza {
        let name = PizzaName.normalize(draft.name)
        switch draft.mode {
        case .add:
            if let existing = try PizzaStore.sameName(as: name, in: db) {
                throw MenuError.duplicateName(name: name, existing: existing)
            }
            let id = UUID().uuidString.lowercased()
            try PizzaStore.insert(id: id, name: name, price: draft.price, in: db)
            return try required(id, in: db)

        case .edit(let id, let baseVersion):
            let current = try required(id, in: db)
            guard current.version == baseVersion else { throw MenuError.conflict(pizza: current, draftVersion: baseVersion) }
            // Only a new name can collide; a price edit skips the name check.
            if PizzaName.foldKey(name) != PizzaName.foldKey(current.name),
               let other = try PizzaStore.sameName(as: name, in: db), other.id != id {
                throw MenuError.duplicateName(name: name, existing: other)
            }
            guard try PizzaStore.update(id: id, version: baseVersion, name: name, price: draft.price, in: db) else {
                throw MenuError.conflict(pizza: try required(id, in: db), draftVersion: baseVersion)
            }
            return try required(id, in: db)
        }
    }

    // MARK: - Archive and restore

    /// Takes the pizza off the menu. It stays in the database: orders and history refer to it.
    /// - Throws: ``MenuError/notFound(query:)``, ``MenuError/alreadyArchived(_:)``.
    @discardableResult
    public func archive(_ query: String) throws -> Pizza {
        try database.write { db in
            let pizza = try Self.find(query, in: db)
            guard !pizza.isArchived else { throw MenuError.alreadyArchived(pizza) }
            try PizzaStore.setArchived(id: pizza.id, at: Timestamp.string(from: now()), in: db)
            return try Self.required(pizza.id, in: db)
        }
    }

    /// Puts an archived pizza back on the menu.
    /// - Throws: ``MenuError/notFound(query:)``, ``MenuError/notArchived(_:)``.
    @discardableResult
    public func restore(_ query: String) throws -> Pizza {
        try database.write { db in
            let pizza = try Self.find(query, in: db)
            guard pizza.isArchived else { throw MenuError.notArchived(pizza) }
            try PizzaStore.setArchived(id: pizza.id, at: nil, in: db)
            return try Self.required(pizza.id, in: db)
        }
    }

    static func required(_ id: String, in db: Connection) throws -> Pizza {
        guard let pizza = try PizzaStore.pizza(id: id, in: db) else { throw MenuError.notFound(query: id) }
        return pizza
    }
}
