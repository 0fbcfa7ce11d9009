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

    /// The files that may read JSON by hand (`init(from:)`), each for its reason: a value whose
    /// JSON is one scalar, or a shape that is not its fields (a projection, validated as a whole).
    static let handReaders: [String: String] = [
        "Sources/PizzeriaServices/Shared/Record.swift": "the one reader of every record",
        "Sources/PizzeriaServices/Shared/Money.swift": "a value: cents",
        "Sources/PizzeriaServices/Shared/RowNumber.swift": "a value: a number",
        "Sources/PizzeriaServices/Shared/TextCodable.swift": "values written as text",
        "Sources/PizzeriaServices/Money/VAT.swift": "a value: basis points",
        "Sources/PizzeriaServices/Capacity/CapacityRule.swift": "weekday or date, and a range, from four members",
        "Sources/PizzeriaServices/Schedule/ScheduleException.swift": "an interval from two members, by kind",
        "Sources/PizzeriaServices/Schedule/Week.swift": "a weekday's hours as OSM-like text",
        "Sources/PizzeriaServices/Navigation/NavigationState.swift": "the sheet: a draft, its errors, its mode",
        "Sources/PizzeriaServices/Navigation/Route.swift": "enums: one case per shape",
        "Sources/PizzeriaServices/Menu/MenuFile.swift": "the import file's own format",
    ]

    @Test("a shape read and written is a Record: its members declared once, no hand-written pair")
    func recordsDeclaredOnce() throws {
        let files = try Self.swiftFiles(under: "Sources")
        #expect(files.count > 100)
        // A struct that writes its members and is also Decodable would read them by hand.
        let pair = try Regex(#"struct \w+[^{]*\b(Codable|Decodable)\b[^{]*\bJSONMembers\b"#)
        let pairs = files.filter { $0.text.contains(pair) }.map(\.name)
        #expect(pairs.isEmpty, "Codable and JSONMembers by hand (make it a Record): \(pairs)")
        let readers = files.filter { $0.text.contains("init(from decoder: Decoder)") }.map(\.name)
        let unexpected = readers.filter { Self.handReaders[$0] == nil }
        #expect(unexpected.isEmpty, "init(from:) by hand (declare the members once: Record): \(unexpected)")
        // The list says no more than is true.
        #expect(
            Set(readers) == Set(Self.handReaders.keys),
            "stale entries: \(Set(Self.handReaders.keys).subtracting(readers))")
    }
}
