import Foundation
import PizzeriaServices

/// `pizzeria order board`: what to bake next, slot by slot, and what is late.
enum BoardCommand {
    static let date = Option("date", "date", help: "The service day: YYYY-MM-DD, today (default) or tomorrow.")
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
            Open orders only (placed, preparing, ready). A slot's `bake` line sums the items of its placed and
            preparing orders (variants and modifiers named). `LATE 12 min`: a placed or preparing order whose
            pickup has passed; `DUE`: one whose pickup is within the lead time. --json is the board for a screen
            app; --watch redraws it whenever any process changes an order (and every 30 s, for lateness);
            Ctrl-C or SIGTERM stops it (exit 0).
            """,
        options: [date, watch, interval],
        examples: [
            "pizzeria order board", "pizzeria order board --watch", "pizzeria order board --json --date tomorrow",
        ],
        lostOutputHint: nil,
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let day = try invocation[date].map { try DateText.date($0, field: "date", pizzeria) }
            guard invocation[watch] else {
                let board = try pizzeria.orders.board(day: day)
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
                    let board = try pizzeria.orders.board(day: day)
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
        var out = "Board \(board.day.weekday.short) \(board.day)\n"
        guard !board.slots.isEmpty else { return out + "No open orders.\n" }
        for slot in board.slots {
            let time = String(slot.local.suffix(5))
            out +=
                "\n\(time)  "
                + (slot.bake.isEmpty
                    ? "nothing to bake"
                    : "bake " + slot.bake.map { "\($0.quantity) × \($0.item)" }.joined(separator: ", ")) + "\n"
            var table = Table("ORDER", "CUSTOMER", "STATE", "WHEN", "ITEMS")
            for entry in slot.orders {
                let when = entry.lateMinutes.map { "LATE \($0) min" } ?? (entry.due ? "DUE" : "")
                table.add(
                    entry.id.short, entry.handle + (entry.name.map { " (\($0))" } ?? ""), entry.status.rawValue, when,
                    entry.items)
            }
            out += table.rendered.split(separator: "\n").map { "       " + $0 + "\n" }.joined()
        }
        return out
    }
}
