import Foundation
import PizzeriaTestSupport
import Testing

@Suite("CLI output safety: closed and full stdout, odd arguments (the real binary)")
struct OutputSafetyTests {
    /// Runs `pizzeria arguments…` through `sh -c` with `redirect` applied to its stdout.
    func shell(_ cli: CLI, _ redirect: String, _ arguments: String) throws -> ProcessResult {
        let process = try RunningProcess(executable: URL(fileURLWithPath: "/bin/sh"),
                                         arguments: ["-c", "'\(PizzeriaBinary.url.path)' \(arguments) \(redirect)"],
                                         in: cli.directory.url, environment: PizzeriaBinary.environment(cli.environment))
        return try process.wait(timeout: 30)
    }

    @Test("a closed, full or broken stdout is exit 74 with a message, never a crash; a closed one stops before any write")
    func outputFailures() throws {
        let cli = CLI()
        try cli.ok("demo")
        let count = { try cli.sqlite("SELECT count(*) FROM users;").stdout }
        let before = try count()
        let closed = try shell(cli, ">&-", "user add closed")
        #expect(closed.status == 74 && closed.stderr.contains("cannot write to standard output"), "\(closed)")
        #expect(try count() == before)  // refused before doing anything
        let full = try shell(cli, ">/dev/full", "user add full")
        #expect(full.status == 74 && full.stderr.contains("No space left on device") && full.stderr.contains("--key"), "\(full)")
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
}
