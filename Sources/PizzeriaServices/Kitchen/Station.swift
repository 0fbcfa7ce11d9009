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
