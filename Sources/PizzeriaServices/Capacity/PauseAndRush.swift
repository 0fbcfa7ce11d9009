import Foundation

/// New bookings stopped (the oven broke): until a time, or until resumed. Existing orders are
/// untouched.
///
/// JSON: `{"until": UTC | null, "reason": "oven repair" | null}`.
public struct Pause: Sendable, Hashable, Codable {
    /// When it ends by itself; `nil`: when someone resumes.
    public let until: Date?
    /// Why, as customers are told.
    public let reason: String?

    /// A pause.
    public init(until: Date?, reason: String?) {
        self.until = until
        self.reason = reason
    }

    /// Whether it still holds at `now`.
    public func isActive(at now: Date) -> Bool { until.map { now < $0 } ?? true }

    /// The longest reason, in Unicode scalars (as SQLite's `length()` counts them).
    public static let maximumReasonLength = 200

    private enum CodingKeys: String, CodingKey { case until, reason }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeTimestamp(until, forKey: .until)
        try container.encode(reason, forKey: .reason)
    }

    /// Reads the JSON shape.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            until: try container.decodeTimestampIfPresent(forKey: .until),
            reason: try container.decodeIfPresent(String.self, forKey: .reason))
    }
}

/// A rush: extra minutes added to the lead time ("45 minutes tonight"), until a time or until
/// turned off. Existing orders are untouched.
///
/// JSON: `{"minutes": 30, "until": UTC | null}`.
public struct Rush: Sendable, Hashable, Codable {
    /// Minutes added to the lead time: 1–``Rush/maximumMinutes``.
    public let minutes: Int
    /// When it ends by itself; `nil`: when turned off.
    public let until: Date?

    /// The most minutes a rush may add.
    public static let maximumMinutes = 1_440

    /// A rush.
    public init(minutes: Int, until: Date?) {
        self.minutes = minutes
        self.until = until
    }

    /// Whether it still holds at `now`.
    public func isActive(at now: Date) -> Bool { until.map { now < $0 } ?? true }

    private enum CodingKeys: String, CodingKey { case minutes, until }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(minutes, forKey: .minutes)
        try container.encodeTimestamp(until, forKey: .until)
    }

    /// Reads the JSON shape.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            minutes: try container.decode(Int.self, forKey: .minutes),
            until: try container.decodeTimestampIfPresent(forKey: .until))
    }
}
