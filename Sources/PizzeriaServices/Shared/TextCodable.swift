/// A value whose JSON form is its text — `description`, read back by `init?(_:)` — such as
/// ``LocalDate`` (`"2026-12-04"`), ``LocalTime`` (`"19:30"`), an ``Identifier`` or a cursor.
/// Conforming gives the `Codable` implementation; the type says what its text must look like,
/// for the decoding error.
public protocol TextCodable: Codable, LosslessStringConvertible {
    /// What a valid text is, after "is not": `a date YYYY-MM-DD`.
    static var textForm: String { get }
}

extension TextCodable {
    /// Writes the text form, a JSON string.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Reads the text form; anything else is a decoding error that names ``textForm``.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Self(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not \(Self.textForm)")
        }
        self = value
    }
}
