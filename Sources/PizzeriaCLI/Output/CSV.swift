import Foundation
import PizzeriaServices

/// One field of a CSV row. Text is what people typed (names, handles) and is made safe for
/// spreadsheets; numbers, amounts and times are written as they are.
enum CSVField {
    case text(String?)
    case number(Int64)
    /// Already safe: a decimal amount (`6.50`), an ISO-8601 time, a fixed word.
    case plain(String)

    static func number(_ value: Int) -> CSVField { .number(Int64(value)) }
    static func money(_ money: Money) -> [CSVField] { [.plain(money.plain), .number(money.cents)] }
    static func time(_ date: Date?) -> CSVField { .plain(date.map(Timestamp.string(from:)) ?? "") }
}

/// RFC 4180 CSV, as sqlite-utils and spreadsheets read it: a header row, CRLF line ends, fields
/// quoted when they hold a comma, quote, line break or edge space, quotes doubled.
///
/// A text field that starts with `=`, `+`, `-`, `@`, a tab or a carriage return would run as a
/// formula when the file is opened in a spreadsheet (CSV injection); it is written with a
/// leading apostrophe, as OWASP recommends, so the cell shows the text instead.
enum CSV {
    /// The field separator: CSV's comma, or a tab for TSV (quoted the same way, so a tab or a
    /// line break inside a field survives).
    enum Dialect {
        case comma, tab

        var separator: UInt8 { self == .comma ? UInt8(ascii: ",") : UInt8(ascii: "\t") }
    }

    static func row(_ fields: [CSVField], _ dialect: Dialect = .comma) -> String {
        fields.map { field in
            switch field {
            case .text(let text): quoted(defused(text ?? ""), dialect)
            case .number(let number): String(number)
            case .plain(let text): quoted(text, dialect)
            }
        }.joined(separator: dialect == .comma ? "," : "\t") + "\r\n"
    }

    static func header(_ names: [String], _ dialect: Dialect = .comma) -> String {
        row(names.map { .plain($0) }, dialect)
    }

    static func defused(_ text: String) -> String {
        guard let first = text.utf8.first, "=+-@\t\r".utf8.contains(first) else { return text }
        return "'" + text
    }

    static func quoted(_ text: String, _ dialect: Dialect = .comma) -> String {
        // Bytes, not Characters: a million-row list quotes millions of fields.
        let utf8 = text.utf8, separator = dialect.separator
        let needsQuotes =
            utf8.first == UInt8(ascii: " ") || utf8.last == UInt8(ascii: " ")
            || utf8.contains {
                $0 == separator || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r")
            }
        return needsQuotes ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }
}

/// The CSV columns of each list, beside its documented JSON shape.
enum CSVRows {
    static let pizzaHeader = ["id", "name", "price", "price_cents", "archived", "version", "created_at", "updated_at"]
    static func pizza(_ pizza: Pizza) -> [CSVField] {
        [.plain(pizza.id.description), .text(pizza.name)] + CSVField.money(pizza.price)
            + [
                .plain(pizza.isArchived ? "true" : "false"), .number(pizza.version), .time(pizza.createdAt),
                .time(pizza.updatedAt),
            ]
    }

    static let userHeader = ["id", "handle", "name", "created_at", "phone", "erased_at"]
    static func user(_ user: User) -> [CSVField] {
        [
            .plain(user.id.description), .text(user.handle), .text(user.displayName), .time(user.createdAt),
            .text(user.phone), .time(user.erasedAt),
        ]
    }

    static let orderHeader = [
        "id", "user", "pickup_at", "pickup_local", "status", "total", "total_cents", "items", "created_at",
        "service_day", "outside_hours",
    ]
    static func order(_ order: Order) -> [CSVField] {
        [
            .plain(order.id.description), .text(order.handle), .plain(PickupTime.utc(order.pickupAt)),
            .plain(order.pickupLocal),
            .plain(order.status.rawValue),
        ] + CSVField.money(order.total) + [
            .text(OrderText.items(order)), .time(order.createdAt),
            .plain(order.serviceDay.description), .plain(order.outsideHours ? "true" : "false"),
        ]
    }

    static let availableHeader = ["pickup", "start", "service_day", "offset", "remaining", "capacity", "capacity_rule"]
    static func available(_ slot: AvailableSlot) -> [CSVField] {
        [
            .plain(slot.local), .plain(PickupTime.utc(slot.start)), .plain(slot.serviceDay.description),
            .plain(slot.offset),
            .number(slot.remaining), .number(slot.capacity), .text(slot.capacityRule),
        ]
    }

    static let slotHeader = ["slot", "start", "booked", "remaining", "capacity", "state", "capacity_rule"]
    static func slot(_ slot: SlotUsage) -> [CSVField] {
        [
            .plain(slot.local), .plain(PickupTime.utc(slot.start)), .number(slot.booked), .number(slot.remaining),
            .number(slot.capacity), .plain(slot.state.rawValue), .text(slot.capacityRule),
        ]
    }

    static let salesHeader = [
        "pizza_id", "name", "quantity", "revenue", "revenue_cents", "booked_quantity", "booked_value",
        "booked_value_cents", "no_show_quantity", "cancelled_quantity",
    ]
    static func sales(_ row: SalesReport.Row) -> [CSVField] {
        [.plain(row.pizzaID.description), .text(row.name), .number(row.quantity)] + CSVField.money(row.revenue)
            + [.number(row.bookedQuantity)] + CSVField.money(row.bookedValue) + [
                .number(row.noShowQuantity), .number(row.cancelledQuantity),
            ]
    }

    static let salesDayHeader = [
        "service_day", "collected_orders", "revenue", "revenue_cents", "booked_orders", "booked_value",
        "booked_value_cents", "no_shows", "no_show_value", "no_show_value_cents", "cancelled",
    ]
    static func salesDay(_ day: SalesReport.Day) -> [CSVField] {
        [.plain(day.serviceDay.description), .number(day.collectedOrders)] + CSVField.money(day.revenue) + [
            .number(day.bookedOrders)
        ]
            + CSVField.money(day.bookedValue) + [.number(day.noShows)] + CSVField.money(day.noShowValue) + [
                .number(day.cancelled)
            ]
    }

    static let eventHeader = ["id", "at", "action", "routes", "depth_after", "detail"]
    static func event(_ event: NavigationEvent) -> [CSVField] {
        let routes = event.routes.map { element -> String in
            switch element {
            case .route(let route): "\(route.kind):\(route.id)"
            case .opaque(let type, _): type
            }
        }.joined(separator: " ")
        return [
            .number(event.id), .time(event.at), .plain(event.action.rawValue), .text(routes), .number(event.depthAfter),
            .text(event.detail),
        ]
    }
}
