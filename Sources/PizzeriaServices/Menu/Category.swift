import Foundation
import PizzeriaStorage

/// A section of the menu (`Pizze rosse`, `Fritti`, `Bevande`): every item is in one. A category
/// says at which station its items are prepared (``Station``), or none; those of the station
/// holding the slot capacity (the oven) count toward a pickup slot's capacity.
///
/// JSON: `{"id": 1, "name", "position", "station_id", "uses_oven", "vat_rate_bp"}` (when it was
/// added is in the audit log; `vat_rate_bp` is `null` where the shop's rate applies; `uses_oven`
/// says whether the station holds the slot capacity).
public struct Category: Sendable, Hashable, Identifiable, Record {
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
    public internal(set) var id = ID(0)
    /// 1 to 40 characters, unique ignoring case.
    public internal(set) var name = ""
    /// Where it comes in the menu: smaller first, ties by name.
    public internal(set) var position = 0
    /// Whether its items count toward a slot's capacity: they are prepared at the station that
    /// holds it.
    public internal(set) var usesOven = true
    /// Its items' VAT rate, or `nil` for the shop's (``ShopDetails/vatRate``).
    public internal(set) var vatRate: VATRate?
    /// Where its items are prepared, or `nil`: nowhere (handed over at the counter).
    public internal(set) var stationID: Station.ID?

    /// A value from its parts (rows are read through its members, see ``Record``).
    public init(
        id: ID, name: String, position: Int, usesOven: Bool, vatRate: VATRate? = nil, stationID: Station.ID? = nil
    ) {
        (self.id, self.name, self.position, self.usesOven, self.vatRate) = (id, name, position, usesOven, vatRate)
        self.stationID = stationID
    }

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members, declared once for its rows, its JSON and its CSV (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.member("id", &id, absent: nil)
        try visitor.member("name", &name)
        try visitor.member("position", &position)
        try visitor.member("station_id", &stationID)
        try visitor.member("uses_oven", &usesOven, absent: true)
        try visitor.member("vat_rate_bp", basisPoints: &vatRate)
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
}
