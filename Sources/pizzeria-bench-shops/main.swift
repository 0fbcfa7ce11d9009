import Foundation
import PizzeriaServices
import PizzeriaStorage

// pizzeria-bench-shops: a platform of shops measured (docs/SHOPS.md). Makes COUNT shop files under
// a fresh directory — the first created by migrating, the others copied from it (a fresh shop's
// file, as `shops create` would make it) — then measures:
//   - an empty shop's size on disk;
//   - the cold open of every shop (first open in this process: the schema parsed, then one read)
//     with the platform's default configuration (`Shops.defaultConfiguration`: reads on the idle
//     writer, one connection) and with a reader beside the writer; a pooled open (a pool hit);
//     p50 and p99;
//   - memory per open idle shop (resident set before and after holding 200 open), with each of
//     the two configurations, and what one connection holds (`sqlite3_db_status`: the parsed
//     schema, the page cache, the prepared statements);
//   - migrating every shop from schema 45 (files made by a binary of that version): seconds;
//   - migrating every shop after a release that changed one repeatable definition (each shop
//     records another checksum for `R__triggers_staff.sql`): seconds;
//   - bookings per second (durable, through the async API) in one shop against the same bookings
//     spread round-robin over every shop, at most 1,000 (all held open, as a service keeps its shops, opened before
//     the clock starts, each warmed by one booking), with one caller and with 8 concurrent callers; the shops carry the demo's
//     menu and users (`seedDemo`), 1 pizza per booking, slots filled in turn over the next days.
// Usage: pizzeria-bench-shops [--count N] [--dir DIR] [--jobs J] [--bookings N] [--json]

var count = 1_000, directory = NSTemporaryDirectory() + "pizzeria-bench-shops", jobs = 2, json = false
var bookings = 4_000
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--count": count = max(1, Int(arguments.popFirst() ?? "") ?? count)
    case "--dir": directory = arguments.popFirst() ?? directory
    case "--jobs": jobs = max(1, min(64, Int(arguments.popFirst() ?? "") ?? jobs))
    case "--json": json = true
    case "--bookings": bookings = max(100, Int(arguments.popFirst() ?? "") ?? bookings)
    default:
        FileHandle.standardError.write(
            Data("usage: pizzeria-bench-shops [--count N] [--dir DIR] [--jobs J] [--bookings N] [--json]\n".utf8))
        exit(64)
    }
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

func residentKB() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
    return 0
}

/// A measure as soon as it is taken, on stderr: a long run's first results survive its end.
func progress(_ line: String) { FileHandle.standardError.write(Data("bench-shops: \(line)\n".utf8)) }

func clock<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let start = DispatchTime.now().uptimeNanoseconds
    let value = try body()
    return (value, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
}

