import Foundation
import PizzeriaTestSupport
import Testing

/// `pizzeria-bench` (the built product next to `pizzeria`) fails the way every command of the
/// project does: `error: …` on stderr and an exit code, never a trap — each case fails before
/// anything is timed, so these run in moments.
@Suite struct BenchmarkToolTests {
    let directory = TemporaryDirectory()

    func bench(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        let executable = PizzeriaBinary.url.deletingLastPathComponent().appendingPathComponent("pizzeria-bench")
        let running = try RunningProcess(
            executable: executable, arguments: arguments, in: directory.url,
            environment: PizzeriaBinary.environment(environment))
        return try running.wait(timeout: 120)
    }

    @Test func aDirectoryItCannotCreateIsAnIOErrorNotATrap() throws {
        // A file where --dir needs a folder: creating DIR fails with ENOTDIR (this runs as root
        // in CI, so a permission would not stop it).
        let file = directory.path("in-the-way")
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        let result = try bench(["--dir", file + "/bench", "--scale", "0.01"])
        #expect(result.status == 74, "\(result)")
        #expect(result.stderr.contains("error: \(file)/bench: Not a directory"), "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
    }

    @Test func aDataSetThatIsNotADatabaseIsInvalidInput() throws {
        let dataSets = directory.path("sets")
        try FileManager.default.createDirectory(atPath: dataSets, withIntermediateDirectories: true)
        #expect(
            FileManager.default.createFile(
                atPath: dataSets + "/dataset.sqlite", contents: Data(String(repeating: "not SQLite\n", count: 500).utf8)
            ))
        let result = try bench(["--dir", dataSets, "--reuse", "--scale", "0.01"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("error: file is not a database"), "\(result)")
        #expect(!result.stderr.contains("Fatal error"), "\(result)")
    }

    @Test func anUnknownArgumentIsAUsageError() throws {
        let result = try bench(["--scale", "0.01", "--bogus"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("error: unknown argument '--bogus'"), "\(result)")
        let scale = try bench(["--scale", "-1"])
        #expect(scale.status == 64, "\(scale)")
        #expect(scale.stderr.contains("error: --scale needs a positive number"), "\(scale)")
    }

    @Test func aBadEnvironmentSettingIsRefusedBeforeAnyDataSetIsBuilt() throws {
        // It was checked only after the data set was built: minutes at the large size.
        let folder = directory.path("never-built")
        let result = try bench(
            ["--dir", folder, "--scale", "0.01"], environment: ["PIZZERIA_BENCH_BASELINE_SYNCHRONOUS": "SOMETIMES"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("PIZZERIA_BENCH_BASELINE_SYNCHRONOUS must be OFF, NORMAL, FULL or EXTRA"))
        #expect(!FileManager.default.fileExists(atPath: folder), "\(result)")
    }

    // 480 orders fill exactly one day of slots: the last day was three days back, not two.
    @Test(arguments: [2000, 480]) func theDataSetsOrdersAreOnPastDaysFiveToASlot(orders: Int) throws {
        // They were one to a 15-minute slot from 2020-01-01, so a million reached 2048: at the
        // large size every slot the timed phases book and the picker walks was already booked.
        // The spacing is checked on a small set: the last order two days before today.
        let folder = directory.path("orders")
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        // Two days before the bench's today, taken before and after it runs (a run across midnight).
        let lastDayBefore = day.string(from: Date().addingTimeInterval(-2 * 86_400))
        let built = try bench([
            "--dir", folder, "--build-only", "--pizzas", "100", "--users", "20", "--history", "10", "--orders",
            "\(orders)",
        ])
        let lastDayAfter = day.string(from: Date().addingTimeInterval(-2 * 86_400))
        #expect(built.status == 0, "\(built)")
        let query = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            arguments: [
                "sqlite3", "-readonly", folder + "/dataset.sqlite",
                """
                SELECT count(*) || ' ' || max(service_day) || ' ' || (SELECT max(booked) FROM slot_loads)
                       || ' ' || (SELECT count(*) FROM slot_loads)
                FROM orders
                """,
            ], in: directory.url, environment: ProcessInfo.processInfo.environment)
        let result = try query.wait(timeout: 60)
        #expect(result.status == 0, "\(result)")
        let fields = result.stdout.split(separator: " ").map {
            String($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(fields.count == 4, "\(result)")
        guard fields.count == 4 else { return }
        #expect(fields[0] == "\(orders)")
        #expect(
            fields[1] == lastDayBefore || fields[1] == lastDayAfter,
            "the last order's day \(fields[1]), two days before today \(lastDayAfter)")
        #expect(fields[2] == "5")
        #expect(fields[3] == "\(orders / 5)")
    }
}
