/// A time of day on the wall clock, to the minute, without a date or a zone: `18:30`.
///
/// `24:00` exists as the end of a day (a closing time); nothing opens at 24:00.
public struct LocalTime: Sendable, Hashable, Comparable, TextCodable, CustomStringConvertible {
    /// What its JSON text must be (``TextCodable``).
    public static var textForm: String { "a time HH:MM" }

    /// Minutes after midnight: 0…1440 (1440 is 24:00).
    public let minutes: Int

    /// A time from minutes after midnight, or `nil` outside 0…1440.
    public init?(minutes: Int) {
        guard (0...1440).contains(minutes) else { return nil }
        self.minutes = minutes
    }

    /// A time from hours and minutes, or `nil` for anything but 00:00…24:00.
    public init?(hour: Int, minute: Int) {
        guard (0...59).contains(minute), (0...23).contains(hour) || (hour == 24 && minute == 0) else { return nil }
        self.minutes = hour * 60 + minute
    }

    /// `HH:MM` (00:00…24:00), exactly two digits each; `nil` for anything else.
    public init?(_ description: String) {
        let bytes = Array(description.utf8)
        guard bytes.count == 5, bytes[2] == UInt8(ascii: ":"),
            bytes.enumerated().allSatisfy({ $0.offset == 2 || (48...57).contains($0.element) })
        else { return nil }
        let hour = Int(bytes[0] - 48) * 10 + Int(bytes[1] - 48), minute = Int(bytes[3] - 48) * 10 + Int(bytes[4] - 48)
        self.init(hour: hour, minute: minute)
    }

    /// Midnight, the start of a day.
    public static let midnight = LocalTime(uncheckedMinutes: 0)

    init(uncheckedMinutes: Int) { minutes = uncheckedMinutes }

    /// `HH:MM`.
    public var description: String { Self.clock(minutes) }

    /// `HH:MM` for minutes after midnight (a value past 24:00 wraps: 25:30 is `01:30`).
    static func clock(_ minutes: Int) -> String {
        let wrapped = minutes == 1440 ? 1440 : ((minutes % 1440) + 1440) % 1440
        return String(unsafeUninitializedCapacity: 5) { buffer in
            LocalDate.put(wrapped / 60, 2, at: 0, in: buffer)
            buffer[2] = UInt8(ascii: ":")
            LocalDate.put(wrapped % 60, 2, at: 3, in: buffer)
            return 5
        }
    }

    public static func < (lhs: LocalTime, rhs: LocalTime) -> Bool { lhs.minutes < rhs.minutes }

}