try? FileManager.default.removeItem(atPath: directory)
do {
    let shops = try Shops(directory: directory, maximumOpen: 200)
    let names = (0..<count).map { ShopName(String(format: "shop-%06d", $0))! }
    // The first shop migrated from nothing; the others copies of its fresh file.
    let (_, firstMs) = try clock { try shops.create(names[0]) }
    let template = shops.path(of: names[0])
    let (_, copyMs) = try clock {
        for name in names.dropFirst() {
            let path = shops.path(of: name)
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: template, toPath: path)
        }
    }
    let size = (try FileManager.default.attributesOfItem(atPath: template)[.size] as? Int) ?? 0
    // Cold opens: each shop's first open in this process, then a read; the platform's default
    // (one connection, one parse), then a reader beside the writer (two parses).
    func coldOpens(_ configuration: PizzeriaConfiguration) throws -> [Double] {
        try names.map { name in
            try clock {
                let pizzeria = try Pizzeria.open(
                    path: shops.path(of: name), access: .requireCurrent, configuration: configuration)
                _ = try pizzeria.settings.current()
            }.1
        }
    }
    let cold = try coldOpens(Shops.defaultConfiguration)
    let coldWithReader = try coldOpens(PizzeriaConfiguration())
    progress("cold open p50/p99: \(percentile(cold, 0.5)) / \(percentile(cold, 0.99)) ms")
    // Migration: every shop as a binary of schema 45 made it, then migrateAll — before any shop is
    // held open, as `pizzeria shops migrate` runs in a process of its own. (Run after the pooled
    // measures below, 400 shops held open and 2 GB resident, one definition's migration of 10,000
    // shops took 63 s, where `pizzeria shops migrate --jobs 2` took 52-53 s on 10,000 copies of a
    // fresh shop.)
    let old = directory + "-old"
    try? FileManager.default.removeItem(atPath: old)
    let oldShops = try Shops(directory: old)
    let oldTemplate = old + "/template.sqlite"
    try FileManager.default.createDirectory(atPath: old, withIntermediateDirectories: true)
    _ = try SchemaMigrator().asOfVersion(45).open(path: oldTemplate, access: .migrate)
    for name in names {
        let path = oldShops.path(of: name)
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: oldTemplate, toPath: path)
    }
    try FileManager.default.removeItem(atPath: oldTemplate)
    let migration = try oldShops.migrateAll(jobs: jobs)
    progress("migrate from schema 45: \(migration.seconds) s")
    try? FileManager.default.removeItem(atPath: old)
    // A release that changed one definition: every current shop records another checksum for
    // one repeatable file (as the previous binary's), then migrateAll makes that file again.
    for name in names {
        try SchemaMigrator().open(path: shops.path(of: name), access: .migrate).write { db in
            _ = try db.run(
                "UPDATE schema_repeatables SET checksum = ? WHERE name = 'R__triggers_staff.sql'",
                [String(repeating: "0", count: 64)])
        }
    }
    let oneDefinition = try shops.migrateAll(jobs: jobs)
    progress("migrate after one definition changed: \(oneDefinition.seconds) s")
    // Pooled: the pool's hit, 200 shops kept open; memory per open idle shop.
    let before = residentKB()
    let held = try names.prefix(200).map { try shops.open($0) }
    for pizzeria in held { _ = try pizzeria.settings.current() }
    let after = residentKB()
    let withReader = try Shops(directory: directory, maximumOpen: 200, configuration: PizzeriaConfiguration())
    let readerHeld = try names.suffix(200).map { try withReader.open($0) }
    for pizzeria in readerHeld { _ = try pizzeria.settings.current() }
    let afterReader = residentKB()
    let memory = try held.map { try $0.database.writerMemory() }
    func meanKB(_ bytes: (ConnectionMemory) -> Int) -> Double {
        Double(memory.map(bytes).reduce(0, +)) / 1024 / Double(max(memory.count, 1))
    }
    var warm: [Double] = []
    for name in names.prefix(200) {
        let (_, ms) = try clock { try shops.open(name) }
        warm.append(ms)
    }
    // Every shop held open at once: at most 1,000 (10,000 open shops would hold 22 GB here).
    let throughput = try await measureThroughput(
        names: Array(names.prefix(1_000)), in: directory + "-bookings", bookings: bookings)
    let result: [String: Double] = [
        "shops": Double(count), "empty_shop_kb": Double(size) / 1024, "first_create_ms": firstMs,
        "copy_all_ms": copyMs, "cold_open_p50_ms": percentile(cold, 0.5), "cold_open_p99_ms": percentile(cold, 0.99),
        "pooled_open_p50_us": percentile(warm, 0.5) * 1000, "pooled_open_p99_us": percentile(warm, 0.99) * 1000,
        "kb_per_open_shop": Double(after - before) / Double(max(held.count, 1)),
        "cold_open_with_reader_p50_ms": percentile(coldWithReader, 0.5),
        "cold_open_with_reader_p99_ms": percentile(coldWithReader, 0.99),
        "kb_per_open_shop_with_reader": Double(afterReader - after) / Double(max(readerHeld.count, 1)),
        "connection_schema_kb": meanKB(\.schemaBytes), "connection_page_cache_kb": meanKB(\.pageCacheBytes),
        "connection_statements_kb": meanKB(\.statementBytes),
        "migrate_seconds": migration.seconds, "migrate_failed": Double(migration.failed.count),
        "migrated": Double(migration.migrated.count),
        "migrate_one_definition_seconds": oneDefinition.seconds,
        "migrate_one_definition_migrated": Double(oneDefinition.migrated.count),
    ].merging(throughput) { $1 }
    if json {
        let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys, .prettyPrinted])
        print(String(decoding: data, as: UTF8.self))
    } else {
        for key in result.keys.sorted() {
            print(key.padding(toLength: 40, withPad: " ", startingAt: 0), String(format: "%.2f", result[key] ?? 0))
        }
    }
    try? FileManager.default.removeItem(atPath: directory)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(70)
}

