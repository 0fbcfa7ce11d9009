import Foundation
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
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, "tmux", &actions, nil, argv, environ)
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
}
