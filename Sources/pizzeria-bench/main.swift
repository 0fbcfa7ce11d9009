// pizzeria-bench: the reference workload of ../shared/BENCHMARK.md, through the project's public
// API and through a competent raw-C-API baseline on the same schema, in one process and one run,
// in both durability modes. Reports operations, seconds, operations per second and the ratio
// project / baseline per phase, the concurrent phase's speed-up, and the peak resident memory.
// Compare ratios from one run; absolute times are noisy.
//
//   pizzeria-bench [--scale 0.1] [--pizzas N] [--users N] [--history N] [--orders N]
//                  [--modes full,normal] [--json] [--dir DIR] [--seed N] [--build-only]
//                  [--sync-latency-us N] [--picker-before] [--picker-rounds N]
//
// --picker-before also runs the project's picker as it was before migration 11 (configuration
// read again on every call, bookings and rules day by day) on the same calls in the same run,
// compares every answer with the picker's (exit 70 on a difference) and prints both throughputs.
//
// --picker-rounds N runs the picker phase's calls N times over (default 1): the phase only reads,
// so the same calls give the same answers, and at ~50 ms a side one round is too short a phase
// for a stable ratio on a shared machine.
//
// --sync-latency-us N models a slower device: a VFS that delegates to SQLite's default one and
// waits N µs before each xSync (the real sync still happens), registered for both sides after the
// data set is built. The same VFS is registered without a delay otherwise: it counts the
// temporary files SQLite opens (a statement journal spilled to disk), reported per phase and side
// ("temp files", project/baseline; 0 is the target with `temp_store = MEMORY`). 1,000 µs is a slow SSD; 5,000 µs a consumer SSD without power-loss
// protection or network block storage.
//
// --build-only builds the data set as DIR/dataset.sqlite, keeps it and stops (scripts/bench-cli
// and the scaling runs use it); --reuse takes DIR/dataset.sqlite if it is there (a million-row
// data set takes minutes to build) and keeps DIR.
//
// Exit codes, as the CLI's: 0 done · 64 usage · 65 a data set that is not a usable database ·
// 70 the two sides' answers differ, or a bug · 74 a file or folder it cannot read or write ·
// 75 busy. Every failure is an `error: …` line on stderr, never a trap.
//
// Diagnostics, for the README's analysis rather than for the table:
// PIZZERIA_BENCH_SIDE=project|baseline runs one side only (for a profiler);
// PIZZERIA_BENCH_ORDER=project-first times the project before the baseline in each phase (the
// ratios must not depend on the order; `sync()` before each side sees to that);
// PIZZERIA_BENCH_BASELINE_SYNCHRONOUS=OFF|NORMAL|FULL runs the baseline at another `synchronous`
// whatever the mode, to measure what share of a booking is spent syncing.
// PIZZERIA_BENCH_CACHE_KIB=N gives the project's writer and the baseline's connection an N KiB
// page cache (PizzeriaConfiguration.writerCacheKiB); after each phase both sides' page-cache hits,
// misses and pages written per operation are printed (the writer's, for the project).
// PIZZERIA_BENCH_STATEMENTS=1 counts the statements and the trigger programs each side's writing
// connection starts (sqlite3_trace_v2), printed per operation after each phase.
// PIZZERIA_BENCH_CHECKPOINT_PAGES=N checkpoints both sides every N WAL pages
// (PizzeriaConfiguration.checkpointPages; default the project's, 8,000).
import CSyncLatencyVFS
import Foundation
@_spi(Benchmark) import PizzeriaServices
import PizzeriaStorage

