import PizzeriaServices

/// `pizzeria report …`: figures from the orders.
enum ReportCommands {
    static let command = Command(
        name: "report",
        abstract: "Reports built from the orders.",
        subcommands: [sales, MoneyCommands.close])

    static let from = Option("from", "date", help: "First service day included: YYYY-MM-DD, today or tomorrow.")
    static let to = Option("to", "date", help: "Last service day included.")
    static let by = Option(
        "by", "rows",
        help: "day (one row per service day), pizza (per item and variant), category, hour (of pickup) or staff "
            + "(who handed the orders over, and the payments each took).",
        default: "day", completion: .choices(["day", "pizza", "category", "hour", "staff"]))

    /// The report by hour or by staff, in every list mode.
    static func groupShape(_ grouping: SalesGrouping) -> ListOutput.Shape<SalesGroup> {
        ListOutput.Shape<SalesGroup>(
            table: Table(
                grouping == .hour ? "HOUR" : "STAFF", "ORDERS COLLECTED", "ITEMS", "REVENUE", "PAYMENTS", "PAID",
                rightAligned: [1, 2, 3, 4, 5]),
            cells: {
                [
                    $0.key ?? "(nobody)", "\($0.orders)", "\($0.items)", $0.revenue.formatted, "\($0.payments)",
                    $0.paid.formatted,
                ]
            },
            empty: "No collected orders in this period.\n",
            csv: CSVColumns([
                .member("key", header: grouping.rawValue), .member("orders"), .member("items"), .member("revenue"),
                .member("revenue_cents"), .member("payments"), .member("paid"), .member("paid_cents"),
            ]))
    }

    /// The report by pizza, in every list mode.
    static let pizzaShape = ListOutput.Shape<SalesReport.Row>(
        table: Table(
            "ITEM", "ITEMS COLLECTED", "REVENUE", "ITEMS BOOKED", "ITEMS NO-SHOW", "ITEMS CANCELLED",
            rightAligned: [1, 2, 3, 4, 5]),
        cells: {
            [
                $0.label, "\($0.quantity)", $0.revenue.formatted, "\($0.bookedQuantity)", "\($0.noShowQuantity)",
                "\($0.cancelledQuantity)",
            ]
        },
        empty: "No orders in this period.\n", csv: CSVRows.sales)

    /// The report by menu section, in every list mode.
    static let categoryShape = ListOutput.Shape<SalesReport.CategoryTotal>(
        table: Table(
            "CATEGORY", "ITEMS COLLECTED", "REVENUE", "ITEMS BOOKED", "ITEMS NO-SHOW", "ITEMS CANCELLED",
            rightAligned: [1, 2, 3, 4, 5]),
        cells: {
            [
                $0.category, "\($0.quantity)", $0.revenue.formatted, "\($0.bookedQuantity)", "\($0.noShowQuantity)",
                "\($0.cancelledQuantity)",
            ]
        },
        empty: "No orders in this period.\n", csv: CSVRows.salesCategory)

    /// The report by service day, in every list mode.
    static let dayShape = ListOutput.Shape<SalesReport.Day>(
        table: Table(
            "DAY", "ORDERS COLLECTED", "REVENUE", "ORDERS BOOKED", "BOOKED VALUE", "NO-SHOW ORDERS", "CANCELLED ORDERS",
            rightAligned: [1, 2, 3, 4, 5, 6]),
        cells: {
            [
                "\($0.serviceDay.weekday.short) \($0.serviceDay)", "\($0.collectedOrders)", $0.revenue.formatted,
                "\($0.bookedOrders)",
                $0.bookedValue.formatted, "\($0.noShows)", "\($0.cancelled)",
            ]
        },
        empty: "No orders in this period.\n", csv: CSVRows.salesDay)

    static let sales = Command(
        name: "sales",
        abstract:
            "Revenue from collected orders, with what is still booked, no-shows and cancellations, by service day or pizza.",
        discussion: """
            Revenue counts collected orders only, at the prices they were booked at. Orders still placed,
            preparing or ready are `booked`; a ready order whose customer never came is a no-show. Days
            are service days: a night slot after midnight counts on the day it opened.
            """,
        options: [from, to, by] + ListOptions.all,
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let rows = try invocation[by] ?? "day"
            guard ["day", "pizza", "category", "hour", "staff"].contains(rows) else {
                throw ValidationError([
                    FieldError(field: "by", message: "must be day, pizza, category, hour or staff, not '\(rows)'")
                ])
            }
            if let grouping = SalesGrouping(rawValue: rows) {
                let groups = try pizzeria.orders.sales(
                    by: grouping, from: try invocation[from].map { try DateText.date($0, field: "from", pizzeria) },
                    to: try invocation[to].map { try DateText.date($0, field: "to", pizzeria) })
                try context.list.write(invocation, groupShape(grouping)) { each in try groups.forEach(each) }
                return .ok
            }
            let byPizza = rows == "pizza", byCategory = rows == "category"
            let report = try pizzeria.orders.sales(
                from: try invocation[from].map { try DateText.date($0, field: "from", pizzeria) },
                to: try invocation[to].map { try DateText.date($0, field: "to", pizzeria) })
            let (format, headers) = try invocation.listFormat()
            switch format {
            case .json:
                try context.printJSON(report)
            case .table where headers && byPizza && context.terminal.display != nil:
                if let display = context.terminal.display {
                    context.console.outFormatted(Chart.sales(report, display: display))
                }
            case .table where headers:
                context.console.out(
                    byCategory
                        ? categoryShape.rendered(report.categories)
                        : byPizza ? pizzaShape.rendered(report.rows) : dayShape.rendered(report.days))
                let booked = report.bookedValue.cents > 0 ? ", \(report.bookedValue.formatted) still booked" : ""
                if !report.days.isEmpty {
                    context.console.out(
                        "Total: \(report.quantity) items collected, \(report.revenue.formatted)\(booked).\n")
                }
            case .table, .lines, .csv, .tsv:
                // Rows alone, for scripts: no total line.
                if byCategory {
                    try context.list.write(invocation, categoryShape) { each in try report.categories.forEach(each) }
                } else if byPizza {
                    try context.list.write(invocation, pizzaShape) { each in try report.rows.forEach(each) }
                } else {
                    try context.list.write(invocation, dayShape) { each in try report.days.forEach(each) }
                }
            }
            return .ok
        })
}
