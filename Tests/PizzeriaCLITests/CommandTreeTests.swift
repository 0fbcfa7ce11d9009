import Foundation
import PizzeriaTestSupport
import Testing
@testable import PizzeriaCLI
import PizzeriaServices

/// In-process tests of the command tree and the parser: fast, and they fail when a command is
/// added without help or documentation.
@Suite("CLI: the command tree and the parser (in-process)")
struct CommandTreeTests {
    /// Every command path in the tree, groups included.
    static func paths(_ command: Command = CommandTree.root, prefix: [String] = []) -> [([String], Command)] {
        [(prefix, command)] + command.subcommands.flatMap { paths($0, prefix: prefix + [$0.name]) }
    }

    /// Runs the CLI in-process, capturing its output.
    func run(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
        let out = Captured(), err = Captured()
        let status = PizzeriaCLI.run(
            arguments: arguments, environment: ["PIZZERIA_DB": "/nonexistent/never.sqlite"],
            console: Console(out: out.append, err: err.append), terminal: .none)
        return (status, out.text, err.text)
    }

    @Test("every command has an abstract, a help page, and a mention in the CLI reference")
    func documented() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("docs/CLI.md"), encoding: .utf8)
        for (path, command) in Self.paths() {
            #expect(!command.abstract.isEmpty, "\(path)")
            let help = run(path + ["--help"])
            #expect(help.status == 0 && help.out.hasPrefix("OVERVIEW: \(command.abstract)"), "\(path)")
            for argument in command.arguments {
                #expect(help.out.contains("<\(argument.name)>"), "\(path) \(argument.name)")
            }
            for option in command.options { #expect(help.out.contains("--\(option.long)"), "\(path) --\(option.long)") }
            if command.run != nil, !path.isEmpty {
                #expect(
                    readme.contains("`" + path.joined(separator: " "))
                        || readme.contains(path.joined(separator: " ") + " "),
                    "docs/CLI.md does not document `\(path.joined(separator: " "))`")
            }
        }
    }

    @Test("options: --opt value, --opt=value, -h, and -- ends options")
    func optionForms() {
        #expect(
            run(["pizza", "add", "--name=X", "--price", "5"]).err.contains("no database at /nonexistent/never.sqlite"))
        #expect(run(["pizza", "-h"]).status == 0)
        // After --, a dash-leading word is an argument, not an option.
        let dashed = run(["pizza", "show", "--", "--all"])
        #expect(dashed.status == 66 && dashed.err.contains("no database"))
        #expect(run(["--json", "pizza", "list", "--all=yes"]).err.contains("takes no value"))
    }

    @Test(
        "did-you-mean suggestions are close matches only",
        arguments: [
            ("lsit", ["list", "show"], "list"), ("pizzza", ["pizza", "init"], "pizza"), ("xyz", ["list", "show"], nil),
            ("--al", ["--all", "--db"], "--all"), ("ordr", ["order", "user"], "order"),
        ] as [(String, [String], String?)])
    func suggestions(typed: String, candidates: [String], expected: String?) {
        #expect(Spelling.closest(to: typed, among: candidates) == expected)
    }

    @Test("exit codes are the documented ones")
    func exitCodes() {
        #expect(ExitCode.allCases.map(\.rawValue) == [0, 1, 64, 65, 66, 70, 74, 75])
    }
}

/// A thread-safe text buffer for captured output.
final class Captured: @unchecked Sendable {
    // @unchecked: `storage` is only touched under `lock`.
    private let lock = NSLock()
    private var storage = ""

    func append(_ text: String) {
        lock.lock()
        storage += text
        lock.unlock()
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
