import Foundation
import PizzeriaStorage

/// Where a category's items are prepared — `Forno`, `Friggitrice`, `Bar` — with how many pieces it
/// makes per pickup slot. One station, made with every file as `Forno`, holds the slot capacity
/// (its load is the slot's, from the capacity rules); any other has a capacity of its own per slot
/// or none (no limit).
///
/// JSON: `{"id", "name", "capacity", "holds_slot_capacity", "position"}`.
public struct Station: Sendable, Hashable, Identifiable, Record {
    /// A station's id.
    public typealias ID = RowNumber<Station>

    /// The longest name, in Unicode scalars.
    public static let maximumNameLength = 40
    /// The most pieces per slot a station's capacity says.
    public static let maximumCapacity = 10_000
    /// The largest position.
    public static let maximumPosition = 100

    /// Its id.
    public internal(set) var id: ID = ID(0)
    /// 1 to 40 characters, unique ignoring case.
    public internal(set) var name: String = ""
    /// Pieces per slot it makes, or `nil`: no limit (and for the station holding the slot
    /// capacity, whose capacity is the slot's).
    public internal(set) var capacity: Int?
    /// Whether it is the station whose load is the slot's (the oven).
    public internal(set) var holdsSlotCapacity: Bool = false
    /// Where it is listed: 1 first.
    public internal(set) var position: Int = 0

    /// A value from its parts (rows are read through its members, see ``Record``).
    public init(id: ID, name: String, capacity: Int?, holdsSlotCapacity: Bool, position: Int) {
        (self.id, self.name, self.capacity) = (id, name, capacity)
        (self.holdsSlotCapacity, self.position) = (holdsSlotCapacity, position)
    }

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members, declared once for its rows, its JSON and its CSV (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.member("capacity", &capacity)
        try visitor.member("holds_slot_capacity", &holdsSlotCapacity, absent: false)
        try visitor.member("id", &id, absent: nil)
        try visitor.member("name", &name)
        try visitor.member("position", &position)
    }

    /// What is wrong with a station's name, capacity and position (each when given), naming the field.
    static func problems(name: String?, capacity: Int?, position: Int?) -> [FieldError] {
        var problems = name.map { TextLimit.problems($0, field: "name", maximum: maximumNameLength) } ?? []
        if let capacity, !(1...maximumCapacity).contains(capacity) {
            problems.append(FieldError(field: "capacity", message: "must be from 1 to \(maximumCapacity)"))
        }
        if let position, !(1...maximumPosition).contains(position) {
            problems.append(FieldError(field: "position", message: "must be from 1 to \(maximumPosition)"))
        }
        return problems
    }
}

extension Station: StoredMembers {
    static let table = "stations"
}

/// A station's load in one pickup slot (a station other than the oven, whose load is the slot's).
///
/// JSON: `{"station", "booked", "capacity"}` (`capacity` `null`: no limit).
public struct StationLoad: Sendable, Hashable, Record {
    /// The station's name.
    public internal(set) var station: String = ""
    /// Pieces booked there by orders that are not cancelled.
    public internal(set) var booked: Int = 0
    /// Its capacity per slot, or `nil`: no limit.
    public internal(set) var capacity: Int?

    /// A load.
    public init(station: String, booked: Int, capacity: Int?) {
        (self.station, self.booked, self.capacity) = (station, booked, capacity)
    }

    /// `Friggitrice 3/4`, `Bar 2`.
    public var text: String { "\(station) \(booked)" + (capacity.map { "/\($0)" } ?? "") }

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members: the documented JSON shape, declared once (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.member("booked", &booked)
        try visitor.member("capacity", &capacity)
        try visitor.member("station", &station)
    }
}
