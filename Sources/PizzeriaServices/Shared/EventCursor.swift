import Foundation

/// A position in one of the change feeds (the orders' events, the menu's changes) that knows
/// which history it came from.
///
/// An integer position alone would be meaningless after a restore: a file put back from an
/// earlier backup numbers its new events again from where the backup ended, so a kitchen
/// display resuming "after 5" would silently skip the restored file's new events 3, 4 and 5 —
/// or wait forever for a 6 that never comes. So a cursor carries a fingerprint of the event
/// at its position (its id, what it is about, when it happened), and reading after it first
/// checks that this file has that very event there; if not, ``FeedError/foreignCursor(_:newest:)``.
///
/// Text form (what `pizzeria order watch` prints, and what JSON carries): `0` for the start
/// of history, else `POSITION.FINGERPRINT` such as `412.9f3a2c1b`. Treat it as opaque.
public struct EventCursor: Sendable, Hashable, TextCodable {
    /// What its JSON text must be (``TextCodable``).
    public static var textForm: String { "an event cursor (0 or POSITION.FINGERPRINT)" }

    /// The event's id in its append-only table (0: before the first event).
    public let position: Int64
    /// 32 bits of the event's identity (0 for the start).
    let fingerprint: UInt32

    /// Before the first event: reading after it replays the whole history, in any file.
    public static let start = EventCursor(position: 0, fingerprint: 0)

    /// The longest text a cursor can be (a 19-digit position, a dot, 8 hex digits).
    public static let maximumLength = 28

    private init(position: Int64, fingerprint: UInt32) {
        self.position = position
        self.fingerprint = fingerprint
    }

    /// The cursor of the event stored with id `position`, about `subject` (an order's or a
    /// pizza's id), made at `at`.
    init<Entity>(position: Int64, subject: Identifier<Entity>, at: Date) {
        // FNV-1a over the three values: not a secret, only a check that two files' events
        // at one position are the same event.
        var hash: UInt32 = 2_166_136_261
        func mix(_ value: UInt64) {
            for shift in stride(from: 0, to: 64, by: 8) {
                hash = (hash ^ UInt32(truncatingIfNeeded: value >> UInt64(shift))) &* 16_777_619
            }
        }
        mix(UInt64(bitPattern: position))
        withUnsafeBytes(of: subject.uuid.uuid) { for byte in $0 { hash = (hash ^ UInt32(byte)) &* 16_777_619 } }
        mix(at.timeIntervalSince1970.bitPattern)
        self.init(position: position, fingerprint: hash)
    }

    /// Reads the text form; `nil` unless it is `0` or `POSITION.FINGERPRINT` (8 hex digits).
    public init?(_ text: String) {
        guard text.utf8.count <= Self.maximumLength else { return nil }
        if text == "0" { self = .start; return }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].utf8.count == 8,
            parts[0].utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            parts[1].utf8.allSatisfy({ $0.isHexDigit }),
            let position = Int64(parts[0]), position > 0, let fingerprint = UInt32(parts[1], radix: 16)
        else { return nil }
        self.init(position: position, fingerprint: fingerprint)
    }

    /// `0`, or `POSITION.FINGERPRINT`.
    public var description: String {
        guard position > 0 else { return "0" }
        let hex = String(fingerprint, radix: 16)
        return "\(position)." + String(repeating: "0", count: 8 - hex.count) + hex
    }

}

private extension UInt8 {
    var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}

/// A feed was asked to resume from a cursor this file's history does not have.
public enum FeedError: PizzeriaFailure, Equatable {
    /// `cursor` names an event this file does not have at that position: the file was restored
    /// from an earlier backup (its history went another way since), or it is another file.
    /// `newest` is this file's newest event (``EventCursor/start`` when it has none).
    case foreignCursor(EventCursor, newest: EventCursor)

    /// Refused: resuming would skip or invent events.
    public var category: FailureCategory { .refused }

    /// What is wrong, in the domain's words.
    public var description: String {
        switch self {
        case .foreignCursor(let cursor, let newest):
            let place =
                cursor.position > newest.position
                ? "is past this file's newest event (\(newest))"
                : "names an event this file does not have"
            return
                "cursor \(cursor) \(place): the file was restored from an earlier backup, or it is another file; events may have been renumbered"
        }
    }
}

/// Reading a feed after a cursor, the same way for every feed.
enum FeedHistory {
    /// The rows after `cursor`, given `rows` read from `position >= cursor.position` (one more
    /// than `limit`, so the cursor's own event comes first and is checked).
    /// - Throws: ``FeedError/foreignCursor(_:newest:)`` when the first row is not the cursor's event.
    static func rows<Row>(
        after cursor: EventCursor, _ rows: [Row], limit: Int, cursorOf: (Row) -> EventCursor,
        newest: () throws -> EventCursor
    ) throws -> ArraySlice<Row> {
        guard cursor != .start else { return rows.prefix(limit) }
        guard let first = rows.first, cursorOf(first) == cursor else {
            throw FeedError.foreignCursor(cursor, newest: try newest())
        }
        return rows.dropFirst().prefix(limit)
    }
}
