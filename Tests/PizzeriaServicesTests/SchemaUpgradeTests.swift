import Foundation
import PizzeriaStorage
import PizzeriaTestSupport
import Testing

@testable import PizzeriaServices

/// Every view and trigger has one definition, in the repeatable files (`Migrations/R__*.sql`):
/// a file made by a binary of any earlier schema version upgrades to exactly the schema a new
/// file gets, and a changed definition is made again everywhere.
@Suite("Repeatable definitions: every earlier version upgrades to the same schema")
struct SchemaUpgradeTests {
    func schema(_ path: String) throws -> [String] {
        let database = try Pizzeria.migrator.open(path: path, access: .inspect)
        return try database.read { db in
            try SchemaMigrator.schemaObjects(in: db).map { "\($0.type) \($0.name) \($0.table)\n\($0.sql)" }
        }
    }

    @Test("a file of each schema version 1…latest−1, as its binary made it, upgrades to the new file's schema")
    func everyVersionUpgrades() throws {
        let directory = TemporaryDirectory()
        let fresh = directory.path("fresh.sqlite")
        _ = try Pizzeria.open(path: fresh)
        let expected = try schema(fresh)
        #expect(expected.filter { $0.hasPrefix("trigger ") }.count > 200)
        for version in 1..<Pizzeria.migrator.latestVersion {
            let path = directory.path("v\(version).sqlite")
            _ = try Pizzeria.migrator.asOfVersion(version).open(path: path, access: .migrate)
            _ = try Pizzeria.open(path: path)
            let upgraded = try schema(path)
            #expect(
                upgraded == expected,
                "schema \(version) upgraded: \(Set(upgraded).symmetricDifference(expected).prefix(3))")
        }
    }

    @Test("a changed definition is pending (refused until made again); init makes every view and trigger again")
    func changedDefinition() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("shop.sqlite")
        _ = try Pizzeria.open(path: path)
        var changed = Pizzeria.migrator.repeatables
        let index = try #require(changed.firstIndex { $0.fileName == "R__views.sql" })
        let extra = changed[index].sql + "\nCREATE VIEW repeatable_probe AS SELECT 1 AS one;\n"
        changed[index] = Repeatable(fileName: changed[index].fileName, sql: extra)
        let newer = SchemaMigrator(migrations: Pizzeria.migrator.migrations, repeatables: changed)
        #expect(throws: SchemaError.definitionsPending(version: newer.latestVersion)) {
            _ = try newer.open(path: path, access: .requireCurrent)
        }
        let database = try newer.open(path: path, access: .migrate)
        let probe = try database.read { db in
            try db.fetchOne("SELECT one FROM repeatable_probe") { try $0.int("one") }
        }
        #expect(probe == 1)
        _ = try newer.open(path: path, access: .requireCurrent)
    }

    @Test("init makes older views and triggers again and says so; migrations says what is pending")
    func initMakesThemAgain() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("shop.sqlite")
        _ = try Pizzeria.open(path: path)
        try Pizzeria.migrator.open(path: path, access: .migrate).write { db in
            _ = try db.run(
                "UPDATE schema_repeatables SET checksum = ? WHERE name = 'R__views.sql'",
                [
                    String(repeating: "0", count: 64)
                ])
        }
        let stale = try Maintenance.migrations(path: path)
        #expect(!stale.isCurrent && !stale.definitionsCurrent && stale.entries.allSatisfy(\.isApplied))
        #expect(throws: SchemaError.self) { try Pizzeria.open(path: path, access: .requireCurrent) }
        let result = try Maintenance.initialize(path: path)
        #expect(result.definitionsRemade && result.applied.isEmpty)
        #expect(try Maintenance.migrations(path: path).isCurrent)
    }
}
