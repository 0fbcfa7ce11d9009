import Foundation
import PizzeriaServices

/// The kitchen board laid out for people: each slot a block of lines, and the whole fitted to a
/// terminal's screen for `order board --watch` — what matters now first, nothing wrapped, what
/// does not fit counted on the last line.
enum BoardScreen {
    /// One line of a slot's block, with the order it shows (its row in the slot's table).
    struct Line: Equatable {
        let text: String
        let order: Order.ID?
    }

    /// A slot's lines: its time and pieces, each station's items, a row per order.
    struct Block: Equatable {
        let slot: KitchenBoard.Slot
        let lines: [Line]
    }

    /// The board's first line: `Board Fri 2026-12-04 · Friggitrice`.
    static func title(_ board: KitchenBoard, _ words: PrintedWords = PrintedWords(.english)) -> String {
        words.board(board.day) + (board.station.map { " · \($0)" } ?? "")
    }

    /// Every slot's block, in time order.
    static func blocks(_ board: KitchenBoard, _ words: PrintedWords = PrintedWords(.english)) -> [Block] {
        board.slots.map { block(of: $0, on: board, words: words) }
    }

    /// A slot's block; with `columns`, its order rows made to fit them: the counter's items
    /// folded into ITEMS, and ITEMS cut (with `…`) where the row would be wider.
    static func block(
        of slot: KitchenBoard.Slot, on board: KitchenBoard, columns: Int? = nil,
        words: PrintedWords = PrintedWords(.english)
    ) -> Block {
        let time = String(slot.local.suffix(5))
        var lines = [
            Line(
                text: "\(time)  " + words.pieces(slot.pieces),
                order: nil)
        ]
        // What each station makes, one line per station, in the stations' order.
        var stations: [String] = [], byStation: [String: [String]] = [:]
        for bake in slot.bake {
            if byStation[bake.station] == nil { stations.append(bake.station) }
            byStation[bake.station, default: []].append("\(bake.quantity) × \(bake.item)")
        }
        let wide = stations.map { Table.width(of: $0) }.max() ?? 0
        for name in stations {
            lines.append(
                Line(
                    text: "       " + name + String(repeating: " ", count: wide - Table.width(of: name)) + "  "
                        + (byStation[name] ?? []).joined(separator: ", "), order: nil))
        }
        // On a screen the counter's items follow the order's own, so ITEMS is the last column.
        let folded = columns != nil
        let counter = !folded && slot.orders.contains { $0.counter != nil }
        // Which stations still owe their part: worth a column when some part is done.
        let owes = board.station == nil && slot.orders.contains { $0.status != .ready && !$0.done.isEmpty }
        let heads = words.boardHeads
        var headers = Array(heads.prefix(4))
        if owes && folded { headers.append(heads[4]) }
        headers.append(heads[5])
        if owes && !folded { headers.append(heads[4]) }
        if counter { headers.append(heads[6]) }
        var table = Table(columns: headers)
        for entry in slot.orders {
            // A ready order still owing is the counter's to take: marked where it waits.
            let when =
                entry.lateMinutes.map { words.late($0) }
                ?? (entry.due
                    ? words.due
                    : entry.status == .ready && entry.balance.cents > 0
                        ? "\(words.toPay) \(entry.balance.formatted)" : "")
            var row = [
                entry.id.short, entry.handle + (entry.name.map { " (\($0))" } ?? ""), words.state(entry.status), when,
            ]
            let owing = entry.owing.joined(separator: ", ")
            if owes && folded { row.append(owing) }
            row.append(entry.items + (folded ? entry.counter.map { "; \(words.counter): \($0)" } ?? "" : ""))
            if owes && !folded { row.append(owing) }
            if counter { row.append(entry.counter ?? "") }
            table.rows.append(row)
        }
        if let columns {
            // What the columns before ITEMS take (each padded to its widest cell, two spaces
            // apart, after the indent); ITEMS gets the rest, at least 12 columns.
            let items = headers.count - 1
            var before = 7
            for column in 0..<items {
                let cells = [headers[column]] + table.rows.map { $0[column] }
                before += 2 + (cells.map { Table.width(of: Table.cell($0)) }.max() ?? 0)
            }
            let room = max(12, columns - before)
            for index in table.rows.indices {
                table.rows[index][items] = cut(table.rows[index][items], to: room)
            }
        }
        // An empty last cell (no counter items) leaves no spaces at the end of its line.
        let rows = table.rendered.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
        for (index, row) in rows.enumerated() {
            let text = "       " + String(row.reversed().drop { $0 == " " }.reversed())
            lines.append(Line(text: text, order: index == 0 ? nil : slot.orders[index - 1].id))
        }
        return Block(slot: slot, lines: lines)
    }

