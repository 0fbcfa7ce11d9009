import Foundation
import PizzeriaServices
import Synchronization

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
            `DUE`: one whose pickup is within the lead time; `TO PAY €12.00`: a ready one that still owes money
            (JSON `balance_cents` on every order). --json is the board for a screen app (one per
            station with --station); --watch redraws it whenever any process changes an order (and every
            30 s, for lateness); on a terminal it fits the screen: the current slot first, then the late
            ones, then those to come, lines cut (never wrapped), what does not fit counted on the last line
            as `+N more`, laid out again when the terminal is resized. Ctrl-C or SIGTERM stops it (exit 0).
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
            let words = PrintedWords(try pizzeria.payments.shop().language)
            guard try invocation[watch] else {
                let board = try pizzeria.orders.board(day: day, station: station)
                try context.emit(board) { text(board, words) }
                return .ok
            }
            let interval = try invocation[interval] ?? 500
            let redraw = context.terminal.display != nil && !context.json
            OrderWatchCommand.Stop.install()
            if redraw { Resize.install() }
            var seen: EventCursor? = nil
            var drawnAt = Date.distantPast
            while !OrderWatchCommand.Stop.requested, !context.console.readerHasGone() {
                let latest = try pizzeria.orders.latestEventCursor()
                let resized = Resize.happened()
                if latest != seen || resized || Date().timeIntervalSince(drawnAt) >= 30 {
                    let board = try pizzeria.orders.board(day: day, station: station)
                    if context.json {
                        try context.printJSONLine(board)
                    } else if redraw {
                        // Home and clear, then the board fitted to the screen as it is now: the
                        // terminal shows one board, the current one, never scrolled.
                        let size = Terminal.screenSize(of: STDOUT_FILENO)
                        let lines = BoardScreen.fitted(board, columns: size.columns, rows: size.rows, words: words)
                        context.console.outFormatted("\u{1B}[H\u{1B}[2J")
                        context.console.out(lines.joined(separator: "\n"))
                    } else {
                        context.console.out(text(board, words) + "\n")
                    }
                    (seen, drawnAt) = (latest, Date())
                }
                if context.console.outputFailure != nil { break }
                var slept = 0
                while slept < interval, !OrderWatchCommand.Stop.requested, !Resize.pending,
                    !context.console.readerHasGone()
                {
                    usleep(useconds_t(min(50, interval - slept) * 1_000))
                    slept += 50
                }
            }
            return .ok
        })

    /// Set by SIGWINCH: the terminal changed size, the board is laid out again at once.
    enum Resize {
        private static let flag = Atomic<Bool>(false)

        /// Whether a resize waits to be drawn.
        static var pending: Bool { flag.load(ordering: .relaxed) }

        /// Whether the terminal was resized since the last call.
        static func happened() -> Bool { flag.exchange(false, ordering: .relaxed) }

        static func install() {
            signal(SIGWINCH) { _ in Resize.flag.store(true, ordering: .relaxed) }
            // Inherited blocked (a parent's thread may block it), a resize would never be heard.
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGWINCH)
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        }
    }

    /// The board for people: every slot, in time order.
    static func text(_ board: KitchenBoard, _ words: PrintedWords = PrintedWords(.english)) -> String {
        var out = BoardScreen.title(board, words) + "\n"
        guard !board.slots.isEmpty else { return out + words.noOpenOrders + "\n" }
        for block in BoardScreen.blocks(board, words) {
            out += "\n" + block.lines.map { $0.text + "\n" }.joined()
        }
        return out
    }
}
