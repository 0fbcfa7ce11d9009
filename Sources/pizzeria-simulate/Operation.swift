import Foundation

/// One step of a simulated evening, with every choice made (items, amounts, which order): a
/// run is its list of steps, so a failing run can be replayed and shrunk without the generator.
/// Orders are named by the step that booked them (`order`), users and items by their number in
/// the simulator's own shop, so a step whose order was never booked in a shrunk list is skipped.
struct Step: Codable, Hashable, CustomStringConvertible {
    enum Kind: String, Codable {
        case clock, book, retry, move, edit, delay, advance, collect, cancel, undo, noShow, pay, refund
        case price, archive, restore, stock, modifierStock, capacity, hours, erase, notify, hand, close
        /// A station marks its part of an order done (`item`: the station's place in the list).
        case bump
        /// The fryer's capacity by time: a daily rule from 18:00 + `slot` × 30 minutes for
        /// `minutes`, `quantity` pieces per slot.
        case stationCapacity
        /// Items added at the counter (`order add`): `item` of the shop's, `quantity` of it.
        case counterAdd
        /// A manager's discount (`quantity` percent) or comp (`line`, 0-based) on an order.
        case discount
    }

    var kind: Kind
    /// The step's own number (what later steps call the order it books).
    var number: Int
    var minutes: Int?
    var user: Int?
    var order: Int?
    var day: Int?
    var slot: Int?
    var items: [Pick]?
    var key: String?
    var override: Bool?
    var party: Bool?
    var cli: Bool?
    var amount: Int?
    var method: String?
    var tendered: Int?
    var reference: String?
    var item: Int?
    var line: Int?
    var quantity: Int?
    var left: Int?
    var edit: Int?
    /// An edit's line (0-based) whose annotations change: its note set (`true`, naming the
    /// customer's token) or cleared (`false`), in `noteSet`.
    var noteLine: Int?
    var noteSet: Bool?
    /// An order handed over owing money on purpose (`--unpaid`); `method` pays it as it is handed over.
    var unpaid: Bool?

    /// An item chosen for a line: the shop's item, its variant (nil: the default), its modifiers.
    struct Pick: Codable, Hashable {
        var item: Int
        var variant: Int?
        var modifiers: [Int]
        var quantity: Int
        /// Whether the line carries a note (`ben cotta` and the customer's token).
        var note: Bool?
    }

    init(_ kind: Kind, _ number: Int) {
        self.kind = kind
        self.number = number
    }

    var description: String {
        var parts = ["#\(number) \(kind.rawValue)"]
        func add(_ name: String, _ value: Any?) { if let value { parts.append("\(name)=\(value)") } }
        add("min", minutes)
        add("user", user)
        add("order", order)
        add("day", day)
        add("slot", slot)
        if let items {
            parts.append(
                "items=["
                    + items.map {
                        "\($0.item)" + ($0.variant.map { "/\($0)" } ?? "") + $0.modifiers.map { "+\($0)" }.joined()
                            + "x\($0.quantity)" + ($0.note == true ? "#note" : "")
                    }.joined(separator: ",") + "]")
        }
        add("key", key)
        add("noteLine", noteLine)
        add("noteSet", noteSet)
        if override == true { parts.append("override") }
        if party == true { parts.append("party") }
        if cli == true { parts.append("cli") }
        add("amount", amount)
        add("method", method)
        add("tendered", tendered)
        add("ref", reference)
        add("item", item)
        add("line", line)
        add("qty", quantity)
        add("left", left)
        add("edit", edit)
        return parts.joined(separator: " ")
    }
}

/// A simulator's generator: SplitMix64, the same numbers for a seed on every machine.
struct Dice {
    private var state: UInt64

    init(seed: UInt64) { state = seed &* 0x2545_F491_4F6C_DD1D &+ 1 }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A whole number in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { Double(next() % 1_000_000) / 1_000_000 < p }

    /// One element, or nil for an empty array.
    mutating func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[int(0...items.count - 1)] }

    /// A key of `weights`, in proportion to its weight (keys in the given order).
    mutating func weighted<T>(_ weights: [(T, Int)]) -> T? {
        let total = weights.reduce(0) { $0 + max(0, $1.1) }
        guard total > 0 else { return nil }
        var roll = int(1...total)
        for (value, weight) in weights where weight > 0 {
            roll -= weight
            if roll <= 0 { return value }
        }
        return weights.last?.0
    }
}
