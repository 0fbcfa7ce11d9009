import Foundation
import Testing
@testable import PizzeriaServices

/// The hand-written decoders of the read paths (ids and timestamps in every row) against the
/// slow, obviously right ones: Foundation's UUID parser, and the general timestamp parser.
@Suite("Row decoding: fast parsers agree with the reference ones")
struct DecodingTests {
    private static func parseID(_ text: String) -> Pizza.ID? {
        var text = text
        return text.withUTF8 { Pizza.ID(utf8: $0) }
    }

    @Test("UUID text parses like Foundation's parser, in either case, and nothing else parses")
    func identifiers() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let uuid = UUID()
            #expect(Self.parseID(uuid.uuidString)?.uuid == uuid)
            #expect(Self.parseID(uuid.uuidString.lowercased())?.uuid == uuid)
            // One byte replaced by anything that is not a hex digit (or a dash where one belongs).
            var bytes = Array(uuid.uuidString.utf8)
            let position = Int.random(in: 0..<36, using: &generator)
            let replacement = UInt8.random(in: 0...255, using: &generator)
            bytes[position] = replacement
            let text = String(decoding: bytes, as: UTF8.self)
            // The strict reference: 32 hex digits with dashes at 8, 13, 18 and 23 (Foundation's
            // parser is laxer: it lets whitespace stand for a digit), then Foundation's value.
            let utf8 = Array(text.utf8)
            let strict = utf8.count == 36 && utf8.indices.allSatisfy { index in
                [8, 13, 18, 23].contains(index) ? utf8[index] == 45 : UInt8(ascii: "0")...UInt8(ascii: "9") ~= utf8[index]
                    || UInt8(ascii: "a")...UInt8(ascii: "f") ~= utf8[index] || UInt8(ascii: "A")...UInt8(ascii: "F") ~= utf8[index]
            }
            #expect(Self.parseID(text)?.uuid == (strict ? UUID(uuidString: text) : nil), "\(text.debugDescription)")
        }
        for text in ["", "00000000-0000-4000-8000-00000000000", "00000000-0000-4000-8000-0000000000000",
                     "00000000x0000-4000-8000-000000000000", "g0000000-0000-4000-8000-000000000000"] {
            #expect(Self.parseID(text) == nil, "\(text)")
        }
    }

    @Test("stored timestamps parse exactly as the general parser does, and invalid dates do not parse")
    func timestamps() {
        var generator = SystemRandomNumberGenerator()
        func both(_ text: String) -> (fast: Date?, general: Date?) {
            var text = text
            return text.withUTF8 { (Timestamp.storedDate($0), Timestamp.generalDate($0)) }
        }
        for _ in 0..<5_000 {
            let milliseconds = Int64.random(in: -62_135_596_800_000...253_402_300_799_999, using: &generator)
            let text = Timestamp.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
            let (fast, general) = both(text)
            #expect(fast != nil && fast == general, "\(text)")
            #expect(Timestamp.date(from: text) == general)
        }
        for text in ["2026-02-29T12:00:00.000Z", "2026-13-01T12:00:00.000Z", "2026-12-01T24:00:00.000Z",
                     "2026-12-01T12:60:00.000Z", "2026-12-01T12:00:60.000Z", "2026-12-01T12:00:00.00xZ",
                     "2026-12-01 12:00:00.000Z", "2026-12-00T12:00:00.000Z", "2026-12-01T12:00:00.000z"] {
            #expect(both(text).fast == nil, "\(text)")
        }
        #expect(both("2024-02-29T23:59:59.999Z").fast == both("2024-02-29T23:59:59.999Z").general)
    }

    @Test("the ASCII fast paths of name normalisation and validation agree with the general ones")
    func asciiNames() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array(" aZ09-'&.~\t\u{7F}\u{1F}".unicodeScalars)
        var samples = ["", " ", "   ", "a", " a", "a ", "Margherita", String(repeating: "x", count: 60), String(repeating: "x", count: 61)]
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...64, using: &generator)
            samples.append(String(String.UnicodeScalarView((0..<length).map { _ in alphabet.randomElement(using: &generator)! })))
        }
        for name in samples {
            #expect(PizzaName.normalize(name) == name.trimmingWhitespace().precomposedStringWithCanonicalMapping, "\(name.debugDescription)")
            let normalized = PizzaName.normalize(name)
            #expect(PizzaName.problems(normalized) == PizzaName.generalProblems(normalized), "\(name.debugDescription)")
        }
    }
}
