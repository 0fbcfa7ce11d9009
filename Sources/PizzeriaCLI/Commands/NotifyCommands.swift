import Foundation
import PizzeriaServices

extension ValueParser where Value == NotifierName {
    /// A notifier's name.
    static let notifierName = ValueParser { text, field in
        guard let name = NotifierName(text) else {
            throw ValidationError([FieldError(field: field, message: "\(NotifierName.rule), not '\(text)'")])
        }
        return name
    }
}

extension ValueParser where Value == NotifierStart {
    /// `now`, `start`, or an event cursor.
    static let notifierStart = ValueParser { text, field in
        switch text.lowercased() {
        case "now": return .now
        case "start", "0": return .start
        default:
            guard let cursor = EventCursor(text) else {
                throw ValidationError([
                    FieldError(
                        field: field,
                        message: "must be now, start or an event cursor (such as 412.9f3a2c1b), not '\(text)'")
                ])
            }
            return .after(cursor)
        }
    }
}

/// `pizzeria notify`: tell customers — each order event handed to a command, at least once, in order.
enum NotifyCommands {
    static let command = Command(
        name: "notify",
        abstract: "Tell customers: hand each order event to a command (an SMS or e-mail sender), at least once.",
        discussion: """
            A notifier is a named cursor over the order feed kept in the file (table notify_cursors): `notify run`
            hands every event of its kinds to CMD, one at a time and in order, and moves the cursor only once CMD
            exits 0, so a notifier killed at any instant resumes at the event it was delivering. That event is then
            delivered again with PIZZERIA_REDELIVERY=1; its token (PIZZERIA_EVENT_TOKEN, "token" in the JSON) is
            the same on every delivery, so CMD can drop a copy it already sent. See docs/NOTIFY.md.
            """,
        subcommands: [run, list, reset, remove])

    static let nameOption = RequiredOption(
        "name", "name", help: "The notifier: 1 to 40 of a-z 0-9 _ - (sms, email-it).", .notifierName)
    static let nameArgument = Argument("name", help: "The notifier's name.", .notifierName)
    static let exec = RequiredOption(
        "exec", "cmd",
        help: "The command, run by /bin/sh -c once per event: the event as JSON on stdin and in "
            + "PIZZERIA_* environment variables; exit 0 means delivered.")
    static let kinds = Option(
        "kinds", "list",
        help: "What to deliver, comma-separated (default for a new notifier: "
            + NotificationKind.customerFacing.map(\.rawValue).joined(separator: ",") + "; all kinds: "
            + NotificationKind.allCases.map(\.rawValue).joined(separator: ",") + ").")
    static let from = Option(
        "from", "where",
        help: "Where a new notifier starts (now, the default: only new events; start: the whole history; or a "
            + "cursor). On an existing one it moves the cursor.", .notifierStart)
    static let resetFrom = RequiredOption(
        "from", "where", help: "Where to go on: now (skip what waits), start, or after an event cursor.",
        .notifierStart)
    static let once = Flag("once", help: "Deliver what is waiting, then exit (for cron and scripts).")
    static let staffText = Flag(
        "staff-text",
        help: "Deliver staff's text too (kitchen notes, override, cancellation and unpaid reasons, staff names): "
            + "for a notifier that informs staff, not customers.")
    static let template = Option(
        "template", "kind",
        help: "sms or email: put a ready-made message in the shop's language (config set language) in the event's "
            + "\"message\" and $PIZZERIA_MESSAGE, so CMD only sends it.",
        completion: .choices(MessageTemplate.allCases.map(\.rawValue)))
    static let timeout = Option(
        "timeout", "seconds", help: "Kill CMD after this many seconds (a failure, retried).", default: "30",
        .integer(in: 1...3_600))
    static let retry = Option(
        "retry-ms", "ms", help: "The wait after a first failure; it doubles on each failure of one event.",
        default: "1000", .integer(in: 1...3_600_000))
    static let retryMax = Option(
        "retry-max", "seconds", help: "The longest wait between two tries.", default: "300", .integer(in: 1...86_400))
    static let attempts = Option(
        "max-attempts", "n",
        help: "Give up (exit 1, the event still undelivered) after N failures of one event (default: never; "
            + "3 with --once).", .integer(in: 1...1_000_000))
    static let interval = Option(
        "interval", "ms", help: "How often to look for new events when there are none.", default: "200",
        .integer(in: 10...60_000))

