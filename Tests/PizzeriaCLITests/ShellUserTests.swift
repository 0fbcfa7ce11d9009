import Foundation
import PizzeriaTestSupport
import Testing
@testable import PizzeriaCLI

/// What people who live in a shell expect: completions, a manual, CSV, charts, colours and
/// progress on a terminal — and nothing of the terminal kind in pipes. The real binary throughout.
@Suite("CLI: completions, manual, CSV, charts, progress")
struct ShellUserTests {
    static let now = "2026-12-01T10:00:00Z"

    func pizzeria() throws -> CLI {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = Self.now
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "UTC")
        try cli.ok("demo")
        try cli.ok("pizza", "add", "--name", "Margherita Bianca", "--price", "7.50")
        return cli
    }

    /// Runs `bash`, sources the completion script and completes `words` (the last one is being typed).
    func bashCompletions(_ cli: CLI, _ words: [String]) throws -> [String] {
        let script = try cli.ok("completions", "bash").stdout
        let scriptPath = cli.directory.path("pizzeria.bash")
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [
            "--norc", "--noprofile", "-c",
            """
            source '\(scriptPath)'
            COMP_WORDS=(pizzeria \(quoted)); COMP_CWORD=\(words.count)
            _pizzeria
            printf '%s\\n' "${COMPREPLY[@]}"
            """,
        ]
        process.currentDirectoryURL = cli.directory.url
        process.environment = PizzeriaBinary.environment([
            "PATH": PizzeriaBinary.url.deletingLastPathComponent().path + ":/usr/bin:/bin",
            "PIZZERIA_DB": cli.databasePath,
        ])
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test("bash completes commands, pizza names from the database, and fixed option values")
    func bashCompletion() throws {
        let cli = try pizzeria()
        #expect(try bashCompletions(cli, ["pi"]) == ["pizza"])
        #expect(
            try bashCompletions(cli, ["pizza", "show", "Mar"]).sorted() == [
                "Margherita", "Margherita\\ Bianca", "Marinara",
            ])
        #expect(
            try bashCompletions(cli, ["order", "list", "--status", ""]) == [
                "placed", "preparing", "ready", "collected", "no_show", "cancelled",
            ])
        #expect(try bashCompletions(cli, ["config", "set", "slot-"]) == ["slot-minutes", "slot-capacity"])
        #expect(try bashCompletions(cli, ["nav", "show", "an"]) == ["anna"])
        #expect(try bashCompletions(cli, ["pizza", "list", "--c"]) == ["--csv", "--csv-dialect"])
        // --db on the command line names the database; a missing one offers nothing, silently.
        #expect(try bashCompletions(cli, ["--db", "/nonexistent.sqlite", "pizza", "show", "Mar"]).isEmpty)
    }

    @Test("zsh and fish scripts call the same entry point; an unknown shell is a usage error")
    func otherShells() throws {
        let cli = try pizzeria()
        #expect(try cli.ok("completions", "zsh").stdout.hasPrefix("#compdef pizzeria"))
        #expect(try cli.ok("completions", "fish").stdout.contains("__complete"))
        #expect(try cli.run("completions", "tcsh").status == 64)
        let direct = try cli.run("__complete", "order", "place", "anna", "--pickup", "19:00", "Porc")
        #expect(direct.stdout == "Porcini\n")
    }

    @Test("the manual names every command and renders with man without warnings")
    func manual() throws {
        let cli = try pizzeria()
        let page = try cli.ok("manual").stdout
        #expect(page.hasPrefix(".TH PIZZERIA 1"))
        for (path, command) in CommandTreeTests.paths() where command.run != nil && !path.isEmpty {
            #expect(
                page.contains(".SS " + path.joined(separator: " ").replacingOccurrences(of: "-", with: "\\-")),
                "\(path)")
        }
        for code in ["64", "65", "66", "75"] { #expect(page.contains(".B \(code)\n")) }
        #expect(page.contains("PIZZERIA_DB") && page.contains("NO_COLOR"))
        let manualPath = cli.directory.path("pizzeria.1")
        try page.write(toFile: manualPath, atomically: true, encoding: .utf8)
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") else { return }
        let groff = Process()
        groff.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
        groff.arguments = ["-man", "-Tutf8", "-ww", "-z", manualPath]
        let err = Pipe()
        groff.standardError = err
        try groff.run()
        let warnings = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        groff.waitUntilExit()
        #expect(groff.terminationStatus == 0 && warnings.isEmpty, "\(warnings)")
    }

    @Test("--csv: a header row, CRLF, quoting, money in EUR and cents, formulas defused; never with --json")
    func csv() throws {
        let cli = try pizzeria()
        try cli.ok("pizza", "add", "--name", "=HYPERLINK(\"x\"), one", "--price", "9")
        let pizzas = try cli.ok("pizza", "list", "--csv").stdout
        let lines = pizzas.components(separatedBy: "\r\n")
        #expect(lines.first == "id,name,price,price_cents,archived,version,created_at,updated_at")
        #expect(lines.contains { $0.contains(",Porcini,12.00,1200,false,") })
        #expect(lines.contains { $0.contains(#","'=HYPERLINK(""x""), one",9.00,900,false,"#) }, "\(pizzas)")
        #expect(lines.last == "" && lines.count == 15, "\(lines.count)")  // a header, 11 demo items, 2 added
        try cli.ok("order", "place", "anna", "--pickup", "2026-12-01T19:00", "Porcini=2")
        let orders = try cli.ok("order", "list", "--csv").stdout.components(separatedBy: "\r\n")
        #expect(
            orders.first
                == "id,user,customer_name,customer_phone,pickup_at,pickup_local,status,total,total_cents,items,created_at,"
                + "service_day,outside_hours")
        #expect(
            orders[1].contains(
                ",anna,Anna Rossi,,2026-12-01T19:00:00Z,2026-12-01 19:00,placed,24.00,2400,2 × Porcini,"),
            "\(orders)")
        #expect(try cli.ok("user", "list", "--csv").stdout.hasPrefix("id,handle,name,created_at,phone,erased_at\r\n"))
        let slots = try cli.ok("slots", "--date", "2026-12-01", "--csv").stdout
        #expect(slots.contains("\r\n19:00,2026-12-01T19:00:00Z,2,10,12,open,,\r\n"), "\(slots)")
        // The demo's orders booked 3 Porcini already; nothing is collected yet.
        #expect(
            try cli.ok("report", "sales", "--by", "pizza", "--csv").stdout.contains(
                ",Porcini,0,0.00,0,5,60.00,6000,0,0,,Pizze\r\n"))
        let days = try cli.ok("report", "sales", "--csv").stdout.components(separatedBy: "\r\n")
        #expect(
            days.first
                == "service_day,collected_orders,revenue,revenue_cents,booked_orders,booked_value,booked_value_cents,no_shows,no_show_value,no_show_value_cents,cancelled"
        )
        try cli.ok("nav", "push", "anna", "pizza:Porcini")
        #expect(try cli.ok("nav", "history", "anna", "--csv").stdout.contains(",push,pizza:"))
        #expect(try cli.run("pizza", "list", "--csv", "--json").status == 64)
    }

    @Test("on a terminal: slots and sales as bars (full slots marked), coloured unless NO_COLOR; piped: the table")
    func charts() throws {
        let cli = try pizzeria()
        let collected =
            try cli.json("order", "place", "anna", "--pickup", "2026-12-01T19:00", "Porcini=12") as? [String: Any]
        for _ in 0..<2 { try cli.ok("order", "advance", collected?["id"] as? String ?? "") }
        try cli.ok("order", "advance", collected?["id"] as? String ?? "", "--pay", "card")
        try cli.ok("order", "place", "marco", "--pickup", "2026-12-01T19:15", "Margherita")
        let environment = ["PIZZERIA_NOW": Self.now, "COLUMNS": "60"]
        let colored = try PseudoTerminalSession(
            ["slots", "--date", "2026-12-01"], in: cli.directory.url, environment: environment)
        #expect(try colored.wait() == 0)
        #expect(colored.transcript.contains("Slots on 2026-12-01"), "\(colored.transcript)")
        #expect(colored.transcript.contains("19:00 \u{1B}[31m████"), "\(colored.transcript)")
        #expect(colored.transcript.contains("12/12 \u{1B}[31mFULL"))
        let plain = try PseudoTerminalSession(
            ["slots", "--date", "2026-12-01"], in: cli.directory.url,
            environment: environment.merging(["NO_COLOR": "1"]) { $1 })
        #expect(try plain.wait() == 0)
        #expect(
            plain.transcript.contains("19:15 ") && plain.transcript.contains("12/12 FULL")
                && !plain.transcript.contains("\u{1B}["))
        // Every bar line fits the width.
        for line in plain.transcript.components(separatedBy: "\r\n") { #expect(line.count <= 60, "\(line)") }
        let sales = try PseudoTerminalSession(
            ["report", "sales", "--by", "pizza"], in: cli.directory.url,
            environment: environment.merging(["NO_COLOR": "1"]) { $1 })
        #expect(try sales.wait() == 0)
        // Anna's 12 Porcini are collected (solid); the demo's orders are still booked (shaded).
        #expect(
            sales.transcript.contains("Porcini") && sales.transcript.contains("█") && sales.transcript.contains("▒"),
            "\(sales.transcript)")
        #expect(
            sales.transcript.contains("12 · €144.00 (+3 prenotati)")
                && sales.transcript.contains("Totale: 12 pezzi ritirati, €144.00, "), "\(sales.transcript)")
        let piped = try cli.ok("slots", "--date", "2026-12-01").stdout
        #expect(piped.hasPrefix("SLOT") && !piped.contains("█"))
    }

    @Test("error and hint are coloured on a terminal unless NO_COLOR; plain in pipes")
    func coloredErrors() throws {
        let cli = try pizzeria()
        let session = try PseudoTerminalSession(["pizza", "show", "Nothing"], in: cli.directory.url)
        #expect(try session.wait() == 66)
        #expect(session.transcript.contains("\u{1B}[1;31merror:\u{1B}[0m no pizza"), "\(session.transcript)")
        let plain = try PseudoTerminalSession(
            ["pizza", "show", "Nothing"], in: cli.directory.url, environment: ["NO_COLOR": "1"])
        #expect(try plain.wait() == 66)
        #expect(plain.transcript.contains("error: no pizza") && !plain.transcript.contains("\u{1B}["))
        #expect(try cli.run("pizza", "show", "Nothing").stderr.hasPrefix("error: no pizza"))
    }

    @Test("backup shows progress on a terminal and nothing extra in a pipe")
    func progress() throws {
        let cli = try pizzeria()
        for index in 0..<300 {
            try cli.ok("pizza", "add", "--name", "Pizza \(index) " + String(repeating: "x", count: 40), "--price", "5")
        }
        let session = try PseudoTerminalSession(["backup", "copy.sqlite"], in: cli.directory.url)
        #expect(try session.wait() == 0)
        #expect(session.transcript.contains("backing up: 100% ("), "\(session.transcript)")
        let piped = try cli.ok("backup", "copy2.sqlite")
        #expect(piped.stderr.isEmpty && piped.stdout.hasPrefix("Backed up"))
        try cli.ok("nav", "push", "anna", "pizza:Porcini", "pizza:Marinara")
        try cli.ok("nav", "export", "anna").stdout.write(
            toFile: cli.directory.path("stack.json"), atomically: true, encoding: .utf8)
        let imported = try PseudoTerminalSession(["nav", "import", "marco", "stack.json"], in: cli.directory.url)
        #expect(try imported.wait() == 0)
        #expect(imported.transcript.contains("importing: 100% ("), "\(imported.transcript)")
        #expect(try cli.ok("nav", "import", "marco", "stack.json").stderr.isEmpty)
    }
}
