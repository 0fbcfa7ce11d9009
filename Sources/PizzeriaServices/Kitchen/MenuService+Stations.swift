import Foundation
import PizzeriaStorage

// The kitchen's stations: where each category's items are prepared, and how many pieces each
// makes per pickup slot. The station holding the slot capacity (`Forno`, made with every file) is
// renamed or moved but never removed; its capacity is the slot's (`capacity set`).
extension MenuService {
    /// Every station, in position order.
    public func stations() throws -> [Station] {
        try database.read { try StationStore.list(in: $0) }
    }

    /// The station called `name` (ignoring case), or with this number.
    /// - Throws: ``MenuError/partNotFound(part:name:place:known:)`` naming the stations there are.
    public func station(named name: String) throws -> Station {
        try database.read { db in try Self.station(named: name, in: db) }
    }

    static func station(named name: String, in db: Connection) throws -> Station {
        let wanted = PizzaName.foldKey(PizzaName.normalize(name))
        let all = try StationStore.list(in: db)
        if let found = all.first(where: { PizzaName.foldKey($0.name) == wanted || $0.id.description == name }) {
            return found
        }
        throw MenuError.partNotFound(part: "station", name: name, place: "the kitchen", known: all.map(\.name))
    }

    static func requiredStation(_ id: Station.ID, in db: Connection) throws -> Station {
        if let station = try StationStore.station(id: id, in: db) { return station }
        throw MenuError.partNotFound(
            part: "station", name: id.description, place: "the kitchen",
            known: try StationStore.list(in: db).map(\.name))
    }

    /// Adds a station making at most `capacity` pieces per slot (`nil`: no limit).
    /// - Throws: ``ValidationError`` naming each field; ``MenuError/duplicatePart(part:name:place:)``.
    @discardableResult
    public func addStation(name: String, capacity: Int? = nil, position: Int? = nil) throws -> Station {
        let name = PizzaName.normalize(name)
        let problems = Station.problems(name: name, capacity: capacity, position: position)
        guard problems.isEmpty else { throw ValidationError(problems) }
        return try database.audited(acting, at: now()) { db in
            let all = try StationStore.list(in: db)
            try Self.requireUniqueStationName(name, among: all, except: nil)
            let position = position ?? min((all.map(\.position).max() ?? 0) + 1, Station.maximumPosition)
            return try StationStore.insert(name: name, capacity: capacity, position: position, in: db)
        }
    }

    /// Renames a station, changes its capacity per slot (`.some(nil)`: no limit) or moves it.
    /// - Throws: ``ValidationError``; ``MenuError`` (`partRefused` for a capacity below what a
    ///   future slot holds where no rule of the station's applies, naming the slots).
    @discardableResult
    public func editStation(
        _ id: Station.ID, name: String? = nil, capacity: Int?? = nil, position: Int? = nil
    ) throws -> Station {
        let name = name.map(PizzaName.normalize)
        let problems = Station.problems(name: name, capacity: capacity ?? nil, position: position)
        guard problems.isEmpty else { throw ValidationError(problems) }
        let now = now()
        return try database.audited(acting, at: now) { db in
            let current = try Self.requiredStation(id, in: db)
            let before = try StationCapacityStore.futureCapacities(of: id, after: PickupTime.utc(now), in: db)
            if let name { try Self.requireUniqueStationName(name, among: try StationStore.list(in: db), except: id) }
            if current.holdsSlotCapacity, case .some(.some) = capacity {
                throw ValidationError([
                    FieldError(
                        field: "capacity",
                        message:
                            "\(current.name) holds the slot capacity: set it with capacity set (or config set slot-capacity)"
                    )
                ])
            }
            let changed = Station(
                id: id, name: name ?? current.name, capacity: capacity ?? current.capacity,
                holdsSlotCapacity: current.holdsSlotCapacity, position: position ?? current.position)
            try StationStore.update(changed, in: db)
            let zone = try SettingsStore.current(in: db).timeZone
            try StationCapacities.refuseOverfilling(changed, since: before, after: now, zone: zone, in: db)
            return changed
        }
    }

    /// Removes a station nothing uses.
    /// - Throws: ``MenuError/partRefused(_:)`` for the station holding the slot capacity, one
    ///   that prepares a category, or one with booked lines.
    public func removeStation(_ id: Station.ID) throws {
        try database.audited(acting, at: now()) { db in
            let station = try Self.requiredStation(id, in: db)
            guard !station.holdsSlotCapacity else {
                throw MenuError.partRefused(
                    "station: \(station.name) holds the slot capacity and is never removed; rename it instead")
            }
            let uses = try StationStore.uses(of: id, in: db)
            guard uses.categories.isEmpty else {
                throw MenuError.partRefused(
                    "station: \(station.name) prepares " + uses.categories.joined(separator: ", ")
                        + "; move them first (category edit NAME --station OTHER or --no-station)")
            }
            guard !uses.booked else {
                throw MenuError.partRefused(
                    "station: \(station.name) has booked lines, which keep it; rename it instead")
            }
            try StationStore.delete(id: id, in: db)
        }
    }

    static func requireUniqueStationName(_ name: String, among all: [Station], except id: Station.ID?) throws {
        let key = PizzaName.foldKey(name)
        if all.contains(where: { PizzaName.foldKey($0.name) == key && $0.id != id }) {
            throw MenuError.duplicatePart(part: "station", name: name, place: "the kitchen")
        }
    }
}
