import Foundation

/// The menu as one documented JSON file (`pizzeria menu export`, `menu import`): categories,
/// modifier groups with their modifiers, and items with their variants, allergens and groups.
/// Prices are text as people type them (`"6.50"`); allergens are the EU codes.
///
/// ```json
/// {"format": "pizzeria-menu", "version": 1,
///  "categories": [{"name": "Pizze rosse", "uses_oven": true}],
///  "modifier_groups": [{"name": "Aggiunte", "min": 0, "max": 3,
///                       "modifiers": [{"name": "bufala", "price": "2.00", "allergens": ["milk"],
///                                      "variant_prices": {"Maxi": "3.00"}}]}],
///  "items": [{"name": "Margherita", "category": "Pizze rosse", "allergens": ["gluten", "milk"],
///             "variants": [{"name": "Normale", "price": "6.00", "default": true},
///                          {"name": "Maxi", "price": "9.00"}],
///             "modifier_groups": ["Aggiunte"]}]}
/// ```
public struct MenuFile: Sendable, Hashable, Codable {
    /// The format's name, always `pizzeria-menu`.
    public var format: String = "pizzeria-menu"
    /// The format's version, 1.
    public var version: Int = 1
    /// Menu sections, in menu order.
    public var categories: [CategoryEntry] = []
    /// Modifier groups, in menu order.
    public var modifierGroups: [GroupEntry] = []
    /// Items, by name.
    public var items: [ItemEntry] = []

    /// The most items, groups and categories a file holds; larger files are refused whole.
    public static let maximumItems = 100_000
    /// The most modifier groups in a file.
    public static let maximumGroups = 1_000
    /// The largest file `menu import` reads, in bytes.
    public static let maximumBytes = 64 << 20

    /// A menu section.
    public struct CategoryEntry: Sendable, Hashable, Codable {
        /// Its name.
        public var name: String
        /// Whether its items count toward slot capacity (default true).
        public var usesOven: Bool?
        /// The station its items are prepared at (a name from `station list`); when given, it
        /// decides `uses_oven`.
        public var station: String?
        /// Its items' VAT rate in % (`"22"`, `"5.5"`), or `nil`: the shop's (`config set vat-rate`);
        /// an import leaves an existing category's rate alone when the file gives none.
        public var vatRate: String?

        /// An entry.
        public init(name: String, usesOven: Bool? = nil, station: String? = nil, vatRate: String? = nil) {
            (self.name, self.usesOven, self.station, self.vatRate) = (name, usesOven, station, vatRate)
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case name, station
            case usesOven = "uses_oven"
            case vatRate = "vat_rate"
        }
    }

    /// A modifier group with its modifiers.
    public struct GroupEntry: Sendable, Hashable, Codable {
        /// Its name.
        public var name: String
        /// The fewest a line takes (default 0).
        public var min: Int?
        /// The most a line takes (default 1).
        public var max: Int?
        /// `extra` (the default), `removal` or `choice`.
        public var kind: String?
        /// A choice's default: one of its modifiers' names.
        public var `default`: String?
        /// Its modifiers, in menu order.
        public var modifiers: [ModifierEntry]

        /// An entry.
        public init(
            name: String, min: Int? = nil, max: Int? = nil, kind: String? = nil, default: String? = nil,
            modifiers: [ModifierEntry]
        ) {
            (self.name, self.min, self.max, self.modifiers) = (name, min, max, modifiers)
            (self.kind, self.default) = (kind, `default`)
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case name, min, max, kind, `default`, modifiers
        }
    }

    /// A modifier.
    public struct ModifierEntry: Sendable, Hashable, Codable {
        /// Its name.
        public var name: String
        /// What it adds, as text (`"2.00"`; default `"0"`).
        public var price: String?
        /// EU allergen codes.
        public var allergens: [String]?
        /// Its price on variants of a name, where it differs: `{"Maxi": "3.00"}`.
        public var variantPrices: [String: String]?
        /// Whether it is no longer offered.
        public var archived: Bool?

