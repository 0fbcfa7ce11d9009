import Foundation
import PizzeriaTestSupport
import Testing

@Suite("CLI: init, check, backup, migrations, busy and refused files (the real binary)")
struct MaintenanceCommandTests {
    @Test("init creates a 0600 database that check passes; init again changes nothing")
    func initAndCheck() throws {
        let cli = CLI()
        let created = try cli.ok("init")
        #expect(created.stdout.contains("Created"))
        let mode = try FileManager.default.attributesOfItem(atPath: cli.databasePath)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let check = try cli.ok("check")
        #expect(check.stdout.contains("All checks passed"))
        // The version of the library the binary links, as SQLite itself reports it.
        let shell = try cli.sqlite("SELECT sqlite_version();", readOnly: true).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(!shell.isEmpty && check.stdout.contains(" \(shell) ("), "\(check.stdout) vs \(shell)")
        let again = try cli.ok("init")
        #expect(again.stdout.contains("up to date"))
        let report = try cli.json("check") as? [String: Any]
        #expect(report?["ok"] as? Bool == true)
        #expect(report?["wal_reset_mitigation"] as? Bool == report?["wal_reset_bug"] as? Bool)
        #expect(report?["sqlite_version"] as? String == shell)
    }

    @Test("the database path comes from --db, else $PIZZERIA_DB, else ./pizzeria.sqlite")
    func databasePath() throws {
        var cli = CLI()
        try cli.ok("--db", "flag.sqlite", "init")
        cli.environment["PIZZERIA_DB"] = cli.directory.path("env.sqlite")
        try cli.ok("init")
        try cli.ok("init", "--db=flag2.sqlite")
        for name in ["flag.sqlite", "env.sqlite", "flag2.sqlite"] {
            #expect(FileManager.default.fileExists(atPath: cli.directory.path(name)), "\(name)")
        }
        #expect(!FileManager.default.fileExists(atPath: cli.databasePath))
    }

    @Test(
        "commands other than init and demo on a missing file: exit 66, a hint, nothing created",
        arguments: [
            ["check"], ["migrations"], ["backup", "copy.sqlite"], ["pizza", "list"], ["pizza", "show", "x"],
            ["pizza", "add", "--name", "X", "--price", "5"], ["pizza", "archive", "x"],
        ])
    func missingDatabase(arguments: [String]) throws {
        let cli = CLI()
        let result = try cli.run(arguments)
        #expect(result.status == 66, "\(result)")
        #expect(result.stderr.contains("error: no database at pizzeria.sqlite"))
        #expect(result.stderr.contains("pizzeria init"))
        let files = try FileManager.default.contentsOfDirectory(atPath: cli.directory.url.path).filter {
            !$0.hasPrefix(".")
        }
        #expect(files.isEmpty, "\(files)")
    }

    @Test("backup writes a consistent 0600 copy that passes check, and never overwrites")
    func backup() throws {
        let cli = CLI()
        try cli.ok("demo")
        try cli.ok("backup", "copy.sqlite")
        let mode =
            try FileManager.default.attributesOfItem(atPath: cli.directory.path("copy.sqlite"))[.posixPermissions]
            as? Int
        #expect(mode == 0o600)
        try cli.ok("--db", "copy.sqlite", "check")
        let menu = try cli.ok("--db", "copy.sqlite", "pizza", "list")
        #expect(menu.stdout.contains("Margherita") && menu.stdout.contains("Porcini"))
        let before = fileBytes(cli.directory.path("copy.sqlite"))
        let again = try cli.run("backup", "copy.sqlite")
        #expect(again.status == 1 && again.stderr.contains("already exists"))
        #expect(fileBytes(cli.directory.path("copy.sqlite")) == before)
    }

