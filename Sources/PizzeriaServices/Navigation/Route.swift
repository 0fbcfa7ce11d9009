import Foundation

/// A destination the backend knows: the detail screen of a pizza or of an order, or a menu
/// section (a category).
///
/// `Codable` in exactly the JSON form Swift synthesises for such an enum —
/// `{"pizza":{"id":"…"}}` — so an app that declares the same enum (with `String` or `UUID`
/// ids) decodes the backend's output directly, and the backend reads the app's (ids in any
/// case). Routes hold ids only, never names or prices.
public enum Route: Codable, Hashable, Sendable, JSONMembers {
    /// A pizza's detail.
    case pizza(id: Pizza.ID)
    /// An order's detail.
    case order(id: Order.ID)
    /// A menu section: the items of one category (`{"category":{"id":3}}`).
    case category(id: Category.ID)

    /// The kinds a route's text form (`kind:REFERENCE`) and a deep link take.
    public static let kinds: Set<String> = ["pizza", "order", "category"]

    /// `pizza`, `order` or `category`, as in deep links and the CLI's `pizza:ID` form.
    public var kind: String {
        switch self {
        case .pizza: "pizza"
        case .order: "order"
        case .category: "category"
        }
    }

    /// The pizza's, order's or category's id, as text.
    public var id: String {
        switch self {
        case .pizza(let id): id.description
        case .order(let id): id.description
        case .category(let id): id.description
        }
    }

    /// The id as people tell it apart at a glance: a pizza's or an order's short id
    /// (``Identifier/short``), a category's number.
    public var shortID: String {
        switch self {
        case .pizza(let id): id.short
        case .order(let id): id.short
        case .category(let id): id.description
        }
    }

    /// `{"pizza":{"id":"…"}}`, `{"order":{"id":"…"}}` or `{"category":{"id":3}}`: the form Swift
    /// synthesises for the app's enum, defined once (see ``JSONMembers``).
    public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        switch self {
        case .pizza(let id): try writer.member("pizza", object: IDMember(id: id))
        case .order(let id): try writer.member("order", object: IDMember(id: id))
        case .category(let id): try writer.member("category", object: NumberMember(id: id.rawValue))
        }
    }

    /// The synthesised form (decoding stays synthesised).
    public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }
}

/// `{"id": "…"}`, the payload of a route.
struct IDMember<Entity>: JSONMembers {
    let id: Identifier<Entity>

    func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws { try writer.member("id", id: id) }
    func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }
}

/// `{"id": 3}`, the payload of a route to a part the schema numbers (a category).
struct NumberMember: JSONMembers {
    let id: Int64

    func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws { try writer.member("id", id) }
    func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }
}

/// `{"json": "…", "type": "…"}`, the payload of an opaque element.
struct OpaqueMember: JSONMembers {
    let typeName: String, json: String

    func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        try writer.member("json", json)
        try writer.member("type", typeName)
    }

    func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }
}

/// One element of a user's navigation stack: a ``Route``, or an element of a type the backend
/// does not know, kept opaque (its type name and JSON text) so a client's path round-trips.
///
/// Encodes as the route itself, or as `{"opaque":{"type":"Swift.Int","json":"42"}}`.
public enum NavigationElement: Codable, Hashable, Sendable, JSONMembers {
    /// A known route.
    case route(Route)
    /// Something else: the client's module-qualified type name and the element's JSON.
    case opaque(typeName: String, json: String)

    /// The route, if this element is one.
    public var route: Route? {
        if case .route(let route) = self { route } else { nil }
    }

    private enum OpaqueKeys: String, CodingKey { case opaque }
    private enum OpaqueFields: String, CodingKey { case type, json }

    /// The route's own form, or the opaque form, defined once (see ``JSONMembers``).
    public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        switch self {
        case .route(let route): try route.writeMembers(to: &writer)
        case .opaque(let typeName, let json):
            try writer.member("opaque", object: OpaqueMember(typeName: typeName, json: json))
        }
    }

    /// The route's own form, or the opaque form.
    public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }

    /// Either form.
    public init(from decoder: Decoder) throws {
        if let container = try? decoder.container(keyedBy: OpaqueKeys.self), container.contains(.opaque) {
            let fields = try container.nestedContainer(keyedBy: OpaqueFields.self, forKey: .opaque)
            self = .opaque(
                typeName: try fields.decode(String.self, forKey: .type),
                json: try fields.decode(String.self, forKey: .json))
        } else {
            self = .route(try Route(from: decoder))
        }
    }
}

