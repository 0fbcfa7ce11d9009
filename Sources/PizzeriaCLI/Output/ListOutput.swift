import PizzeriaServices

/// Writes a list while it is being read: a JSON array element by element, or a table in two
/// passes (the first measures the columns, the second prints). Output leaves in chunks of
/// 64 KiB, so a list of a million rows needs the memory of one chunk, not of the list.
///
/// A list stops early when stdout fails (a closed pipe, a full disk): the command then exits 74.
struct ListOutput {
    let context: Context

    /// Thrown through the reading loop to stop it when stdout has failed.
    struct Stopped: Error {}

    private static let chunk = 1 << 16

    /// Sends what `bytes` holds once it passes a chunk (or always, with `force`).
    private func flush(_ bytes: OutputBuffer, force: Bool = false) throws {
        guard force || bytes.count >= Self.chunk else { return }
        if !bytes.isEmpty { bytes.withBytes(context.console.outBytes) }
        bytes.removeAll()
        if context.console.outputFailure != nil { throw Stopped() }
    }

    /// How a list command shows its items in each output mode: one definition per list.
    struct Shape<Item>: Sendable {
        /// The table's headers (and which columns align right).
        let table: Table
        /// One row of the table.
        let cells: @Sendable (Item) -> [String]
        /// What the table says instead when there are no items.
        let empty: String
        /// The CSV and TSV columns, beside the documented JSON shape.
        let csvHeader: [String]
        let csvRow: @Sendable (Item) throws -> [CSVField]

        init(
            table: Table, cells: @escaping @Sendable (Item) -> [String], empty: String, csvHeader: [String],
            csvRow: @escaping @Sendable (Item) throws -> [CSVField]
        ) {
            (self.table, self.cells, self.empty, self.csvHeader, self.csvRow) = (table, cells, empty, csvHeader, csvRow)
        }

        /// The table of a few items, as text (for pages that show a list among other things).
        func rendered(_ items: [Item]) -> String {
            guard !items.isEmpty else { return empty }
            var table = table
            table.rows = items.map(cells)
            return table.rendered
        }
    }

    /// A list command's output in the format the command line asks for (``ListFormat``),
    /// streamed as `read` produces the items. `read` calls its argument with each item, in
    /// order; a table may call `read` twice (see ``table(_:cells:headers:keepingAtMost:_:)``).
    func write<Item: JSONMembers>(
        _ invocation: Invocation, _ shape: Shape<Item>,
        _ read: (_ each: (Item) throws -> Void) throws -> Void
    ) throws {
        try write(invocation, shape, read) { writer, item in try writer.writeObject(item) }
    }

    /// ``write(_:_:_:)`` for a shape without a member list: JSON through the general encoder.
    func write<Item: Encodable>(
        _ invocation: Invocation, _ shape: Shape<Item>,
        _ read: (_ each: (Item) throws -> Void) throws -> Void
    ) throws {
        try write(invocation, shape, read) { writer, item in try writer.encoded(item) }
    }

    /// A pretty-printed JSON array of shapes, streamed.
    func json<Item: JSONMembers>(_ read: (_ each: (Item) throws -> Void) throws -> Void) throws {
        try array(read) { writer, item in try writer.writeObject(item) }
    }

    /// Newline-delimited JSON of shapes, streamed.
    func jsonLines<Item: JSONMembers>(_ read: (_ each: (Item) throws -> Void) throws -> Void) throws {
        try lines(read) { writer, item in try writer.writeObject(item) }
    }

    private func write<Item>(
        _ invocation: Invocation, _ shape: Shape<Item>, _ read: (_ each: (Item) throws -> Void) throws -> Void,
        json element: @escaping (inout JSONTextWriter, Item) throws -> Void
    ) throws {
        let (format, headers) = try invocation.listFormat()
        switch format {
        case .table:
            if try !table(shape.table, cells: shape.cells, headers: headers, read), headers {
                context.console.out(shape.empty)
            }
        case .json:
            try array(read, element: element)
        case .lines:
            try lines(read, element: element)
        case .csv, .tsv:
            try delimited(
                format == .tsv ? .tab : try invocation.csvDialect(), header: headers ? shape.csvHeader : nil,
                row: shape.csvRow, read)
        }
    }

    /// A pretty-printed JSON array, element by element.
    private func array<Item>(
        _ read: (_ each: (Item) throws -> Void) throws -> Void,
        element: @escaping (inout JSONTextWriter, Item) throws -> Void
    ) throws {
        var writer = JSONTextWriter(pretty: true, into: OutputBuffer(capacity: Self.chunk + Self.chunk / 4))
        writer.bytes.append(UInt8(ascii: "["))
        writer.baseDepth = 1
        var count = 0
        do {
            try read { item in
                writer.separator(first: count == 0, depth: 1)
                try element(&writer, item)
                count += 1
                try flush(writer.bytes)
            }
            writer.close(UInt8(ascii: "]"), empty: count == 0, depth: 0)
            writer.bytes.append(UInt8(ascii: "\n"))
            try flush(writer.bytes, force: true)
        } catch is Stopped {
            return
        }
    }