        /// An entry.
        public init(
            name: String, price: String? = nil, allergens: [String]? = nil, variantPrices: [String: String]? = nil,
            archived: Bool? = nil
        ) {
            (self.name, self.price, self.allergens, self.variantPrices) = (name, price, allergens, variantPrices)
            self.archived = archived
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case name, price, allergens, archived
            case variantPrices = "variant_prices"
        }
    }

    /// An item.
    public struct ItemEntry: Sendable, Hashable, Codable {
        /// Its name (an existing item of this name, ignoring case, is updated).
        public var name: String
        /// Its category's name (default: the item's current one, or `Pizze`).
        public var category: String?
        /// EU allergen codes.
        public var allergens: [String]?
        /// Its variants; exactly one `default` (the first when none says so).
        public var variants: [VariantEntry]
        /// The names of the groups it offers.
        public var modifierGroups: [String]?

        /// An entry.
        public init(
            name: String, category: String? = nil, allergens: [String]? = nil, variants: [VariantEntry],
            modifierGroups: [String]? = nil
        ) {
            (self.name, self.category, self.allergens, self.variants) = (name, category, allergens, variants)
            self.modifierGroups = modifierGroups
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case name, category, allergens, variants
            case modifierGroups = "modifier_groups"
        }
    }

    /// A variant.
    public struct VariantEntry: Sendable, Hashable, Codable {
        /// Its name.
        public var name: String
        /// Its price as text (`"9.00"`).
        public var price: String
        /// Whether it is the item's default.
        public var isDefault: Bool?

        /// An entry.
        public init(name: String, price: String, isDefault: Bool? = nil) {
            (self.name, self.price, self.isDefault) = (name, price, isDefault)
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case name, price
            case isDefault = "default"
        }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case format, version, categories, items
        case modifierGroups = "modifier_groups"
    }

    /// An empty file.
    public init() {}

