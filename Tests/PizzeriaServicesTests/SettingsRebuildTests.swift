import Foundation
import PizzeriaStorage
import PizzeriaTestSupport
import Testing

@testable import PizzeriaServices

/// Migration 14 rebuilds `settings` without the dead `opens_at`/`closes_at` and drops an index no
/// query reads: the values, the rules and the history of the settings must come through.
@Suite("Migration 14: settings rebuilt, a booking's unused index gone")
struct SettingsRebuildTests {
    @Test("an upgraded file keeps its settings, and every settings trigger still holds")
    func upgradeKeepsSettingsAndTheirRules() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("old.sqlite")
        let before = SchemaMigrator(migrations: Array(Migration.embedded.prefix(13)))
        let old = try before.open(path: path, access: .migrate)
        try old.write { db in
            try db.run(
                """
                UPDATE settings SET slot_capacity = 9, lead_minutes = 30, time_zone = 'Europe/Rome', paused = 1,
                       pause_reason = 'oven', require_staff = 0 WHERE id = 1
                """)
        }
        let pizzeria = try Pizzeria.open(path: path)
        let settings = try pizzeria.settings.current()
        #expect(settings.slotCapacity == 9)
        #expect(settings.leadMinutes == 30)
        #expect(settings.storedTimeZone == "Europe/Rome")
        #expect(settings.pause != nil)
        func value(_ sql: String) throws -> String {
            try pizzeria.database.read { db in try db.fetchOne(sql) { try $0.string("v") } ?? "" }
        }
        let columns = try value("SELECT group_concat(name, ',') AS v FROM pragma_table_info('settings')")
        #expect(!columns.contains("opens_at") && columns.contains("slot_capacity"), "\(columns)")
        #expect(try value("SELECT count(*) || '' AS v FROM sqlite_schema WHERE name = 'order_lines_by_pizza'") == "0")
        // The rules of the old table, on the new one — written by hand, as in a sqlite3 shell:
        // logged, counted, never deleted.
        let generation = try value("SELECT generation || '' AS v FROM config_generation")
        try pizzeria.database.write { db in _ = try db.run("UPDATE settings SET slot_capacity = 10") }
        #expect(try value("SELECT generation || '' AS v FROM config_generation") != generation)
        #expect(
            try value("SELECT json_extract(new, '$.slot_capacity') || '' AS v FROM audit_log ORDER BY id DESC LIMIT 1")
                == "10")
        let refused = #expect(throws: DatabaseError.self) {
            try pizzeria.database.write { db in _ = try db.run("DELETE FROM settings") }
        }
        #expect(refused?.description.contains("the settings row is required") == true, "\(String(describing: refused))")
        #expect(try Maintenance.check(path: path).domainProblems.isEmpty)
    }
}
