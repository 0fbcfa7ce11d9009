import Foundation
import PizzeriaStorage

/// The menu: listing pizzas, and the add/edit sheet flows.
///
/// Every change validates first, then runs in one write transaction; a refused change writes
/// nothing. Pizzas are named by exact id (or exact name); the CLI's forgiving lookup by id prefix
/// lives in ``LookupService``. Thread-safe: share one instance; from `async` code
/// run it through ``Pizzeria/read(_:)`` or ``Pizzeria/write(_:)``.
public final class MenuService: Sendable {
    let database: Database
    let now: @Sendable () -> Date

    /// Who acts through this handle, for the audit log.
    let acting: Acting

    init(database: Database, now: @escaping @Sendable () -> Date, acting: Acting = .library) {
        self.database = database
        self.now = now
        self.acting = acting
    }

    // MARK: - Reading

    /// The menu, by name; with `includeArchived`, archived pizzas too.
    public func list(includeArchived: Bool = false) throws -> [Pizza] {
        try database.read { try PizzaStore.list(includeArchived: includeArchived, in: $0) }
    }

    /// Up to `limit` pizzas by name, starting after `cursor`.
    public func page(includeArchived: Bool = false, limit: Int = 100, after cursor: PageCursor? = nil) throws -> Page<
        Pizza
    > {
        let after = try cursor?.parts(1)[0] ?? ""
        let items = try database.read {
            try PizzaStore.list(includeArchived: includeArchived, after: after, limit: max(1, limit), in: $0)
        }
        return Page(
            items: items,
            next: items.count < max(1, limit) ? nil : items.last.map { PageCursor([PizzaStore.nameKey($0)]) })
    }

    /// Calls `body` with each pizza by name, inside one read, without holding the whole menu in
    /// memory (for exports of very large menus).
    public func forEach(includeArchived: Bool = false, _ body: (Pizza) throws -> Void) throws {
        try database.read { try PizzaStore.forEach(includeArchived: includeArchived, in: $0, body) }
    }

    /// The pizza with this id, or `nil`.
    public func pizza(id: Pizza.ID) throws -> Pizza? {
        try database.readStatement { try PizzaStore.pizza(id: id, in: $0) }
    }

    /// The pizza with this name, ignoring case (full Unicode case folding; archived ones
    /// included), or `nil`.
    public func pizza(named name: String) throws -> Pizza? {
        try database.readStatement { try PizzaStore.sameName(as: name, in: $0) }
    }

    /// A pizza's changes, oldest first.
    /// - Throws: ``MenuError/notFound(_:)``.
    public func history(of id: Pizza.ID) throws -> [PizzaChange] {
        try database.read { db in
            _ = try Self.required(id, in: db)
            return try PizzaStore.history(of: id, in: db)
        }
    }

    // MARK: - The sheet flows

    /// A draft for the edit sheet of a pizza.
    /// - Throws: ``MenuError/notFound(_:)``.
    public func editDraft(for id: Pizza.ID) throws -> PizzaDraft {
        PizzaDraft(editing: try database.readStatement { try Self.required(id, in: $0) })
    }

    /// Saves a draft: validates it (every field error at once), then adds or edits in one
    /// transaction.
    /// - Returns: the pizza as saved.
    /// - Throws: ``ValidationError`` listing every broken rule; ``MenuError/duplicateName(name:existing:)``;
    ///   ``MenuError/conflict(pizza:draftVersion:)`` when an edited pizza changed since the
    ///   draft was taken; ``MenuError/notFound(_:)``.
    public func save(_ draft: PizzaDraft) throws -> Pizza {
        let problems = draft.validate()
        guard problems.isEmpty else { throw ValidationError(problems) }
        let now = now()
        return try database.audited(acting, at: now) { try Self.save(draft, at: now, in: $0) }
    }

    /// The transactional half of ``save(_:)``, for flows that save as part of a larger write
    /// (the navigation sheet). The draft must already be valid.
    static func save(_ draft: PizzaDraft, at now: Date, in db: Connection) throws -> Pizza {
        let name = PizzaName.normalize(draft.name)
        switch draft.mode {
        case .add:
            let category = try draft.categoryID.map { try Self.requiredCategory($0, in: db).id } ?? Category.defaultID
            let pizza = try PizzaStore.insert(
                id: .random(), name: name, price: draft.price, category: category, at: now, in: db)
            guard draft.hasChoices else { return pizza }
            try applyChoices(of: draft, to: pizza.id, in: db)
            return try required(pizza.id, in: db)
        case .edit(let id, let baseVersion):
            if let saved = try PizzaStore.update(
                id: id, version: baseVersion, name: name, price: draft.price, at: now, in: db)
            {
                let moves = draft.categoryID.map { $0 != saved.categoryID } ?? false
                guard moves || draft.hasChoices else { return saved }
                if let category = draft.categoryID, moves {
                    try CategoryStore.move(pizza: id, to: try Self.requiredCategory(category, in: db).id, in: db)
                }
                try applyChoices(of: draft, to: id, in: db)
                return try required(id, in: db)
            }
            throw MenuError.conflict(pizza: try required(id, in: db), draftVersion: baseVersion)
        }
    }

    // MARK: - Archive and restore

    /// Takes the pizza off the menu. It stays in the database: orders and history refer to it.
    /// - Throws: ``MenuError/notFound(_:)``, ``MenuError/alreadyArchived(_:)``.
    @discardableResult
    public func archive(id: Pizza.ID) throws -> Pizza {
        let now = now()
        return try database.audited(acting, at: now) { db in
            let pizza = try Self.required(id, in: db)
            guard !pizza.isArchived else { throw MenuError.alreadyArchived(pizza) }
            try PizzaStore.setArchived(id: id, at: now, in: db)
            return try Self.required(id, in: db)
        }
    }

    /// Puts an archived pizza back on the menu.
    /// - Throws: ``MenuError/notFound(_:)``, ``MenuError/notArchived(_:)``.
    @discardableResult
    public func restore(id: Pizza.ID) throws -> Pizza {
        try database.audited(acting, at: now()) { db in
            let pizza = try Self.required(id, in: db)
            guard pizza.isArchived else { throw MenuError.notArchived(pizza) }
            try PizzaStore.setArchived(id: id, at: nil, in: db)
            return try Self.required(id, in: db)
        }
    }

    static func required(_ id: Pizza.ID, in db: Connection) throws -> Pizza {
        guard let pizza = try PizzaStore.pizza(id: id, in: db) else { throw MenuError.notFound(id.description) }
        return pizza
    }
}
