import Foundation
import PizzeriaStorage

// The counter's addition: a customer waiting for a pizza asks for a drink. Items no station
// prepares (a category with no station: bottled drinks, handed over at the counter) may be added
// to an order until it is collected; what a station makes is added only while the order is
// placed (``edit(id:_:expectedVersion:by:override:)``), before the kitchen starts. The schema's
// `order_lines_insert_rules` holds the same rule (`order_locked`).
extension OrderService {
    /// Adds items no station prepares to an order that is placed, preparing or ready: each a new
    /// line priced as now, its stock taken; the total follows, and with it the balance; the
    /// history says `at the counter: +2 × Coca-Cola 33cl`.
    /// - Throws: ``ValidationError`` (no items, a quantity out of range, an item a station
    ///   prepares, naming it and what to do instead); ``MenuError/notFound(_:)``; ``OrderError``
    ///   (not found, collected or cancelled, an erased customer's, sold out, archived).
    @discardableResult
    public func addAtCounter(id: Order.ID, items: [OrderRequest.Item], by actor: String? = nil) throws -> Order {
        var problems = Self.actorProblems(actor)
        if items.isEmpty { problems.append(FieldError(field: "items", message: "name at least one item to add")) }
        if items.count > OrderRequest.maximumItems {
            problems.append(FieldError(field: "items", message: "at most \(OrderRequest.maximumItems) lines"))
        }
        for item in items where !(1...OrderRequest.maximumQuantity).contains(item.quantity) {
            problems.append(
                FieldError(
                    field: "items",
                    message: "a quantity is from 1 to \(OrderRequest.maximumQuantity), not \(item.quantity)"))
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        let now = now()
        return try database.write { db in
            guard let header = try OrderStore.header(id: id, in: db) else { throw OrderError.notFound(id.description) }
            guard [.placed, .preparing, .ready].contains(header.status) else {
                throw OrderError.illegalTransition(orderID: id, from: header.status, action: .add)
            }
            guard try UserStore.isLiveUser(header.userID, in: db) else {
                throw OrderError.customerErased(orderID: id, action: .add)
            }
            let settings = try SettingsStore.current(in: db)
            let lines = try Self.snapshot(try Self.merged(items), for: header.pickupAt, zone: settings.timeZone, in: db)
            if let made = lines.first(where: { $0.usesOven || $0.stationID != nil }) {
                throw ValidationError([
                    FieldError(
                        field: "items",
                        message:
                            "\(made.label) is made in the kitchen: add it with order edit while the order is placed; "
                            + "the counter adds only what no station prepares (drinks)")
                ])
            }
            try Self.requireStock(for: lines, at: header.pickupAt, zone: settings.timeZone, in: db)
            var next = (try OrderStore.numberedLines(of: id, in: db).map(\.number).max() ?? 0) + 1
            for line in lines {
                try OrderStore.insertLine(line, number: Int(next), order: id, in: db)
                next += 1
            }
            guard try OrderStore.bumpVersion(id: id, version: header.version, at: now, in: db) else {
                throw OrderError.versionConflict(orderID: id, expected: header.version, current: header.version + 1)
            }
            try OrderStore.appendEvent(
                order: id, kind: .edited, from: header.status, to: header.status,
                detail: "at the counter: " + lines.map { "+\($0.quantity) × \($0.label)" }.joined(separator: ", "),
                actor: actor, at: now, in: db)
            guard let changed = try OrderStore.header(id: id, in: db) else { throw OrderError.notFound(id.description) }
            return try OrderAssembler(now: now, in: db).order(changed)
        }
    }
}
