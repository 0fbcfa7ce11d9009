import Foundation
import PizzeriaStorage

// The menu's sections. Every item is in one category; a category says whether its items use the
// oven, and only those count toward a pickup slot's capacity (a drink does not take a pizza's place).
extension MenuService {
    /// Every category in menu order (position, then name).
    public func categories() throws -> [Category] {
        try database.read { try CategoryStore.list(in: $0) }
    }

    /// The category called `name` (ignoring case), or with this id.
    /// - Throws: ``MenuError/categoryNotFound(_:known:)`` naming the categories there are.
    public func category(named name: String) throws -> Category {
        try database.read { db in try Self.category(named: name, in: db) }
    }

    static func category(named name: String, in db: Connection) throws -> Category {
        let wanted = PizzaName.foldKey(name)
        let all = try CategoryStore.list(in: db)
        if let found = all.first(where: { PizzaName.foldKey($0.name) == wanted || $0.id.description == name }) {
            return found
        }
        throw MenuError.categoryNotFound(name, known: all.map(\.name))
    }

    /// Adds a category at `position` (default: after the last one; the categories from there on
    /// move one place down).
    /// - Throws: ``ValidationError`` naming each field; ``MenuError/duplicateCategory(name:existing:)``.
    @discardableResult
    ///
    /// Its items are prepared at `station` when one is given; else at the station holding the
    /// slot capacity (the oven) when `usesOven`, or nowhere.
    public func addCategory(
        name: String, usesOven: Bool = true, station: Station.ID? = nil, position: Int? = nil
    ) throws -> Category {
        let name = PizzaName.normalize(name)
        let problems = Category.problems(name: name, position: position)
        guard problems.isEmpty else { throw ValidationError(problems) }
        return try database.audited(acting, at: now()) { db in
            try Self.requireUniqueCategoryName(name, except: nil, in: db)
            let station =
                try station.map { try Self.requiredStation($0, in: db) }
                ?? (usesOven ? StationStore.slotStation(in: db) : nil)
            if let position { try CategoryStore.makeRoom(at: position, except: nil, in: db) }
            let position = try position ?? CategoryStore.lastPosition(in: db) + 1
            return try CategoryStore.insert(
                name: name, position: min(position, Category.maximumPosition), station: station, in: db)
        }
    }

    /// Renames a category, moves it in the menu or changes whether its items use the oven (lines
    /// already booked keep what they were booked as).
    /// - Throws: ``ValidationError``; ``MenuError/categoryNotFound(_:known:)``;
    ///   ``MenuError/duplicateCategory(name:existing:)``.
    @discardableResult
    ///
    /// `station` moves its items to a station (`.some(nil)`: to none); `usesOven` true moves them
    /// to the station holding the slot capacity, false off it (to none).
    public func editCategory(
        _ id: Category.ID, name: String? = nil, usesOven: Bool? = nil, station: Station.ID?? = nil,
        position: Int? = nil
    ) throws -> Category {
        let name = name.map(PizzaName.normalize)
        let problems = Category.problems(name: name, position: position)
        guard problems.isEmpty else { throw ValidationError(problems) }
        return try database.audited(acting, at: now()) { db in
            let current = try Self.requiredCategory(id, in: db)
            if let name { try Self.requireUniqueCategoryName(name, except: id, in: db) }
            if let position, position != current.position {
                try CategoryStore.makeRoom(at: position, except: id, in: db)
            }
            var stationID = current.stationID
            if let usesOven, usesOven != current.usesOven {
                stationID = usesOven ? try StationStore.slotStation(in: db)?.id : nil
            }
            if let station { stationID = try station.map { try Self.requiredStation($0, in: db).id } }
            let holds = try stationID.flatMap { try StationStore.station(id: $0, in: db) }?.holdsSlotCapacity ?? false
            let changed = Category(
                id: id, name: name ?? current.name, position: position ?? current.position, usesOven: holds,
                vatRate: current.vatRate, stationID: stationID)
            try CategoryStore.update(changed, in: db)
            return changed
        }
    }

    /// Removes an empty category.
    /// - Throws: ``MenuError/categoryInUse(name:items:)`` while it has items (archived ones too).
    public func removeCategory(_ id: Category.ID) throws {
        try database.audited(acting, at: now()) { db in
            let category = try Self.requiredCategory(id, in: db)
            let items = try CategoryStore.itemCount(of: id, in: db)
            guard items == 0 else { throw MenuError.categoryInUse(name: category.name, items: items) }
            let shown = try CategoryStore.viewers(of: id, in: db)
            guard shown.isEmpty else {
                throw MenuError.partRefused(
                    "category '\(category.name)' is on the navigation stack of \(shown.joined(separator: ", ")); "
                        + "move them back first (pizzeria nav root HANDLE) or keep the category")
            }
            try CategoryStore.delete(id: id, in: db)
        }
    }

    /// Puts a pizza in another category.
    /// - Throws: ``MenuError/notFound(_:closest:)``, ``MenuError/categoryNotFound(_:known:)``.
    @discardableResult
    public func move(_ pizza: Pizza.ID, to category: Category.ID) throws -> Pizza {
        try database.audited(acting, at: now()) { db in
            _ = try Self.required(pizza, in: db)
            try CategoryStore.move(pizza: pizza, to: try Self.requiredCategory(category, in: db).id, in: db)
            return try Self.required(pizza, in: db)
        }
    }

    static func requiredCategory(_ id: Category.ID, in db: Connection) throws -> Category {
        if let category = try CategoryStore.category(id: id, in: db) { return category }
        throw MenuError.categoryNotFound(id.description, known: try CategoryStore.list(in: db).map(\.name))
    }

    /// Names are unique by full Unicode case folding (the column's `NOCASE` folds ASCII only).
    static func requireUniqueCategoryName(_ name: String, except id: Category.ID?, in db: Connection) throws {
        let key = PizzaName.foldKey(name)
        if let clash = try CategoryStore.list(in: db).first(where: { PizzaName.foldKey($0.name) == key && $0.id != id })
        {
            throw MenuError.duplicateCategory(name: name, existing: clash.name)
        }
    }
}
