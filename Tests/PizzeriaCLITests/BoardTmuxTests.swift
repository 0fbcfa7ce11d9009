import Foundation
@testable import PizzeriaCLI
import PizzeriaServices
import PizzeriaTestSupport
import Testing

/// `order board --watch` on a real terminal: tmux runs it, `capture-pane` reads what a person sees.
@Suite("CLI: the kitchen board in tmux (the real binary on a real terminal)")
struct BoardTmuxTests {
    /// Runs `tmux arguments…` on the test's own server socket, its output in a file: the server
    /// tmux starts keeps its parent's descriptors, so a pipe would never end. Spawned and reaped
    /// here (`posix_spawn`, `waitpid`), not through `Process`, whose wait misses the exit of a
    /// client whose server lives on.
    func tmux(_ socket: String, _ arguments: [String]) throws -> ProcessResult {
        let output = NSTemporaryDirectory() + "tmux-\(UUID().uuidString).txt"
        defer { try? FileManager.default.removeItem(atPath: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = (["tmux", "-S", socket] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        // As from a shell: no signal blocked and each at its default. The test's threads block
        // most signals, and a tmux server handed that mask never hears its children end, so
        // kill-server would leave it (and the board) running.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, "tmux", &actions, &attributes, argv, environ)
        guard spawned == 0 else { return ProcessResult(status: -1, stdout: "", stderr: "spawn failed: \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return ProcessResult(status: (status >> 8) & 0xff, stdout: text, stderr: "")
    }

    /// The pane's screen once `condition` holds, or the last screen after `timeout` seconds.
    func screen(_ socket: String, timeout: Double = 15, until condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = try tmux(socket, ["capture-pane", "-p", "-t", "board"]).stdout
            if condition(last) { return last }
            usleep(50_000)
        }
        return last
    }

    @Test("--watch redraws one board in place: a new order appears on the same screen within a second, LATE shows")
    func watchInPlace() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-02T18:20:00Z"  // 19:20 in Rome
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        try cli.ok("config", "set", "language", "en")
        try cli.ok("demo")
        cli.environment["PIZZERIA_NOW"] = "2026-12-02T17:00:00Z"
        try cli.ok("order", "place", "marco", "--pickup", "2026-12-02T19:00", "Porcini")
        cli.environment["PIZZERIA_NOW"] = "2026-12-02T18:20:00Z"
        let socket = cli.directory.path("tmux.sock")
        let environment = PizzeriaBinary.environment(cli.environment)
            .map { "\($0.key)=\($0.value)" }
        let command =
            ["env"] + environment + [PizzeriaBinary.url.path, "order", "board", "--watch", "--interval", "100"]
        let started = try tmux(
            socket,
            [
                "-f", "/dev/null", "new-session", "-d", "-s", "board", "-x", "120", "-y", "40", "-c",
                cli.directory.url.path,
            ]
                + command)
        #expect(started.status == 0, "\(started)")
        defer { _ = try? tmux(socket, ["kill-server"]) }
        let first = try screen(socket) { $0.contains("Porcini") }
        #expect(first.contains("Board") && first.contains("19:00") && first.contains("LATE 20 min"), "\(first)")
        // Another process books: the board on screen changes, not scrolls.
        try cli.ok("order", "place", "anna", "--pickup", "2026-12-02T20:30", "Marinara=3")
        let changedAt = Date()
        let second = try screen(socket, timeout: 5) { $0.contains("20:30") }
        let took = Date().timeIntervalSince(changedAt)
        #expect(second.contains("20:30") && second.contains("Marinara"), "\(second)")
        #expect(took < 1.5, "the board showed the new order after \(took) s")
        #expect(second.components(separatedBy: "Board ").count == 2, "one board on the screen:\n\(second)")
        #expect(second.hasPrefix("Board "), "drawn from the top of the screen:\n\(second)")
        // Ctrl-C stops it: the board's program ends and tmux closes the pane (and, its last, the session).
        _ = try tmux(socket, ["send-keys", "-t", "board", "C-c"])
        let deadline = Date().addingTimeInterval(10)
        var alive = true
        while alive && Date() < deadline {
            alive = try tmux(socket, ["has-session", "-t", "board"]).status == 0
            if alive { usleep(50_000) }
        }
        #expect(!alive, "the board did not stop on Ctrl-C")
    }

    /// A Friday of 300 orders (11:00-23:00, 40 pizzas a slot, 30 customers), booked through the
    /// library at 10:00 and seen at 20:00 Rome time: the afternoon's orders are late.
    func busyFriday() throws -> CLI {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-04T09:00:00Z"
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        try cli.ok("config", "set", "language", "en")
        try cli.ok("demo")
        try cli.ok("hours", "set", "daily", "11:00-23:00")
        try cli.ok("capacity", "set", "daily", "11:00-23:00", "40")
        let pizzeria = try Pizzeria.open(
            path: cli.databasePath, access: .requireCurrent, now: { Date(timeIntervalSince1970: 1_796_374_800) })
        let menu = try pizzeria.menu.list()
        let names = ["Margherita", "Marinara", "Porcini", "Salsiccia e friarielli", "Acqua", "Cosacca"]
        let items = names.compactMap { name in menu.first { $0.name.description == name }?.id }
        #expect(items.count == names.count, "\(menu.map(\.name))")
        var users: [User.ID] = []
        for n in 0..<30 { users.append(try pizzeria.users.add(handle: "guest\(n)", displayName: "Guest \(n)").id) }
        let times = (12..<23).flatMap { hour in [0, 15, 30, 45].map { String(format: "%02d:%02d", hour, $0) } }
        for n in 0..<300 {
            let pickup = try pizzeria.orders.pickup(parsing: "2026-12-04T" + times[n % times.count])
            let lines: [OrderRequest.Item] = [
                .init(pizza: items[n % items.count], quantity: 1 + n % 2),
                .init(pizza: items[(n + 3) % items.count], quantity: 1),
            ]
            try pizzeria.orders.place(OrderRequest(user: users[n % 30], items: lines, pickup: pickup))
        }
        cli.environment["PIZZERIA_NOW"] = "2026-12-04T19:00:00Z"
        return cli
    }

    @Test(
        "--watch fits the screen: 300 orders at 80×24 and, resized, at 120×40 — the current slot first, then the late, no line wider than the screen, +N more"
    )
    func watchFitsTheScreen() throws {
        let cli = try busyFriday()
        let socket = cli.directory.path("tmux.sock")
        let environment = PizzeriaBinary.environment(cli.environment).map { "\($0.key)=\($0.value)" }
        let command =
            ["env"] + environment + [
                PizzeriaBinary.url.path, "order", "board", "--date", "2026-12-04", "--watch", "--interval", "100",
            ]
        let started = try tmux(
            socket,
            [
                "-f", "/dev/null", "new-session", "-d", "-s", "board", "-x", "80", "-y", "24", "-c",
                cli.directory.url.path,
            ]
                + command)
        #expect(started.status == 0, "\(started)")
        defer { _ = try? tmux(socket, ["kill-server"]) }
        func check(_ screen: String, columns: Int, rows: Int) {
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
                .map { String($0.reversed().drop { $0 == " " }.reversed()) }
            #expect(lines.first?.hasPrefix("Board fri 2026-12-04") == true, "drawn from the top:\n\(screen)")
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= columns }, "a line wider than \(columns):\n\(screen)")
            // The current slot (20:00 in Rome) first, its orders due; then the oldest late slot.
            let first = lines.firstIndex { $0.hasPrefix("20:00  ") }
            let late = lines.firstIndex { $0.hasPrefix("12:00  ") }
            #expect(first != nil && late != nil && first! < late!, "\(screen)")
            #expect(screen.contains("DUE") && screen.contains("LATE 480 min"), "\(screen)")
            let more = lines.last { !$0.isEmpty } ?? ""
            #expect(more.hasPrefix("+") && more.contains("more orders in"), "\(screen)")
            #expect(lines.filter { !$0.isEmpty }.count <= rows, "\(screen)")
        }
        let small = try screen(socket) { $0.contains("more orders in") }
        check(small, columns: 80, rows: 24)
        // A resize lays the board out again (SIGWINCH): more slots, longer items, still one screen.
        _ = try tmux(socket, ["resize-window", "-t", "board", "-x", "120", "-y", "40"])
        let large = try screen(socket, timeout: 5) { screen in
            screen.split(separator: "\n").contains { $0.hasPrefix("12:15  ") } && screen.contains("more orders in")
        }
        check(large, columns: 120, rows: 40)
        func hidden(_ screen: String) -> Int {
            let last = screen.split(separator: "\n").last { $0.hasPrefix("+") } ?? ""
            return Int(last.dropFirst().prefix { $0.isNumber }) ?? 0
        }
        #expect(hidden(large) < hidden(small) && hidden(large) > 0, "\(small)\n\(large)")
        #expect(large.components(separatedBy: "Board ").count == 2, "one board on the screen:\n\(large)")
        // The terminal goes away (tmux killed: SIGHUP, which this test's threads hand down blocked):
        // the watch ends instead of running on without a screen.
        let pane = try tmux(socket, ["display-message", "-p", "-t", "board", "#{pane_pid}"]).stdout
        let pid = try #require(pid_t(pane.trimmingCharacters(in: .whitespacesAndNewlines)), "\(pane)")
        _ = try tmux(socket, ["kill-server"])
        let deadline = Date().addingTimeInterval(10)
        // Alive: its /proc entry is there and not a zombie (nobody may reap it in a container).
        func alive() -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            return !stat[close...].hasPrefix(") Z")
        }
        while alive() && Date() < deadline { usleep(50_000) }
        #expect(!alive(), "the board (pid \(pid)) outlived its terminal")
    }