    /// Newline-delimited JSON: each element compact, on a line of its own.
    private func lines<Item>(
        _ read: (_ each: (Item) throws -> Void) throws -> Void,
        element: @escaping (inout JSONTextWriter, Item) throws -> Void
    ) throws {
        let bytes = OutputBuffer(capacity: Self.chunk + Self.chunk / 4)
        do {
            try read { item in
                var writer = JSONTextWriter(pretty: false, into: bytes)
                try element(&writer, item)
                bytes.append(UInt8(ascii: "\n"))
                try flush(bytes)
            }
            try flush(bytes, force: true)
        } catch is Stopped {
            return
        }
    }

    /// CSV or TSV with an optional header row, written as the rows are read.
    func delimited<Item>(
        _ dialect: CSV.Dialect, header: [String]?, row: @escaping (Item) throws -> [CSVField],
        _ read: (_ each: (Item) throws -> Void) throws -> Void
    ) throws {
        let bytes = OutputBuffer(capacity: Self.chunk + Self.chunk / 4)
        bytes.append(dialect.preamble)
        if let header { bytes.append(CSV.header(header, dialect)) }
        do {
            try read { item in
                bytes.append(CSV.row(try row(item), dialect))
                try flush(bytes)
            }
            try flush(bytes, force: true)
        } catch is Stopped {
            return
        }
    }

    /// Memory a table's kept cells may take to print in one pass; a longer list is read a second
    /// time instead (the first pass measured the columns), so memory stays bounded.
    static let tableBuffer = 8 << 20

    /// What one kept cell costs beyond its text: the array entry and, past 15 bytes, the string's
    /// own allocation. Counted so the budget is memory, not text (a million short cells are
    /// ~24 MB of entries for a few MB of text).
    static let cellOverhead = 40

    /// A table: its columns must be measured before the first row is printed. The rows are read
    /// once and kept while they fit in ``tableBuffer``; past that they are read again for
    /// printing — `read` must then give the same rows each time it is called (a row that appears
    /// in between can only be wider than measured, never lost).
    /// - Returns: whether there was any row (nothing is printed when there was none).
    @discardableResult
    func table<Item>(
        _ table: Table, cells: @escaping (Item) -> [String], headers: Bool = true,
        keepingAtMost limit: Int = tableBuffer,
        _ read: (_ each: (Item) throws -> Void) throws -> Void
    ) throws -> Bool {
        var widths = table.headers.map { headers ? Table.width(of: $0) : 0 }
        // Kept rows: their cells one after another with their widths, and each row's length.
        var kept: [(text: String, width: Int)] = [], keptLengths: [Int] = [], keptBytes = 0, overflowed = false
        var rows = 0
        try read { item in
            rows += 1
            let row = cells(item)
            for column in row.indices {
                let cell = Table.cell(row[column])
                let width = Table.width(of: cell)
                if column < widths.count { widths[column] = max(widths[column], width) }
                if !overflowed {
                    kept.append((cell, width))
                    keptBytes += cell.utf8.count + Self.cellOverhead
                }
            }
            guard !overflowed else { return }
            keptLengths.append(row.count)
            if keptBytes > limit {
                overflowed = true
                kept = []
                keptLengths = []
            }
        }
        guard rows > 0 else { return false }
        let bytes = OutputBuffer(capacity: Self.chunk + Self.chunk / 4)
        let right = table.rightAlignment(widths.count)
        if headers { table.append(table.headers.map(Table.cell), widths: widths, to: bytes) }
        do {
            if overflowed {
                try read { item in
                    table.append(
                        cells(item).map {
                            let cell = Table.cell($0); return (cell, Table.width(of: cell))
                        }, widths: widths, rightAligned: right, to: bytes)
                    try flush(bytes)
                }
            } else {
                var start = 0
                for length in keptLengths {
                    table.append(kept[start..<start + length], widths: widths, rightAligned: right, to: bytes)
                    start += length
                    try flush(bytes)
                }
            }
            try flush(bytes, force: true)
        } catch is Stopped {
            return true
        }
        return true
    }
}

extension ListOutput.Shape where Item: JSONMembers {
    /// A shape whose CSV and TSV columns come from the item's JSON members (``CSVColumns``).
    init(table: Table, cells: @escaping @Sendable (Item) -> [String], empty: String, csv: CSVColumns<Item>) {
        self.init(table: table, cells: cells, empty: empty, csvHeader: csv.header, csvRow: csv.row)
    }
}
