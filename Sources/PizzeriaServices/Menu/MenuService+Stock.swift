import Foundation
import PizzeriaStorage

// "Sold out tonight" (86): a limit on an item or a modifier, apart from archiving. Bookings take
// from it and cancellations give back (the schema's triggers); it ends by itself.
extension MenuService {
    /// Until when a limit holds.
    public enum StockEnd: Sendable, Hashable {
        /// The end of the current service (its last slot; the next morning's close-out when none is left).
        case endOfService
        /// A chosen instant.
        case at(Date)
        /// Until staff make it available again.
        case untilAvailable
    }

    /// Marks an item sold out (`left: 0`) or limited to `left` more, for pickups before `until`.
    /// - Throws: ``ValidationError`` (`left` out of 0–``Stock/maximum``, `until` in the past).
    @discardableResult
    public func setStock(of pizza: Pizza.ID, left: Int = 0, until: StockEnd = .endOfService) throws -> Pizza {
        let now = now()
        return try database.audited(acting, at: now) { db in
            _ = try Self.required(pizza, in: db)
            let end = try Self.stockEnd(until, left: left, now: now, in: db)
            try PizzaStore.setStock(id: pizza, left: left, until: end, in: db)
            return try Self.required(pizza, in: db)
        }
    }

    /// Lifts an item's limit: it is available again.
    @discardableResult
    public func makeAvailable(_ pizza: Pizza.ID) throws -> Pizza {
        let now = now()
        return try database.audited(acting, at: now) { db in
            _ = try Self.required(pizza, in: db)
            try PizzaStore.setStock(id: pizza, left: nil, until: nil, in: db)
            return try Self.required(pizza, in: db)
        }
    }

    /// Marks a modifier sold out (out of bufala) or limited, as ``setStock(of:left:until:)`` does an item.
    @discardableResult
    public func setStock(ofModifier modifier: Modifier.ID, left: Int = 0, until: StockEnd = .endOfService) throws
        -> Modifier
    {
        let now = now()
        return try database.audited(acting, at: now) { db in
            let end = try Self.stockEnd(until, left: left, now: now, in: db)
            try ModifierStore.setStock(id: modifier, left: left, until: end, in: db)
            return try Self.requiredModifier(modifier, in: db)
        }
    }

    /// Lifts a modifier's limit.
    @discardableResult
    public func makeAvailable(modifier: Modifier.ID) throws -> Modifier {
        let now = now()
        return try database.audited(acting, at: now) { db in
            try ModifierStore.setStock(id: modifier, left: nil, until: nil, in: db)
            return try Self.requiredModifier(modifier, in: db)
        }
    }

    static func requiredModifier(_ id: Modifier.ID, in db: Connection) throws -> Modifier {
        guard let modifier = try ModifierStore.modifier(id: id, in: db) else {
            throw MenuError.partNotFound(part: "modifier", name: id.description, place: "the menu", known: [])
        }
        return modifier
    }

    static func stockEnd(_ end: StockEnd, left: Int, now: Date, in db: Connection) throws -> Date? {
        guard (0...Stock.maximum).contains(left) else {
            throw ValidationError([FieldError(field: "left", message: "must be from 0 to \(Stock.maximum)")])
        }
        switch end {
        case .untilAvailable: return nil
        case .at(let date):
            guard date > now else {
                throw ValidationError([FieldError(field: "until", message: "must be in the future")])
            }
            return date
        case .endOfService:
            return try Stock.endOfService(ScheduleStore.schedule(try SettingsStore.current(in: db), in: db), now: now)
        }
    }
}