    static let run = Command(
        name: "run",
        abstract: "Run a notifier: every order event of its kinds to CMD, in order, until stopped (or --once).",
        discussion: """
            CMD gets the event as one JSON object on stdin ({"token", "kind", "notifier", "redelivery", "attempt",
            "message", "event": {…}}; the event is what `order watch --json` prints, its order with customer_name
            and customer_phone, and "then": its pickup and total as they were at the event) and as environment
            variables: PIZZERIA_MESSAGE (with --template), PIZZERIA_EVENT_TOKEN, PIZZERIA_EVENT_KIND,
            PIZZERIA_ORDER_ID, PIZZERIA_ORDER_STATUS, PIZZERIA_PICKUP_LOCAL, PIZZERIA_CUSTOMER,
            PIZZERIA_CUSTOMER_NAME, PIZZERIA_CUSTOMER_PHONE, PIZZERIA_ORDER_TOTAL, PIZZERIA_EVENT_DETAIL,
            PIZZERIA_REDELIVERY (1 when it may be a duplicate), PIZZERIA_ATTEMPT. What CMD prints goes to stderr.
            A customer reads what CMD sends, so staff's own text is left out of both: a history detail is cut at
            its first kitchen note, override, cancellation or unpaid reason (`delayed +10 min` stays), staff
            names (`by`) and the lines' and order's kitchen notes go; --staff-text delivers everything.
            The pickup and total a message gives are the order's as they were at the event (a "placed" delivered
            after a move still says the pickup it was booked for); events recorded before schema 46 carry the
            order as it is now. --template sms|email writes the finished text in the shop's language.
            A CMD that fails (exit status, signal, --timeout) is tried again after 1 s, 2 s, 4 s … (--retry-ms,
            --retry-max), each failure reported on stderr and counted in `notify list`; the events after it wait.
            One process per notifier: a second is refused (exit 1) while the first runs. Prints a line per
            delivered event (--json: one JSON object per line). Ctrl-C or SIGTERM stops after the current event.
            """,
        options: [
            nameOption, exec, kinds, from, once, timeout, retry, retryMax, attempts, interval, staffText, template,
            OrderCommands.by,
        ],
        examples: [
            "pizzeria notify run --name sms --exec 'sms-gateway --to \"$PIZZERIA_CUSTOMER_PHONE\"'",
            "pizzeria notify run --name sms --exec Examples/Notifier/.build/release/pizzeria-notifier",
            "pizzeria notify run --name audit --kinds placed,paid,refunded --from start --once --exec 'cat >> log.jsonl'",
        ],
        lostOutputHint: "deliveries already made are recorded in the file; `notify list` shows where it is",
        run: runNotifier)