/// Compact JSON with sorted keys: how routes are stored in the history and exported.
enum RouteJSON {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// One element as stored. Routes — every push writes one — are written directly in the
    /// exact form `encode` gives them (`{"pizza":{"id":"…"}}`, the mirror of `scanRoutes`);
    /// an opaque element goes through the encoder.
    static func encodeElement(_ element: NavigationElement) throws -> String {
        guard case .route(let route) = element else { return try encode(element) }
        return routeText(route)
    }

    /// A history event's elements as stored: a JSON array, written directly when every element
    /// is a route.
    static func encodeElements(_ elements: [NavigationElement]) throws -> String {
        guard elements.allSatisfy({ $0.route != nil }) else { return try encode(elements) }
        var text = "["
        text.reserveCapacity(2 + elements.count * 56)
        for (index, element) in elements.enumerated() {
            if index > 0 { text += "," }
            if case .route(let route) = element { text += routeText(route) }
        }
        return text + "]"
    }

    private static func routeText(_ route: Route) -> String {
        switch route {
        case .pizza(let id): #"{"pizza":{"id":""# + id.description + #""}}"#
        case .order(let id): #"{"order":{"id":""# + id.description + #""}}"#
        case .category(let id): #"{"category":{"id":"# + id.description + "}}"
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    /// One stored element. The router reads one on every state read (the "previous" route), so
    /// the exact form this file writes for a route, `{"pizza":{"id":"…"}}`, is recognised
    /// without a JSON decoder; anything else goes through the decoder.
    static func decodeElement(_ text: String) throws -> NavigationElement {
        var text = text
        if let elements = text.withUTF8({ scanRoutes($0, from: 0, as: .single) }), elements.count == 1 {
            return elements[0]
        }
        return try decode(NavigationElement.self, from: text)
    }

    /// A stored array of elements (a history event's routes). Arrays of routes in the exact
    /// form this file writes are scanned directly — `nav history` reads thousands of them —
    /// anything else goes through the decoder.
    static func decodeElements(_ text: String) throws -> [NavigationElement] {
        var text = text
        if let elements = text.withUTF8({ scanRoutes($0, from: 0, as: .array) }) { return elements }
        return try decode([NavigationElement].self, from: text)
    }

    private enum Shape { case single, array }

    private static let pizzaPrefix = Array(#"{"pizza":{"id":""#.utf8), orderPrefix = Array(#"{"order":{"id":""#.utf8)
    private static let routeSuffix = Array(#""}}"#.utf8)

    /// The routes in `bytes` if they are exactly `{"kind":{"id":"UUID"}}` objects (bare, or in a
    /// `[…]` array separated by commas); `nil` for anything else.
    private static func scanRoutes(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, as shape: Shape)
        -> [NavigationElement]?
    {
        func matches(_ literal: [UInt8], at position: Int) -> Bool {
            position + literal.count <= bytes.count
                && literal.indices.allSatisfy { bytes[position + $0] == literal[$0] }
        }
        var position = start, elements: [NavigationElement] = []
        if shape == .array {
            guard matches([UInt8(ascii: "[")], at: position) else { return nil }
            position += 1
            if matches([UInt8(ascii: "]")], at: position) { return position + 1 == bytes.count ? [] : nil }
        }
        while true {
            let isPizza = matches(pizzaPrefix, at: position)
            guard isPizza || matches(orderPrefix, at: position) else { return nil }
            position += pizzaPrefix.count
            guard position + 36 <= bytes.count,
                let uuid = Pizza.ID(utf8: UnsafeBufferPointer(rebasing: bytes[position..<position + 36]))
            else { return nil }
            position += 36
            guard matches(routeSuffix, at: position) else { return nil }
            position += routeSuffix.count
            elements.append(.route(isPizza ? .pizza(id: uuid) : .order(id: Order.ID(uuid: uuid.uuid))))
            if shape == .single { return position == bytes.count ? elements : nil }
            if matches([UInt8(ascii: ",")], at: position) {
                position += 1
                continue
            }
            return matches([UInt8(ascii: "]")], at: position) && position + 1 == bytes.count ? elements : nil
        }
    }
}
