import Foundation
import PizzeriaServices

/// How orders look on a terminal.
enum OrderText {
    static func items(_ order: Order) -> String {
        order.lines.map { "\($0.quantity) × \($0.labelWithNote)" }.joined(separator: ", ")
    }

    static var table: Table {
        Table("ID", "USER", "NAME", "PHONE", "PICKUP", "STATUS", "TOTAL", "ITEMS", "NOTE", rightAligned: [6])
    }

    /// An order list in every output mode.
    static let shape = ListOutput.Shape<Order>(
        table: table, cells: cells, empty: "No orders.\n",
        csv: CSVRows.order)

    /// The list with the orders due now that still owe money marked in STATUS (`ready · TO PAY €6.00`).
    static func shape(marking owing: [Order.ID: Money]) -> ListOutput.Shape<Order> {
        guard !owing.isEmpty else { return shape }
        return ListOutput.Shape<Order>(
            table: table,
            cells: { order in
                var row = cells(order)
                if let balance = owing[order.id] { row[5] += " · TO PAY \(balance.formatted)" }
                return row
            }, empty: "No orders.\n", csv: CSVRows.order)
    }

    static func cells(_ order: Order) -> [String] {
        [
            order.id.short, order.handle, order.customer.name ?? "", order.customer.phone ?? "", order.pickupLocal,
            status(order), order.total.formatted, items(order),
            order.note ?? "",
        ]
    }

    /// `anna (Anna Rossi, +390815551234)`: the handle, with the name and phone when known.
    static func customer(_ order: Order) -> String {
        let contact = [order.customer.name, order.customer.phone].compactMap { $0 }
        return contact.isEmpty ? order.handle : "\(order.handle) (\(contact.joined(separator: ", ")))"
    }

    /// `placed`, or `placed (outside the hours)` for a booking a change of the hours left behind.
    static func status(_ order: Order) -> String {
        order.outsideHours ? order.status.rawValue + " (outside the hours)" : order.status.rawValue
    }

    /// The money section of `order show`: state, payments and refunds.
    static func money(_ summary: OrderPayments, zone: TimeZone) -> String {
        var text = "\nPayment: \(summary.state.rawValue)"
        if summary.balance.cents > 0 { text += ", \(summary.balance.formatted) to pay" }
        if summary.owesRefund.cents > 0 { text += ", owes a refund of \(summary.owesRefund.formatted)" }
        text += "\n"
        guard !summary.payments.isEmpty else { return text }
        var table = Table("WHEN", "MONEY", "METHOD", "AMOUNT", "BY", "DETAIL", rightAligned: [3])
        for payment in summary.payments {
            table.add(
                payment.at.local(zone), "payment", payment.method.rawValue, payment.amount.formatted,
                payment.actor ?? "-",
                [payment.reference, payment.change.cents > 0 ? "change \(payment.change.formatted)" : nil]
                    .compactMap { $0 }.joined(separator: ", "))
        }
        for refund in summary.refunds {
            table.add(
                refund.at.local(zone), "refund", refund.method.rawValue, "-" + refund.amount.formatted,
                refund.actor ?? "-", refund.reason)
        }
        return text + table.rendered
    }

    static func detail(_ order: Order) -> String {
        var text = """
            Order \(order.id)
              user      \(customer(order))
              pickup    \(order.pickupLocal) (service day \(order.serviceDay.weekday.name) \(order.serviceDay))
              status    \(status(order))
              version   \(order.version)

            """
        if let capacity = order.slotCapacity {
            text += "  slot      \(capacity.capacity) pizzas (\(capacity.rule ?? "slot-capacity"))\n"
        }
        if let party = order.partyID {
            text +=
                "  party     \(party.short)" + (party == order.id ? " (its first order)" : "")
                + "; `order receipt` prints the party's\n"
        }
        if let note = order.note { text += "  note      \(note)\n" }
        if let key = order.idempotencyKey { text += "  key       \(key)\n" }
        var lines = Table("QTY", "PIZZA", "UNIT", "AMOUNT", rightAligned: [0, 2, 3])
        for line in order.lines {
            // The variant and each modifier on their own rows, priced, under the line's item.
            let name = line.pizzaName + (line.variantName.map { " " + $0 } ?? "")
            let shown = line.modifiers.compactMap { modifier in
                modifier.listed.map { ($0, modifier.kind == .removal ? "" : modifier.price.formatted) }
            }
            if shown.isEmpty {
                lines.add("\(line.quantity)", name, line.unitPrice.formatted, line.total.formatted)
            } else {
                lines.add("\(line.quantity)", name, line.basePrice.formatted, "")
                for (text, price) in shown { lines.add("", "  " + text, price, "") }
                lines.add("", "  = one", line.unitPrice.formatted, line.total.formatted)
            }
            for remark in line.remarks { lines.add("", "  \(remark.label): \(remark.text)", "", "") }
            if !line.allergens.isEmpty {
                lines.add("", "  allergens: " + Allergen.codes(line.allergens).joined(separator: ", "), "", "")
            }
        }
        lines.add("", "Total", "", order.total.formatted)
        text += "\n" + lines.rendered + "\nHistory:\n"
        var history = Table("WHEN", "CHANGE", "STATUS", "BY", "DETAIL")
        for change in order.history {
            let status =
                change.from.map { $0 == change.to ? change.to.rawValue : "\($0.rawValue) → \(change.to.rawValue)" }
                ?? change.to.rawValue
            history.add(
                change.at.local(order.timeZone), change.kind.rawValue, status, change.actor ?? "-", change.detail ?? "")
        }
        return text + history.rendered
    }
}
