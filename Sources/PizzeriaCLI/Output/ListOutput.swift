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
    private func flush(_ bytes: inout [UInt8], force: Bool = false) throws {
        guard force || bytes.count >= Self.chunk else { return }
        if !bytes.isEmpty { context.console.out(String(decoding: bytes, as: UTF8.self)) }
        bytes.removeAll(keepingCapacity: true)
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
        var writer = JSONTextWriter(pretty: true)
        writer.bytes.append(UInt8(ascii: "["))
        writer.baseDepth = 1
        var count = 0
        do {
            try read { item in
                writer.separator(first: count == 0, depth: 1)
                try element(&writer, item)
                count += 1
                try flush(&writer.bytes)
            }
            writer.close(UInt8(ascii: "]"), empty: count == 0, depth: 0)
            writer.bytes.append(UInt8(ascii: "\n"))
            try flush(&writer.bytes, force: true)
        } catch is Stopped {
            return
        }
    }

    /// CSV with a header row, written as the rows are read.
    func csv<Item>(header: [String], row: @escaping (Item) -> [CSVField], _ read: (_ each: (Item) throws -> Void) throws -> Void) throws {
        var bytes = Array(CSV.header(header).utf8)
        do {
            try read { item in
                bytes.append(contentsOf: CSV.row(row(item)).utf8)
                try flush(&bytes)
            }
            try flush(&bytes, force: true)
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

    /// A table whose rows are read twice: `read` must give the same rows each time it is called
    /// (a row that appears in between can only be wider than measured, never lost).
    /// - Returns: whether there was any row (nothing is printed when there was none).
    @discardableResult
    func table<Item>(_ table: Table, cells: @escaping (Item) -> [String], _ read: (_ each: (Item) throws -> Void) throws -> Void) throws -> Bool {
        var widths = table.headers.map(\.count)
        var rows = 0
        try read { item in
            rows += 1
            for (column, cell) in cells(item).enumerated() where column < widths.count { widths[column] = max(widths[column], cell.count) }
        }
        guard rows > 0 else { return false }
        var bytes: [UInt8] = []
        bytes.append(contentsOf: table.line(table.headers, widths: widths).utf8)
        do {
            try read { item in
                bytes.append(contentsOf: table.line(cells(item), widths: widths).utf8)
                try flush(&bytes)
            }
            try flush(&bytes, force: true)
        } catch is Stopped {
            return true
        }
        return true
    }
}
