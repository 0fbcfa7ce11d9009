import PizzeriaServices

/// `pizzeria report …`: figures from the orders.
enum ReportCommands {
    static let command = Command(
        name: "report",
        abstract: "Reports built from the orders.",
        subcommands: [sales])

    static let from = Option("from", "date", help: "First service day included: YYYY-MM-DD, today or tomorrow.")
    static let to = Option("to", "date", help: "Last service day included.")

    /// The report's rows in every list mode.
    static let shape = ListOutput.Shape<SalesReport.Row>(
        table: Table("PIZZA", "QTY", "REVENUE", rightAligned: [1, 2]), cells: { [$0.name, "\($0.quantity)", $0.revenue.formatted] },
        empty: "", csvHeader: CSVRows.salesHeader, csvRow: CSVRows.sales)

    static let sales = Command(
        name: "sales",
        abstract: "Quantity and revenue per pizza, from the prices at booking time (cancelled orders excluded).",
        options: [from, to] + ListOptions.all,
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let report = try pizzeria.orders.sales(from: try invocation[from].map { try DateText.date($0, field: "from", pizzeria) },
                                                   to: try invocation[to].map { try DateText.date($0, field: "to", pizzeria) })
            let (format, headers) = try invocation.listFormat()
            switch format {
            case .json:
                try context.printJSON(report)
            case .table where headers:
                if let display = context.terminal.display {
                    context.console.out(Chart.sales(report, display: display))
                } else {
                    var table = Table("PIZZA", "QTY", "REVENUE", rightAligned: [1, 2])
                    for row in report.rows { table.add(row.name, "\(row.quantity)", row.revenue.formatted) }
                    table.add("Total", "\(report.quantity)", report.revenue.formatted)
                    context.console.out(table.rendered)
                }
            case .table, .lines, .csv, .tsv:
                // Rows alone, for scripts: the pizzas, without the total line.
                try context.list.write(invocation, shape) { each in try report.rows.forEach(each) }
            }
            return .ok
        })
}
