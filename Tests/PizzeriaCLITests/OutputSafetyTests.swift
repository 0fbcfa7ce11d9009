import Foundation
import PizzeriaTestSupport
import Testing

@Suite("CLI output safety: closed and full stdout, odd arguments (the real binary)")
struct OutputSafetyTests {
    /// Runs `pizzeria arguments…` through `sh -c` with `redirect` applied to its stdout.
    func shell(_ cli: CLI, _ redirect: String, _ arguments: String) throws -> ProcessResult {
        let process = try RunningProcess(
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", "'\(PizzeriaBinary.url.path)' \(arguments) \(redirect)"],
            in: cli.directory.url, environment: PizzeriaBinary.environment(cli.environment))
        return try process.wait(timeout: 30)
    }

    @Test(
        "a closed, full or broken stdout is exit 74 with a message, never a crash; a closed one stops before any write")
    func outputFailures() throws {
        let cli = CLI()
        try cli.ok("demo")
        let count = { try cli.sqlite("SELECT count(*) FROM users;").stdout }
        let before = try count()
        let closed = try shell(cli, ">&-", "user add closed")
        #expect(closed.status == 74 && closed.stderr.contains("cannot write to standard output"), "\(closed)")
        #expect(try count() == before)  // refused before doing anything
        let full = try shell(cli, ">/dev/full", "user add full")
        #expect(
            full.status == 74 && full.stderr.contains("No space left on device")
                && full.stderr.contains("the command itself succeeded"), "\(full)")
        // A pipe whose reader is gone: EPIPE, not death by SIGPIPE.
        let pipe = try shell(cli, "| true", "--json pizza list; echo \"status=$?\" >&2")
        #expect(!pipe.stderr.contains("status=141"), "\(pipe)")
        let big = try shell(cli, "| head -c 1 >/dev/null", "nav history anna --limit 1000; echo \"status=$?\" >&2")
        #expect(big.stderr.contains("status=0") || big.stderr.contains("status=74"), "\(big)")
    }

    @Test("arguments that are not UTF-8 are refused (65); negative numbers are values with their rule")
    func oddArguments() throws {
        let cli = CLI()
        try cli.ok("demo")
        let invalid = try shell(cli, "", "pizza show \"$(printf 'Marg\\377rita')\"")
        #expect(invalid.status == 65 && invalid.stderr.contains("not valid UTF-8"), "\(invalid)")
        let pop = try cli.run("nav", "pop", "anna", "-1")
        #expect(pop.status == 65 && pop.stderr.contains("count: must be at least 1"), "\(pop)")
        let limit = try cli.run("nav", "history", "anna", "--limit", "-5")
        #expect(limit.status == 65 || limit.status == 64, "\(limit)")
        #expect(!limit.stderr.contains("unknown option"), "\(limit)")
    }

    /// Whether a text holds a raw control character a terminal would act on.
    static func hasRawControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
                || (0x202A...0x202E).contains(scalar.value)
        }
    }

    @Test(
        "escapes from outside input are shown escaped in tables, pages, watch lines, messages and hints; JSON and CSV keep them exact"
    )
    func terminalEscapes() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-01T17:00:00Z"
        try cli.ok("demo")
        let link = "pizzeria://pizza/Margherita?x=\u{1B}[31mRED\u{1B}[0m#\u{1B}]0;TITLE\u{07}"
        let opened = try cli.ok("nav", "open", "anna", link)
        #expect(!Self.hasRawControls(opened.stdout + opened.stderr), "\(opened)")
        let history = try cli.ok("nav", "history", "anna")
        #expect(!Self.hasRawControls(history.stdout), "\(history)")
        #expect(history.stdout.contains("Margherita?x=\\x1b[31mRED\\x1b[0m#\\x1b]0;TITLE\\x07"), "\(history)")
        let json = try #require(try cli.json("nav", "history", "anna") as? [[String: Any]])
        #expect(json.contains { $0["detail"] as? String == link }, "\(json)")
        let csv = try cli.ok("nav", "history", "anna", "--csv")
        #expect(csv.stdout.contains(link))

        // Percent-decoded ESC and NUL in a link that fails: the message shows them escaped.
        let decoded = try cli.run("nav", "open", "anna", "pizzeria://pizza/%1b%5b31mRED%00x")
        #expect(decoded.status == 66 && !Self.hasRawControls(decoded.stderr), "\(decoded)")
        #expect(decoded.stderr.contains("'\\x1b[31mRED\\x00x'"), "\(decoded)")
        // A usage error, a lookup and a bidirectional override.
        let option = try cli.run("pizza", "list", "--\u{1B}[2Jx")
        #expect(
            option.status == 64 && option.stderr.contains("'--\\x1b[2Jx'") && !Self.hasRawControls(option.stderr),
            "\(option)")
        let bidi = try cli.run("pizza", "show", "\u{202E}ataM")
        #expect(
            bidi.status == 66 && bidi.stderr.contains("\\u202eataM") && !Self.hasRawControls(bidi.stderr), "\(bidi)")
        let hint = try cli.run("user", "show", "an\u{1B}[8mna")
        #expect(hint.status == 66 && hint.stderr.contains("hint:") && !Self.hasRawControls(hint.stderr), "\(hint)")

        // The kitchen display: a watch line of an order whose history has the link's user.
        let watch = try cli.start(["order", "watch", "--after", "0", "--interval", "20"])
        #expect(watch.waitForOutput { out, _ in out.contains("placed") }, "\(watch.outputSoFar)")
        watch.signal(SIGTERM)
        let watched = try watch.wait(timeout: 10)
        #expect(watched.status == 0 && !Self.hasRawControls(watched.stdout + watched.stderr), "\(watched)")
    }

    @Test(
        "a watch whose reader has gone stops at once (exit 74) instead of at its next event; its hints fit the command")
    func watchReaderGone() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-01T17:00:00Z"
        try cli.ok("demo")
        // The reader leaves after 300 ms; no event comes meanwhile.
        let started = Date()
        let gone = try RunningProcess(
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: [
                "-c",
                "{ '\(PizzeriaBinary.url.path)' order watch --interval 60000; echo \"status=$?\" >&2; } | (sleep 0.3)",
            ],
            in: cli.directory.url, environment: PizzeriaBinary.environment(cli.environment)
        ).wait(timeout: 30)
        let elapsed = Date().timeIntervalSince(started)
        #expect(gone.stderr.contains("status=74") && gone.stderr.contains("Broken pipe"), "\(gone)")
        #expect(elapsed < 5, "the watch noticed only after \(elapsed) s")
        #expect(!gone.stderr.contains("--key") && !gone.stderr.contains("hint:"), "\(gone)")
        // A full stdout for a booking names the retry that is safe.
        let booking = try shell(cli, ">/dev/full", "order place anna --pickup 2026-12-02T19:30 Margherita")
        #expect(
            booking.status == 74 && booking.stderr.contains("the order was booked") && booking.stderr.contains("--key"),
            "\(booking)")
    }
}
