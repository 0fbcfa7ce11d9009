import Foundation

/// New bookings stopped (the oven broke): until a time, or until resumed. Existing orders are
/// untouched.
///
/// JSON: `{"until": UTC | null, "reason": "oven repair" | null}`.
public struct Pause: Sendable, Hashable, Record {
    /// When it ends by itself; `nil`: when someone resumes.
    public internal(set) var until: Date?
    /// Why, as customers are told.
    public internal(set) var reason: String?

    /// A pause.
    public init(until: Date?, reason: String?) {
        self.until = until
        self.reason = reason
    }

    /// Whether it still holds at `now`.
    public func isActive(at now: Date) -> Bool { until.map { now < $0 } ?? true }

    /// The longest reason, in Unicode scalars (as SQLite's `length()` counts them).
    public static let maximumReasonLength = 200

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members, the documented JSON shape, declared once (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.member("reason", &reason)
        try visitor.member("until", timestamp: &until)
    }
}

/// A rush: extra minutes added to the lead time ("45 minutes tonight"), until a time or until
/// turned off. Existing orders are untouched.
///
/// JSON: `{"minutes": 30, "until": UTC | null}`.
public struct Rush: Sendable, Hashable, Record {
    /// Minutes added to the lead time: 1–``Rush/maximumMinutes``.
    public internal(set) var minutes: Int = 0
    /// When it ends by itself; `nil`: when turned off.
    public internal(set) var until: Date?

    /// The most minutes a rush may add.
    public static let maximumMinutes = 1_440

    /// A rush.
    public init(minutes: Int, until: Date?) {
        self.minutes = minutes
        self.until = until
    }

    /// Whether it still holds at `now`.
    public func isActive(at now: Date) -> Bool { until.map { now < $0 } ?? true }

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members, the documented JSON shape, declared once (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.member("minutes", &minutes)
        try visitor.member("until", timestamp: &until)
    }
}