// Both sides alike: glibc gives heap back to the kernel after most small transactions and
// takes it again at the next; a higher trim threshold saves those system calls. (The CLI sets
// the same at start; an embedder may too.)
@_silgen_name("mallopt") func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
let trimThreshold: Int32 = -1  // M_TRIM_THRESHOLD in <malloc.h>, which Swift's Glibc module leaves out
_ = mallopt(trimThreshold, 64 << 20)
// Both sides alike: SQLite's process-wide memory statistics off, as the library sets them before
// its first connection (a global mutex and a size lookup per allocation saved; the best C would
// too). Applied here, before the data set or the benchmark's VFS initializes SQLite.
guard SQLiteLibrary.applyProcessSettings() else {
    try? FileHandle.standardError.write(
        contentsOf: Data("error: SQLite was initialized before its process settings applied\n".utf8))
    exit(70)
}

var workload = Workload()
var json = false
var modes = ["full", "normal"]
var only: Set<String>?
var buildOnly = false
var reuse = false
var syncLatency = 0
var pickerBefore = false
var pickerRounds = 1
var directory = FileManager.default.temporaryDirectory.appendingPathComponent("pizzeria-bench-\(getpid())").path
var arguments = CommandLine.arguments.dropFirst()
@MainActor func number(_ flag: String) -> Int {
    guard let text = arguments.popFirst(), let value = Int(text), value >= 0 else {
        try? FileHandle.standardError.write(contentsOf: Data("error: \(flag) needs a whole number\n".utf8))
        exit(64)
    }
    return value
}
while let argument = arguments.popFirst() {
    switch argument {
    case "--json": json = true
    case "--picker-before": pickerBefore = true
    case "--picker-rounds": pickerRounds = max(1, min(number("--picker-rounds"), 1_000))
    case "--build-only": buildOnly = true
    case "--reuse": reuse = true
    case "--dir": directory = arguments.popFirst() ?? directory
    case "--seed": workload.seed = UInt64(number("--seed"))
    case "--pizzas": workload.pizzas = max(10, number("--pizzas"))
    case "--users": workload.users = max(10, number("--users"))
    case "--history": workload.existingEvents = number("--history")
    case "--orders": workload.existingOrders = number("--orders")
    case "--sync-latency-us": syncLatency = min(number("--sync-latency-us"), 1_000_000)
    case "--modes": modes = (arguments.popFirst() ?? "").split(separator: ",").map(String.init)
    case "--only": only = Set((arguments.popFirst() ?? "").split(separator: ",").map(String.init))
    case "--scale":
        guard let scale = Double(arguments.popFirst() ?? ""), scale > 0, scale.isFinite else {
            try? FileHandle.standardError.write(
                contentsOf:
                    Data("error: --scale needs a positive number (1 is the reference workload)\n".utf8))
            exit(64)
        }
        workload.scale(by: scale)
    case "-h", "--help":
        print(
            "usage: pizzeria-bench [--scale F] [--pizzas N] [--users N] [--history N] [--orders N] [--modes full,normal] [--only PHASE,…] [--json] [--dir DIR] [--seed N] [--build-only] [--reuse] [--sync-latency-us N] [--picker-before] [--picker-rounds N]"
        )
        exit(0)
    default:
        try? FileHandle.standardError.write(contentsOf: Data("error: unknown argument '\(argument)'\n".utf8))
        exit(64)
    }
}
guard modes.allSatisfy({ $0 == "full" || $0 == "normal" }) else {
    try? FileHandle.standardError.write(contentsOf: Data("error: --modes takes full and/or normal\n".utf8))
    exit(64)
}
// A PRAGMA value cannot be bound: only the four names SQLite knows are accepted. Checked with
// the arguments, before a data set is built.
let baselineSynchronous = ProcessInfo.processInfo.environment["PIZZERIA_BENCH_BASELINE_SYNCHRONOUS"]?.uppercased()
if let value = baselineSynchronous, !["OFF", "NORMAL", "FULL", "EXTRA"].contains(value) {
    try? FileHandle.standardError.write(
        contentsOf:
            Data("error: PIZZERIA_BENCH_BASELINE_SYNCHRONOUS must be OFF, NORMAL, FULL or EXTRA\n".utf8))
    exit(64)
}
@MainActor func progress(_ text: String) {
    if !json { try? FileHandle.standardError.write(contentsOf: Data((text + "\n").utf8)) }
}

