import PizzeriaServices

/// `pizzeria migrations`: which migrations are applied and which are pending.
enum MigrationsCommand {
    static let command = Command(
        name: "migrations",
        abstract: "List the schema migrations: applied ones with their checksums, and pending ones.",
        discussion: "Reads the file without changing it (nor its -wal and -shm files).",
        run: run)

    struct Entry: Encodable {
        let version: Int
        let name: String
        let status: String
        let checksum: String
        let appliedAt: String?

        enum CodingKeys: String, CodingKey { case version, name, status, checksum, appliedAt = "applied_at" }

        init(_ entry: Maintenance.MigrationEntry) {
            version = entry.version
            name = entry.name
            status = entry.isApplied ? "applied" : "pending"
            checksum = entry.checksum
            appliedAt = entry.appliedAt
        }
    }

    struct Report: Encodable {
        let schemaVersion: Int
        let latestVersion: Int
        let migrations: [Entry]

        enum CodingKeys: String, CodingKey {
            case schemaVersion = "schema_version", latestVersion = "latest_version", migrations
        }
    }

    /// `0004`.
    static func number(_ version: Int) -> String {
        let digits = String(version)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let context = invocation.context
        let status = try Maintenance.migrations(path: context.databasePath, configuration: try context.configuration())
        let entries = status.entries.map(Entry.init)
        try context.emit(
            Report(schemaVersion: status.version, latestVersion: status.latestVersion, migrations: entries)
        ) {
            var table = Table("VERSION", "NAME", "STATUS", "CHECKSUM", "APPLIED AT")
            for entry in entries {
                table.add(
                    number(entry.version), entry.name, entry.status, String(entry.checksum.prefix(16)),
                    entry.appliedAt ?? "-")
            }
            let pending = entries.count { $0.appliedAt == nil }
            return table.rendered + "Schema version \(status.version) of \(status.latestVersion)"
                + (status.isCurrent
                    ? " (current).\n"
                    : pending > 0
                        ? "; run `pizzeria init` to apply \(pending) pending.\n"
                        : "; its views and triggers are older than this program's: run `pizzeria init` to make them again.\n")
        }
        return .ok
    }
}
