import Foundation
import PizzeriaTestSupport
import Testing

/// Every list command shares one set of output options (the real binary): a table, `--json`,
/// `--nl`, `--csv`, `--tsv`, `--no-headers`, through one code path.
@Suite("CLI output: one set of list formats for every list command (the real binary)")
struct ListFormatsTests {
    static let now = "2026-12-01T10:00:00Z"

    /// Given a demo database (menu, users, orders tomorrow, navigation)
    func demo() throws -> CLI {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = Self.now
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "UTC")
        try cli.ok("demo")
        return cli
    }

    /// The list commands, with the arguments they need on the demo data.
    static let lists: [[String]] = [
        ["pizza", "list"], ["user", "list"], ["order", "list"], ["slots", "--date", "2026-12-02"],
        ["report", "sales"], ["report", "sales", "--by", "pizza"], ["nav", "history", "anna"], ["nav", "stats"],
    ]

    @Test("--nl prints one compact JSON object per line: the elements of --json, in order", arguments: lists)
    func newlineDelimited(command: [String]) throws {
        let cli = try demo()
        let lines = try cli.ok(command + ["--nl"]).stdout.split(separator: "\n").map(String.init)
        var json = try JSONSerialization.jsonObject(with: Data(try cli.ok(["--json"] + command).stdout.utf8))
        // The report's JSON is one object; --nl gives its rows: days, or pizzas with --by pizza.
        if let report = json as? [String: Any], let rows = report[command.contains("pizza") ? "pizzas" : "days"] {
            json = rows
        }
        let elements = try #require(json as? [Any])
        #expect(lines.count == elements.count && !lines.isEmpty, "\(command)")
        for (line, element) in zip(lines, elements) {
            let decoded = try JSONSerialization.jsonObject(with: Data(line.utf8))
            let canonical = { (value: Any) throws -> Data in
                try JSONSerialization.data(withJSONObject: value, options: .sortedKeys)
            }
            #expect(try canonical(decoded) == (try canonical(element)), "\(command): \(line)")
            #expect(!line.contains("\n") && !line.contains(" : "))
        }
    }

    @Test("--tsv has the CSV's columns separated by tabs; --no-headers leaves the header row out", arguments: lists)
    func tabSeparated(command: [String]) throws {
        let cli = try demo()
        let csv = try cli.ok(command + ["--csv"]).stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let tsv = try cli.ok(command + ["--tsv"]).stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(tsv.count == csv.count)
        #expect(tsv.first?.split(separator: "\t").map(String.init) == csv.first?.split(separator: ",").map(String.init))
        let bare = try cli.ok(command + ["--tsv", "--no-headers"]).stdout.components(separatedBy: "\r\n").filter {
            !$0.isEmpty
        }
        #expect(bare == Array(tsv.dropFirst()))
        let csvBare = try cli.ok(command + ["--csv", "--no-headers"]).stdout.components(separatedBy: "\r\n").filter {
            !$0.isEmpty
        }
        #expect(csvBare == Array(csv.dropFirst()))
    }

    @Test("a table without headers keeps its rows and columns")
    func tableWithoutHeaders() throws {
        let cli = try demo()
        let table = try cli.ok("pizza", "list").stdout.split(separator: "\n")
        let bare = try cli.ok("pizza", "list", "--no-headers").stdout.split(separator: "\n")
        #expect(bare.count == table.count - 1)
        #expect(
            bare.map { $0.split(separator: " ", omittingEmptySubsequences: true) }
                == table.dropFirst().map { $0.split(separator: " ", omittingEmptySubsequences: true) })
    }

    @Test("a field holding a tab, a quote or a line break is quoted in TSV, as in CSV")
    func tsvQuoting() throws {
        let cli = try demo()
        try cli.ok("user", "add", "tabby", "--name", "Tab \"Cat\"")
        let row = try cli.ok("user", "list", "--tsv", "--no-headers").stdout.components(separatedBy: "\r\n").first {
            $0.contains("tabby")
        }
        #expect(row?.contains("\t\"Tab \"\"Cat\"\"\"\t") == true, "\(row ?? "")")
    }

    @Test(
        "two formats at once are a usage error (64), and --no-headers with JSON too",
        arguments: [
            ["--csv", "--json"], ["--nl", "--tsv"], ["--csv", "--tsv"], ["--nl", "--no-headers"],
            ["--json", "--no-headers"],
        ])
    func conflicts(flags: [String]) throws {
        let cli = try demo()
        let result = try cli.run(["pizza", "list"] + flags)
        #expect(result.status == 64, "\(result)")
        #expect(
            result.stdout.isEmpty && result.stderr.contains("cannot be combined")
                || result.stderr.contains("not to JSON"))
    }

    @Test("order watch --nl prints the same lines as --json")
    func watchLines() throws {
        let cli = try demo()
        for flag in ["--nl", "--json"] {
            let watch = try cli.start(["order", "watch", "--after", "0", flag])
            // The demo's three bookings and anna's online payment.
            #expect(watch.waitForOutput { out, _ in out.split(separator: "\n").count >= 4 })
            watch.signal(SIGTERM)
            let result = try watch.wait(timeout: 10)
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.count == 4, "\(flag): \(result)")
            #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) is [String: Any] })
        }
    }
}
