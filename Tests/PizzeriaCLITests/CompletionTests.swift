import Foundation
import PizzeriaTestSupport
import Testing
@testable import PizzeriaCLI

/// The completer asks the parser's own scan where the cursor stands (in-process, against the
/// real command tree), so every form the parser accepts completes the same way.
@Suite("CLI completions: one parser for running and completing")
struct CompletionTests {
    let completer = Completer(root: CommandTree.root, environment: ["PIZZERIA_DB": "/nonexistent/none.sqlite"])

    @Test("--opt=value completes the value from the option's declaration, keeping the prefix")
    func inlineValue() {
        #expect(completer.candidates(words: ["order", "list"], current: "--status=pre") == ["--status=preparing"])
        #expect(
            completer.candidates(words: ["order", "watch"], current: "--status=c") == [
                "--status=collected", "--status=cancelled",
            ])
    }

    @Test("an option given as --opt=value does not swallow the next word; a spaced one does")
    func optionValues() {
        #expect(
            completer.candidates(words: ["order", "list", "--status=placed"], current: "--l") == ["--limit", "--lines"])
        #expect(completer.candidates(words: ["order", "list", "--status"], current: "re") == ["ready"])
    }

    @Test("short options are options: -h does not count as an argument")
    func shortOptions() {
        // `config set -h <key>`: the key is still the first argument.
        #expect(completer.candidates(words: ["config", "set", "-h"], current: "slot-c") == ["slot-capacity"])
        #expect(completer.candidates(words: ["completions", "-h"], current: "z") == ["zsh"])
    }

    @Test("after --, a dash-leading word is an argument, so options are not offered")
    func afterDoubleDash() {
        #expect(completer.candidates(words: ["completions", "--"], current: "-").isEmpty)
        #expect(completer.candidates(words: ["completions", "--"], current: "fi") == ["fish"])
    }

    @Test("subcommands, then the arguments in order; an argument past the last offers nothing")
    func positions() {
        #expect(completer.candidates(words: ["nav"], current: "st") == ["stats"])
        #expect(completer.candidates(words: ["config", "set"], current: "time") == ["time-zone"])
        #expect(completer.candidates(words: ["config", "set", "time-zone"], current: "Eu").isEmpty)
        #expect(completer.candidates(words: ["completions", "bash"], current: "").isEmpty)
    }

    @Test("live values come from the declaration's provider; an unusable database offers nothing")
    func providers() {
        #expect(completer.candidates(words: ["nav", "push", "anna"], current: "piz") == ["pizza:"])
        #expect(completer.candidates(words: ["pizza", "show"], current: "Mar").isEmpty)
    }

    @Test("a command that reads an option or a flag it did not declare fails as an internal error, not silently")
    func undeclaredOption() throws {
        let values = ParsedValues(command: CommandTree.root)
        #expect(throws: InternalError.self) { try values[OrderCommands.pickup] }
        // A flag too, in every build (it was an assert, gone in release).
        #expect(throws: InternalError.self) { try values[ListOptions.csv] }
        #expect(try values[GlobalOptions.help] == false)
    }
}
