import Foundation

/// One order line as the accountant reads it: the order's day and status, the item, variant and
/// modifiers, quantity, unit price, VAT rate, and the line's share of the order's net and VAT.
///
/// The VAT of a line is its share of its order's VAT at that rate (VAT is rounded per rate on the
/// order, see ``VATBreakdown``): each rate's VAT is split over its lines in proportion to their
/// gross, the cents left by rounding down going to the largest remainders — so the lines of an
/// order add up to its receipt to the cent.
///
/// JSON: `{"gross", "gross_cents", "item", "line_no", "modifiers", "net", "net_cents", "order_id",
/// "pickup_local", "quantity", "service_day", "status", "unit_price", "unit_price_cents",
/// "variant", "vat", "vat_cents", "vat_rate_bp"}`.
public struct OrderLineRow: Sendable, Hashable, JSONMembers {
    /// The order.
    public let orderID: Order.ID
    /// Its service day.
    public let serviceDay: LocalDate
    /// Its pickup, local with offset.
    public let pickupLocal: String
    /// Its status.
    public let status: OrderStatus
    /// The line's number in the order, from 1.
    public let lineNumber: Int
    /// The line as booked.
    public let line: OrderLine
    /// The line's share of the order's VAT.
    public let vat: Money

    /// quantity × unit price, VAT included.
    public var gross: Money { line.total }
    /// gross − VAT.
    public var net: Money { Money(cents: gross.cents - vat.cents) }

    /// The rows of one order's lines.
    public static func rows(of order: Order) -> [OrderLineRow] {
        let shares = VATBreakdown.lineShares(of: order.lines)
        return order.lines.indices.map { index in
            OrderLineRow(
                orderID: order.id, serviceDay: order.serviceDay, pickupLocal: order.pickupLocal, status: order.status,
                lineNumber: index + 1, line: order.lines[index], vat: shares[index])
        }
    }

    /// The documented JSON shape, defined once (see ``JSONMembers``).
    public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        try writer.member("gross", plain: gross)
        try writer.member("gross_cents", gross.cents)
        try writer.member("item", line.pizzaName)
        try writer.member("line_no", lineNumber)
        try writer.member(
            "modifiers",
            line.modifiers.allSatisfy({ $0.text == nil })
                ? nil : line.modifiers.compactMap(\.text).joined(separator: ", "))
        try writer.member("net", plain: net)
        try writer.member("net_cents", net.cents)
        try writer.member("order_id", id: orderID)
        try writer.member("pickup_local", pickupLocal)
        try writer.member("quantity", line.quantity)
        try writer.member("service_day", serviceDay.description)
        try writer.member("status", status.rawValue)
        try writer.member("unit_price", plain: line.unitPrice)
        try writer.member("unit_price_cents", line.unitPrice.cents)
        try writer.member("variant", line.variantName)
        try writer.member("vat", plain: vat)
        try writer.member("vat_cents", vat.cents)
        try writer.member("vat_rate_bp", line.vatRate.basisPoints)
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }
}

extension VATBreakdown {
    /// Each line's share of the VAT of `lines` (one order's): per rate, the rate's VAT split in
    /// proportion to the lines' gross by the largest-remainder method, so the shares of a rate
    /// add up to its VAT exactly.
    public static func lineShares(of lines: [OrderLine]) -> [Money] {
        let breakdown = VATBreakdown(lines: lines)
        var shares = [Int64](repeating: 0, count: lines.count)
        for row in breakdown.rows where row.gross.cents > 0 {
            let members = lines.indices.filter { lines[$0].vatRate == row.rate }
            var remainders: [(index: Int, remainder: Int64)] = []
            var given: Int64 = 0
            for index in members {
                let product = row.vat.cents * lines[index].total.cents
                shares[index] = product / row.gross.cents
                given += shares[index]
                remainders.append((index, product % row.gross.cents))
            }
            let ranked = remainders.sorted {
                $0.remainder != $1.remainder ? $0.remainder > $1.remainder : $0.index < $1.index
            }
            for entry in ranked.prefix(Int(row.vat.cents - given)) { shares[entry.index] += 1 }
        }
        return shares.map(Money.init(cents:))
    }
}
