import Foundation

/// The shop's details, printed on receipts, and its default VAT rate (the `shop` row).
///
/// JSON: `{"name", "address", "vat_number", "vat_rate_bp", "phone_region", "language"}`.
public struct ShopDetails: Sendable, Hashable, Encodable {
    /// The name a receipt's head prints (`Pizzeria da Michele`), if set.
    public let name: String?
    /// One line of address (`Via Cesare Sersale 1, 80139 Napoli`), if set.
    public let address: String?
    /// The VAT number as printed (`IT01234567890`), if set.
    public let vatNumber: String?
    /// The rate of categories without their own.
    public let vatRate: VATRate
    /// The country national phone numbers are read in (`IT`), if set.
    public let phoneRegion: PhoneRegion?
    /// The language of the notifier's ready-made messages.
    public let language: ShopLanguage

    /// The details; stores make them from the `shop` row.
    public init(
        name: String?, address: String?, vatNumber: String?, vatRate: VATRate, phoneRegion: PhoneRegion?,
        language: ShopLanguage = .italian
    ) {
        (self.name, self.address, self.vatNumber, self.vatRate) = (name, address, vatNumber, vatRate)
        (self.phoneRegion, self.language) = (phoneRegion, language)
    }

    /// The longest name, in Unicode scalars.
    public static let maximumNameLength = 80
    /// The longest address, in Unicode scalars.
    public static let maximumAddressLength = 200

    private enum CodingKeys: String, CodingKey {
        case name, address, vatNumber = "vat_number", vatRate = "vat_rate_bp", phoneRegion = "phone_region", language
    }

    /// The documented JSON shape (a detail not set is `null`).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(address, forKey: .address)
        try container.encode(vatNumber, forKey: .vatNumber)
        try container.encode(vatRate, forKey: .vatRate)
        try container.encode(phoneRegion?.code, forKey: .phoneRegion)
        try container.encode(language.rawValue, forKey: .language)
    }
}

/// The shop's language: what the notifier's ready-made messages are written in.
public enum ShopLanguage: String, Sendable, Hashable, CaseIterable {
    /// Italiano (the default).
    case italian = "it"
    /// English.
    case english = "en"
}

/// A change of the shop's details.
public enum ShopChange: Sendable, Hashable {
    /// The name (`nil` clears it).
    case name(String?)
    /// The address (`nil` clears it).
    case address(String?)
    /// The VAT number, 2 to 20 capital letters and digits (`nil` clears it).
    case vatNumber(String?)
    /// The default VAT rate.
    case vatRate(VATRate)
    /// The country national phone numbers are read in (`nil` clears it: only `+…` numbers then).
    case phoneRegion(PhoneRegion?)
    /// The language of the ready-made messages.
    case language(ShopLanguage)

    /// What is wrong with the change, naming the field as `config set` spells it.
    func problems() -> [FieldError] {
        switch self {
        case .name(let text?):
            TextLimit.problems(text, field: "shop-name", maximum: ShopDetails.maximumNameLength)
        case .address(let text?):
            TextLimit.problems(text, field: "shop-address", maximum: ShopDetails.maximumAddressLength)
        case .vatNumber(let text?):
            (2...20).contains(text.count) && text.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) })
                ? []
                : [
                    FieldError(
                        field: "vat-number",
                        message: "must be 2 to 20 capital letters and digits, such as IT01234567890, not '\(text)'")
                ]
        case .name(nil), .address(nil), .vatNumber(nil), .vatRate, .phoneRegion, .language: []
        }
    }
}
