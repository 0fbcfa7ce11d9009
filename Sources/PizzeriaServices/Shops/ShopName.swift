import Foundation

/// A shop's name on a platform of shops: 1 to 63 of `a-z 0-9 -`, starting with a letter or a
/// digit (`napoli-centro`, typed in any case). No dots, slashes or other characters: a name can
/// only ever name a file inside the shops' directory.
public struct ShopName: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The name, lowercase.
    public let description: String

    /// The longest name.
    public static let maximumLength = 63
    /// The rule, for refusals.
    public static let rule = "must be 1 to 63 of a-z 0-9 - starting with a letter or a digit (such as napoli-centro)"

    /// `nil` unless `text` (lowercased) follows ``rule``.
    public init?(_ text: String) {
        let name = text.lowercased()
        let bytes = Array(name.utf8)
        guard (1...Self.maximumLength).contains(bytes.count), let first = bytes.first, first != UInt8(ascii: "-"),
            bytes.allSatisfy({
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || $0 == UInt8(ascii: "-")
            })
        else { return nil }
        description = name
    }

    /// `text` as a name, or a ``ValidationError`` naming `field` and the rule.
    public static func parse(_ text: String, field: String = "shop") throws -> ShopName {
        guard let name = ShopName(text) else {
            throw ValidationError([FieldError(field: field, message: "\(rule), not '\(text)'")])
        }
        return name
    }

    /// The two directory levels the shop's file is under (`3f/a2`): the first four hex digits of
    /// the name's 32-bit FNV-1a hash, so a directory holds few entries however many shops there are
    /// (65,536 leaves: a million shops are about 15 per leaf, three files each).
    public var buckets: (String, String) {
        var hash: UInt32 = 2_166_136_261
        for byte in description.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        let hex = String(format: "%08x", hash)
        return (String(hex.prefix(2)), String(hex.dropFirst(2).prefix(2)))
    }

    public static func < (lhs: ShopName, rhs: ShopName) -> Bool { lhs.description < rhs.description }
}
