import Foundation
import PizzeriaStorage

// The SQL that writes an order's lines: a line inserted (its annotations' columns from
// ``LineAnnotations``) and its annotations changed by an edit.
extension OrderStore {
    /// The columns of a line's annotations (``LineAnnotations/columns``: constants), as a list.
    private static let annotationColumns = LineAnnotations.columns.map(\.description)
    /// The columns a new line writes, in the order ``insertLine(_:number:order:in:)`` binds them.
    private static let insertedColumns =
        [
            "order_id", "line_no", "pizza_id", "pizza_name", "unit_price_cents", "quantity", "uses_oven", "variant_id",
            "variant_name", "base_price_cents", "modifiers", "allergens", "vat_rate_bp", "station_id",
        ] + annotationColumns

    // Only constants are spliced into these two: the column names above.
    private static let insertLineSQL =
        "INSERT INTO order_lines (" + insertedColumns.joined(separator: ", ") + ") VALUES ("
        + Array(repeating: "?", count: insertedColumns.count).joined(separator: ", ") + ")"
    private static let setAnnotationsSQL =
        "UPDATE order_lines SET " + annotationColumns.map { $0 + " = ?" }.joined(separator: ", ")
        + " WHERE order_id = ? AND line_no = ?"

    /// Inserts `line` as line `number` of the order `id` (the schema's triggers check it against
    /// the menu and the slot and keep the order's total).
    static func insertLine(_ line: OrderLine, number: Int, order id: Order.ID, in db: Connection) throws {
        let values: [any DatabaseValueConvertible] = [
            id, number, line.pizzaID, line.pizzaName, line.unitPrice.cents, line.quantity, line.usesOven,
            line.variantID, line.variantName, line.basePrice.cents, try modifiersJSON(line.modifiers),
            Allergen.bits(line.allergens), line.vatRate.basisPoints, line.stationID,
        ]
        try db.run(insertLineSQL, values + line.annotations.values)
    }

    /// Writes a line's annotations (each column of ``LineAnnotations/columns``).
    static func setAnnotations(
        _ annotations: LineAnnotations, line number: Int64, order id: Order.ID, in db: Connection
    )
        throws
    {
        try db.run(setAnnotationsSQL, annotations.values + [id, number])
    }

    /// The stored form of a line's modifiers: a JSON array of `{"default", "group", "id", "kind",
    /// "name", "price_cents"}` (what the schema's trigger checks), or `NULL` for none.
    static func modifiersJSON(_ modifiers: [ChosenModifier]) throws -> String? {
        guard !modifiers.isEmpty else { return nil }
        // Written by hand (keys sorted, as JSONEncoder's `.sortedKeys` would): one string per line
        // instead of an encoder per booking.
        var json = "["
        for (index, modifier) in modifiers.enumerated() {
            json +=
                (index == 0 ? "{" : ",{") + #""default":"# + (modifier.isDefault ? "true" : "false") + #","group":"#
                + JSONText.quoted(modifier.group) + #","id":"# + String(modifier.id.rawValue) + #","kind":""#
                + modifier.kind.rawValue + #"","name":"# + JSONText.quoted(modifier.name) + #","price_cents":"#
                + String(modifier.price.cents) + "}"
        }
        return json + "]"
    }
}
