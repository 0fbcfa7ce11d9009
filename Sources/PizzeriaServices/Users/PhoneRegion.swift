import Foundation

/// The country a national phone number is read in (`config set phone-region IT`): its calling
/// code and whether its national numbers keep their leading 0 after the code (Italy's landlines
/// do: `081 555 1234` is `+39 081 555 1234`; France's do not: `06 12 34 56 78` is `+33 6 12 34 56 78`).
public struct PhoneRegion: Sendable, Hashable, CustomStringConvertible {
    /// ISO 3166-1 alpha-2: `IT`.
    public let code: String
    /// The country calling code, without `+`: `39`.
    public let callingCode: String
    /// The national prefix dropped after the calling code (`0`, `1`), or `nil` when none is
    /// (Italy keeps its 0; Spain has none).
    public let trunkPrefix: String?

    /// `IT (+39)`.
    public var description: String { "\(code) (+\(callingCode))" }

    /// The regions known, by code.
    public static let known: [PhoneRegion] = [
        .init(code: "IT", callingCode: "39", trunkPrefix: nil), .init(code: "SM", callingCode: "378", trunkPrefix: nil),
        .init(code: "VA", callingCode: "39", trunkPrefix: nil), .init(code: "FR", callingCode: "33", trunkPrefix: "0"),
        .init(code: "DE", callingCode: "49", trunkPrefix: "0"), .init(code: "AT", callingCode: "43", trunkPrefix: "0"),
        .init(code: "CH", callingCode: "41", trunkPrefix: "0"), .init(code: "ES", callingCode: "34", trunkPrefix: nil),
        .init(code: "PT", callingCode: "351", trunkPrefix: nil), .init(code: "GB", callingCode: "44", trunkPrefix: "0"),
        .init(code: "IE", callingCode: "353", trunkPrefix: "0"), .init(code: "NL", callingCode: "31", trunkPrefix: "0"),
        .init(code: "BE", callingCode: "32", trunkPrefix: "0"), .init(code: "LU", callingCode: "352", trunkPrefix: nil),
        .init(code: "GR", callingCode: "30", trunkPrefix: nil), .init(code: "MT", callingCode: "356", trunkPrefix: nil),
        .init(code: "US", callingCode: "1", trunkPrefix: "1"), .init(code: "CA", callingCode: "1", trunkPrefix: "1"),
    ]

    /// The region with this code (any case), if known.
    public static func named(_ code: String) -> PhoneRegion? {
        let upper = code.uppercased()
        return known.first { $0.code == upper }
    }

    /// A national number's digits in E.164 (`+390815551234`), or `nil` when they are not a number of this region's length.
    func international(national digits: String) -> String? {
        var rest = Substring(digits)
        if let trunkPrefix, rest.hasPrefix(trunkPrefix) { rest = rest.dropFirst(trunkPrefix.count) }
        guard !rest.isEmpty, rest.first != "0" || trunkPrefix == nil else { return nil }
        return "+" + callingCode + rest
    }
}
