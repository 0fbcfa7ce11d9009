import Foundation
import PizzeriaStorage

/// Where a category's items are prepared — `Forno`, `Friggitrice`, `Bar` — with how many pieces it
/// makes per pickup slot. One station, made with every file as `Forno`, holds the slot capacity
/// (its load is the slot's, from the capacity rules); any other has a capacity of its own per slot
/// or none (no limit).
///
/// JSON: `{"id", "name", "capacity", "holds_slot_capacity", "position"}`.
public struct Station: Sendable, Hashable, Identifiable, Codable, JSONMembers {
    /// A station's id.
    public typealias ID = RowNumber<Station>

    /// The longest name, in Unicode scalars.
    public static let maximumNameLength = 40
    /// The most pieces per slot a station's capacity says.
    public static let maximumCapacity = 10_000
    /// The largest position.
    public static let maximumPosition = 100

    /// Its id.
    public let id: ID
    /// 1 to 40 characters, unique ignoring case.
    public let name: String
    /// Pieces per slot it makes, or `nil`: no limit (and for the station holding the slot
    /// capacity, whose capacity is the slot's).
    public let capacity: Int?
    /// Whether it is the station whose load is the slot's (the oven).
    public let holdsSlotCapacity: Bool
    /// Where it is listed: 1 first.
    public let position: Int

    /// A value; stores use it when reading rows.
    public init(id: ID, name: String, capacity: Int?, holdsSlotCapacity: Bool, position: Int) {
        (self.id, self.name, self.capacity) = (id, name, capacity)
        (self.holdsSlotCapacity, self.position) = (holdsSlotCapacity, position)
    }

    /// The documented JSON shape, defined once (see ``JSONMembers``).
    public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        try writer.member("capacity", capacity)
        try writer.member("holds_slot_capacity", holdsSlotCapacity)
        try writer.member("id", id.rawValue)
        try writer.member("name", name)
        try writer.member("position", position)
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }

    /// Reads the documented JSON shape.
    public init(from decoder: Decoder) throws {
        var members = try ContainerMemberReader(decoder)
        try self.init(reading: &members)
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

    /// The stored members, read once for rows of `stations` and for JSON.
    init<Reader: MemberReader>(reading members: inout Reader) throws {
        self.init(
            id: ID(try members.number("id")), name: try members.text("name"),
            capacity: try members.optionalNumber("capacity").map { Int($0) },
            holdsSlotCapacity: try members.optionalFlag("holds_slot_capacity") ?? false,
            position: try members.int("position"))
    }
}

/// A station's load in one pickup slot (a station other than the oven, whose load is the slot's).
///
/// JSON: `{"station", "booked", "capacity"}` (`capacity` `null`: no limit).
public struct StationLoad: Sendable, Hashable, Codable, JSONMembers {
    /// The station's name.
    public let station: String
    /// Pieces booked there by orders that are not cancelled.
    public let booked: Int
    /// Its capacity per slot, or `nil`: no limit.
    public let capacity: Int?

    /// A load.
    public init(station: String, booked: Int, capacity: Int?) {
        (self.station, self.booked, self.capacity) = (station, booked, capacity)
    }

    /// `Friggitrice 3/4`, `Bar 2`.
    public var text: String { "\(station) \(booked)" + (capacity.map { "/\($0)" } ?? "") }

    /// The documented JSON shape, defined once (see ``JSONMembers``).
    public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        try writer.member("booked", booked)
        try writer.member("capacity", capacity)
        try writer.member("station", station)
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }

    private enum CodingKeys: String, CodingKey { case station, booked, capacity }

    /// Reads the JSON shape.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            station: try container.decode(String.self, forKey: .station),
            booked: try container.decode(Int.self, forKey: .booked),
            capacity: try container.decodeIfPresent(Int.self, forKey: .capacity))
    }
}
