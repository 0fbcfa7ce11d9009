/// A plain-text table for people: a header row, then rows, columns padded to fit.
struct Table: Sendable {
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
        let all = ([headers] + rows).map { $0.map(Self.cell) }
        let widths = headers.indices.map { column in
            all.map { $0.indices.contains(column) ? Self.width(of: $0[column]) : 0 }.max() ?? 0
        }
        return all.map { line($0, widths: widths) }.joined()
    }

    /// A cell as the table shows it: on one line, with control characters escaped (cells hold
    /// names, notes and links from outside).
    static func cell(_ text: String) -> String { TerminalText.escaped(text, .line) }

    /// The columns a cell takes: its characters (grapheme clusters), counted byte by byte when it
    /// is ASCII — as nearly every cell is, and counting graphemes was most of a long table's cost.
    static func width(of cell: String) -> Int {
        if cell.utf8.allSatisfy({ $0 < 0x80 }) { return cell.utf8.count }
        // Latin letters and the currency signs (every price has a €) are each a character of
        // their own: counted as scalars. Anything else may combine, so graphemes are counted.
        if cell.unicodeScalars.allSatisfy({ $0.value < 0x300 || (0x20A0...0x20CF).contains($0.value) }) {
            return cell.unicodeScalars.count
        }
        return cell.count
    }

    /// One row padded to `widths`, newline-terminated (the last column is not padded).
    func line(_ cells: [String], widths: [Int]) -> String {
        let bytes = OutputBuffer(capacity: 128)
        append(cells, widths: widths, to: bytes)
        return bytes.text
    }

    /// ``line(_:widths:)`` written into `bytes`.
    func append(_ cells: [String], widths: [Int], to bytes: OutputBuffer) {
        append(
            cells.map { (text: $0, width: Self.width(of: $0)) }, widths: widths,
            rightAligned: rightAlignment(cells.count), to: bytes)
    }

    /// Which of `count` columns align right, as flags (looked up per cell by index, not hashed).
    func rightAlignment(_ count: Int) -> [Bool] { (0..<count).map { rightAligned.contains($0) } }

    /// One row of cells whose widths are known, padded to `widths`.
    func append<Cells: Collection>(_ cells: Cells, widths: [Int], rightAligned right: [Bool], to bytes: OutputBuffer)
    where Cells.Element == (text: String, width: Int) {
        for (column, cell) in cells.enumerated() {
            if column > 0 { bytes.append("  " as StaticString) }
            let pad = max(0, (column < widths.count ? widths[column] : 0) - cell.width)
            if column < right.count, right[column] {
                bytes.append(repeating: UInt8(ascii: " "), count: pad)
                bytes.append(cell.text)
            } else {
                bytes.append(cell.text)
                if column < cells.count - 1 { bytes.append(repeating: UInt8(ascii: " "), count: pad) }
            }
        }
        bytes.append(UInt8(ascii: "\n"))
    }
}
