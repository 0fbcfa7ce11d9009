import PizzeriaServices

/// `pizzeria report …`: figures from the orders.
enum ReportCommands {
    static let command = Command(
        name: "report",
        abstract: "Reports built from the orders.",
        subcommands: [sales])

    static let sales = Command(
        name: "sales",
        abstract: "Quantity and revenue per pizza, from the prices at booking time (cancelled orders excluded).",
        options: [.value("from", "date", help: "First pickup day included, YYYY-MM-DD."),
                  .value("to", "date", help: "Last pickup day included, YYYY-MM-DD."), GlobalOptions.csv],
        run: { invocation in
            let context = invocation.context
            let report = try context.open(.requireCurrent).orders.sales(from: invocation.option("from"), to: invocation.option("to"))
            if try invocation.csv() {
                try context.list.csv(header: CSVRows.salesHeader, row: CSVRows.sales) { each in try report.rows.forEach(each) }
                return .ok
            }
            if !context.json, let display = context.terminal.display {
                context.console.out(Chart.sales(report, display: display))
                return .ok
            }
            try context.emit(report) {
                var table = Table("PIZZA", "QTY", "REVENUE", rightAligned: [1, 2])
                for row in report.rows { table.add(row.name, "\(row.quantity)", row.revenue.formatted) }
                table.add("Total", "\(report.quantity)", report.revenue.formatted)
                return table.rendered
            }
            return .ok
        })
}
