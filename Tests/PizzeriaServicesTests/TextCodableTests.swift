import Foundation
import PizzeriaServices
import Testing

/// The values whose JSON is their text (``TextCodable``): one implementation, so every one of
/// them writes its text, reads it back and refuses anything else naming what the text must be.
@Suite struct TextCodableTests {
    /// Encodes `value` as a JSON fragment, checks it is the text as a JSON string, decodes it
    /// back, then decodes `invalid` and returns the decoding error's description.
    func roundTrip<T: TextCodable & Equatable>(_ value: T, refusing invalid: String) throws -> String? {
        let data = try JSONEncoder().encode(value)
        #expect(String(decoding: data, as: UTF8.self) == "\"\(value.description)\"")
        #expect(try JSONDecoder().decode(T.self, from: data) == value)
        do {
            _ = try JSONDecoder().decode(T.self, from: Data("\"\(invalid)\"".utf8))
            return nil
        } catch DecodingError.dataCorrupted(let context) {
            return context.debugDescription
        }
    }

    @Test func eachWritesItsTextAndRefusesOtherTextByName() throws {
        let date = try #require(LocalDate("2026-12-04"))
        #expect(try roundTrip(date, refusing: "31.12.2026") == "'31.12.2026' is not a date YYYY-MM-DD")
        let time = try #require(LocalTime("19:30"))
        #expect(try roundTrip(time, refusing: "7.30pm") == "'7.30pm' is not a time HH:MM")
        let id = try #require(Pizza.ID("3F2504E0-4F89-11D3-9A0C-0305E82C3301"))
        #expect(id.description == "3f2504e0-4f89-11d3-9a0c-0305e82c3301")
        #expect(try roundTrip(id, refusing: "margherita") == "'margherita' is not a UUID")
        #expect(
            try roundTrip(EventCursor.start, refusing: "yesterday")
                == "'yesterday' is not an event cursor (0 or POSITION.FINGERPRINT)")
        let notifier = try #require(NotifierName("SMS"))
        #expect(notifier.description == "sms")
        #expect(
            try roundTrip(notifier, refusing: "text me")
                == "'text me' is not a notifier name: it \(NotifierName.rule)")
        let cursor = try #require(PageCursor("YQ"))
        #expect(try roundTrip(cursor, refusing: "%%%") == "'%%%' is not a page cursor")
    }

    @Test func aNumberWhereTheTextShouldBeIsATypeMismatch() {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(LocalDate.self, from: Data("20261204".utf8)) }
    }
}
