import PizzeriaServices

/// A model that writes its documented JSON shape straight into the text, without building a
/// tree of values first. Only the shapes lists print by the thousand have this (pizzas, orders,
/// navigation events, users): with it, `pizza list --json` went from 5.6× to 1.75× the time of
/// `sqlite3 -json` on the same rows.
///
/// The shape is defined by the model's `Encodable` conformance; these writers must produce the
/// same bytes, members in sorted key order — `JSONOutputTests` compares them with `JSONEncoder`
/// on real rows.
protocol DirectJSON: Encodable {
    func writeJSON(to writer: inout JSONTextWriter) throws
}

extension Pizza: DirectJSON {
    func writeJSON(to writer: inout JSONTextWriter) {
        writer.beginObject()
        writer.field("archived", isArchived)
        writer.field("archived_at", timestamp: archivedAt)
        writer.field("created_at", timestamp: createdAt)
        writer.field("currency", "EUR")
        writer.field("id", id: id)
        writer.field("name", name)
        writer.field("price", price.plain)
        writer.field("price_cents", price.cents)
        writer.field("updated_at", timestamp: updatedAt)
        writer.field("version", version)
        writer.endObject()
    }
}

extension User: DirectJSON {
    func writeJSON(to writer: inout JSONTextWriter) {
        writer.beginObject()
        writer.field("created_at", timestamp: createdAt)
        writer.field("display_name", displayName)
        writer.field("handle", handle)
        writer.field("id", id: id)
        writer.endObject()
    }
}

extension Order: DirectJSON {
    func writeJSON(to writer: inout JSONTextWriter) {
        writer.beginObject()
        writer.field("created_at", timestamp: createdAt)
        writer.field("currency", "EUR")
        writer.key("history")
        writer.beginArray()
        for change in history {
            writer.nextElement()
            writer.beginObject()
            writer.field("at", timestamp: change.at)
            writer.field("from", change.from?.rawValue)
            writer.field("to", change.to.rawValue)
            writer.endObject()
        }
        writer.endArray()
        writer.field("id", id: id)
        writer.field("idempotency_key", idempotencyKey)
        writer.key("lines")
        writer.beginArray()
        for line in lines {
            writer.nextElement()
            writer.beginObject()
            writer.field("line_total", line.total.plain)
            writer.field("line_total_cents", line.total.cents)
            writer.field("name", line.pizzaName)
            writer.field("pizza_id", id: line.pizzaID)
            writer.field("quantity", line.quantity)
            writer.field("unit_price", line.unitPrice.plain)
            writer.field("unit_price_cents", line.unitPrice.cents)
            writer.endObject()
        }
        writer.endArray()
        writer.field("pickup_at", pickupUTC: pickupAt)
        writer.field("pickup_local", pickupLocal)
        writer.field("status", status.rawValue)
        writer.field("time_zone", timeZone.identifier)
        writer.field("total", total.plain)
        writer.field("total_cents", total.cents)
        writer.field("updated_at", timestamp: updatedAt)
        writer.field("user", handle)
        writer.field("user_id", id: userID)
        writer.endObject()
    }
}

extension NavigationEvent: DirectJSON {
    func writeJSON(to writer: inout JSONTextWriter) throws {
        writer.beginObject()
        writer.field("action", action.rawValue)
        writer.field("at", timestamp: at)
        writer.field("depth_after", depthAfter)
        writer.field("detail", detail)
        writer.field("id", id)
        writer.key("routes")
        writer.beginArray()
        for element in routes {
            writer.nextElement()
            switch element {
            case .route(let route):
                // `{"order":{"id":"…"}}` or `{"pizza":{"id":"…"}}`.
                writer.beginObject()
                writer.key(route.kind)
                writer.beginObject()
                writer.field("id", route.id)
                writer.endObject()
                writer.endObject()
            case .opaque:
                try writer.encoded(element)
            }
        }
        writer.endArray()
        writer.endObject()
    }
}
