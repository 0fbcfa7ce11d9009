/// A plain-text table for people: a header row, then rows, columns padded to fit.
struct Table {
    let headers: [String]
    var rows: [[String]] = []
    /// Columns to align right (amounts, counts).
    var rightAligned: Set<Int> = []

    init(_ headers: String..., rightAligned: Set<Int> = []) {
        self.headers = headers
        self.rightAligned = rightAligned
    }

    mutating func add(_ cells: String...) { rows.append(cells) }

    var rendered: String {
        let widths = headers.indices.map { column in
            ([headers] + rows).map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: max(0, widths[column] - cell.count))
                return rightAligned.contains(column) ? pad + cell : (column == cells.count - 1 ? cell : cell + pad)
            }.joined(separator: "  ")
        }
        return ([line(headers)] + rows.map(line)).map { $0 + "\n" }.joined()
    }
}
