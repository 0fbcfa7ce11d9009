import Foundation
import Synchronization

/// The 14 allergens of Regulation (EU) No 1169/2011, Annex II, which must be declared for every
/// food sold. Stored as bits (table `allergens`); JSON and the CLI spell them by `rawValue`.
public enum Allergen: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Cereals containing gluten.
    case gluten
    /// Crustaceans.
    case crustaceans
    /// Eggs.
    case eggs
    /// Fish.
    case fish
    /// Peanuts.
    case peanuts
    /// Soybeans.
    case soybeans
    /// Milk (lactose included).
    case milk
    /// Nuts (almonds, hazelnuts, walnuts, …).
    case nuts
    /// Celery.
    case celery
    /// Mustard.
    case mustard
    /// Sesame seeds.
    case sesame
    /// Sulphur dioxide and sulphites over 10 mg/kg.
    case sulphites
    /// Lupin.
    case lupin
    /// Molluscs.
    case molluscs

    /// Its bit in a stored set (the order of Annex II).
    public var bit: Int64 {
        switch self {
        case .gluten: 1
        case .crustaceans: 2
        case .eggs: 4
        case .fish: 8
        case .peanuts: 16
        case .soybeans: 32
        case .milk: 64
        case .nuts: 128
        case .celery: 256
        case .mustard: 512
        case .sesame: 1024
        case .sulphites: 2048
        case .lupin: 4096
        case .molluscs: 8192
        }
    }

    /// Annex II order.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.bit < rhs.bit }

    /// Equal when the same allergen (by its bit, not its code's text).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.bit == rhs.bit }

    /// Hashes its bit: a `String` raw value would otherwise be hashed as text, and every item
    /// read from the menu builds a set of these.
    public func hash(into hasher: inout Hasher) { hasher.combine(bit) }

    /// The set a stored sum of bits names; bits outside the 14 are ignored (the schema refuses them).
    public static func set(bits: Int64) -> Set<Allergen> {
        guard bits != 0 else { return [] }  // most items and lines: no allocation
        // A menu has a few dozen combinations and a whole-menu read decodes one per item: the
        // sets built last are kept in 64 slots (by a hash of their bits) and shared — sets are
        // values. Slots, not a dictionary: a command that reads one item would pay more for the
        // dictionary's first use (the runtime's conformance lookup) than for the set.
        let key = bits & allBits
        let slot = Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> 58)
        if let set = built.withLock({ $0.isEmpty || $0[slot].bits != key ? nil : $0[slot].set }) { return set }
        var set = Set<Allergen>(minimumCapacity: key.nonzeroBitCount)
        for allergen in allCases where key & allergen.bit != 0 { set.insert(allergen) }
        built.withLock { slots in
            if slots.isEmpty { slots = Array(repeating: (0, []), count: 64) }
            slots[slot] = (key, set)
        }
        return set
    }

    /// The 14 bits together.
    private static let allBits: Int64 = (1 << 14) - 1

    /// The sets ``set(bits:)`` built last, each in the slot of its bits (none: bits 0).
    private static let built = Mutex<[(bits: Int64, set: Set<Allergen>)]>([])

    /// The stored sum of bits of a set.
    public static func bits(_ set: Set<Allergen>) -> Int64 { set.reduce(0) { $0 | $1.bit } }

    /// A set parsed from codes separated by commas or spaces (`gluten,milk`; `none` or empty for
    /// none), or the refusal naming `field` and the codes it knows.
    public static func parse(_ text: String, field: String = "allergens") throws -> Set<Allergen> {
        let codes = text.lowercased().split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        if codes == ["none"] || codes.isEmpty { return [] }
        var set: Set<Allergen> = []
        for code in codes {
            guard let allergen = Allergen(rawValue: code) else {
                throw ValidationError([
                    FieldError(
                        field: field,
                        message: "'\(code.prefix(40))' is not one of the EU's 14 allergens: "
                            + allCases.map(\.rawValue).joined(separator: ", "))
                ])
            }
            set.insert(allergen)
        }
        return set
    }

    /// The codes in Annex II order, for JSON and text.
    public static func codes(_ set: Set<Allergen>) -> [String] { set.sorted().map(\.rawValue) }
}
