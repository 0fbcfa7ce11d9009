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

    /// Runs a list: `read` calls its argument with each item, in order.
    func json<Item: Encodable>(_ read: (_ each: (Item) throws -> Void) throws -> Void) throws {
        try array(read) { writer, item in writer.write(try JSONValueEncoder.value(item), depth: 1) }
    }

    /// A list of a shape that writes itself (see ``DirectJSON``).
    func json<Item: DirectJSON>(_ read: (_ each: (Item) throws -> Void) throws -> Void) throws {
        try array(read) { writer, item in try item.writeJSON(to: &writer) }
    }

    private func array<Item>(_ read: (_ each: (Item) throws -> Void) throws -> Void,
                             element: @escaping (inout JSONTextWriter, Item) throws -> Void) throws {
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

    /// CSV with a header row, written as the rows are read.
    func csv<Item>(header: [String], row: @escaping (Item) -> [CSVField], _ read: (_ each: (Item) throws -> Void) throws -> Void) throws {
        let bytes = OutputBuffer(capacity: Self.chunk + Self.chunk / 4)
        bytes.append(CSV.header(header))
        do {
            try read { item in
                bytes.append(CSV.row(row(item)))
                try flush(bytes)
            }
            try flush(bytes, force: true)
        } catch is Stopped {
            return
        }
    }

    /// How a list command shows its items in each output mode.
    struct Shapes<Item> {
        let csvHeader: [String]
        let csvRow: (Item) -> [CSVField]
        let table: Table
        let cells: (Item) -> [String]
        /// What the table says instead when there are no items.
        let empty: String
    }

    /// A list command's output, streamed: CSV with `--csv`, JSON with `--json`, else a table.
    func stream<Item: DirectJSON>(_ invocation: Invocation, _ shapes: Shapes<Item>,
                                  _ read: (_ each: (Item) throws -> Void) throws -> Void) throws {
        if try invocation.csv() {
            try csv(header: shapes.csvHeader, row: shapes.csvRow, read)
        } else if context.json {
            try json(read)
        } else if try !table(shapes.table, cells: shapes.cells, read) {
            context.console.out(shapes.empty)
        }
    }

    /// Cell text a table keeps in memory to print in one pass; a longer list is read a second
    /// time instead (the first pass measured the columns), so memory stays bounded.
    static let tableBuffer = 8 << 20

    /// A table: its columns must be measured before the first row is printed. The rows are read
    /// once and kept while they fit in ``tableBuffer``; past that they are read again for
    /// printing — `read` must then give the same rows each time it is called (a row that appears
    /// in between can only be wider than measured, never lost).
    /// - Returns: whether there was any row (nothing is printed when there was none).
    @discardableResult
    func table<Item>(_ table: Table, cells: @escaping (Item) -> [String], keepingAtMost limit: Int = tableBuffer,
                     _ read: (_ each: (Item) throws -> Void) throws -> Void) throws -> Bool {
        var widths = table.headers.map(Table.width(of:))
        // Kept rows: their cells one after another with their widths, and each row's length.
        var kept: [(text: String, width: Int)] = [], keptLengths: [Int] = [], keptBytes = 0, overflowed = false
        var rows = 0
        try read { item in
            rows += 1
            let row = cells(item)
            for (column, cell) in row.enumerated() {
                let width = Table.width(of: cell)
                if column < widths.count { widths[column] = max(widths[column], width) }
                if !overflowed {
                    kept.append((cell, width))
                    keptBytes += cell.utf8.count
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
        table.append(table.headers, widths: widths, to: bytes)
        do {
            if overflowed {
                try read { item in
                    table.append(cells(item).map { ($0, Table.width(of: $0)) }, widths: widths, rightAligned: right, to: bytes)
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
