import PizzeriaStorage

/// `pizzeria migrations`: which migrations are applied and which are pending.
enum MigrationsCommand {
    static let command = Command(
        name: "migrations",
        abstract: "List the schema migrations: applied ones with their checksums, and pending ones.",
        run: run)

    struct Entry: Encodable {
        let version: Int
        let name: String
        let status: String
        let checksum: String
        let appliedAt: String?

        enum CodingKeys: String, CodingKey { case version, name, status, checksum, appliedAt = "applied_at" }

        init(applied: AppliedMigration) {
            version = applied.version
            name = applied.name
            status = "applied"
            checksum = applied.checksum
            appliedAt = applied.appliedAt
        }

        init(pending: Migration) {
            version = pending.version
            name = pending.name
            status = "pending"
            checksum = pending.checksum
            appliedAt = nil
        }
    }

    struct Report: Encodable {
        let schemaVersion: Int
        let latestVersion: Int
        let migrations: [Entry]

        enum CodingKeys: String, CodingKey { case schemaVersion = "schema_version", latestVersion = "latest_version", migrations }
    }

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let context = invocation.context
        let migrator = SchemaMigrator()
        let status = try context.open(.inspect).database.read { try migrator.status(of: $0) }
        let entries = status.applied.map(Entry.init(applied:)) + status.pending.map(Entry.init(pending:))
        try context.emit(Report(schemaVersion: status.version, latestVersion: migrator.latestVersion, migrations: entries)) {
            var table = Table("VERSION", "NAME", "STATUS", "CHECKSUM", "APPLIED AT")
            for entry in entries {
                table.add(String(format: "%04d", entry.version), entry.name, entry.status,
                          String(entry.checksum.prefix(16)), entry.appliedAt ?? "-")
            }
            return table.rendered + "Schema version \(status.version) of \(migrator.latestVersion)"
                + (status.isCurrent ? " (current).\n" : "; run `pizzeria init` to apply \(status.pending.count) pending.\n")
        }
        return .ok
    }
}