struct Phase: Encodable {
    let mode: String
    let name: String
    let operations: Int
    let projectSeconds: Double
    let baselineSeconds: Double
    /// Temporary files SQLite opened during each side's operations (0 with `temp_store = MEMORY`).
    var projectTempFiles = 0, baselineTempFiles = 0
    var projectPerSecond: Double { Double(operations) / projectSeconds }
    var baselinePerSecond: Double { Double(operations) / baselineSeconds }
    var ratio: Double { projectSeconds / baselineSeconds }

    enum CodingKeys: String, CodingKey {
        case mode, name, operations, projectSeconds = "project_seconds", baselineSeconds = "baseline_seconds"
        case projectPerSecond = "project_ops_per_second", baselinePerSecond = "baseline_ops_per_second", ratio
        case projectTempFiles = "project_temp_files", baselineTempFiles = "baseline_temp_files"
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mode, forKey: .mode)
        try container.encode(name, forKey: .name)
        try container.encode(operations, forKey: .operations)
        try container.encode(projectSeconds, forKey: .projectSeconds)
        try container.encode(baselineSeconds, forKey: .baselineSeconds)
        try container.encode(projectPerSecond, forKey: .projectPerSecond)
        try container.encode(baselinePerSecond, forKey: .baselinePerSecond)
        try container.encode(ratio, forKey: .ratio)
        try container.encode(projectTempFiles, forKey: .projectTempFiles)
        try container.encode(baselineTempFiles, forKey: .baselineTempFiles)
    }
}

/// Writes every dirty page of the system to its device before a side is timed (not timed
/// itself): otherwise a side pays for the writeback of what ran before it — the other side's
/// WAL and checkpoints, the data set's copies — inside its own `fdatasync` calls, and whichever
/// side runs second looks slower.
func settle() {
    sync()
}

/// A side's timing: started after ``settle()``, read once the work is done.
struct Stopwatch {
    private let start: UInt64

    /// Settles the system, then starts.
    init() {
        settle()
        start = DispatchTime.now().uptimeNanoseconds
    }

    /// Seconds since it started.
    var seconds: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let watch = Stopwatch()
    try body()
    return watch.seconds
}

@MainActor func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let watch = Stopwatch()
    try await body()
    return watch.seconds
}

// MARK: - The run