    @Test("backup while another process keeps writing still yields a sound copy")
    func backupUnderLoad() throws {
        let cli = CLI()
        try cli.ok("init")
        let writer = Process()
        writer.executableURL = PizzeriaBinary.url
        writer.currentDirectoryURL = cli.directory.url
        writer.environment = PizzeriaBinary.environment([:])
        // A second process writing continuously: a shell loop adding pizzas.
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = [
            "-c",
            "for i in $(seq 1 60); do \(PizzeriaBinary.url.path) pizza add --name \"Load $i\" --price 5 >/dev/null || exit 1; done",
        ]
        try writer.run()
        var copies = 0
        while writer.isRunning, copies < 5 {
            copies += 1
            try cli.ok("backup", "copy\(copies).sqlite")
            try cli.ok("--db", "copy\(copies).sqlite", "check")
        }
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        #expect(copies >= 1)
    }

    @Test("a write while another process holds the lock: exit 75 after the busy timeout, nothing written")
    func busy() throws {
        var cli = CLI()
        try cli.ok("demo")
        // An analyst's sqlite3 shell that holds the write lock until told to stop.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        shell.arguments = ["sqlite3", cli.databasePath]
        let input = Pipe()
        shell.standardInput = input
        shell.standardOutput = FileHandle.nullDevice
        try shell.run()
        input.fileHandleForWriting.write(Data("BEGIN IMMEDIATE;\nSELECT 1;\n".utf8))
        // Wait until the lock is really held: a zero-timeout write must be refused.
        cli.environment["PIZZERIA_BUSY_TIMEOUT_MS"] = "0"
        // Polled against a deadline, not a count of tries: on a loaded machine the shell may
        // take seconds to start.
        var attempts = 0, locked = false
        let deadline = Date().addingTimeInterval(30)
        while !locked, Date() < deadline {
            locked = try cli.run("user", "add", "probe\(attempts)").status == 75
            attempts += 1
            if !locked { Thread.sleep(forTimeInterval: 0.05) }  // between looks at a condition with a deadline
        }
        try #require(locked, "the sqlite3 shell never took the write lock")
        cli.environment["PIZZERIA_BUSY_TIMEOUT_MS"] = "300"
        let result = try cli.run("pizza", "add", "--name", "Diavola", "--price", "8")
        #expect(result.status == 75, "\(result)")
        #expect(result.stderr.contains("busy") && result.stderr.contains("hint: try again"))
        // Reads are not blocked by the writer, nor is init on a current file (it writes nothing).
        #expect(try cli.run("pizza", "list").status == 0)
        let initialized = try cli.run("init")
        #expect(initialized.status == 0 && initialized.stdout.contains("is up to date"), "\(initialized)")
        input.fileHandleForWriting.write(Data("ROLLBACK;\n.quit\n".utf8))
        try input.fileHandleForWriting.close()
        shell.waitUntilExit()
        #expect(try cli.run("pizza", "show", "Diavola").status == 66)
        cli.environment["PIZZERIA_BUSY_TIMEOUT_MS"] = "soon"
        #expect(try cli.run("pizza", "list").status == 65)
    }