    static func runNotifier(_ invocation: Invocation) throws -> ExitCode {
        let context = invocation.context
        let pizzeria = try context.open(.requireCurrent)
        let name = try invocation[nameOption]
        let command = try invocation[exec]
        guard !command.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError([FieldError(field: "exec", message: "must not be empty")])
        }
        let kinds = try invocation[Self.kinds].map { try NotificationKind.list(parsing: $0, field: "kinds") }
        let once = try invocation[Self.once]
        let staffText = try invocation[Self.staffText]
        let template = try invocation[Self.template].map { text in
            guard let template = MessageTemplate(rawValue: text.lowercased()) else {
                throw ValidationError([
                    FieldError(field: "template", message: "must be sms or email, not '\(text)'")
                ])
            }
            return template
        }
        let shop = try pizzeria.payments.shop()
        let policy = NotifierPolicy(
            once: once, firstRetry: Double(try invocation[retry] ?? 1_000) / 1_000,
            maximumRetry: Double(try invocation[retryMax] ?? 300),
            maximumAttempts: try invocation[attempts] ?? (once ? 3 : nil),
            pollInterval: Double(try invocation[interval] ?? 200) / 1_000)
        let runner = NotifyCommandRunner(command: command, timeout: Double(try invocation[timeout] ?? 30))
        OrderWatchCommand.Stop.install()
        let summary = try pizzeria.notifications.run(
            name, kinds: kinds, from: try invocation[from], by: try OrderCommands.actor(invocation), policy: policy,
            shouldStop: { OrderWatchCommand.Stop.requested || context.console.outputFailure != nil },
            progress: { step in
                switch step {
                case .started(let state):
                    context.console.note(
                        "notifier \(state.name) after event \(state.after): \(state.waiting) event(s) waiting; "
                            + "delivering \(state.kinds.map(\.rawValue).joined(separator: ","))"
                            + (once ? "" : "; Ctrl-C stops"))
                case .delivered(let note):
                    if context.json {
                        try? context.printJSONLine(Delivered(note))
                    } else {
                        context.console.line(
                            "delivered \(note.token)  \(note.kind.rawValue)  \(note.event.order.id.short)  "
                                + note.event.order.handle + (note.redelivery ? "  (again: may be a duplicate)" : "")
                                + (note.attempt > 1 ? "  (attempt \(note.attempt))" : ""))
                    }
                case .failed(let note, let error, let wait):
                    context.console.err(
                        "warning: notifier \(name): event \(note.token) (\(note.kind.rawValue), order "
                            + "\(note.event.order.id.short)) failed: \(error); attempt \(note.attempt), again in "
                            + "\(Self.seconds(wait))\n")
                }
            },
            deliver: { notification in
                let told = staffText ? notification : notification.forCustomers()
                try runner.deliver(template.map { told.templated($0, shop: shop) } ?? told)
            })
        context.console.note(
            "notifier \(name): \(summary.delivered) delivered (\(summary.redeliveries) again after a stop), "
                + "\(summary.failures) failed tries, \(summary.passedOver) passed over")
        return .ok
    }

    static func seconds(_ value: TimeInterval) -> String {
        value < 1 ? "\(Int((value * 1_000).rounded())) ms" : "\(Int(value.rounded())) s"
    }

    /// One line of `notify run --json`.
    struct Delivered: Encodable {
        let token: String
        let kind: NotificationKind
        let order: String
        let redelivery: Bool
        let attempt: Int
        init(_ note: OrderNotification) {
            (token, kind, order, redelivery, attempt) = (
                note.token, note.kind, note.event.order.id.description, note.redelivery, note.attempt
            )
        }
    }

    static let shape = ListOutput.Shape<NotifierState>(
        table: Table(
            "NAME", "AFTER", "WAITING", "DELIVERED", "FAILURES", "LAST ERROR", "RUNNING", "KINDS",
            rightAligned: [2, 3, 4]),
        cells: {
            [
                $0.name.description, $0.after.description, "\($0.waiting)", "\($0.delivered)", "\($0.failures)",
                $0.lastError ?? "", $0.holder?.description ?? "no", $0.kinds.map(\.rawValue).joined(separator: ","),
            ]
        },
        empty: "No notifiers. `pizzeria notify run --name NAME --exec CMD` sets one up.\n",
        csv: CSVColumns([
            .member("name"), .member("after"), .member("pending"), .member("waiting"), .member("delivered"),
            .member("failures"), .member("last_error"), .member("last_error_at"), .member("holder"),
            .member("heartbeat_at"), .member("kinds"), .member("created_by"), .member("created_at"),
            .member("updated_at"),
        ]))

    static let list = Command(
        name: "list", abstract: "List the notifiers: where each is, what waits, how it last failed.",
        options: ListOptions.all,
        run: { invocation in
            let context = invocation.context
            let notifiers = try context.open(.requireCurrent).notifications.notifiers()
            try context.list.write(invocation, shape) { each in try notifiers.forEach(each) }
            return .ok
        })

    static let reset = Command(
        name: "reset", abstract: "Move a stopped notifier's cursor (now: skip what waits; start: deliver all again).",
        arguments: [nameArgument], options: [resetFrom, OrderCommands.by],
        examples: ["pizzeria notify reset sms --from now", "pizzeria notify reset sms --from 412.9f3a2c1b"],
        run: { invocation in
            let context = invocation.context
            let state = try context.open(.requireCurrent).notifications.reset(
                try invocation[nameArgument], to: try invocation[resetFrom])
            try context.emit(state) {
                "Notifier \(state.name) now starts after event \(state.after) (\(state.waiting) waiting).\n"
            }
            return .ok
        })

    static let remove = Command(
        name: "remove", abstract: "Remove a stopped notifier and its cursor.", arguments: [nameArgument],
        options: [OrderCommands.by],
        run: { invocation in
            let context = invocation.context
            let name = try invocation[nameArgument]
            try context.open(.requireCurrent).notifications.remove(name)
            try context.emit(["removed": name.description]) { "Removed notifier \(name).\n" }
            return .ok
        })
}

