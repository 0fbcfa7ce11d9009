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

    /// The report by hour or by staff, in every list mode, with heads in `words`' language.
    static func groupShape(_ grouping: SalesGrouping, _ words: PrintedWords) -> ListOutput.Shape<SalesGroup> {
        ListOutput.Shape<SalesGroup>(
            table: Table(columns: words.salesGroupHeads(staff: grouping == .staff), rightAligned: [1, 2, 3, 4, 5]),
            cells: {
                [
                    $0.key ?? words.nobody, "\($0.orders)", "\($0.items)", $0.revenue.formatted, "\($0.payments)",
                    $0.paid.formatted,
                ]
            },
            empty: words.noCollectedInPeriod,
            csv: CSVColumns([
                .member("key", header: grouping.rawValue), .member("orders"), .member("items"), .member("revenue"),
                .member("revenue_cents"), .member("payments"), .member("paid"), .member("paid_cents"),
            ]))
    }

    /// The report by pizza, in every list mode.
    static func pizzaShape(_ words: PrintedWords) -> ListOutput.Shape<SalesReport.Row> {
        ListOutput.Shape<SalesReport.Row>(
            table: Table(columns: words.salesItemHeads(category: false), rightAligned: [1, 2, 3, 4, 5]),
            cells: {
                [
                    $0.label, "\($0.quantity)", $0.revenue.formatted, "\($0.bookedQuantity)", "\($0.noShowQuantity)",
                    "\($0.cancelledQuantity)",
                ]
            },
            empty: words.noOrdersInPeriod, csv: CSVRows.sales)
    }

    /// The report by menu section, in every list mode.
    static func categoryShape(_ words: PrintedWords) -> ListOutput.Shape<SalesReport.CategoryTotal> {
        ListOutput.Shape<SalesReport.CategoryTotal>(
            table: Table(columns: words.salesItemHeads(category: true), rightAligned: [1, 2, 3, 4, 5]),
            cells: {
                [
                    $0.category, "\($0.quantity)", $0.revenue.formatted, "\($0.bookedQuantity)",
                    "\($0.noShowQuantity)", "\($0.cancelledQuantity)",
                ]
            },
            empty: words.noOrdersInPeriod, csv: CSVRows.salesCategory)
    }

    /// The report by service day, in every list mode.
    static func dayShape(_ words: PrintedWords) -> ListOutput.Shape<SalesReport.Day> {
        ListOutput.Shape<SalesReport.Day>(
            table: Table(columns: words.salesDayHeads, rightAligned: [1, 2, 3, 4, 5, 6]),
            cells: {
                [
                    words.day($0.serviceDay), "\($0.collectedOrders)", $0.revenue.formatted, "\($0.bookedOrders)",
                    $0.bookedValue.formatted, "\($0.noShows)", "\($0.cancelled)",
                ]
            },
            empty: words.noOrdersInPeriod, csv: CSVRows.salesDay)
    }

    static let sales = Command(
        name: "sales",
        abstract:
            "Revenue from collected orders, with what is still booked, no-shows and cancellations, by service day or pizza.",
        discussion: """
            Revenue counts collected orders only, at the prices they were booked at. Orders still placed,
            preparing or ready are `booked`; a ready order whose customer never came is a no-show. Days
            are service days: a night slot after midnight counts on the day it opened.

            The table's heads and total line are in the shop's language (`config set language it|en`);
            the rows for scripts (--csv, --tsv, --nl, --no-headers, --json) are the same in either.
            """,
        options: [from, to, by] + ListOptions.all,
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let rows = try invocation[by] ?? "day"
            // People read the shop's language; scripts (every mode but the headed table) read English.
            let words = PrintedWords(try pizzeria.payments.shop().language), english = PrintedWords(.english)
            guard ["day", "pizza", "category", "hour", "staff"].contains(rows) else {
                throw ValidationError([
                    FieldError(field: "by", message: "must be day, pizza, category, hour or staff, not '\(rows)'")
                ])
            }
            if let grouping = SalesGrouping(rawValue: rows) {
                let groups = try pizzeria.orders.sales(
                    by: grouping, from: try invocation[from].map { try DateText.date($0, field: "from", pizzeria) },
                    to: try invocation[to].map { try DateText.date($0, field: "to", pizzeria) })
                let (format, headers) = try invocation.listFormat()
                let shape = groupShape(grouping, format == .table && headers ? words : english)
                try context.list.write(invocation, shape) { each in try groups.forEach(each) }
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
                    context.console.outFormatted(Chart.sales(report, words, display: display))
                }
            case .table where headers:
                context.console.out(
                    byCategory
                        ? categoryShape(words).rendered(report.categories)
                        : byPizza ? pizzaShape(words).rendered(report.rows) : dayShape(words).rendered(report.days))
                if !report.days.isEmpty {
                    context.console.out(
                        words.salesTotal(items: report.quantity, revenue: report.revenue, booked: report.bookedValue)
                            + ".\n")
                }
            case .table, .lines, .csv, .tsv:
                // Rows alone, for scripts: no total line.
                if byCategory {
                    try context.list.write(invocation, categoryShape(english)) { each in
                        try report.categories.forEach(each)
                    }
                } else if byPizza {
                    try context.list.write(invocation, pizzaShape(english)) { each in try report.rows.forEach(each) }
                } else {
                    try context.list.write(invocation, dayShape(english)) { each in try report.days.forEach(each) }
                }
            }
            return .ok
        })
}
