import PizzeriaServices

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
        let result = try Maintenance.initialize(path: context.databasePath, configuration: try context.configuration())
        let report = Report(
            path: context.databasePath, created: result.created,
            applied: result.applied.map(MigrationsCommand.Entry.init), schemaVersion: result.version)
        try context.emit(report) {
            if result.created {
                return "Created \(context.databasePath) (schema version \(result.version)).\n"
            } else if result.applied.isEmpty, result.definitionsRemade {
                return
                    "Made the views and triggers of \(context.databasePath) again (schema version \(result.version)).\n"
            } else if result.applied.isEmpty {
                return "\(context.databasePath) is up to date (schema version \(result.version)).\n"
            }
            let names = result.applied.map { "\(MigrationsCommand.number($0.version)) \($0.name)" }.joined(
                separator: ", ")
            return
                "Migrated \(context.databasePath) from version \(result.previousVersion) to \(result.version): \(names).\n"
        }
        return .ok
    }
}