    @Test("check fails (65) on a damaged file")
    func damagedFile() throws {
        let cli = CLI()
        try cli.ok("demo")
        guard var bytes = cli.databaseBytes(), bytes.count > 8 * 4096 else {
            Issue.record("database too small"); return
        }
        // Scribble over the middle pages, leaving the header intact.
        for offset in stride(from: 2 * 4096, to: min(bytes.count, 8 * 4096), by: 7) { bytes[offset] = 0xA5 }
        try bytes.write(to: URL(fileURLWithPath: cli.databasePath))
        let result = try cli.run("check")
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.hasPrefix("error: ") || result.stdout.contains("FAILED"), "\(result)")
    }

    @Test("migrations lists applied versions with checksums; JSON has the documented shape")
    func migrations() throws {
        let cli = CLI()
        try cli.ok("init")
        let text = try cli.ok("migrations")
        #expect(
            text.stdout.contains("0001") && text.stdout.contains("pizzas_and_users") && text.stdout.contains("applied"))
        let json = try cli.json("migrations") as? [String: Any]
        let entries = json?["migrations"] as? [[String: Any]] ?? []
        #expect(!entries.isEmpty)
        #expect(entries.allSatisfy { ($0["checksum"] as? String)?.count == 64 && $0["status"] as? String == "applied" })
        #expect(json?["schema_version"] as? Int == json?["latest_version"] as? Int)
    }

    @Test("refused files: not SQLite, someone else's database; exit 65 and the file unchanged")
    func refusedFiles() throws {
        let cli = CLI()
        try Data("hello, not a database".utf8).write(to: URL(fileURLWithPath: cli.databasePath))
        var before = cli.databaseBytes()
        for arguments in [["init"], ["check"], ["pizza", "list"], ["demo"]] {
            let result = try cli.run(arguments)
            #expect(result.status == 65, "\(arguments): \(result)")
            #expect(result.stderr.hasPrefix("error: "))
        }
        #expect(cli.databaseBytes() == before)

        try FileManager.default.removeItem(atPath: cli.databasePath)
        let made = try cli.sqlite("CREATE TABLE invoices (id INTEGER PRIMARY KEY); INSERT INTO invoices VALUES (1);")
        #expect(made.status == 0)
        before = cli.databaseBytes()
        let result = try cli.run("init")
        #expect(result.status == 65 && result.stderr.contains("did not create"), "\(result)")
        #expect(cli.databaseBytes() == before)
    }

    @Test(
        "a file of the kernel (/proc/version: regular, size 0) is refused as not a database, without the init hint; nothing is created"
    )
    func kernelPseudoFile() throws {
        let cli = CLI()
        for arguments in [["pizza", "list"], ["check"], ["init"]] {
            let result = try cli.run(["--db", "/proc/version"] + arguments)
            #expect(result.status == 65 && result.stderr.contains("is a file of the kernel"), "\(arguments): \(result)")
            #expect(!result.stderr.contains("pizzeria init"), "\(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: "/proc/version-wal"))
    }

    @Test("a time zone an analyst set through sqlite3 that no booking can use fails check (65), naming it")
    func checkValidatesSettings() throws {
        let cli = CLI()
        try cli.ok("demo")
        #expect(try cli.sqlite("UPDATE settings SET time_zone = 'Mars/Olympus';").status == 0)
        let slots = try cli.run("slots")
        #expect(slots.status == 65, "\(slots)")
        let check = try cli.run("check")
        #expect(
            check.status == 65
                && check.stdout.contains(
                    "settings: damaged row in settings (1): time_zone 'Mars/Olympus' is not a known time zone"),
            "\(check)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(try cli.run("--json", "check").stdout.utf8)) as? [String: Any])
        #expect((json["settings_problems"] as? [String])?.count == 1 && json["ok"] as? Bool == false, "\(json)")
        // A zone that works, typed by hand without moving the orders' local times: the domain check
        // names each order (exit 1), and --repair recomputes them.
        #expect(try cli.sqlite("UPDATE settings SET time_zone = 'Europe/Rome';").status == 0)
        let domain = try cli.run("check")
        // Tomorrow's demo order (the date follows the real clock).
        let moved = try Regex(#"pickup_local is (\d{4}-\d\d-\d\d)T19:00\+00:00, expected \1T20:00\+01:00"#)
        #expect(
            domain.status == 1 && domain.stdout.contains(moved),
            "\(domain)")
        #expect(try cli.run("check", "--repair").status == 0)
        #expect(try cli.run("check").status == 0)
    }

    @Test(
        "a file size limit hit during init (as a full disk would be): exit 74, the file left at version 0 as it was, and init again completes it"
    )
    func initRunsOutOfSpace() throws {
        let cli = CLI()
        // The shell's limit is in 512-byte blocks: 100 lets SQLite start the file, not finish it.
        let limited = try RunningProcess(
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", "ulimit -f 100; trap '' XFSZ; exec '\(PizzeriaBinary.url.path)' init"],
            in: cli.directory.url, environment: PizzeriaBinary.environment(cli.environment)
        ).wait(timeout: 60)
        #expect(limited.status == 74 && limited.stderr.hasPrefix("error: "), "\(limited)")
        let migrations = try cli.run("migrations")
        #expect(migrations.stdout.contains("Schema version 0 of"), "all or nothing: \(migrations)")
        let resumed = try cli.ok("init")
        #expect(resumed.stdout.contains("from version 0 to"), "\(resumed)")
        #expect(try cli.run("check").status == 0)
    }
}
