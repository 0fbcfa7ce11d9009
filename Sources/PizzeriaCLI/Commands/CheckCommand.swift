import PizzeriaStorage

/// `pizzeria check`: is the file sound and current?
enum CheckCommand {
    static let command = Command(
        name: "check",
        abstract: "Check the database: integrity_check, foreign_key_check, schema version, SQLite version.",
        discussion: """
            Exits 0 only when every check passes. Also reports the SQLite library version and whether the
            WAL-reset mitigation (no passive checkpoints; RESTART checkpoints after commits) is active.
            """,
        run: run)

    struct Report: Encodable {
        let integrity: [String]
        let foreignKeys: [String]
        let schemaVersion: Int
        let latestVersion: Int
        let journalMode: String
        let sqliteVersion: String
        let walResetBug: Bool
        let walResetMitigation: Bool
        let ok: Bool

        enum CodingKeys: String, CodingKey {
            case integrity = "integrity_problems", foreignKeys = "foreign_key_problems"
            case schemaVersion = "schema_version", latestVersion = "latest_version", journalMode = "journal_mode"
            case sqliteVersion = "sqlite_version", walResetBug = "wal_reset_bug"
            case walResetMitigation = "wal_reset_mitigation", ok
        }
    }

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let context = invocation.context
        let database = try context.open(.inspect).database
        let migrator = SchemaMigrator()
        let health = try database.healthProblems()
        let status = try database.read { try migrator.status(of: $0) }
        let report = Report(
            integrity: health.integrityProblems, foreignKeys: health.foreignKeyProblems,
            schemaVersion: status.version, latestVersion: migrator.latestVersion,
            journalMode: try database.journalMode(), sqliteVersion: SQLiteLibrary.version,
            walResetBug: SQLiteLibrary.hasWALResetBug,
            walResetMitigation: database.configuration.checkpointPolicy.isWALResetMitigation,
            ok: health.isHealthy && status.isCurrent)
        try context.emit(report) {
            func verdict(_ problems: [String]) -> String { problems.isEmpty ? "ok" : problems.joined(separator: "\n  ") }
            var table = Table("CHECK", "RESULT")
            table.add("integrity_check", verdict(health.integrityProblems))
            table.add("foreign_key_check", verdict(health.foreignKeyProblems))
            table.add("schema", "version \(status.version) of \(migrator.latestVersion)"
                      + (status.isCurrent ? " (current)" : " (run `pizzeria init`)"))
            table.add("journal_mode", report.journalMode)
            table.add("sqlite", SQLiteLibrary.version + (report.walResetBug
                ? " (has the WAL-reset bug; mitigation \(report.walResetMitigation ? "active: no passive checkpoints, RESTART checkpoints after commits" : "OFF"))"
                : " (no WAL-reset bug)"))
            return table.rendered + (report.ok ? "All checks passed.\n" : "Some checks FAILED.\n")
        }
        return report.ok ? .ok : .invalidInput
    }
}