/// Bookings per second in one shop and spread over every shop, 1 and 8 callers (see the head).
nonisolated func measureThroughput(names: [ShopName], in booked: String, bookings: Int) async throws -> [String: Double]
{
    try? FileManager.default.removeItem(atPath: booked)
    defer { try? FileManager.default.removeItem(atPath: booked) }
    let shops = try Shops(directory: booked, maximumOpen: names.count + 1)
    let template = booked + "/template.sqlite"
    let requests: [OrderRequest], warmUp: OrderRequest
    do {
        let pizzeria = try await Pizzeria.open(path: template, access: .migrate)
        _ = try pizzeria.seedDemo()
        let clock = try pizzeria.settings.current().clock
        let user = try pizzeria.lookup.user("anna").id, pizza = try pizzeria.lookup.pizza("Margherita").id
        let today = clock.date(of: Date())
        warmUp = OrderRequest(
            user: user, items: [.init(pizza: pizza, quantity: 1)],
            pickup: try clock.instant(on: today.adding(days: 1), at: LocalTime(hour: 20, minute: 0) ?? .midnight))
        // 12 pizzas a slot, 44 slots a day (12:00-23:00): 500 bookings a day from tomorrow.
        requests = try (0..<bookings).map { index in
            let day = today.adding(days: 2 + index / 500), slot = index % 500 / 12
            let time = LocalTime(hour: 12 + slot / 4, minute: slot % 4 * 15) ?? .midnight
            return OrderRequest(
                user: user, items: [.init(pizza: pizza, quantity: 1)], pickup: try clock.instant(on: day, at: time))
        }
    }
    func copies(_ count: Int) throws -> [Pizzeria] {
        try names.prefix(count).map { name in
            let path = shops.path(of: name)
            if !FileManager.default.fileExists(atPath: path) {
                try FileManager.default.createDirectory(
                    atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: template, toPath: path)
            }
            // Warm, as a service's shops are: one booking (outside the measure) has prepared the
            // booking's statements and read its pages.
            let pizzeria = try shops.open(name)
            try pizzeria.orders.place(warmUp)
            return pizzeria
        }
    }
    /// Books every request, request i in shop i mod the count, from `callers` tasks; bookings a second.
    func run(_ targets: [Pizzeria], callers: Int) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        // Each shop's requests keep their slots: shop k books requests k, k + n, … in its own file.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for caller in 0..<callers {
                group.addTask {
                    for index in stride(from: caller, to: requests.count, by: callers) {
                        let request = requests[index / targets.count]
                        _ = try await targets[index % targets.count].write { try $0.orders.place(request) }
                    }
                }
            }
            try await group.waitForAll()
        }
        return Double(requests.count) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    var result: [String: Double] = ["bookings": Double(bookings)]
    for callers in [1, 8] {
        // A fresh copy each time, so every run books into the same empty week.
        try shops.names().forEach {
            shops.close($0); try shops.remove($0)
        }
        let one = try copies(1)
        result["bookings_per_s_one_shop_\(callers)_callers"] = try await run(one, callers: callers)
        try shops.names().forEach {
            shops.close($0); try shops.remove($0)
        }
        let all = try copies(names.count)
        result["bookings_per_s_all_shops_\(callers)_callers"] = try await run(all, callers: callers)
    }
    return result
}
