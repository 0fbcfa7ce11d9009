import PizzeriaServices

/// How orders look on a terminal.
enum OrderText {
    static func items(_ order: Order) -> String {
        order.lines.map { "\($0.quantity) × \($0.pizzaName)" }.joined(separator: ", ")
    }

    static var table: Table { Table("ID", "USER", "PICKUP", "STATUS", "TOTAL", "ITEMS", rightAligned: [4]) }

    /// An order list in every output mode.
    static let shape = ListOutput.Shape<Order>(table: table, cells: cells, empty: "No orders.\n",
                                               csvHeader: CSVRows.orderHeader, csvRow: CSVRows.order)

    static func cells(_ order: Order) -> [String] {
        [order.id.short, order.handle, order.pickupLocal, status(order), order.total.formatted, items(order)]
    }

    /// `placed`, or `placed (outside the hours)` for a booking a change of the hours left behind.
    static func status(_ order: Order) -> String {
        order.outsideHours ? order.status.rawValue + " (outside the hours)" : order.status.rawValue
    }

    static func detail(_ order: Order) -> String {
        var text = """
            Order \(order.id)
              user      \(order.handle)
              pickup    \(order.pickupLocal) (\(order.pickupAt.formatted(.iso8601)))
              status    \(status(order))

            """
        if let key = order.idempotencyKey { text += "  key       \(key)\n" }
        var lines = Table("QTY", "PIZZA", "UNIT", "AMOUNT", rightAligned: [0, 2, 3])
        for line in order.lines {
            lines.add("\(line.quantity)", line.pizzaName, line.unitPrice.formatted, line.total.formatted)
        }
        lines.add("", "Total", "", order.total.formatted)
        text += "\n" + lines.rendered + "\nStatus history:\n"
        var history = Table("WHEN", "FROM", "TO")
        for change in order.history { history.add(change.at.timestamp, change.from?.rawValue ?? "-", change.to.rawValue) }
        return text + history.rendered
    }
}
