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
        return ([headers] + rows).map { line($0, widths: widths) }.joined()
    }

    /// One row padded to `widths`, newline-terminated (the last column is not padded).
    func line(_ cells: [String], widths: [Int]) -> String {
        cells.enumerated().map { column, cell in
            let pad = String(repeating: " ", count: max(0, (column < widths.count ? widths[column] : 0) - cell.count))
            return rightAligned.contains(column) ? pad + cell : (column == cells.count - 1 ? cell : cell + pad)
        }.joined(separator: "  ") + "\n"
    }
}
