import Foundation

/// A VAT rate in basis points: 1000 = 10 %, 2200 = 22 %, 550 = 5.5 %; 0 to 10000 (100 %).
public struct VATRate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Hundredths of a percent.
    public let basisPoints: Int

    /// A rate, if within 0–10000 basis points.
    public init?(basisPoints: Int) {
        guard (0...Self.maximumBasisPoints).contains(basisPoints) else { return nil }
        self.basisPoints = basisPoints
    }

    /// 100 %, the most a rate may be.
    public static let maximumBasisPoints = 10_000
    /// Italy's rate on food served or taken away: 10 %, the shop's default.
    public static let standardFood = VATRate(unchecked: 1000)

    init(unchecked basisPoints: Int) { self.basisPoints = basisPoints }

    /// `10%`, `5.5%`, `0%`.
    public var description: String {
        let whole = basisPoints / 100, fraction = basisPoints % 100
        if fraction == 0 { return "\(whole)%" }
        return fraction % 10 == 0 ? "\(whole).\(fraction / 10)%" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)%"
    }

    /// Reads a percentage: `10`, `10%`, `22 %`, `5.5`, `5,5` (at most two decimals, 0 to 100).
    /// - Throws: ``ValidationError`` naming `field`.
    public static func parse(_ text: String, field: String = "vat-rate") throws -> VATRate {
        func fail(_ message: String) -> ValidationError {
            ValidationError([FieldError(field: field, message: message)])
        }
        var body = text.trimmingWhitespace()
        if body.hasSuffix("%") { body = String(body.dropLast()).trimmingWhitespace() }
        let parts = body.split(separator: body.contains(",") ? "," : ".", omittingEmptySubsequences: false)
        guard !body.isEmpty, parts.count <= 2, parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
            !parts[0].isEmpty, parts[0].count <= 3, parts.count == 1 || (1...2).contains(parts[1].count)
        else {
            throw fail(
                "must be a percentage from 0 to 100 with at most two decimals, such as 10, 22 or 5.5, not '\(text)'")
        }
        let whole = Int(parts[0]) ?? 0
        let fraction = parts.count == 2 ? Int(parts[1].count == 1 ? parts[1] + "0" : parts[1]) ?? 0 : 0
        guard let rate = VATRate(basisPoints: whole * 100 + fraction) else {
            throw fail("must be at most 100 %, not \(text)")
        }
        return rate
    }

    /// The VAT inside a VAT-inclusive `gross`: gross × rate / (1 + rate), rounded half up to the cent.
    public func vat(ofGross gross: Money) -> Money {
        let divisor = Int64(10_000 + basisPoints)
        let magnitude = (2 * abs(gross.cents) * Int64(basisPoints) + divisor) / (2 * divisor)
        return Money(cents: gross.cents < 0 ? -magnitude : magnitude)
    }

    /// Ordered by rate.
    public static func < (lhs: VATRate, rhs: VATRate) -> Bool { lhs.basisPoints < rhs.basisPoints }

    /// JSON: the basis points, a number.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(basisPoints)
    }

    /// Reads basis points.
    public init(from decoder: Decoder) throws {
        let value = try decoder.singleValueContainer().decode(Int.self)
        guard let rate = VATRate(basisPoints: value) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "a VAT rate is 0 to 10000 basis points"))
        }
        self = rate
    }
}

/// How VAT-inclusive amounts split into net and VAT, per rate.
///
/// The rounding rule, one for every figure: **per rate on the order** — the order's lines are
/// summed per rate (gross), the VAT of each sum is gross × rate / (1 + rate) rounded half up to
/// the cent, and net = gross − VAT. A day's or a report's breakdown is the sum of its orders'
/// breakdowns, so it agrees with every receipt to the cent.
public struct VATBreakdown: Sendable, Hashable, Encodable {
    /// One rate's share.
    public struct Row: Sendable, Hashable, Encodable {
        /// The rate.
        public let rate: VATRate
        /// VAT-inclusive amount at this rate.
        public let gross: Money
        /// gross − VAT.
        public var net: Money { Money(cents: gross.cents - vat.cents) }
        /// The VAT in it.
        public let vat: Money

        private enum CodingKeys: String, CodingKey {
            case rateBasisPoints = "rate_bp", rate = "rate_percent", grossCents = "gross_cents", netCents = "net_cents"
            case vatCents = "vat_cents"
        }

        /// JSON: `{"rate_bp", "rate_percent": "10%", "gross_cents", "net_cents", "vat_cents"}`.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(rate.basisPoints, forKey: .rateBasisPoints)
            try container.encode(rate.description, forKey: .rate)
            try container.encode(gross.cents, forKey: .grossCents)
            try container.encode(net.cents, forKey: .netCents)
            try container.encode(vat.cents, forKey: .vatCents)
        }
    }

    /// One row per rate, lowest rate first.
    public let rows: [Row]

    /// The breakdown of one order's lines (per rate on the order).
    public init(lines: [OrderLine]) { self.init(lines: lines, discounts: []) }

    /// The breakdown of one order's lines less its discounts and comps, each rate's gross what
    /// is left at it (the VAT recomputed from that, per rate on the order).
    public init(lines: [OrderLine], discounts: [OrderDiscount]) {
        var gross: [VATRate: Int64] = [:]
        for line in lines { gross[line.vatRate, default: 0] += line.total.cents }
        for (rate, amount) in discounts.flatMap(\.byRate) { gross[rate, default: 0] -= amount.cents }
        self.rows = gross.keys.sorted().map { rate in
            let amount = Money(cents: gross[rate] ?? 0)
            return Row(rate: rate, gross: amount, vat: rate.vat(ofGross: amount))
        }
    }

    /// The sum of several orders' breakdowns, row by row.
    public init(summing breakdowns: [VATBreakdown]) {
        var gross: [VATRate: Int64] = [:], vat: [VATRate: Int64] = [:]
        for row in breakdowns.flatMap(\.rows) {
            gross[row.rate, default: 0] += row.gross.cents
            vat[row.rate, default: 0] += row.vat.cents
        }
        self.rows = gross.keys.sorted().map {
            Row(rate: $0, gross: Money(cents: gross[$0] ?? 0), vat: Money(cents: vat[$0] ?? 0))
        }
    }

    /// Σ gross.
    public var gross: Money { Money(cents: rows.reduce(0) { $0 + $1.gross.cents }) }
    /// Σ net.
    public var net: Money { Money(cents: rows.reduce(0) { $0 + $1.net.cents }) }
    /// Σ VAT.
    public var vat: Money { Money(cents: rows.reduce(0) { $0 + $1.vat.cents }) }

    private enum CodingKeys: String, CodingKey {
        case rows = "rates", grossCents = "gross_cents", netCents = "net_cents", vatCents = "vat_cents"
    }

    /// JSON: `{"rates": [rows], "gross_cents", "net_cents", "vat_cents"}`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rows, forKey: .rows)
        try container.encode(gross.cents, forKey: .grossCents)
        try container.encode(net.cents, forKey: .netCents)
        try container.encode(vat.cents, forKey: .vatCents)
    }
}
