import Foundation
@testable import PizzeriaStorage
import PizzeriaTestSupport
import Synchronization
import Testing

@testable import PizzeriaServices

@Suite("Many pizzerias: shops by name, one file each, a bounded pool, every shop migrated")
struct ShopsTests {
    @Test("names: a-z 0-9 - only, lowercased; no path can be named; the layout keeps to the directory")
    func names() throws {
        #expect(ShopName("Napoli-Centro")?.description == "napoli-centro")
        for bad in ["", "-x", "../etc", "a/b", "a.b", "a b", "caffè", String(repeating: "a", count: 64), ".."] {
            #expect(ShopName(bad) == nil, "\(bad)")
        }
        let directory = TemporaryDirectory()
        let shops = try Shops(directory: directory.path("shops"))
        let name = try ShopName.parse("napoli")
        let (first, second) = name.buckets
        #expect(shops.path(of: name) == directory.path("shops") + "/\(first)/\(second)/napoli.sqlite")
        #expect(first.count == 2 && second.count == 2 && (first + second).allSatisfy(\.isHexDigit))
        #expect(throws: ValidationError.self) { try ShopName.parse("../x") }
        // A thousand names spread over many directories: none holds more than a handful.
        var leaves: [String: Int] = [:]
        for index in 0..<1_000 { leaves["\(ShopName("shop-\(index)")!.buckets)", default: 0] += 1 }
        #expect(leaves.count > 900 && (leaves.values.max() ?? 0) <= 4, "\(leaves.values.max() ?? 0)")
    }

