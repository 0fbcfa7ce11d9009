import Foundation
import PizzeriaServices

/// `pizzeria order board`: what to bake next, slot by slot, and what is late.
enum BoardCommand {
    static let date = Option("date", "date", help: "The service day: YYYY-MM-DD, today (default) or tomorrow.")
    static let station = Option(
        "station", "station", help: "One station's board: only what it makes, and the orders it makes something of.")
    static let watch = Flag(
        "watch",
        help: "Keep the board up to date: redrawn in place on a terminal, a fresh board per change when piped.")
    static let interval = Option(
        "interval", "ms", help: "With --watch, how often to look for changes, in milliseconds.", default: "500",
        .integer(in: 50...60_000))

    static let command = Command(
        name: "board",
        abstract: "The kitchen board: per slot, in time order, what to bake and each order's state; late ones flagged.",
        discussion: """
            Open orders only (placed, preparing, ready). Each slot says how many pieces to make and, per
            station (station list), sums the items of its placed and preparing orders (variants, modifiers,
            `senza` removals and line notes named: lines that differ are never merged). Items prepared at no
            station (bottled drinks) are not things to make: each order lists them under COUNTER. --station
            NAME is one station's board. `LATE 12 min`: a placed or preparing order whose pickup has passed;
            `DUE`: one whose pickup is within the lead time. --json is the board for a screen app (one per
            station with --station); --watch redraws it whenever any process changes an order (and every
            30 s, for lateness); Ctrl-C or SIGTERM stops it (exit 0).
            """,
        options: [date, station, watch, interval],
        examples: [
            "pizzeria order board", "pizzeria order board --station Friggitrice --watch",
            "pizzeria order board --json --date tomorrow",
        ],
        lostOutputHint: nil,
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let day = try invocation[date].map { try DateText.date($0, field: "date", pizzeria) }
            let station = try invocation[Self.station].map { try pizzeria.menu.station(named: $0).id }
            guard invocation[watch] else {
                let board = try pizzeria.orders.board(day: day, station: station)
                try context.emit(board) { text(board) }
                return .ok
            }
            let interval = try invocation[interval] ?? 500
            let redraw = context.terminal.display != nil && !context.json
            OrderWatchCommand.Stop.install()
            var seen: EventCursor? = nil
            var drawnAt = Date.distantPast
            while !OrderWatchCommand.Stop.requested, !context.console.readerHasGone() {
                let latest = try pizzeria.orders.latestEventCursor()
                if latest != seen || Date().timeIntervalSince(drawnAt) >= 30 {
                    let board = try pizzeria.orders.board(day: day, station: station)
                    if context.json {
                        try context.printJSONLine(board)
                    } else if redraw {
                        // Home and clear, then the board: the terminal shows one board, always the current one.
                        context.console.outFormatted("\u{1B}[H\u{1B}[2J")
                        context.console.out(text(board))
                    } else {
                        context.console.out(text(board) + "\n")
                    }
                    (seen, drawnAt) = (latest, Date())
                }
                if context.console.outputFailure != nil { break }
                var slept = 0
                while slept < interval, !OrderWatchCommand.Stop.requested, !context.console.readerHasGone() {
                    usleep(useconds_t(min(50, interval - slept) * 1_000))
                    slept += 50
                }
            }
            return .ok
        })

    /// The board for people.
    static func text(_ board: KitchenBoard) -> String {
        var out = "Board \(board.day.weekday.short) \(board.day)" + (board.station.map { " · \($0)" } ?? "") + "\n"
        guard !board.slots.isEmpty else { return out + "No open orders.\n" }
        for slot in board.slots {
            let time = String(slot.local.suffix(5))
            out +=
                "\n\(time)  "
                + (slot.pieces == 0 ? "nothing to make" : slot.pieces == 1 ? "1 piece" : "\(slot.pieces) pieces")
            out += "\n"
            // What each station makes, one line per station, in the stations' order.
            var stations: [String] = [], byStation: [String: [String]] = [:]
            for bake in slot.bake {
                if byStation[bake.station] == nil { stations.append(bake.station) }
                byStation[bake.station, default: []].append("\(bake.quantity) × \(bake.item)")
            }
            let wide = stations.map { Table.width(of: $0) }.max() ?? 0
            for name in stations {
                out +=
                    "       " + name + String(repeating: " ", count: wide - Table.width(of: name)) + "  "
                    + (byStation[name] ?? []).joined(separator: ", ") + "\n"
            }
            let counter = slot.orders.contains { $0.counter != nil }
            // Which stations still owe their part: worth a column when some part is done.
            let owes = board.station == nil && slot.orders.contains { $0.status != .ready && !$0.done.isEmpty }
            var headers = ["ORDER", "CUSTOMER", "STATE", "WHEN", "ITEMS"]
            if owes { headers.append("OWES") }
            if counter { headers.append("COUNTER") }
            var table = Table(columns: headers)
            for entry in slot.orders {
                let when = entry.lateMinutes.map { "LATE \($0) min" } ?? (entry.due ? "DUE" : "")
                var row = [
                    entry.id.short, entry.handle + (entry.name.map { " (\($0))" } ?? ""), entry.status.rawValue, when,
                    entry.items,
                ]
                if owes { row.append(entry.owing.joined(separator: ", ")) }
                if counter { row.append(entry.counter ?? "") }
                table.rows.append(row)
            }
            // An empty last cell (no counter items) leaves no spaces at the end of its line.
            out += table.rendered.split(separator: "\n").map { line in
                "       " + String(line.reversed().drop { $0 == " " }.reversed()) + "\n"
            }.joined()
        }
        return out
    }
}