    @Test("the layout: a narrow screen cuts ITEMS, folds the counter's items in, and counts what is left out")
    func fittedLayout() throws {
        let cli = try busyFriday()
        let pizzeria = try Pizzeria.open(
            path: cli.databasePath, access: .requireCurrent, now: { Date(timeIntervalSince1970: 1_796_410_800) })
        let board = try pizzeria.orders.board(day: nil, station: nil)
        let all = board.slots.reduce(0) { $0 + $1.orders.count }
        #expect(all == 300)
        for (columns, rows) in [(40, 10), (80, 24), (120, 40), (200, 500)] {
            let screen = BoardScreen.fitted(board, columns: columns, rows: rows)
            #expect(screen.count <= rows && screen.allSatisfy { DisplayWidth.of($0) <= columns }, "\(screen)")
            #expect(!screen.contains { $0.contains("COUNTER") }, "the counter's items are folded into ITEMS")
            let shown = Set(
                screen.compactMap { line in board.slots.flatMap(\.orders).first { line.contains($0.id.short) }?.id })
            let hidden = screen.last.flatMap { $0.hasPrefix("+") ? Int($0.dropFirst().prefix { $0.isNumber }) : 0 } ?? 0
            #expect(shown.count + hidden == all, "\(columns)×\(rows): \(shown.count) shown, \(hidden) counted")
        }
        // A screen tall enough shows every order and no +N line.
        let tall = BoardScreen.fitted(board, columns: 200, rows: 500)
        #expect(!tall.contains { $0.hasPrefix("+") })
    }
}