    @Test("create, list, open by name through a pool bounded at N (least recently used closed first), remove")
    func pool() throws {
        let directory = TemporaryDirectory()
        let shops = try Shops(directory: directory.path("shops"), maximumOpen: 2)
        let names = try ["a", "b", "c"].map { try ShopName.parse($0) }
        for name in names { try shops.create(name) }
        #expect(throws: ShopsError.exists(names[0])) { try shops.create(names[0]) }
        #expect(try shops.names() == names)
        #expect(try shops.entries().map(\.name) == ["a", "b", "c"])
        let a = try shops.open(names[0])
        _ = try a.menu.addCategory(name: "Fritti", usesOven: false)
        #expect(try shops.open(names[0]) === a)
        _ = try shops.open(names[1])
        _ = try shops.open(names[0])  // a used last: b is the oldest
        _ = try shops.open(names[2])
        #expect(shops.openCount == 2)
        #expect(try shops.open(names[0]) === a, "the most recently used stays open")
        // One shop's data is its own: b never sees a's category.
        #expect(try shops.open(names[1]).menu.categories().map(\.name).contains("Fritti") == false)
        #expect(throws: ShopsError.notFound(try ShopName.parse("nowhere"))) {
            try shops.open(ShopName.parse("nowhere"))
        }
        try shops.remove(names[1])
        #expect(try shops.names() == [names[0], names[2]])
        #expect(!FileManager.default.fileExists(atPath: shops.path(of: names[1]) + "-wal"))
        #expect(throws: ShopsError.notFound(names[1])) { try shops.remove(names[1]) }
    }

    @Test("a shop opened by default and read holds one connection; a read overlapping a write gets a reader")
    func oneConnectionByDefault() throws {
        let directory = TemporaryDirectory()
        let shops = try Shops(directory: directory.path("shops"))
        let name = try ShopName.parse("napoli")
        try shops.create(name)
        let shop = try shops.open(name)
        _ = try shop.settings.current()
        _ = try shop.menu.categories()
        #expect(shop.database.readerConnectionsOpened == 0, "reads ran on the idle writer")
        // While the writer is busy a read does not wait for it: it opens a reader.
        try shop.database.write { _ in _ = try shop.menu.categories() }
        #expect(shop.database.readerConnectionsOpened == 1)
        // A platform that wants readers beside its writers says so.
        let busy = try Shops(directory: directory.path("shops"), configuration: PizzeriaConfiguration())
        _ = try busy.open(name).settings.current()
        #expect(try busy.open(name).database.readerConnectionsOpened == 1)
    }

    @Test("many threads opening and writing shops at once through one pool: every write lands, one handle each")
    func concurrentOpens() async throws {
        let directory = TemporaryDirectory()
        let shops = try Shops(directory: directory.path("shops"), maximumOpen: 3)
        let names = try (0..<6).map { try ShopName.parse("s\($0)") }
        for name in names { try shops.create(name) }
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<12 {
                group.addTask {
                    let name = names[worker % names.count]
                    _ = try? shops.open(name).menu.addCategory(name: "Worker \(worker)", usesOven: false)
                }
            }
        }
        var total = 0
        for name in names {
            total += try shops.open(name).menu.categories().filter { $0.name.hasPrefix("Worker") }.count
        }
        #expect(total == 12)
        #expect(shops.openCount <= 3)
    }

    @Test("migrateAll runs its jobs at once, more of them than cores")
    func jobsRunAtOnce() throws {
        let directory = TemporaryDirectory()
        let shops = try Shops(directory: directory.path("shops"))
        for index in 0..<4 { try shops.create(ShopName.parse("s\(index)")) }
        // Each job waits before its shop until four are inside or the deadline passes: with one
        // job a core (two here) the four are never inside at once.
        let inside = Mutex(0)
        let peak = Mutex(0)
        let deadline = Date().addingTimeInterval(30)
        let migration = try shops.migrateAll(jobs: 4) { _ in
            let now = inside.withLock { count in
                count += 1
                return count
            }
            peak.withLock { $0 = max($0, now) }
            while inside.withLock({ $0 }) < 4, peak.withLock({ $0 }) < 4, Date() < deadline {
                Thread.sleep(forTimeInterval: 0.001)  // between looks at a condition with a deadline
            }
        }
        #expect(peak.withLock { $0 } == 4)
        #expect(migration.current == 4)
    }

    @Test("a shop with pending migrations is refused at open unless opted in; migrateAll upgrades every shop")
    func migrations() throws {
        let directory = TemporaryDirectory()
        let shops = try Shops(directory: directory.path("shops"))
        let names = try (0..<5).map { try ShopName.parse("old-\($0)") }
        for name in names {
            let path = shops.path(of: name)
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            _ = try SchemaMigrator().asOfVersion(44).open(path: path, access: .migrate)
        }
        // A file that is not a shop's among them: reported, the others done.
        let broken = try ShopName.parse("broken")
        let brokenPath = shops.path(of: broken)
        try FileManager.default.createDirectory(
            atPath: (brokenPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: brokenPath))
        #expect(throws: ShopsError.needsMigration(names[0])) { try shops.open(names[0]) }
        let eager = try Shops(directory: directory.path("shops"), migrateOnOpen: true)
        _ = try eager.open(names[0])
        let report = try shops.migrateAll(jobs: 3)
        #expect(report.shops == 6 && report.current == 1 && report.migrated == names.dropFirst().map(\.description))
        #expect(report.failed.map(\.name) == ["broken"], "\(report.failed)")
        for name in names { _ = try shops.open(name) }
        let again = try shops.migrateAll()
        #expect(again.migrated.isEmpty && again.current == 5 && again.failed.count == 1)
        #expect(throws: ValidationError.self) { try shops.migrateAll(jobs: 0) }
    }

    @Test(
        "a fenced shop refuses every write of a Shops handle (sync and batched), reads go on, and nothing is written; a file opened by path does not read the fence"
    )
    func fenceRefusesWrites() async throws {
        let directory = TemporaryDirectory()
        let shops = try Shops(directory: directory.path("shops"))
        let name = try ShopName.parse("napoli")
        try shops.create(name)
        let napoli = try shops.open(name)
        _ = try napoli.menu.addCategory(name: "Fritti", usesOven: false)
        // The mover's fence, from another handle on the same file.
        let mover = try Database(path: shops.path(of: name))
        try mover.write { try MoveFence.set(4242, on: $0) }
        #expect(throws: FencedForMove.self) { _ = try napoli.menu.addCategory(name: "Dolci", usesOven: false) }
        await #expect(throws: FencedForMove.self) {
            _ = try await napoli.write { try $0.menu.addCategory(name: "Bevande", usesOven: false) }
        }
        let names = try napoli.menu.categories().map(\.name)
        #expect(names.contains("Fritti") && !names.contains("Dolci") && !names.contains("Bevande"), "\(names)")
        // The same file opened by path is one shop alone, as before: it writes.
        let alone = try await Pizzeria.open(path: shops.path(of: name), access: .requireCurrent)
        _ = try alone.menu.addCategory(name: "Dolci", usesOven: false)
        // Lifted, the shop's handle writes again.
        try mover.write { try MoveFence.set(nil, on: $0) }
        _ = try await napoli.write { try $0.menu.addCategory(name: "Bevande", usesOven: false) }
        #expect(try napoli.menu.categories().map(\.name).contains("Bevande"))
    }
}
