import Foundation
import PizzeriaTestSupport
import Testing

@Suite("Every SQL example in the README and docs/ runs against a demo database")
struct DocumentedSQLTests {
    /// The documents whose SQL analysts copy.
    static let documents = ["README.md", "docs/SCHEMA.md", "docs/REPLICATION.md", "docs/LIBRARY.md", "docs/CLI.md"]

    /// The statements of a document: the bodies of its ```sql blocks, and every `sqlite> …` line
    /// of its console blocks.
    static func statements(in text: String) -> [String] {
        var statements: [String] = []
        var inSQL = false, current = ""
        for line in text.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                inSQL = trimmed == "```sql"
                continue
            }
            if inSQL {
                guard !trimmed.hasPrefix("--"), !trimmed.isEmpty else { continue }
                current += line + "\n"
                if trimmed.hasSuffix(";") { statements.append(current); current = "" }
            } else if trimmed.hasPrefix("sqlite> ") {
                statements.append(String(trimmed.dropFirst("sqlite> ".count)))
            }
        }
        return statements
    }

    @Test("each statement succeeds on a fresh demo file, and the README's queries return rows", arguments: documents)
    func examplesRun(document: String) throws {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(document), encoding: .utf8)
        let statements = Self.statements(in: text)
        if document == "README.md" || document == "docs/SCHEMA.md" || document == "docs/REPLICATION.md" {
            #expect(!statements.isEmpty, "\(document) has no SQL examples any more: update this test's list")
        }
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-01T10:00:00Z"
        try cli.ok("demo")
        for statement in statements {
            let result = try cli.sqlite(statement)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(document): \(statement)\n\(result)")
            if document == "README.md", statement.uppercased().hasPrefix("SELECT") {
                #expect(!result.stdout.isEmpty, "\(document): \(statement) returns nothing on the demo")
            }
        }
    }

    @Test("the example reader finds statements in both forms")
    func reader() {
        let text =
            "```console\n$ sqlite3 x\nsqlite> SELECT 1;\n```\n```sql\n-- a comment\nSELECT a\nFROM b;\nSELECT 2;\n```\n```swift\nlet x = \"SELECT 3;\"\n```"
        #expect(Self.statements(in: text) == ["SELECT 1;", "SELECT a\nFROM b;\n", "SELECT 2;\n"])
    }
}
