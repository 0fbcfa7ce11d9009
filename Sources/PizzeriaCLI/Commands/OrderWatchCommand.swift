import Foundation
import PizzeriaServices
import Synchronization

/// `pizzeria order watch`: the kitchen display — every new order and status change as it happens.
enum OrderWatchCommand {
    static let command = Command(
        name: "watch",
        abstract: "Print every new order and status change as it happens (the kitchen display).",
        discussion: """
            One line per event; with --nl (or --json), one JSON object per line (cursor, kind, from, to, at, order).
            Starts now, or after --after CURSOR to replay what was missed (each event's cursor is printed).
            A cursor from another history (a file restored from an earlier backup, another file) is refused (exit 1).
            Sees changes made by any process. Stops cleanly (exit 0) on Ctrl-C or SIGTERM.
            """,
        options: [after, status, interval, ListOptions.lines],
        examples: [
            "pizzeria order watch", "pizzeria order watch --nl --after 0 | jq .order.id",
            "pizzeria order watch --status ready",
        ],
        lostOutputHint: nil,
        run: run)

    static let after = Option(
        "after", "cursor", help: "Replay the events after this cursor first (0: everything).",
        ValueParser { text, field in
            guard let cursor = EventCursor(text) else {
                throw ValidationError([
                    FieldError(
                        field: field,
                        message:
                            "must be an event cursor as watch prints it (0, or POSITION.CHECK such as 412.9f3a2c1b), not '\(text)'"
                    )
                ])
            }
            return cursor
        })
    static let status = Option(
        "status", "status",
        help: "Only events that move an order to this status (placed, preparing, ready, collected, cancelled).",
        completion: .orderStatuses, .orderStatus)
    static let interval = Option(
        "interval", "ms", help: "How often to look for other processes' changes, in milliseconds.", default: "200",
        .integer(in: 10...60_000))

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let context = invocation.context
        let orders = try context.open(.requireCurrent).orders
        var cursor = try invocation[after] ?? orders.latestEventCursor()
        let status = try invocation[status]
        let interval = try invocation[interval] ?? 200
        let asLines = try context.json || invocation[ListOptions.lines]
        Stop.install()
        var announced = false
        while !Stop.requested {
            let events = try orders.events(after: cursor, limit: 500)
            if !announced {
                // Only once the cursor has been found in this file's history.
                context.console.note("watching orders after event \(cursor); Ctrl-C stops")
                announced = true
            }
            for event in events where status == nil || event.to == status {
                if asLines { try context.printJSONLine(event) } else { context.console.line(line(event)) }
            }
            if let last = events.last {
                cursor = last.cursor
                continue
            }
            // Nothing new: sleep in short steps so a signal, or the reader of a pipe going
            // away, stops the watch at once.
            var slept = 0
            while slept < interval, !Stop.requested, !context.console.readerHasGone() {
                usleep(useconds_t(min(50, interval - slept) * 1_000))
                slept += 50
            }
            if context.console.outputFailure != nil { break }
        }
        return .ok
    }

    /// `#412  2026-12-01 18:31:05 +01:00  placed  1a2b3c4d  anna  pickup 2026-12-01 19:30  2 × Margherita  €12.00  note: no basil`.
    static func line(_ event: OrderEvent) -> String {
        let order = event.order
        let change: String =
            switch event.kind {
            case .placed: "placed"
            case .moved: "moved"
            case .edited: "edited"
            case .paid: "paid"
            case .refunded: "refunded"
            case .undone: "undo: \(event.from?.rawValue ?? "") → \(event.to.rawValue)"
            case .statusChanged, .cancelled: "\(event.from?.rawValue ?? "") → \(event.to.rawValue)"
            }
        var text =
            "#\(event.cursor)  \(event.at.local(order.timeZone))  \(change.padding(to: 22))  \(order.id.short)  \(order.handle)"
            + "  pickup \(order.pickupLocal)  \(OrderText.items(order))  \(order.total.formatted)"
        if let detail = event.detail, [.moved, .edited, .paid, .refunded].contains(event.kind) {
            text += "  (\(detail))"
        }
        if let note = order.note { text += "  note: \(note)" }
        if let actor = event.actor { text += "  by \(actor)" }
        return text
    }

    /// Set by SIGINT, SIGTERM and SIGHUP: the watch finishes its current line and exits 0.
    enum Stop {
        private static let flag = Atomic<Bool>(false)

        static var requested: Bool { flag.load(ordering: .relaxed) }

        static func install() {
            var signals = sigset_t()
            sigemptyset(&signals)
            // SIGHUP too: the terminal that showed the watch has gone (a closed window, a killed tmux).
            for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
                signal(signalNumber) { _ in Stop.flag.store(true, ordering: .relaxed) }
                sigaddset(&signals, signalNumber)
            }
            // A parent may have started us with these signals blocked (they are inherited): a
            // watch must hear them.
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        }
    }
}
