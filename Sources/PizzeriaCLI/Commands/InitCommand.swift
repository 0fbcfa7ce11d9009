import Foundation
import PizzeriaServices
import PizzeriaStorage

/// `pizzeria init`: create the database, or bring an existing one up to date.
enum InitCommand {
    static let command = Command(
        name: "init",
        abstract: "Create the database, or apply pending migrations to an existing one.",
        discussion: "New files are created with mode 0600. Running it again on a current database changes nothing.",
        examples: ["pizzeria init", "pizzeria --db /var/lib/pizzeria/main.sqlite init"],
        run: run)

    struct Report: Encodable {
        let path: String
        let created: Bool
        let applied: [MigrationsCommand.Entry]
        let schemaVersion: Int

        enum CodingKeys: String, CodingKey { case path, created, applied, schemaVersion = "schema_version" }
    }

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let context = invocation.context
        let existed = FileManager.default.fileExists(atPath: context.databasePath)
        let before: SchemaStatus? = existed
            ? try context.open(.inspect).database.read { try SchemaMigrator().status(of: $0) }
            : nil
        let pizzeria = try context.open(.migrate)
        let after = try pizzeria.database.read { try SchemaMigrator().status(of: $0) }
        let appliedNow = after.applied.filter { record in !(before?.applied.contains { $0.version == record.version } ?? false) }
        let report = Report(path: context.databasePath, created: !existed,
                            applied: appliedNow.map { MigrationsCommand.Entry(applied: $0) },
                            schemaVersion: after.version)
        try context.emit(report) {
            if !existed {
                return "Created \(context.databasePath) (schema version \(after.version)).\n"
            } else if appliedNow.isEmpty {
                return "\(context.databasePath) is up to date (schema version \(after.version)).\n"
            }
            let names = appliedNow.map { String(format: "%04d %@", $0.version, $0.name) }.joined(separator: ", ")
            return "Migrated \(context.databasePath) from version \(before?.version ?? 0) to \(after.version): \(names).\n"
        }
        return .ok
    }
}
