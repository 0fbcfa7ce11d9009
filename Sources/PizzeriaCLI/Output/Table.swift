import PizzeriaServices

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

    /// A table of headers chosen at run time (columns shown only when needed).
    init(columns headers: [String], rightAligned: Set<Int> = []) {
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

    /// The columns a cell takes on a terminal, counted byte by byte when it is ASCII or Latin —
    /// as nearly every cell is, and counting graphemes was most of a long table's cost — else by
    /// ``DisplayWidth`` (CJK and emoji take two columns, combining marks none).
    static func width(of cell: String) -> Int {
        TerminalText.withUTF8(cell, scalarWidth) ?? DisplayWidth.of(cell)
    }

    /// The width of UTF-8 text whose scalars each take one column: ASCII, Latin letters (below
    /// U+0300, where the combining marks start) and the currency signs (U+20A0…20CF; every
    /// price has a €), counted by their lead bytes. `nil` for anything else, which may combine:
    /// its graphemes are counted instead.
    static func scalarWidth(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var width = 0, index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte < 0x80 {
                index += 1
            } else if (0xC2...0xCB).contains(byte) {  // U+0080…U+02FF
                index += 2
            } else if byte == 0xE2, index + 2 < count, isCurrencySign(bytes[index + 1], bytes[index + 2]) {
                index += 3
            } else {
                return nil
            }
            width += 1
        }
        return width
    }

    /// Whether `E2 second third` is U+20A0…U+20CF, the currency signs.
    private static func isCurrencySign(_ second: UInt8, _ third: UInt8) -> Bool {
        (second == 0x82 && third >= 0xA0) || (second == 0x83 && third <= 0x8F)
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
