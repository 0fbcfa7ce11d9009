import Foundation

/// What a kitchen printer prints of one order: pickup time, short id, customer, and the items —
/// variants, modifiers, removals, line notes — large and plain, nothing about money. A station's
/// ticket holds only the lines that station prepares.
///
/// JSON: `{"order_id", "short_id", "pickup_at", "pickup_local", "service_day", "customer",
/// "status", "party_id", "station", "lines", "items", "note", "printed_at"}` (`lines` are
/// ``OrderLine``'s JSON; `items` the number of pieces).
public struct KitchenTicket: Sendable, Hashable, Encodable, JSONMembers {
    /// The widths a kitchen printer takes, in display columns (``DisplayWidth``).
    public static let widths = [32, 42, 48]

    /// The order.
    public let order: Order
    /// The station whose ticket it is, or `nil` for the whole order.
    public let station: String?
    /// The lines it prints: the order's, or those of the station.
    public let lines: [OrderLine]
    /// When it was printed.
    public let printedAt: Date

    /// The ticket of `order` (its lines for `station`, when named, are `lines`).
    public init(order: Order, station: String? = nil, lines: [OrderLine]? = nil, printedAt: Date) {
        (self.order, self.station, self.lines, self.printedAt) = (order, station, lines ?? order.lines, printedAt)
    }

    /// The pieces it lists.
    public var items: Int { lines.reduce(0) { $0 + $1.quantity } }

    /// Who the order is for: their name, else their handle.
    public var customer: String { order.customer.name ?? order.handle }

    /// The ticket as a printer prints it, every line at most `width` display columns (32, 42 or
    /// 48): CJK and emoji count as two; its words in `language` (``PrintedWords``).
    public func text(width: Int, language: ShopLanguage = .english) -> String {
        let words = PrintedWords(language)
        var out: [String] = []
        let rule = String(repeating: "=", count: width), thin = String(repeating: "-", count: width)
        func pair(_ left: String, _ right: String) {
            let room = width - DisplayWidth.of(left) - 1
            guard room >= 4 else {
                out += DisplayWidth.wrap(left, width: width) + DisplayWidth.wrap(right, width: width)
                return
            }
            let right = DisplayWidth.prefix(right, width: room)
            out.append(
                left + String(repeating: " ", count: width - DisplayWidth.of(left) - DisplayWidth.of(right)) + right)
        }
        func centred(_ text: String) {
            let text = DisplayWidth.prefix(text, width: width)
            out.append(String(repeating: " ", count: (width - DisplayWidth.of(text)) / 2) + text)
        }
        let local = order.pickupLocal
        out.append(rule)
        pair(words.pickup + " " + String(local.dropFirst(11).prefix(5)), String(local.prefix(10)))
        pair("#" + order.id.short, customer)
        if let party = order.partyID { out.append(words.partyMark + party.short) }
        if let station { centred(station.uppercased()) }
        if order.status == .cancelled { centred("*** " + words.cancelled + " ***") }
        out.append(thin)
        for line in lines {
            out += DisplayWidth.wrap(
                "\(line.quantity) x " + line.pizzaName + (line.variantName.map { " " + $0 } ?? ""), width: width,
                indent: 4)
            for text in line.modifiers.compactMap(\.listed) {
                out += DisplayWidth.wrap("  " + text, width: width, indent: 4)
            }
            for remark in line.remarks { out += DisplayWidth.wrap("  >> " + remark.text, width: width, indent: 5) }
        }
        if lines.isEmpty { out.append(words.nothingHere) }
        out.append(thin)
        out.append(words.items(items))
        if let note = order.note { out += DisplayWidth.wrap(words.note + note, width: width, indent: 6) }
        out.append(rule)
        return out.joined(separator: "\n") + "\n"
    }

    /// The documented JSON shape, defined once (see ``JSONMembers``).
    public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        try writer.member("customer", customer)
        try writer.member("items", items)
        try writer.member("lines", objects: lines)
        try writer.member("note", order.note)
        try writer.member("order_id", id: order.id)
        try writer.member("party_id", order.partyID.map(\.description))
        try writer.member("pickup_at", timestamp: order.pickupAt)
        try writer.member("pickup_local", order.pickupLocal)
        try writer.member("printed_at", timestamp: printedAt)
        try writer.member("service_day", order.serviceDay.description)
        try writer.member("short_id", order.id.short)
        try writer.member("station", station)
        try writer.member("status", order.status.rawValue)
    }

    /// The JSON shape.
    public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }
}
