import Foundation
import PackagePlugin

/// Embeds the target's `*.sql` files (the top-level `Migrations/`, reached through a symbolic
/// link inside the target) into one generated Swift file, so the built binary carries its schema
/// and never looks for files at run time.
///
/// Every SQL file is an input of the build command, so an edited or added migration regenerates
/// the file without a clean build. The generated file is never committed.
@main
struct EmbedMigrations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let migrations = target.sourceFiles
            .filter { $0.url.pathExtension == "sql" }
            .map(\.url)
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(migrations.count) migrations into \(target.name)",
                executable: try context.tool(named: "pizzeria-embed-migrations").url,
                arguments: [output.path] + migrations.map(\.path),
                inputFiles: migrations,
                outputFiles: [output]
            )
        ]
    }
}
