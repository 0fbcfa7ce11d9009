import Foundation
import Testing

/// Where things live, checked on the sources: SQL only in stores, no file that grows without
/// bound, no async twins creeping back.
@Suite("Source layout: SQL only in stores, files by concern")
struct SourceLayoutTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func swiftFiles(under directory: String) throws -> [(name: String, text: String)] {
        let base = root.appendingPathComponent(directory)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        return try walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.map {
            ($0.path.replacingOccurrences(of: root.path + "/", with: ""), try String(contentsOf: $0, encoding: .utf8))
        }
    }

    @Test("every SQL statement of the services is in a store (a *Store*.swift file)")
    func sqlOnlyInStores() throws {
        let statement = try Regex(#""(\s*)(SELECT|INSERT INTO|UPDATE [a-z_]+ SET|DELETE FROM|WITH [a-z_]+ AS)\b"#)
        let files = try Self.swiftFiles(under: "Sources/PizzeriaServices")
        #expect(files.count > 50)
        let outside = files.filter { !$0.name.contains("Store") && $0.text.contains(statement) }.map(\.name)
        #expect(outside.isEmpty, "SQL outside the stores: \(outside)")
        // The check can fail: a store's text has statements it finds.
        #expect(files.contains { $0.name.hasSuffix("OrderStore.swift") && $0.text.contains(statement) })
    }

    @Test("no service file over 400 lines (aim: 350), and no async twin files")
    func filesByConcern() throws {
        let files = try Self.swiftFiles(under: "Sources/PizzeriaServices")
        let long = files.filter { $0.text.split(separator: "\n", omittingEmptySubsequences: false).count > 400 }
        #expect(long.isEmpty, "over 400 lines: \(long.map(\.name))")
        let twins = files.filter { $0.name.hasSuffix("+Async.swift") && !$0.name.hasSuffix("Pizzeria+Async.swift") }
        #expect(twins.isEmpty, "async twins: \(twins.map(\.name))")
    }
}
