import Foundation
import PizzeriaTestSupport
import Testing
@testable import PizzeriaCLI

/// docs/CLI.md's command table is generated from the command tree (as sqlite-utils generates
/// its CLI reference with cog): a new command, option or argument shows up there or this fails.
@Suite("docs/CLI.md: the command table is generated from the command tree")
struct CLIReferenceTests {
    static let begin =
        "<!-- BEGIN GENERATED: command table (PIZZERIA_WRITE_CLI_DOCS=1 swift test --filter CLIReferenceTests) -->\n"
    static let end = "<!-- END GENERATED: command table -->"

    static var documentURL: URL { packageRoot.appendingPathComponent("docs/CLI.md") }

    /// Every command that runs, by path below the root.
    static func runnable(_ command: Command = CommandTree.root, prefix: [String] = []) -> [String] {
        var paths: [String] = []
        if command.run != nil, !prefix.isEmpty { paths.append(prefix.joined(separator: " ")) }
        for sub in command.subcommands { paths += runnable(sub, prefix: prefix + [sub.name]) }
        return paths
    }

    @Test("every runnable command is in exactly one row, and every row names real commands")
    func everyCommandOnce() {
        let listed = CommandReference.rows.flatMap(\.commands)
        #expect(listed.count == Set(listed).count, "a command in two rows: \(listed)")
        #expect(Set(listed) == Set(Self.runnable()), "rows: \(Set(listed).symmetricDifference(Self.runnable()))")
        for path in listed {
            #expect(CommandReference.find(path.split(separator: " ").map(String.init), in: CommandTree.root) != nil)
        }
    }

    @Test("the table in docs/CLI.md is the generated one")
    func tableIsCurrent() throws {
        var text = try String(contentsOf: Self.documentURL, encoding: .utf8)
        let start = try #require(text.range(of: Self.begin), "docs/CLI.md lacks the BEGIN GENERATED marker")
        let stop = try #require(
            text.range(of: Self.end, range: start.upperBound..<text.endIndex), "docs/CLI.md lacks the END marker")
        let generated = CommandReference.table()
        if ProcessInfo.processInfo.environment["PIZZERIA_WRITE_CLI_DOCS"] == "1" {
            text.replaceSubrange(start.upperBound..<stop.lowerBound, with: generated)
            try text.write(to: Self.documentURL, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            String(text[start.upperBound..<stop.lowerBound]) == generated,
            "docs/CLI.md's command table is stale: PIZZERIA_WRITE_CLI_DOCS=1 swift test --filter CLIReferenceTests")
    }

    @Test("the table changes when the tree does (the check can fail)")
    func tableFollowsTree() {
        var root = CommandTree.root
        root.subcommands[0].options.append(
            OptionSpec(long: "invented", valueName: "x", help: "An option that does not exist."))
        #expect(CommandReference.table(root) != CommandReference.table())
        #expect(CommandReference.table(root).contains("--invented <x>"))
    }
}