/// Builds or reuses the data set, times every phase on both sides and prints the report. An
/// error it throws is reported below as `error: …` with an exit code, never a trap.
@MainActor func runBenchmark() async throws {
    // MARK: - The data set (built once, not timed)

    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let reusing = reuse && FileManager.default.fileExists(atPath: directory + "/dataset.sqlite")
    progress(
        reusing
            ? "reusing the data set in \(directory) (migrated first if its schema is older: a migration's memory counts in the peak)"
            : "building the data set: \(workload.pizzas) pizzas, \(workload.users) users, \(workload.existingEvents) navigation events, \(workload.existingOrders) orders"
    )
    let dataSet =
        try reusing ? DataSet.open(directory + "/dataset.sqlite") : DataSet.build(workload, in: directory)
    // A reused data set decides the sizes: operations pick from all of its pizzas and users.
    if workload.pizzas != dataSet.pizzaIDs.count || workload.users != dataSet.userIDs.count {
        progress(
            "the data set has \(dataSet.pizzaIDs.count) pizzas and \(dataSet.userIDs.count) users: the workload uses them all"
        )
        workload.pizzas = dataSet.pizzaIDs.count
        workload.users = dataSet.userIDs.count
    }
    if buildOnly {
        print(dataSet.path)
        exit(0)
    }
    // Both sides' connections go through the delegating VFS: it counts the temporary files SQLite
    // opens (a statement journal that spilled to disk, a temp table). With --sync-latency-us every
    // fsync and fdatasync of the process waits that long after returning (CSyncLatencyVFS interposes
    // both): SQLite's syncs on both sides and the library's own commit syncs alike.
    guard pizzeria_register_sync_latency_vfs(UInt32(syncLatency)) == 0 else {
        try? FileHandle.standardError.write(contentsOf: Data("error: could not register the benchmark's VFS\n".utf8))
        exit(70)
    }
    if syncLatency > 0 { progress("modelling a slower device: +\(syncLatency) µs per sync (both sides)") }

    // MARK: - The timed phases

    var phases: [Phase] = []
    /// `--picker-before`'s lines, one per mode.
    var pickerComparison: [String] = []
    var refusals: [String: [Int]] = [:]
    let bookings = workload.bookings(), concurrentBookings = workload.bookings(dayOffset: workload.days)
    let navigations = workload.navigationOperations(), readers = workload.pathReadUsers(),
        edits = workload.editOperations()
    let pickerCalls = workload.pickerCalls()
    let day = 86_400.0, opening = 12 * 3_600.0
    let today = (Date().timeIntervalSince1970 / day).rounded(.down) * day
    @Sendable func pickupDate(_ booking: Workload.Booking) -> Date {
        Date(timeIntervalSince1970: today + Double(booking.day) * day + opening + Double(booking.slot) * 900)
    }
    func pickupUTC(_ booking: Workload.Booking) -> (String, Int) {
        (PickupTime.utc(pickupDate(booking)), 12 * 60 + booking.slot * 15)
    }

    for mode in modes {
        // What the previous mode freed goes back to the system first (glibc keeps freed heap, and
        // each thread's arena, until trimmed), so each mode's peak is its own.
        let beforeTrim = MemoryNow.read()
        _ = pizzeria_bench_trim_heap()
        progress(
            "mode \(mode): copying the data set; memory: \(beforeTrim), after trimming the heap \(MemoryNow.read())")
        let projectPath = directory + "/project-\(mode).sqlite", baselinePath = directory + "/baseline-\(mode).sqlite"
        try dataSet.copy(to: projectPath)
        try dataSet.copy(to: baselinePath)
        var configuration = PizzeriaConfiguration()
        configuration.durability = mode == "full" ? .durable : .fast
        let cacheKiB = ProcessInfo.processInfo.environment["PIZZERIA_BENCH_CACHE_KIB"].flatMap { Int($0) }
        configuration.writerCacheKiB = cacheKiB
        let checkpointPages =
            ProcessInfo.processInfo.environment["PIZZERIA_BENCH_CHECKPOINT_PAGES"].flatMap { Int($0) }
            ?? CheckpointPolicy.defaultThresholdPages
        configuration.checkpointPages = checkpointPages
        let project = Project(
            pizzeria: try openProject(projectPath, configuration: configuration),
            dataSet: dataSet)
        let baseline = try Baseline(
            path: baselinePath, synchronous: baselineSynchronous ?? (mode == "full" ? "FULL" : "NORMAL"),
            cacheKiB: cacheKiB, checkpointPages: checkpointPages, dataSet: dataSet)

        let projectDatabase = project.pizzeria.database
        // Connections are opened before timing on both sides, as a service opens them at start-up:
        // the baseline opens its one connection (and prepares its statements) above; the project's
        // first read opens a reader connection, whose schema parse (~5 ms) would otherwise land in
        // the first timed read phase.
        try projectDatabase.read { _ in }
        _ = try projectDatabase.writerPageCacheStatistics(reset: true)
        let baselineDatabase = baseline.database
        _ = baselineDatabase.cacheCounters()
        // PIZZERIA_BENCH_STATEMENTS=1: count the statements and trigger programs each side's writing
        // connection starts (sqlite3_trace_v2), printed per operation after each phase.
        let countsStatements = ProcessInfo.processInfo.environment["PIZZERIA_BENCH_STATEMENTS"] == "1"
        let projectStatements = StatementCounter(), baselineStatements = StatementCounter()
        if countsStatements {
            try projectDatabase.countWriterStatements(into: projectStatements)
            baselineDatabase.countStatements(into: baselineStatements)
        }

        /// Times both sides of a phase, interleaved: the operations run in `chunks` consecutive
        /// slices, each slice on one side then the other (the side that goes first alternating), and
        /// each side's time is the sum of its slices. Both sides then meet the same moments of a
        /// shared, noisy machine (a neighbour's burst, the device's flush) instead of one side
        /// getting them all. Each side still runs the whole phase, in order, on its own file.
        func phase(
            _ name: String, operations: Int, chunks: Int = 10,
            project: (Range<Int>) throws -> Void, baseline: (Range<Int>) throws -> Void
        ) throws {
            if let only, !only.contains(name) { return }
            // PIZZERIA_BENCH_SIDE=project (or baseline) runs one side only, for a profiler.
            let side = ProcessInfo.processInfo.environment["PIZZERIA_BENCH_SIDE"]
            let projectFirst = ProcessInfo.processInfo.environment["PIZZERIA_BENCH_ORDER"] == "project-first"
            var projectSeconds = 0.0, baselineSeconds = 0.0
            var projectTempFiles = 0, baselineTempFiles = 0
            let slices = max(1, min(chunks, operations))
            // Each slice's own ratio, to tell a phase's steady ratio from one slice's hiccup
            // (printed beside the phase's ratio, which stays the sum of the slices).
            var sliceRatios: [Double] = []
            for slice in 0..<slices {
                var sliceSeconds = (project: 0.0, baseline: 0.0)
                let range = (slice * operations / slices)..<((slice + 1) * operations / slices)
                let projectGoesFirst = (slice % 2 == 1) != projectFirst
                for runsProject in projectGoesFirst ? [true, false] : [false, true]
                where side != (runsProject ? "baseline" : "project") {
                    let tempFiles = pizzeria_sync_latency_vfs_temp_files()
                    // A stopwatch rather than seconds(_:): no closure around the phase's closures.
                    let watch = Stopwatch()
                    if runsProject {
                        try project(range)
                        sliceSeconds.project = watch.seconds
                        projectSeconds += sliceSeconds.project
                        projectTempFiles += Int(pizzeria_sync_latency_vfs_temp_files() - tempFiles)
                    } else {
                        try baseline(range)
                        sliceSeconds.baseline = watch.seconds
                        baselineSeconds += sliceSeconds.baseline
                        baselineTempFiles += Int(pizzeria_sync_latency_vfs_temp_files() - tempFiles)
                    }
                }
                if sliceSeconds.project > 0, sliceSeconds.baseline > 0 {
                    sliceRatios.append(sliceSeconds.project / sliceSeconds.baseline)
                }
            }
            if side == "baseline" { projectSeconds = 1 }
            if side == "project" { baselineSeconds = 1 }
            phases.append(
                Phase(
                    mode: mode, name: name, operations: operations, projectSeconds: projectSeconds,
                    baselineSeconds: baselineSeconds, projectTempFiles: projectTempFiles,
                    baselineTempFiles: baselineTempFiles))
            sliceRatios.sort()
            let slicesText =
                sliceRatios.isEmpty
                ? ""
                : String(
                    format: " (slices: median %.2f, %.2f to %.2f)", sliceRatios[sliceRatios.count / 2],
                    sliceRatios[0], sliceRatios[sliceRatios.count - 1])
            progress(
                "  \(mode) \(name): ratio \(String(format: "%.2f", projectSeconds / baselineSeconds))\(slicesText); "
                    + "temporary files opened: project \(projectTempFiles), baseline \(baselineTempFiles)")
            // Where a phase's time goes on a large file: pages per operation, both sides.
            let ours =
                (try? projectDatabase.writerPageCacheStatistics(reset: true))
                ?? PageCacheStatistics(hits: 0, misses: 0, writes: 0)
            let theirs = baselineDatabase.cacheCounters()
            func perOp(_ count: Int) -> String { String(format: "%.1f", Double(count) / Double(max(1, operations))) }
            progress(
                "    pages per op — project writer: \(perOp(ours.hits)) hits, \(perOp(ours.misses)) misses, \(perOp(ours.writes)) written; "
                    + "baseline: \(perOp(theirs.hits)) hits, \(perOp(theirs.misses)) misses, \(perOp(theirs.writes)) written"
            )
            progress("    memory: \(MemoryNow.read())")
            if countsStatements {
                let (ours, theirs) = (projectStatements.take(), baselineStatements.take())
                progress(
                    "    statements per op — project writer: \(perOp(ours.statements)) run, \(perOp(ours.triggers)) trigger programs "
                        + "with \(perOp(ours.triggerStatements)) statements; baseline: \(perOp(theirs.statements)) run, "
                        + "\(perOp(theirs.triggers)) trigger programs with \(perOp(theirs.triggerStatements)) statements"
                )
            }
            // Diagnostics for a phase that grows unexpectedly: how the project's checkpoints fared.
            let checkpoints = projectDatabase.checkpointStatistics
            progress(
                "    project checkpoints so far: \(checkpoints.attempts) attempted, \(checkpoints.completed) completed, "
                    + "\(checkpoints.blockedByReaders) blocked by readers, \(checkpoints.skipped) skipped, \(checkpoints.failed) failed"
            )
        }

        var refusedProject = 0, refusedBaseline = 0
        try phase(
            "place_orders", operations: bookings.count,
            project: { refusedProject += try project.placeOrders(Array(bookings[$0]), pickup: pickupDate) },
            baseline: { refusedBaseline += try baseline.placeOrders(Array(bookings[$0]), pickup: pickupUTC) })
        // The picker after the bookings, so it answers around what they booked; both sides must
        // give the same answers.
        var projectAnswers = 0, baselineAnswers = 0
        // With --picker-rounds, call i of the phase is pickerCalls[i % count].
        func roundCalls(_ range: Range<Int>) -> [Workload.PickerCall] {
            range.map { pickerCalls[$0 % pickerCalls.count] }
        }
        try phase(
            "available_slots", operations: pickerCalls.count * pickerRounds,
            project: {
                projectAnswers = projectAnswers &+ (try project.availableSlots(roundCalls($0), today: today))
            },
            baseline: {
                baselineAnswers = baselineAnswers &+ (try baseline.availableSlots(roundCalls($0), today: today))
            })
        if projectAnswers != baselineAnswers, ProcessInfo.processInfo.environment["PIZZERIA_BENCH_SIDE"] == nil,
            only?.contains("available_slots") ?? true
        {
            try? FileHandle.standardError.write(
                contentsOf:
                    Data("error: available_slots: the project's and the baseline's answers differ\n".utf8))
            exit(70)
        }
        // --picker-before: the project's picker before migration 11 (everything read again each
        // call, the bookings and rules day by day) on the same calls, answer by answer, in this run.
        if pickerBefore, only?.contains("available_slots") ?? true {
            var before: [Int] = [], after: [Int] = []
            var beforeSeconds = 0.0, afterSeconds = 0.0
            for slice in 0..<10 {
                let range = (slice * pickerCalls.count / 10)..<((slice + 1) * pickerCalls.count / 10)
                let calls = Array(pickerCalls[range])
                beforeSeconds += try seconds {
                    before += try project.pickerAnswers(calls, today: today, reading: .everyCall)
                }
                afterSeconds += try seconds { after += try project.pickerAnswers(calls, today: today, reading: .kept) }
            }
            if before != after, let differs = before.indices.first(where: { before[$0] != after[$0] }) {
                try? FileHandle.standardError.write(
                    contentsOf:
                        Data(
                            "error: available_slots: call \(differs) answers differently from the picker before\n".utf8)
                )
                exit(70)
            }
            let count = Double(pickerCalls.count)
            pickerComparison.append(
                String(
                    format: "%@ picker before/after: %.0f → %.0f calls/s (×%.1f), all %d answers identical", mode,
                    count / beforeSeconds, count / afterSeconds, beforeSeconds / afterSeconds, pickerCalls.count))
            progress("  " + (pickerComparison.last ?? ""))
        }
        try phase(
            "navigate", operations: navigations.count,
            project: { _ = try project.navigate(Array(navigations[$0])) },
            baseline: { _ = try baseline.navigate(Array(navigations[$0])) })
        try phase(
            "read_paths", operations: readers.count,
            project: { _ = try project.readPaths(Array(readers[$0])) },
            baseline: { _ = try baseline.readPaths(Array(readers[$0])) })
        var projectMenu = 0, baselineMenu = 0
        try phase(
            "read_menu", operations: workload.menuReads,
            project: { projectMenu += try project.readMenu($0.count) },
            baseline: { baselineMenu += try baseline.readMenu($0.count) })
        if projectMenu != baselineMenu, ProcessInfo.processInfo.environment["PIZZERIA_BENCH_SIDE"] == nil,
            only?.contains("read_menu") ?? true
        {
            try? FileHandle.standardError.write(
                contentsOf:
                    Data(
                        "error: read_menu: the project read \(projectMenu) entries, variants and groups, the baseline \(baselineMenu)\n"
                            .utf8))
            exit(70)
        }
        try phase(
            "edit_prices", operations: edits.count,
            project: { _ = try project.editPrices(Array(edits[$0])) },
            baseline: { _ = try baseline.editPrices(Array(edits[$0])) })

        // The concurrent phase: 8 callers of the async API against one connection, one transaction
        // per booking, at the same durability.
        if let only, !only.contains("place_orders_concurrent") { continue }
        let side = ProcessInfo.processInfo.environment["PIZZERIA_BENCH_SIDE"]
        let tempFilesBefore = pizzeria_sync_latency_vfs_temp_files()
        let baselineSeconds =
            side == "project" ? 1 : try seconds { _ = try baseline.placeOrders(concurrentBookings, pickup: pickupUTC) }
        let tempFilesBetween = pizzeria_sync_latency_vfs_temp_files()
        let projectSeconds =
            side == "baseline"
            ? 1
            : try await seconds {
                _ = try await project.placeOrdersConcurrently(concurrentBookings, callers: 8, pickup: pickupDate)
            }
        phases.append(
            Phase(
                mode: mode, name: "place_orders_concurrent", operations: concurrentBookings.count,
                projectSeconds: projectSeconds, baselineSeconds: baselineSeconds,
                projectTempFiles: Int(pizzeria_sync_latency_vfs_temp_files() - tempFilesBetween),
                baselineTempFiles: Int(tempFilesBetween - tempFilesBefore)))
        let batches = project.pizzeria.database.groupCommitStatistics
        progress(
            "  \(mode) place_orders_concurrent: \(String(format: "%.1f", baselineSeconds / projectSeconds))× the baseline's throughput "
                + "(\(batches.writes) bookings in \(batches.batches) commits, "
                + String(format: "%.1f", Double(batches.writes) / Double(max(1, batches.batches))) + " per commit, "
                + "\(batches.syncs) syncs by the commit syncer, "
                + String(format: "%.1f", Double(batches.writes) / Double(max(1, batches.syncs))) + " per sync)"
                + (syncLatency > 0 ? "; \(pizzeria_sync_latency_vfs_syncs()) syncs delayed so far" : ""))
        progress("    memory: \(MemoryNow.read())")
        refusals[mode] = [refusedProject, refusedBaseline]
    }

    // MARK: - Report

    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let peakMegabytes = Double(usage.ru_maxrss) / 1024
    if json {
        struct Report: Encodable {
            let sqlite: String
            let dataSet: [String: Int]
            let phases: [Phase]
            let peakResidentMegabytes: Double
            let refusedBookings: [String: [Int]]
            enum CodingKeys: String, CodingKey {
                case sqlite, dataSet = "data_set", phases, peakResidentMegabytes = "peak_resident_mb"
                case refusedBookings = "refused_bookings_project_baseline"
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let sizes = [
            "pizzas": workload.pizzas, "users": workload.users, "navigation_events": workload.existingEvents,
            "orders": workload.existingOrders,
        ]
        print(
            String(
                decoding: try encoder.encode(
                    Report(
                        sqlite: dataSet.sqliteVersion, dataSet: sizes, phases: phases,
                        peakResidentMegabytes: peakMegabytes, refusedBookings: refusals)), as: UTF8.self))
    } else {
        print(
            "SQLite \(dataSet.sqliteVersion); \(workload.pizzas) pizzas, \(workload.users) users, \(workload.existingEvents) navigation events, "
                + "\(workload.existingOrders) orders in the data set; files in \(directory)")
        print("mode    phase                     operations   project op/s   baseline op/s   ratio   temp files")
        for p in phases {
            // Padded by hand: `%-7@` does not pad a Swift string on Linux.
            func padded(_ text: String, _ width: Int) -> String {
                text + String(repeating: " ", count: max(0, width - text.count))
            }
            print(
                padded(p.mode, 8) + padded(p.name, 26)
                    + String(
                        format: p.projectPerSecond < 100 ? "%10d %14.2f %15.2f %7.2f" : "%10d %14.0f %15.0f %7.2f",
                        p.operations, p.projectPerSecond, p.baselinePerSecond, p.ratio)
                    + "   \(p.projectTempFiles)/\(p.baselineTempFiles)")
        }
        for line in pickerComparison { print(line) }
        print(String(format: "peak resident memory: %.1f MB", peakMegabytes))
    }
    if !reuse { try? FileManager.default.removeItem(atPath: directory) }
}

/// A file system error in words: the path and the system's reason (Foundation's own text on
/// Linux is "The operation could not be completed").
func fileMessage(_ error: CocoaError) -> String {
    let reason =
        error.underlying.map { String(cString: strerror(Int32(($0 as NSError).code))) }
        ?? "error \(error.code.rawValue)"
    return "\(error.filePath ?? "a file"): \(reason)"
}

/// Opens the project's copy on the calling thread, as a service opens at start-up (the `async`
/// form would open on the library's threads, which callgrind, used to profile, does not follow).
func openProject(_ path: String, configuration: PizzeriaConfiguration) throws -> Pizzeria {
    try Pizzeria.open(path: path, access: .requireCurrent, configuration: configuration)
}

/// A failure's exit code and sentences, with the CLI's codes: 74 for a file that could not be
/// read or written, 65 for an unusable database file, 75 busy, 70 for the benchmark's own SQL.
func failure(_ error: any Error) -> (code: Int32, messages: [String]) {
    switch error {
    case let bench as BenchError: return (bench.exitCode, [bench.description])
    case let file as CocoaError: return (74, [fileMessage(file)])
    default:
        let report = FailureReport(error)
        let code: Int32 =
            switch report.category {
            case .invalidInput, .unusableDatabase: 65
            case .notFound: 66
            case .refused: 1
            case .busy: 75
            case .io: 74
            case .internal: 70
            }
        return (code, report.messages)
    }
}

do {
    try await runBenchmark()
} catch {
    let (code, messages) = failure(error)
    for message in messages { try? FileHandle.standardError.write(contentsOf: Data("error: \(message)\n".utf8)) }
    exit(code)
}

/// The process's memory now, for the progress line after each phase: what is resident, its peak
/// so far (SQLite's own memory statistics are off in the project: `SQLITE_CONFIG_MEMSTATUS`).
enum MemoryNow {
    static func read() -> String {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let pageSize = Double(sysconf(Int32(_SC_PAGESIZE)))
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let resident = statm.split(separator: " ").dropFirst().first.flatMap { Double($0) }.map { $0 * pageSize } ?? 0
        return String(
            format: "resident %.1f MB (peak %.1f MB)", resident / 1_048_576, Double(usage.ru_maxrss) / 1024)
    }
}
