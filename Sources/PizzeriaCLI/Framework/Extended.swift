/// A documented JSON object with one more key: `pizza show` is a pizza plus `history`, `user
/// show` a user plus `orders`, `order place` an order plus `created`. The base keeps its shape.
struct Extended<Base: Encodable, Extra: Encodable>: Encodable {
    let base: Base
    let key: String
    let extra: Extra

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: Encoder) throws {
        try base.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(extra, forKey: Key(stringValue: key))
    }
}
