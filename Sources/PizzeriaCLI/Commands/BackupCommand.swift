import PizzeriaServices

/// `pizzeria backup FILE`: a consistent copy while others keep writing.
enum BackupCommand {
    static let file = Argument("file", help: "The new file to write.", completion: .files)

    static let command = Command(
        name: "backup",
        abstract: "Copy the database to a new file with SQLite's online backup API.",
        discussion: """
            The copy is one consistent snapshot even while other processes write. It is written to a
            temporary file beside FILE, synced, then put in place with a call that fails if FILE exists:
            an existing file is never overwritten, and a backup that is interrupted leaves nothing at
            FILE; the temporary file (.FILE.XXXXXX.partial) of a killed backup is removed by the next
            backup into that directory. The copy has mode 0600. An empty or never-migrated database is refused.
            """,
        arguments: [file],
        examples: ["pizzeria backup /backups/pizzeria-$(date +%F).sqlite"],
        run: run)

    struct Report: Encodable {
        let source: String
        let destination: String
        let pages: Int
    }

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let context = invocation.context
        let destination = try invocation[file]
        let progress = ProgressLine("backing up", context: context)
        let pages = try Maintenance.backup(
            path: context.databasePath, to: destination, configuration: try context.configuration(),
            progress: context.terminal.showsProgress ? { progress.update($0, of: $1, unit: "pages") } : nil)
        progress.finish()
        try context.emit(Report(source: context.databasePath, destination: destination, pages: pages)) {
            "Backed up \(context.databasePath) to \(destination) (\(pages) pages).\n"
        }
        let (erased, latest) = try Maintenance.erasures(
            path: context.databasePath, configuration: try context.configuration())
        if erased > 0, let latest {
            context.console.note(
                "\(erased) customer\(erased == 1 ? " was" : "s were") erased from this file (the latest at \(Timestamp.string(from: latest))): "
                    + "backups made before an erasure still hold that customer's data; rotate them, or after restoring one run "
                    + "`pizzeria check --repair --erasures-from \(context.databasePath)`")
        }
        return .ok
    }
}
