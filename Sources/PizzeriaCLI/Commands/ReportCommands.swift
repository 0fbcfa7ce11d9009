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
        "by", "rows", help: "day (one row per service day), pizza (per item and variant) or category.",
        default: "day", completion: .choices(["day", "pizza", "category"]))

    /// The report by pizza, in every list mode.
    static let pizzaShape = ListOutput.Shape<SalesReport.Row>(
        table: Table(
            "PIZZA", "COLLECTED", "REVENUE", "BOOKED", "NO-SHOWS", "CANCELLED", rightAligned: [1, 2, 3, 4, 5]),
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
            "CATEGORY", "COLLECTED", "REVENUE", "BOOKED", "NO-SHOWS", "CANCELLED", rightAligned: [1, 2, 3, 4, 5]),
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
            "DAY", "COLLECTED", "REVENUE", "BOOKED", "BOOKED VALUE", "NO-SHOWS", "CANCELLED",
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
            guard ["day", "pizza", "category"].contains(rows) else {
                throw ValidationError([
                    FieldError(field: "by", message: "must be day, pizza or category, not '\(rows)'")
                ])
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
                        "Total: \(report.quantity) pizzas collected, \(report.revenue.formatted)\(booked).\n")
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
