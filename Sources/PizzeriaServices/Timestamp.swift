import Foundation

/// ISO-8601 UTC timestamps with milliseconds, as the schema's defaults write them:
/// `2026-11-30T12:00:00.000Z`. Text in this form sorts in time order.
public enum Timestamp {
    /// The current time in this form.
    public static func now() -> String { string(from: Date()) }

    /// `date` as `YYYY-MM-DDTHH:MM:SS.sssZ`.
    public static func string(from date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                      Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), Int(milliseconds % 1000))
    }
}
