import Foundation
import PizzeriaServices

/// One field of a CSV row. Text is what people typed (names, handles) and is made safe for
/// spreadsheets; numbers, amounts and times are written as they are.
enum CSVField {
    case text(String?)
    case number(Int64)
    /// Already safe: an ISO-8601 time, a fixed word.
    case plain(String)
    /// An amount with a decimal point (`6.50`): written with a decimal comma in the excel-eu dialect.
    case decimal(String)

    static func number(_ value: Int) -> CSVField { .number(Int64(value)) }
    static func money(_ money: Money) -> [CSVField] { [.decimal(money.plain), .number(money.cents)] }
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
    ///
    /// `excelEU` is what a spreadsheet set up for Italy (or most of Europe) opens as columns: `;`
    /// between fields, a decimal comma in amounts, and a UTF-8 byte order mark so accents survive.
    enum Dialect {
        case comma, tab, excelEU

        var separator: UInt8 {
            switch self {
            case .comma: UInt8(ascii: ",")
            case .tab: UInt8(ascii: "\t")
            case .excelEU: UInt8(ascii: ";")
            }
        }

        /// What the output starts with: the byte order mark of the excel-eu dialect.
        var preamble: String { self == .excelEU ? "\u{FEFF}" : "" }
    }

    static func row(_ fields: [CSVField], _ dialect: Dialect = .comma) -> String {
        fields.map { field in
            switch field {
            case .text(let text): quoted(defused(text ?? ""), dialect)
            case .number(let number): String(number)
            case .plain(let text): quoted(text, dialect)
            case .decimal(let text): dialect == .excelEU ? text.replacingOccurrences(of: ".", with: ",") : text
            }
        }.joined(separator: String(UnicodeScalar(dialect.separator))) + "\r\n"
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

/// The CSV columns of a list, declared against its items' JSON members: a column names a member
/// by its JSON key (under another header where the CSV calls it differently), so each field's
/// value is written once, in the model's ``JSONMembers`` list, for JSON and CSV alike. Only what
/// JSON does not have (a one-cell summary of an order's lines) is computed here.
///
/// Texts from members are people's text, made safe for spreadsheets, unless the column says
/// `plain` (fixed words, dates, offsets such as `+01:00`); numbers, flags, ids, times and money
/// are written as they are.
struct CSVColumns<Item: JSONMembers>: Sendable {
    /// One column.
    enum Column: Sendable {
        case field(key: String, header: String, plain: Bool)
        case derived(header: String, value: @Sendable (Item) -> CSVField)

        /// A member as a column, headed by its key unless `header` is given.
        static func member(_ key: String, header: String? = nil, plain: Bool = false) -> Column {
            .field(key: key, header: header ?? key, plain: plain)
        }

        /// A column the JSON shape does not have.
        static func computed(_ header: String, _ value: @escaping @Sendable (Item) -> CSVField) -> Column {
            .derived(header: header, value: value)
        }

        var header: String {
            switch self {
            case .field(_, let header, _), .derived(let header, _): header
            }
        }
    }

    let columns: [Column]
    /// For each member key, the columns showing it (and whether as plain text).
    private let byKey: [String: [(index: Int, plain: Bool)]]

    init(_ columns: [Column]) {
        self.columns = columns
        var byKey: [String: [(index: Int, plain: Bool)]] = [:]
        for (index, column) in columns.enumerated() {
            if case .field(let key, _, let plain) = column { byKey[key, default: []].append((index, plain)) }
        }
        self.byKey = byKey
    }

    /// The header row.
    var header: [String] { columns.map(\.header) }

    /// One item's fields, in column order.
    func row(_ item: Item) throws -> [CSVField] {
        var collector = Collector(
            byKey: byKey, fields: Array(repeating: .plain(""), count: columns.count),
            filled: Array(repeating: false, count: columns.count))
        try item.writeMembers(to: &collector)
        for (index, column) in columns.enumerated() {
            switch column {
            case .derived(_, let value): collector.fields[index] = value(item)
            case .field(let key, _, _):
                // A column naming a key the shape does not write would print empty cells forever.
                guard collector.filled[index] else {
                    throw InternalError("CSV column '\(key)' names no member of \(Item.self)'s JSON shape")
                }
            }
        }
        return collector.fields
    }

    /// Receives the members and keeps those a column shows.
    private struct Collector: JSONMemberWriter {
        let byKey: [String: [(index: Int, plain: Bool)]]
        var fields: [CSVField]
        var filled: [Bool]

        mutating func put(_ key: StaticString, _ field: (_ plain: Bool) -> CSVField) {
            guard let targets = byKey[key.description] else { return }
            for target in targets {
                fields[target.index] = field(target.plain)
                filled[target.index] = true
            }
        }

        mutating func member(_ key: StaticString, _ text: String?) {
            put(key) { plain in plain ? .plain(text ?? "") : .text(text) }
        }
        mutating func member(_ key: StaticString, _ number: Int64) { put(key) { _ in .number(number) } }
        mutating func member(_ key: StaticString, _ flag: Bool) { put(key) { _ in .plain(flag ? "true" : "false") } }
        mutating func member<Entity>(_ key: StaticString, id: Identifier<Entity>) {
            put(key) { _ in .plain(id.description) }
        }
        mutating func member(_ key: StaticString, timestamp: Date?) { put(key) { _ in .time(timestamp) } }
        mutating func member(_ key: StaticString, minute: Date) { put(key) { _ in .plain(PickupTime.utc(minute)) } }
        mutating func member(_ key: StaticString, plain money: Money) { put(key) { _ in .decimal(money.plain) } }
        // Nested values have no cell of their own: a column computes what it shows of them.
        mutating func member<Value: JSONMembers>(_ key: StaticString, object: Value?) {}
        mutating func member<Element: JSONMembers>(_ key: StaticString, objects: [Element]) {}
        mutating func member<Value: Encodable>(_ key: StaticString, encoded: Value) {}
    }
}

/// The CSV columns of each list, beside its documented JSON shape.
enum CSVRows {
    static let pizza = CSVColumns<Pizza>([
        .member("id"), .member("name"), .member("price"), .member("price_cents"), .member("archived"),
        .member("version"), .member("created_at"), .member("updated_at"),
    ])

    static let user = CSVColumns<User>([
        .member("id"), .member("handle"), .member("display_name", header: "name"), .member("created_at"),
        .member("phone"), .member("erased_at"),
    ])

    static let order = CSVColumns<Order>([
        .member("id"), .member("user"), .member("customer_name"), .member("customer_phone"), .member("pickup_at"),
        .member("pickup_local", plain: true),
        .member("status", plain: true), .member("total"), .member("total_cents"),
        .computed("items") { .text(OrderText.items($0)) }, .member("created_at"),
        .member("service_day", plain: true), .member("outside_hours"),
    ])

    static let available = CSVColumns<AvailableSlot>([
        .member("local", header: "pickup", plain: true), .member("start"), .member("service_day", plain: true),
        .member("offset", plain: true), .member("remaining"), .member("capacity"), .member("capacity_rule"),
    ])

    static let slot = CSVColumns<SlotUsage>([
        .member("local", header: "slot", plain: true), .member("start"), .member("booked"), .member("remaining"),
        .member("capacity"), .member("state", plain: true), .member("capacity_rule"),
        .computed("stations") { .text($0.stations.map(\.text).joined(separator: ", ")) },
    ])

    static let sales = CSVColumns<SalesReport.Row>([
        .member("pizza_id"), .member("name"), .member("quantity"), .member("revenue"), .member("revenue_cents"),
        .member("booked_quantity"), .member("booked_value"), .member("booked_value_cents"),
        .member("no_show_quantity"), .member("cancelled_quantity"), .member("variant"), .member("category"),
    ])

    static let salesCategory = CSVColumns<SalesReport.CategoryTotal>([
        .member("category"), .member("quantity"), .member("revenue"), .member("revenue_cents"),
        .member("booked_quantity"), .member("booked_value"), .member("booked_value_cents"),
        .member("no_show_quantity"), .member("cancelled_quantity"),
    ])

    static let salesDay = CSVColumns<SalesReport.Day>([
        .member("service_day", plain: true), .member("collected_orders"), .member("revenue"),
        .member("revenue_cents"), .member("booked_orders"), .member("booked_value"), .member("booked_value_cents"),
        .member("no_shows"), .member("no_show_value"), .member("no_show_value_cents"), .member("cancelled"),
    ])

    static let event = CSVColumns<NavigationEvent>([
        .member("id"), .member("at"), .member("action", plain: true),
        .computed("routes") { event in
            .text(
                event.routes.map { element -> String in
                    switch element {
                    case .route(let route): "\(route.kind):\(route.id)"
                    case .opaque(let type, _): type
                    }
                }.joined(separator: " "))
        },
        .member("depth_after"), .member("detail"),
    ])
}
