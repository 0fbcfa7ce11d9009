// pizzeria-bench: the reference workload of ../shared/BENCHMARK.md, run through the project's
// API and through a raw-C-API baseline issuing the same SQL, in one process and one run.
// Reports operations, seconds, operations per second and the ratio project / baseline per phase,
// and the peak resident memory. Compare ratios from one run; absolute times are noisy.
//
//   swift run -c release pizzeria-bench [--scale 0.1] [--json] [--dir DIR] [--seed N]
import Foundation
import PizzeriaServices
import PizzeriaStorage

struct Phase: Encodable {
    let name: String
    let operations: Int
    let projectSeconds: Double
    let baselineSeconds: Double
    var projectPerSecond: Double { Double(operations) / projectSeconds }
    var baselinePerSecond: Double { Double(operations) / baselineSeconds }
    var ratio: Double { projectSeconds / baselineSeconds }

    enum CodingKeys: String, CodingKey {
        case name, operations, projectSeconds = "project_seconds", baselineSeconds = "baseline_seconds"
        case projectPerSecond = "project_ops_per_second", baselinePerSecond = "baseline_ops_per_second", ratio
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(operations, forKey: .operations)
        try container.encode(projectSeconds, forKey: .projectSeconds)
        try container.encode(baselineSeconds, forKey: .baselineSeconds)
        try container.encode(projectPerSecond, forKey: .projectPerSecond)
        try container.encode(baselinePerSecond, forKey: .baselinePerSecond)
        try container.encode(ratio, forKey: .ratio)
    }
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func peakResidentMegabytes() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

// MARK: - Arguments

var workload = Workload()
var json = false
var directory = FileManager.default.temporaryDirectory.appendingPathComponent("pizzeria-bench-\(getpid())").path
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--json": json = true
    case "--dir": directory = arguments.popFirst() ?? directory
    case "--seed": workload.seed = UInt64(arguments.popFirst() ?? "") ?? workload.seed
    case "--scale":
        let scale = Double(arguments.popFirst() ?? "") ?? 1
        func scaled(_ value: Int) -> Int { max(1, Int(Double(value) * scale)) }
        workload.pizzas = scaled(workload.pizzas)
        workload.users = scaled(workload.users)
        workload.orders = scaled(workload.orders)
        workload.navigations = scaled(workload.navigations)
        workload.pathReads = scaled(workload.pathReads)
        workload.menuReads = scaled(workload.menuReads)
        workload.edits = scaled(workload.edits)
    case "-h", "--help":
        print("usage: pizzeria-bench [--scale FACTOR] [--seed N] [--dir DIR] [--json]")
        exit(0)
    default:
        FileHandle.standardError.write(Data("error: unknown argument '\(argument)'\n".utf8))
        exit(64)
    }
}

// MARK: - The data set (not timed)

try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
let projectPath = directory + "/project.sqlite", baselinePath = directory + "/baseline.sqlite"
for path in [projectPath, baselinePath] {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}
let pizzeria = try Pizzeria.open(path: projectPath)
try pizzeria.settings.update(.timeZone(TimeZone(identifier: "UTC")))
try pizzeria.settings.update(.slotCapacity(workload.slotCapacity))
var pizzaIDs: [Pizza.ID] = [], userIDs: [User.ID] = []
try pizzeria.database.write { db in
    for index in 0..<workload.pizzas {
        let id = Pizza.ID.random()
        pizzaIDs.append(id)
        try db.run("INSERT INTO pizzas (id, name, price_cents) VALUES (?, ?, ?)", [id, workload.pizzaName(index), workload.priceCents(index)])
    }
    for index in 0..<workload.users {
        let id = User.ID.random()
        userIDs.append(id)
        try db.run("INSERT INTO users (id, handle) VALUES (?, ?)", [id, workload.handle(index)])
    }
}
try pizzeria.database.backup(to: baselinePath)
let project = ProjectRunner(pizzeria: pizzeria, workload: workload, pizzaIDs: pizzaIDs, userIDs: userIDs)
let baseline = BaselineRunner(sqlite: try RawSQLite(path: baselinePath), workload: workload, pizzaIDs: pizzaIDs.map(\.description))

let today = Calendar(identifier: .gregorian).startOfDay(for: Date())
@MainActor
func pickup(_ booking: Workload.Booking) -> Date {
    today.addingTimeInterval(Double(booking.day) * 86_400 + 12 * 3_600 + Double(booking.slot) * 900)
}

// MARK: - The timed phases, baseline and project back to back

var phases: [Phase] = []
@MainActor
func phase(_ name: String, operations: Int, project: () throws -> Void, baseline: () throws -> Void) throws {
    let baselineSeconds = try seconds(baseline)
    let projectSeconds = try seconds(project)
    phases.append(Phase(name: name, operations: operations, projectSeconds: projectSeconds, baselineSeconds: baselineSeconds))
    if !json { FileHandle.standardError.write(Data("  \(name) done\n".utf8)) }
}

let bookings = workload.bookings()
var refusedProject = 0, refusedBaseline = 0
try phase("place_orders", operations: bookings.count,
          project: { refusedProject = try project.placeOrders(bookings, pickup: pickup) },
          baseline: { refusedBaseline = try baseline.placeOrders(bookings) { PickupTime.utc(pickup($0)) } })
let navigations = workload.navigationOperations()
try phase("navigate", operations: navigations.count,
          project: { _ = try project.navigate(navigations) }, baseline: { _ = try baseline.navigate(navigations) })
let readers = workload.pathReadUsers()
try phase("read_paths", operations: readers.count,
          project: { _ = try project.readPaths(readers) }, baseline: { _ = try baseline.readPaths(readers) })
try phase("read_menu", operations: workload.menuReads,
          project: { _ = try project.readMenu(workload.menuReads) }, baseline: { _ = try baseline.readMenu(workload.menuReads) })
let edits = workload.editOperations()
try phase("edit_prices", operations: edits.count,
          project: { _ = try project.editPrices(edits) }, baseline: { _ = try baseline.editPrices(edits) })

// MARK: - Report

let memory = peakResidentMegabytes()
if json {
    struct Report: Encodable {
        let sqlite: String
        let phases: [Phase]
        let peakResidentMegabytes: Double
        let refusedBookings: [Int]
        enum CodingKeys: String, CodingKey { case sqlite, phases, peakResidentMegabytes = "peak_resident_mb", refusedBookings = "refused_bookings_project_baseline" }
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    print(String(decoding: try encoder.encode(Report(sqlite: SQLiteLibrary.version, phases: phases, peakResidentMegabytes: memory,
                                                      refusedBookings: [refusedProject, refusedBaseline])), as: UTF8.self))
} else {
    print("SQLite \(SQLiteLibrary.version); \(workload.pizzas) pizzas, \(workload.users) users; files in \(directory)")
    print("phase          operations   project s   project op/s   baseline s   baseline op/s   ratio")
    for p in phases {
        print(String(format: "%-13@ %10d %11.3f %14.0f %12.3f %15.0f %7.2f", p.name, p.operations, p.projectSeconds,
                     p.projectPerSecond, p.baselineSeconds, p.baselinePerSecond, p.ratio))
    }
    print(String(format: "peak resident memory: %.1f MB; bookings refused for capacity: project %d, baseline %d",
                 memory, refusedProject, refusedBaseline))
}