    /// The slots in the order a screen shows them: the current slot (the last to have started
    /// with something still to make),
    /// then those with a late order, oldest first, then those to come, in time order; last, past
    /// slots whose orders are all ready and wait to be picked up.
    static func prioritized(_ blocks: [Block], now: Date) -> [Block] {
        let current = blocks.last { $0.slot.start <= now && $0.slot.orders.contains { $0.status != .ready } }?.slot
            .start
        let first = blocks.filter { $0.slot.start == current }
        let late = blocks.filter { $0.slot.start != current && $0.slot.orders.contains { $0.lateMinutes != nil } }
        let ahead = blocks.filter { $0.slot.start > now }
        let waiting = blocks.filter { !first.contains($0) && !late.contains($0) && !ahead.contains($0) }
        return first + late + ahead + waiting
    }

    /// The board fitted to a screen of `columns` × `rows`: at most `rows` lines, none wider than
    /// `columns` (cut with `…`, never wrapped), the slots in ``prioritized(_:now:)`` order; when
    /// some do not fit, the last line says how many orders and slots are not shown.
    static func fitted(
        _ board: KitchenBoard, columns: Int, rows: Int, words: PrintedWords = PrintedWords(.english)
    ) -> [String] {
        let columns = max(columns, 10), rows = max(rows, 3)
        var screen = [cut(title(board, words) + "  " + words.at(clock(board)), to: columns)]
        guard !board.slots.isEmpty else { return screen + [words.noOpenOrders] }
        let blocks = prioritized(
            board.slots.map { block(of: $0, on: board, columns: columns, words: words) }, now: board.now)
        var shownOrders = Set<Order.ID>(), shownSlots = 0
        // Every line, a blank between slots; the last row is kept for the `+N more` line.
        for block in blocks {
            let needed = 1 + block.lines.count
            let left = rows - screen.count
            if needed <= left - 1 || (needed <= left && block == blocks.last) {
                screen.append("")
                screen += block.lines.map { cut($0.text, to: columns) }
                shownOrders.formUnion(block.lines.compactMap(\.order))
                shownSlots += 1
                continue
            }
            // The first slot that does not fit whole shows what fits of it (its head, its table's
            // header and the first orders), if that is one order or more.
            let fits = left - 2
            if fits >= 1 {
                let head = block.lines.prefix(fits)
                if head.contains(where: { $0.order != nil }) {
                    screen.append("")
                    screen += head.map { cut($0.text, to: columns) }
                    shownOrders.formUnion(head.compactMap(\.order))
                }
            }
            break
        }
        let hiddenOrders = board.slots.reduce(0) { $0 + $1.orders.count } - shownOrders.count
        if hiddenOrders > 0 {
            let hiddenSlots = board.slots.count - shownSlots
            let more = words.more(orders: hiddenOrders, slots: hiddenSlots)
            screen = Array(screen.prefix(rows - 1)) + [cut(more, to: columns)]
        }
        return screen
    }

    /// The time it was read, local to the board's day: `20:41`.
    private static func clock(_ board: KitchenBoard) -> String {
        guard let slot = board.slots.first else { return "" }
        // A slot's local text and its start give the offset; the board's now is shown in it.
        let time = slot.local.suffix(5).split(separator: ":").compactMap { Int($0) }
        guard time.count == 2 else { return "" }
        let offset = time[0] * 60 + time[1] - minutesOfDay(slot.start)
        let minutes = ((minutesOfDay(board.now) + offset) % 1440 + 1440) % 1440
        return String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }

    /// Minutes since UTC midnight of `date`.
    private static func minutesOfDay(_ date: Date) -> Int {
        Int((date.timeIntervalSince1970 / 60).rounded(.down)) % 1440
    }

    /// `text` cut to `columns` display columns, ending in `…` when cut.
    static func cut(_ text: String, to columns: Int) -> String {
        guard Table.width(of: text) > columns else { return text }
        return DisplayWidth.prefix(text, width: columns - 1) + "…"
    }
}
