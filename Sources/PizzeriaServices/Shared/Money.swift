/// An amount of euros, held as integer cents.
///
/// Money is parsed from and formatted for people only at the edges; everything below works in
/// cents. Prices are more than zero and at most ``maximum`` (1,000.00 EUR).
///
/// ```swift
/// let price = try Money.parse("6,50")   // 650 cents
/// price.formatted                       // "€6.50"
/// price.plain                           // "6.50"
/// ```
public struct Money: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The amount in cents.
    public let cents: Int64

    /// The highest price accepted: 1,000.00 EUR.
    public static let maximum = Money(cents: 100_000)
    /// The most a modifier adds to a line's unit price: 100.00 EUR.
    public static let maximumModifier = Money(cents: 10_000)

    /// An amount of `cents` (not validated: use ``parse(_:)`` for input).
    public init(cents: Int64) { self.cents = cents }

    /// For people: `€6.50`.
    public var formatted: String { text(symbol: true) }

    /// Without symbol, two decimals, for JSON and for `sqlite3` users: `6.50`.
    public var plain: String { text(symbol: false) }

    /// The sign, the euro sign when `symbol`, and the digits, written by hand into one string
    /// (lists format one or two amounts per row).
    private func text(symbol: Bool) -> String {
        let magnitude = cents.magnitude
        let whole = magnitude / 100, fraction = magnitude % 100
        var wholeDigits = 1, rest = whole
        while rest >= 10 {
            rest /= 10
            wholeDigits += 1
        }
        let prefix = (cents < 0 ? 1 : 0) + (symbol ? 3 : 0)
        return String(unsafeUninitializedCapacity: prefix + wholeDigits + 3) { text in
            var position = 0
            if cents < 0 {
                text[0] = UInt8(ascii: "-")
                position = 1
            }
            if symbol {  // "€" in UTF-8
                (text[position], text[position + 1], text[position + 2]) = (0xE2, 0x82, 0xAC)
                position += 3
            }
            var value = whole
            for index in stride(from: position + wholeDigits - 1, through: position, by: -1) {
                text[index] = UInt8(truncatingIfNeeded: 48 + value % 10)
                value /= 10
            }
            position += wholeDigits
            text[position] = UInt8(ascii: ".")
            text[position + 1] = UInt8(truncatingIfNeeded: 48 + fraction / 10)
            text[position + 2] = UInt8(truncatingIfNeeded: 48 + fraction % 10)
            return position + 3
        }
    }

    /// ``formatted``.
    public var description: String { formatted }

    /// Orders by amount.
    public static func < (lhs: Money, rhs: Money) -> Bool { lhs.cents < rhs.cents }

    /// Encodes as the plain amount, `"6.50"`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(plain)
    }

    /// Decodes the plain amount.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        switch Money.parse(text) {
        case .success(let money): self = money
        case .failure(let error):
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    // MARK: - Parsing

    /// Why a text is not a price. The message follows the field name: `price: must not be empty`.
    public struct ParseError: Error, Sendable, Equatable {
        /// The rule the text breaks.
        public let message: String
    }

    /// Parses a price as people type it.
    ///
    /// Accepted: `6`, `6.5`, `6.50`, `6,50` (decimal comma), `.50`, with an optional `€` or
    /// `EUR` before or after and spaces around. Refused, saying why: empty text, anything not a
    /// plain decimal number, a sign, zero, more than two decimals, exponents, `NaN` and
    /// infinities, thousands separators (`1,000` could mean one thousand or one euro), and
    /// amounts above ``maximum``. A modifier's price (`allowingZero`, at most
    /// ``maximumModifier``) may be 0.00: "senza basilico" costs nothing.
    public static func parse(_ input: String, allowingZero: Bool = false, maximum: Money = Money.maximum) -> Result<
        Money, ParseError
    > {
        func fail(_ message: String) -> Result<Money, ParseError> { .failure(ParseError(message: message)) }

        var text = Substring(input.trimmingWhitespace())
        if text.hasPrefix("€") {
            text = text.dropFirst()
        } else if text.hasSuffix("€") {
            text = text.dropLast()
        } else if text.uppercased().hasPrefix("EUR") {
            text = text.dropFirst(3)
        } else if text.uppercased().hasSuffix("EUR") {
            text = text.dropLast(3)
        }
        text = Substring(String(text).trimmingWhitespace())

        guard !text.isEmpty else { return fail("must not be empty") }
        let lowered = text.lowercased()
        if ["nan", "inf", "infinity", "+inf", "-inf", "+infinity", "-infinity"].contains(lowered) {
            return fail("must be a finite amount, such as 6.50")
        }
        if text.hasPrefix("-") { return fail("must not be negative") }
        if text.hasPrefix("+") { return fail("must be a plain amount without a sign, such as 6.50") }
        if lowered.contains("e"), text.contains(where: \.isASCIIDigit) {
            return fail("must not use an exponent; write the amount out, such as 6.50")
        }
        guard text.allSatisfy({ $0.isASCIIDigit || $0 == "." || $0 == "," }), text.contains(where: \.isASCIIDigit)
        else {
            return fail("must be an amount in euros, such as 6.50 or 6,50")
        }
        let separators = text.filter { $0 == "." || $0 == "," }
        guard separators.count <= 1 else {
            return fail("must not use thousands separators; write 1000.50, not 1,000.50")
        }
        let parts = text.split(separator: separators.first ?? ".", omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        if fraction.count == 3 {
            // Only readings that would be accepted are offered: 8.555 as 8555 is over the maximum.
            let thousands = Int64(String(whole + fraction)).map(String.init) ?? "\(whole)\(fraction)"
            let readings = [thousands, "\(whole.isEmpty ? "0" : whole).\(fraction.prefix(2))"].filter {
                if case .success = parse($0, allowingZero: allowingZero, maximum: maximum) { true } else { false }
            }
            let advice = readings.isEmpty ? "" : "; write " + readings.joined(separator: " or ")
            return fail("is ambiguous: \(text) could use a thousands separator or have three decimals\(advice)")
        }
        guard fraction.count <= 2 else { return fail("must have at most two decimals") }
        let significant = whole.drop { $0 == "0" }
        guard significant.count <= 7, let euros = Int64(significant.isEmpty ? "0" : String(significant)) else {
            return fail("must be at most \(maximum.formatted)")
        }
        let cents = euros * 100 + (Int64(fraction + String(repeating: "0", count: 2 - fraction.count)) ?? 0)
        guard cents > 0 || allowingZero else { return fail("must be greater than 0") }
        guard cents <= maximum.cents else { return fail("must be at most \(maximum.formatted)") }
        return .success(Money(cents: cents))
    }
}

extension Character {
    /// `0`…`9` only; other scripts' digits are not amounts here.
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension StringProtocol {
    /// The text without leading and trailing Unicode white space and line breaks.
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
