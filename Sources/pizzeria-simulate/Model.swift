import Foundation
import PizzeriaServices

/// What the simulator knows of the shop from what it did: every order it booked with the lines,
/// status and money the steps gave it, the stock it set, the events each order must have in its
/// history, and what each customer told the shop (to look for after an erasure). The invariants
/// compare the file with this, and the file's figures with each other.
struct Model {
    /// An item of the simulator's menu.
    struct Item {
        let name: String
        let id: Pizza.ID
        let usesOven: Bool
        /// Its variants: the default first.
        var variants: [Variant.ID]
        /// Whether the item takes the modifier groups.
        let modifiers: Bool
        /// Whether no station prepares it (a drink): the counter adds it until collected.
        var counter = false
        var archived = false
        /// The stock the simulator set (until made available) and the item's live units then.
        var stock: (left: Int, liveAtSet: Int)?
    }

    /// A modifier of the simulator's menu.
    struct ModifierInfo {
        let group: String
        let name: String
        let id: Modifier.ID
        var stock: (left: Int, liveAtSet: Int)?
    }

    /// A customer, and what of them must be gone once erased.
    struct Customer {
        let handle: String
        let id: User.ID
        /// Appears in their name, notes, references and reasons: never after an erasure.
        let token: String
        let phoneDigits: String
        var erased = false
        var erasedAtStep: Int?
    }

    /// A booked order as the steps left it.
    struct Booked {
        let label: Int
        let id: Order.ID
        let user: Int
        var pickup: Date
        var serviceDay: LocalDate
        var status: OrderStatus
        var lines: [OrderLine]
        var party: Order.ID?
        var key: String?
        var heldOverride: Bool
        /// What was asked for (a retry sends it again, as an app would).
        var request: [OrderRequest.Item] = []
        /// Money the steps recorded.
        var paid: [Int64] = []
        var refunded: [Int64] = []
        /// History entries the steps must have left, by kind (`placed`, `status`, `paid`, …).
        var events: [String: Int] = ["placed": 1]
        /// When its status last changed (an undo is possible for 10 minutes).
        var statusAt: Date

        /// What discounts and comps took off, by VAT rate (basis points).
        var discounts: [Int: Int64] = [:]
        var total: Int64 { lines.reduce(0) { $0 + $1.total.cents } - discounts.values.reduce(0, +) }
        var due: Int64 { status == .cancelled ? 0 : total }
        var kept: Int64 { paid.reduce(0, +) - refunded.reduce(0, +) }
        var balance: Int64 { max(due - kept, 0) }
        var ovenUnits: Int { status == .cancelled ? 0 : lines.reduce(0) { $0 + $1.slotUnits } }
    }

    var items: [Item] = []
    var modifiers: [ModifierInfo] = []
    var customers: [Customer] = []
    var orders: [Int: Booked] = [:]
    /// Slot capacity (no rules).
    var capacity = 6
    /// JSON of every notifier delivery made, with the step it was made at.
    var deliveries: [(step: Int, json: String)] = []

    /// Orders in label order.
    var booked: [Booked] { orders.keys.sorted().compactMap { orders[$0] } }

    /// The live units (not cancelled) of an item across every order.
    func liveUnits(ofItem id: Pizza.ID) -> Int {
        orders.values.filter { $0.status != .cancelled }.flatMap(\.lines).filter { $0.pizzaID == id }
            .reduce(0) { $0 + $1.quantity }
    }

    /// The live units carrying a modifier.
    func liveUnits(ofModifier id: Modifier.ID) -> Int {
        orders.values.filter { $0.status != .cancelled }.flatMap(\.lines)
            .filter { $0.modifiers.contains { $0.id == id } }.reduce(0) { $0 + $1.quantity }
    }

    /// The oven units the model has at a pickup.
    func load(at pickup: Date) -> Int {
        orders.values.filter { $0.pickup == pickup }.reduce(0) { $0 + $1.ovenUnits }
    }
}