/// Runs a notifier's command once per event: `/bin/sh -c CMD` in a process group of its own, the
/// event as JSON on stdin and in the environment, its stdout sent to stderr (stdout is the
/// notifier's own report); after the timeout the whole group is killed, so a command's children
/// cannot outlive it holding the notifier's output open.
struct NotifyCommandRunner {
    let command: String
    let timeout: TimeInterval

    /// How a try failed, in the words `notify list` keeps (never the command's output).
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func deliver(_ notification: OrderNotification) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let input = try encoder.encode(notification) + Data("\n".utf8)
        let environment = ProcessInfo.processInfo.environment.merging(notification.environment) { $1 }
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { throw Failure(description: "could not make a pipe (errno \(errno))") }
        let (readEnd, writeEnd) = (pipe[0], pipe[1])
        let pid: pid_t
        do {
            pid = try spawn(stdin: readEnd, closing: writeEnd, environment: environment)
        } catch {
            close(readEnd)
            close(writeEnd)
            throw error
        }
        close(readEnd)
        // Written from another thread: a command that reads nothing must not block the notifier
        // (the write then fails with EPIPE, ignored: SIGPIPE is, and the command has its answer).
        let writer = FileHandle(fileDescriptor: writeEnd, closeOnDealloc: false)
        let written = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? writer.write(contentsOf: input)
            close(writeEnd)
            written.signal()
        }
        defer { written.wait() }
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { break }
            if done < 0 && errno != EINTR { throw Failure(description: "lost the command (errno \(errno))") }
            if Date() >= deadline {
                kill(-pid, SIGTERM)
                let grace = Date().addingTimeInterval(2)
                while waitpid(pid, &status, WNOHANG) == 0 && Date() < grace { usleep(10_000) }
                kill(-pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                throw Failure(description: "timed out after \(Int(timeout)) s")
            }
            usleep(2_000)
        }
        // Anything the command left running in its group goes with it.
        kill(-pid, SIGKILL)
        let signal = status & 0x7f
        if signal != 0 { throw Failure(description: "killed by signal \(signal)") }
        let exit = (status >> 8) & 0xff
        if exit != 0 { throw Failure(description: "exit \(exit)") }
    }

    /// Starts `/bin/sh -c command` with `stdin` as its standard input, stdout on our stderr, its
    /// own process group and the default signal handling (the notifier ignores SIGPIPE; a shell
    /// pipeline must not).
    private func spawn(stdin: Int32, closing other: Int32, environment: [String: String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        posix_spawn_file_actions_addclose(&actions, other)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGPIPE, SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, number) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let arguments = ["/bin/sh", "-c", command]
        let variables = environment.map { "\($0.key)=\($0.value)" }
        var argv = arguments.map { strdup($0) } + [nil]
        var envp = variables.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &argv, &envp)
        guard result == 0 else {
            throw Failure(description: "could not start /bin/sh (error \(result))")
        }
        return pid
    }
}
