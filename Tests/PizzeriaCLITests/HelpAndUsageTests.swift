import Foundation
import PizzeriaTestSupport
import Testing

@Suite("CLI: help, version and usage errors (the real binary)")
struct HelpAndUsageTests {
    static let commandPaths: [[String]] = [
        [], ["init"], ["migrations"], ["check"], ["backup"], ["demo"],
        ["pizza"], ["pizza", "list"], ["pizza", "show"], ["pizza", "add"], ["pizza", "edit"],
        ["pizza", "archive"], ["pizza", "restore"],
        ["user"], ["user", "add"], ["user", "list"], ["user", "show"], ["config"], ["config", "show"],
        ["config", "set"],
        ["order"], ["order", "place"], ["order", "list"], ["order", "show"], ["order", "advance"], ["order", "cancel"],
        ["slots"], ["report"], ["report", "sales"],
        ["nav"], ["nav", "show"], ["nav", "push"], ["nav", "pop"], ["nav", "root"], ["nav", "random"], ["nav", "open"],
        ["nav", "history"], ["nav", "export"], ["nav", "import"], ["nav", "stats"],
        ["sheet"], ["sheet", "show"], ["sheet", "open"], ["sheet", "set"], ["sheet", "save"], ["sheet", "dismiss"],
    ]

    @Test("every command has help, with -h, --help and `help`", arguments: commandPaths)
    func help(path: [String]) throws {
        let cli = CLI()
        for arguments in [path + ["--help"], path + ["-h"], ["help"] + path] {
            let result = try cli.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result)")
            #expect(result.stdout.hasPrefix("OVERVIEW: "))
            #expect(result.stdout.contains("USAGE: pizzeria" + path.map { " " + $0 }.joined()))
            #expect(result.stdout.contains("--db <path>") && result.stdout.contains("--json"))
            #expect(result.stderr.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: cli.databasePath))
    }

    @Test(
        "options a command takes one of are refused together before it runs: exit 64 with no file opened",
        arguments: [
            ["slots", "--date", "today", "--available"], ["order", "edit", "x", "--note", "ben cotta", "--clear-note"],
            ["order", "collect", "x", "--pay", "cash", "--unpaid", "tab"],
            ["order", "advance", "x", "--pay", "card", "--unpaid", "tab"],
            ["station", "edit", "Friggitrice", "--capacity", "3", "--no-limit"],
            ["category", "add", "Fritti", "--station", "Friggitrice", "--no-station"],
            ["category", "edit", "Fritti", "--oven", "--no-oven"],
            ["modifier", "edit", "Aggiunte", "bufala", "--archive", "--restore"],
        ])
    func exclusiveOptions(arguments: [String]) throws {
        // No file at --db: a check made inside the command would first answer 66 (no database).
        let cli = CLI()
        let result = try cli.run(["--db", cli.directory.path("missing.sqlite")] + arguments)
        #expect(result.status == 64, "\(arguments): \(result)")
        #expect(result.stderr.contains(", not both"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: cli.directory.path("missing.sqlite")))
    }

    @Test("--version prints the version")
    func version() throws {
        let result = try CLI().ok("--version")
        #expect(result.stdout.hasPrefix("pizzeria "))
    }

    @Test(
        "unknown commands and options are usage errors (64) with a suggestion",
        arguments: [
            (["pizzza", "list"], "unknown command 'pizzza'", "did you mean 'pizza'?"),
            (["pizza", "lsit"], "unknown command 'lsit'", "did you mean 'list'?"),
            (["pizza", "list", "--al"], "unknown option '--al'", "did you mean '--all'?"),
            (["inti"], "unknown command 'inti'", "did you mean 'init'?"),
            (["--jsno", "check"], "unknown option '--jsno'", "did you mean '--json'?"),
            (["backup"], "missing argument <file>", nil),
            (["pizza", "show", "a", "b"], "unexpected argument 'b'", nil),
            (["pizza"], "needs a subcommand", nil),
            (["pizza", "list", "--db"], "needs a value", nil),
        ] as [([String], String, String?)])
    func usageErrors(arguments: [String], message: String, hint: String?) throws {
        let cli = CLI()
        let result = try cli.run(arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.hasPrefix("error: ") && result.stderr.contains(message), "\(result)")
        if let hint { #expect(result.stderr.contains(hint), "\(result)") }
        #expect(result.stderr.contains("usage: pizzeria"))
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: cli.databasePath))
    }
}
