import Foundation
import PizzeriaStorage

/// A section of the menu (`Pizze rosse`, `Fritti`, `Bevande`): every item is in one. A category
/// says at which station its items are prepared (``Station``), or none; those of the station
/// holding the slot capacity (the oven) count toward a pickup slot's capacity.
///
/// JSON: `{"id": 1, "name", "position", "station_id", "uses_oven", "vat_rate_bp"}` (when it was
/// added is in the audit log; `vat_rate_bp` is `null` where the shop's rate applies; `uses_oven`
/// says whether the station holds the slot capacity).
public struct Category: Sendable, Hashable, Identifiable, Codable, JSONMembers {
    /// A category's id: a small whole number (1 is the category every pizza of an older file is in).
    public typealias ID = RowNumber<Category>

    /// The category migration 15 created for the pizzas already on the menu (`Pizze`, using the
    /// oven), and where an item goes when none is named.
    public static let defaultID = ID(1)
    /// The longest name, in Unicode scalars.
    public static let maximumNameLength = 40
    /// The largest position.
    public static let maximumPosition = 1000

    /// Its id.
    public let id: ID
    /// 1 to 40 characters, unique ignoring case.
    public let name: String
    /// Where it comes in the menu: smaller first, ties by name.
    public let position: Int
    /// Whether its items count toward a slot's capacity: they are prepared at the station that
    /// holds it.
    public let usesOven: Bool
    /// Its items' VAT rate, or `nil` for the shop's (``ShopDetails/vatRate``).
    public let vatRate: VATRate?
    /// Where its items are prepared, or `nil`: nowhere (handed over at the counter).
    public let stationID: Station.ID?

    /// A value; stores use it when reading rows.
    public init(
        id: ID, name: String, position: Int, usesOven: Bool, vatRate: VATRate? = nil, stationID: Station.ID? = nil
    ) {
        (self.id, self.name, self.position, self.usesOven, self.vatRate) = (id, name, position, usesOven, vatRate)
        self.stationID = stationID
    }

    /// The documented JSON shape, defined once (see ``JSONMembers``).
    public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        try writer.member("id", id.rawValue)
        try writer.member("name", name)
        try writer.member("position", position)
        try writer.member("station_id", stationID.map { Int($0.rawValue) })
        try writer.member("uses_oven", usesOven)
        try writer.member("vat_rate_bp", encoded: vatRate?.basisPoints)
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }

    /// Reads the documented JSON shape.
    public init(from decoder: Decoder) throws {
        var members = try ContainerMemberReader(decoder)
        try self.init(reading: &members)
    }

    /// What is wrong with a category's name and position (each when given), naming the field.
    static func problems(name: String?, position: Int?) -> [FieldError] {
        var problems = name.map { TextLimit.problems($0, field: "name", maximum: maximumNameLength) } ?? []
        if let position, !(1...maximumPosition).contains(position) {
            problems.append(FieldError(field: "position", message: "must be from 1 to \(maximumPosition)"))
        }
        return problems
    }
}

extension Category: StoredMembers {
    static let table = "categories"

    /// The stored members, read once for rows of `categories` and for JSON.
    init<Reader: MemberReader>(reading members: inout Reader) throws {
        self.init(
            id: ID(try members.number("id")), name: try members.text("name"), position: try members.int("position"),
            usesOven: try members.optionalFlag("uses_oven") ?? true,
            vatRate: try members.optionalNumber("vat_rate_bp").flatMap { VATRate(basisPoints: Int($0)) },
            stationID: try members.optionalNumber("station_id").map(Station.ID.init))
    }
}
