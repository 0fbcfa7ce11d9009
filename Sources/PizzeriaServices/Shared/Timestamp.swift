import Foundation

/// ISO-8601 UTC timestamps with milliseconds, as the schema's defaults write them:
/// `2026-11-30T12:00:00.000Z`. Text in this form sorts in time order.
public enum Timestamp {
    /// `date` as `YYYY-MM-DDTHH:MM:SS.sssZ`.
    public static func string(from date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                      Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), Int(milliseconds % 1000))
    }

    /// Parses `YYYY-MM-DDTHH:MM[:SS[.sss]]Z`: the stored form, or a time a person gives.
    public static func date(from text: String) -> Date? {
        let parts = text.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return PickupTime.fromUTC(text) }
        let digits = parts[1].dropLast()
        guard parts[1].hasSuffix("Z"), !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit),
              let fraction = Double("0." + digits), let whole = PickupTime.fromUTC(parts[0] + "Z") else { return nil }
        return whole.addingTimeInterval(fraction)
    }
}
