import Foundation
import PizzeriaTestSupport
import Testing

@Suite("README: the embedding example")
struct EmbeddingExampleTests {
    @Test("the README's example is this compiled file's code, and it works")
    func exampleMatchesAndRuns() throws {
        func block(_ text: String, from start: String, to end: String) -> String? {
            guard let a = text.range(of: start), let b = text.range(of: end, range: a.upperBound..<text.endIndex) else { return nil }
            return String(text[a.upperBound..<b.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let source = try String(contentsOf: packageRoot.appendingPathComponent("Tests/PizzeriaServicesTests/EmbeddingExample.swift"), encoding: .utf8)
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let code = block(source, from: "// README-EXAMPLE-BEGIN", to: "// README-EXAMPLE-END")
        let documented = block(readme, from: "<!-- example: embedding -->\n```swift", to: "```")
        #expect(code != nil && code == documented)

        let directory = TemporaryDirectory()
        #expect(try embeddingExample(databasePath: directory.path("embedded.sqlite")) == ["Diavola €9.00"])
    }
}
