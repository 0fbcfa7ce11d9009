import Foundation
import Testing
@testable import PizzeriaServices

/// The hand-written parsers and formatters of the hot paths (ids and timestamps in every row,
/// names in every save, local pickup times in every order listed) against the slow, obviously
/// right ones they replace.
@Suite("Text formats: hand-written parsers and formatters agree with the reference ones")
struct TextFormatTests {
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
            let strict =
                utf8.count == 36
                && utf8.indices.allSatisfy { index in
                    [8, 13, 18, 23].contains(index)
                        ? utf8[index] == 45
                        : UInt8(ascii: "0")...UInt8(ascii: "9") ~= utf8[index]
                            || UInt8(ascii: "a")...UInt8(ascii: "f") ~= utf8[index]
                            || UInt8(ascii: "A")...UInt8(ascii: "F") ~= utf8[index]
                }
            #expect(Self.parseID(text)?.uuid == (strict ? UUID(uuidString: text) : nil), "\(text.debugDescription)")
        }
        for text in [
            "", "00000000-0000-4000-8000-00000000000", "00000000-0000-4000-8000-0000000000000",
            "00000000x0000-4000-8000-000000000000", "g0000000-0000-4000-8000-000000000000",
        ] {
            #expect(Self.parseID(text) == nil, "\(text)")
        }
    }

    @Test("every byte value at every position of UUID text: taken exactly where the strict rule takes it")
    func identifierBytes() throws {
        // Mixed case, every digit value somewhere.
        let base = Array("0123abCD-ef45-6789-AbCd-eF0123456789".utf8)
        func isHex(_ byte: UInt8) -> Bool {
            UInt8(ascii: "0")...UInt8(ascii: "9") ~= byte || UInt8(ascii: "a")...UInt8(ascii: "f") ~= byte
                || UInt8(ascii: "A")...UInt8(ascii: "F") ~= byte
        }
        for position in 0..<36 {
            for value in 0...255 {
                var bytes = base
                bytes[position] = UInt8(value)
                let parsed = bytes.withUnsafeBufferPointer { Pizza.ID(utf8: $0) }
                let strict = [8, 13, 18, 23].contains(position) ? value == 45 : isHex(UInt8(value))
                let expected = strict ? UUID(uuidString: String(decoding: bytes, as: UTF8.self)) : nil
                #expect(parsed?.uuid == expected, "byte \(value) at \(position)")
            }
        }
        // The value itself: each byte of the UUID from its two digits, first digit high.
        let parsed = try #require(base.withUnsafeBufferPointer { Pizza.ID(utf8: $0) })
        #expect(parsed.description == "0123abcd-ef45-6789-abcd-ef0123456789")
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
        for text in [
            "2026-02-29T12:00:00.000Z", "2026-13-01T12:00:00.000Z", "2026-12-01T24:00:00.000Z",
            "2026-12-01T12:60:00.000Z", "2026-12-01T12:00:60.000Z", "2026-12-01T12:00:00.00xZ",
            "2026-12-01 12:00:00.000Z", "2026-12-00T12:00:00.000Z", "2026-12-01T12:00:00.000z",
        ] {
            #expect(both(text).fast == nil, "\(text)")
        }
        #expect(both("2024-02-29T23:59:59.999Z").fast == both("2024-02-29T23:59:59.999Z").general)
    }

    @Test("stored pickup times read in time order (a date read once per day) give storedSeconds' answers, refusals too")
    func storedPickupReader() {
        var generator = SystemRandomNumberGenerator()
        var texts: [String] = []
        // Runs of slots on one day, days in order (before 1970 too), as a walk reads them.
        var day = Int64.random(in: -800_000...2_900_000, using: &generator)
        for _ in 0..<400 {
            for minute in stride(from: Int64.random(in: 0..<600, using: &generator), to: 1_440, by: 15) {
                texts.append(PickupTime.utc(Date(timeIntervalSince1970: Double(day * 86_400 + minute * 60))))
            }
            day += Int64.random(in: 1...40, using: &generator)
        }
        // Bad times on a date just read, a bad date after a good one, then good again.
        texts += [
            "2026-12-01T12:00:00Z", "2026-12-01T24:00:00Z", "2026-12-01T12:60:00Z", "2026-12-01T12:00:60Z",
            "2026-12-01 12:00:00Z", "2026-12-01T12:00:00z", "2026-12-01T1x:00:00Z", "2026-12-01T12-00:00Z",
            "2026-12-01T23:59:59Z", "2026-02-29T12:00:00Z", "2026-12-01T12:00:00Z", "2024-02-29T00:00:00Z",
        ]
        var reader = PickupTime.StoredReader()
        var wrong: [String] = []
        for text in texts {
            var copy = text
            let (expected, stored) = copy.withUTF8 { (PickupTime.storedSeconds($0), PickupTime.StoredText($0)) }
            guard let stored else {
                wrong.append(text)
                continue
            }
            if reader.seconds(stored) != expected { wrong.append(text) }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
        var short = "2026-12-01T12:00Z"
        #expect(short.withUTF8 { PickupTime.StoredText($0) } == nil)
    }

    @Test("the ASCII fast paths of name normalisation and validation agree with the general ones")
    func asciiNames() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array(" aZ09-'&.~\t\u{7F}\u{1F}".unicodeScalars)
        var samples = [
            "", " ", "   ", "a", " a", "a ", "Margherita", String(repeating: "x", count: 60),
            String(repeating: "x", count: 61),
        ]
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...64, using: &generator)
            samples.append(
                String(String.UnicodeScalarView((0..<length).map { _ in alphabet.randomElement(using: &generator)! })))
        }
        for name in samples {
            #expect(
                PizzaName.normalize(name) == name.trimmingWhitespace().precomposedStringWithCanonicalMapping,
                "\(name.debugDescription)")
            let normalized = PizzaName.normalize(name)
            #expect(PizzaName.problems(normalized) == PizzaName.generalProblems(normalized), "\(name.debugDescription)")
        }
    }

    @Test(
        "local pickup times are formatted as the reference composition writes them, daylight saving included",
        arguments: [
            "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "UTC", "Pacific/Chatham",
        ])
    func localTimes(zone identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        var generator = SystemRandomNumberGenerator()
        // Random instants over two years, and every quarter hour around this zone's transitions.
        var instants = (0..<2_000).map { _ in
            Date(
                timeIntervalSince1970: Double(
                    Int.random(in: 1_767_225_600...1_830_297_600, using: &generator) / 60 * 60))
        }
        var probe = Date(timeIntervalSince1970: 1_767_225_600)
        while let transition = zone.nextDaylightSavingTimeTransition(after: probe),
            transition.timeIntervalSince1970 < 1_830_297_600
        {
            instants += stride(from: -7_200.0, through: 7_200, by: 900).map { transition.addingTimeInterval($0) }
            probe = transition
        }
        for date in instants {
            let reference =
                "\(PickupTime.dayString(date, in: zone)) \(PickupTime.clock(date, in: zone))"
                + (PickupTime.isAmbiguous(date, in: zone)
                    ? " " + String(PickupTime.withOffset(date, in: zone).suffix(6)) : "")
            #expect(PickupTime.local(date, in: zone) == reference, "\(date)")
        }
    }

    @Test("ids and timestamps written into a buffer are their descriptions")
    func textBuffers() {
        for _ in 0..<1_000 {
            let id = Order.ID.random()
            #expect(id.withText { String(decoding: $0, as: UTF8.self) } == id.uuid.uuidString.lowercased())
            let date = Date(timeIntervalSince1970: Double.random(in: 0...4_102_444_800))
            let text = Timestamp.withText(date) { String(decoding: $0, as: UTF8.self) }
            #expect(text == Timestamp.string(from: date))
            #expect(Timestamp.date(from: text).map { abs($0.timeIntervalSince(date)) < 0.001 } == true)
        }
    }

    @Test("amounts are written as the reference interpolation writes them")
    func amounts() {
        var generator = SystemRandomNumberGenerator()
        let samples: [Int64] =
            [0, 1, 9, 10, 99, 100, 101, 999, 1_000, 100_000, -1, -100, -12_345, .max, .min]
            + (0..<2_000).map { _ in Int64.random(in: -10_000_000...10_000_000, using: &generator) }
        for cents in samples {
            let magnitude = cents.magnitude, fraction = magnitude % 100
            let reference = (cents < 0 ? "-" : "") + "\(magnitude / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
            #expect(Money(cents: cents).plain == reference)
            #expect(Money(cents: cents).formatted == (cents < 0 ? "-€" : "€") + reference.drop { $0 == "-" })
        }
    }
}