    /// Reads the format: `format` and `version` are required, each list may be left out.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(String.self, forKey: .format)
        version = try container.decode(Int.self, forKey: .version)
        categories = try container.decodeIfPresent([CategoryEntry].self, forKey: .categories) ?? []
        modifierGroups = try container.decodeIfPresent([GroupEntry].self, forKey: .modifierGroups) ?? []
        items = try container.decodeIfPresent([ItemEntry].self, forKey: .items) ?? []
    }

    /// Reads a file, refusing (``ValidationError``, naming the place: `items[3].variants[0].price`)
    /// what is not this format, over the limits, or not valid JSON.
    public static func decode(_ data: Data) throws -> MenuFile {
        guard data.count <= maximumBytes else {
            throw ValidationError([FieldError(field: "file", message: "must be at most \(maximumBytes >> 20) MiB")])
        }
        let file: MenuFile
        do {
            file = try JSONDecoder().decode(MenuFile.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw ValidationError([
                FieldError(field: place(context.codingPath + [key]), message: "is required")
            ])
        } catch let DecodingError.typeMismatch(type, context) {
            throw ValidationError([
                FieldError(field: place(context.codingPath), message: "must be \(typeName(type))")
            ])
        } catch let DecodingError.valueNotFound(type, context) {
            throw ValidationError([
                FieldError(field: place(context.codingPath), message: "must be \(typeName(type)), not null")
            ])
        } catch let DecodingError.dataCorrupted(context) {
            throw ValidationError([
                FieldError(
                    field: context.codingPath.isEmpty ? "file" : place(context.codingPath),
                    message: "is not valid JSON (\(context.debugDescription))")
            ])
        }
        try refuseUnknownKeys(in: data)
        guard file.format == "pizzeria-menu", file.version == 1 else {
            throw ValidationError([
                FieldError(field: "format", message: "must be \"pizzeria-menu\" version 1 (see docs/MENU.md)")
            ])
        }
        var problems: [FieldError] = []
        if file.items.count > maximumItems || file.categories.count > maximumItems {
            problems.append(FieldError(field: "items", message: "must be at most \(maximumItems)"))
        }
        if file.modifierGroups.count > maximumGroups {
            problems.append(FieldError(field: "modifier_groups", message: "must be at most \(maximumGroups)"))
        }
        for (index, group) in file.modifierGroups.enumerated()
        where group.modifiers.count > ModifierGroup.maximumModifiers {
            problems.append(
                FieldError(
                    field: "modifier_groups[\(index)].modifiers",
                    message:
                        "must be at most \(ModifierGroup.maximumModifiers) in one group, not \(group.modifiers.count)"))
        }
        for (index, item) in file.items.enumerated()
        where item.variants.isEmpty || item.variants.count > Variant.maximumPerItem {
            problems.append(
                FieldError(
                    field: "items[\(index)].variants", message: "must be 1 to \(Variant.maximumPerItem) variants"))
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        return file
    }

    /// The keys each kind of object in the file may have: its entries' coding keys, so a key is
    /// declared once.
    static func keys<K: CodingKey & CaseIterable>(_: K.Type) -> Set<String> { Set(K.allCases.map(\.stringValue)) }

    /// Refuses a key the format does not have (a typo such as `"allergen"` would otherwise be
    /// ignored without a word), naming its place, its line and column, and the keys there are.
    static func refuseUnknownKeys(in data: Data) throws {
        guard let top = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return }
        var problems: [FieldError] = []
        func check(_ object: Any?, _ place: String, _ known: Set<String>) {
            guard let object = object as? [String: Any] else { return }
            for key in object.keys.sorted() where !known.contains(key) {
                problems.append(
                    FieldError(
                        field: place.isEmpty ? key : "\(place).\(key)",
                        message: "is not a key of this format\(position(of: key, in: data)) (known: "
                            + known.sorted().joined(separator: ", ") + ")"))
            }
        }
        func each(_ list: Any?, _ place: String, _ body: (Any, String) -> Void) {
            for (index, element) in ((list as? [Any]) ?? []).enumerated() { body(element, "\(place)[\(index)]") }
        }
        check(top, "", keys(CodingKeys.self))
        each(top["categories"], "categories") { check($0, $1, keys(CategoryEntry.CodingKeys.self)) }
        each(top["modifier_groups"], "modifier_groups") { group, place in
            check(group, place, keys(GroupEntry.CodingKeys.self))
            each((group as? [String: Any])?["modifiers"], place + ".modifiers") {
                check($0, $1, keys(ModifierEntry.CodingKeys.self))
            }
        }
        each(top["items"], "items") { item, place in
            check(item, place, keys(ItemEntry.CodingKeys.self))
            each((item as? [String: Any])?["variants"], place + ".variants") {
                check($0, $1, keys(VariantEntry.CodingKeys.self))
            }
        }
        if !problems.isEmpty { throw ValidationError(Array(problems.prefix(20))) }
    }

    /// ` at line L, column C`: where `"key":` first appears in the text, or nothing.
    static func position(of key: String, in data: Data) -> String {
        let text = String(decoding: data, as: UTF8.self)
        guard let quoted = try? JSONSerialization.data(withJSONObject: [key], options: [.fragmentsAllowed]),
            case let inner = String(decoding: quoted, as: UTF8.self).dropFirst().dropLast(),
            let range = text.range(of: String(inner) + ":") ?? text.range(of: String(inner) + " :")
                ?? text.range(of: String(inner))
        else { return "" }
        let before = text[..<range.lowerBound]
        let line = before.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
        let column =
            before.count
            - (before.lastIndex(of: "\n").map { before.distance(from: before.startIndex, to: $0) + 1 } ?? 0) + 1
        return " (line \(line), column \(column))"
    }

    /// `items[3].variants[0].price`.
    static func place(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text.isEmpty ? "file" : text
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "text"
        case is Int.Type: "a whole number"
        case is Bool.Type: "true or false"
        case is [Any].Type: "a list"
        default: "an object"
        }
    }

    /// The file as JSON text: sorted keys, two-space indents.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

/// One difference a menu import makes (or, in a dry run, would make).
public struct MenuImportChange: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What it is about: `item Margherita`, `group Aggiunte`, `category Fritti`.
    public let subject: String
    /// What changes: `added`, `price 6.00 → 6.50`, `variant Maxi added`.
    public let change: String

    /// A change.
    public init(subject: String, change: String) { (self.subject, self.change) = (subject, change) }

    /// `item Margherita: price 6.00 → 6.50`.
    public var description: String { "\(subject): \(change)" }
}
