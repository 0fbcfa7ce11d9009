import Foundation

/// `pizzeria backup FILE`: a consistent copy while others keep writing.
enum BackupCommand {
    static let command = Command(
        name: "backup",
        abstract: "Copy the database to a new file with SQLite's online backup API.",
        discussion: """
            The copy is one consistent snapshot even while other processes write. FILE must not exist:
            an existing file is never overwritten. The copy is created with mode 0600.
            """,
        arguments: [Argument(name: "file", help: "The new file to write.")],
        examples: ["pizzeria backup /backups/pizzeria-$(date +%F).sqlite"],
        run: run)

    struct Report: Encodable {
        let source: String
        let destination: String
        let pages: Int
    }

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let context = invocation.context
        let destination = try invocation.required("file")
        if FileManager.default.fileExists(atPath: destination) {
            throw Refusal("\(destination) already exists; a backup never overwrites a file", hint: "choose a new file name")
        }
        let pages = try context.open(.inspect).database.backup(to: destination)
        try context.emit(Report(source: context.databasePath, destination: destination, pages: pages)) {
            "Backed up \(context.databasePath) to \(destination) (\(pages) pages).\n"
        }
        return .ok
    }
}
