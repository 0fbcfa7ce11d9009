import Foundation
import PizzeriaServices

/// Chooses the next step of an evening from the model: which order, which items, how much. Only
/// the choice is random; what the step does is the shop's (``Shop/apply(_:)``).
struct Generator {
    var dice: Dice
    /// The share of steps that go through the `pizzeria` binary.
    let cliShare: Double
    var number = 0

    mutating func next(_ shop: Shop, evening: Int) -> Step {
        number += 1
        let model = shop.model
        let now = shop.clock.now
        let open = model.booked.filter { $0.status.isBooked }
        let placed = model.booked.filter { $0.status == .placed }
        let paidOrders = model.booked.filter { $0.kept > 0 }
        let recent = model.booked.filter { now.timeIntervalSince($0.statusAt) < 600 && $0.status != .placed }
        let owing = model.booked.filter { $0.balance > 0 }
        let owedRefund = model.booked.filter { $0.kept > $0.due }
        let ready = model.booked.filter { $0.status == .ready }
        let archived = model.items.indices.filter { model.items[$0].archived }
        let erased = model.customers.filter(\.erased).count
        // The first slot still ahead of the clock this evening.
        let first = (0...19).first { ((try? Shop.pickup(day: evening, slot: $0)) ?? .distantPast) >= now } ?? 19
        let kind =
            dice.weighted([
                (Step.Kind.clock, 14), (.book, 26), (.retry, model.booked.contains { $0.key != nil } ? 2 : 0),
                (.move, placed.isEmpty ? 0 : 4), (.delay, open.isEmpty ? 0 : 2), (.edit, placed.isEmpty ? 0 : 6),
                (.advance, open.isEmpty ? 0 : 10), (.collect, open.isEmpty ? 0 : 3), (.cancel, open.isEmpty ? 0 : 4),
                (.undo, recent.isEmpty ? 0 : 4), (.noShow, ready.isEmpty ? 0 : 1),
                (.pay, model.booked.isEmpty ? 0 : 12),
                (.refund, paidOrders.isEmpty ? 0 : 4), (.price, 2), (.archive, 1), (.restore, archived.isEmpty ? 0 : 1),
                (.stock, 2), (.modifierStock, 2), (.capacity, 1), (.hours, 1), (.erase, erased < 3 ? 1 : 0),
                (.notify, 3), (.hand, 6), (.bump, open.isEmpty ? 0 : 5), (.stationCapacity, 1),
                (.counterAdd, model.booked.isEmpty ? 0 : 3), (.discount, model.booked.isEmpty ? 0 : 2),
            ]) ?? .clock
        var step = Step(kind, number)
        let cli = cliShare > 0 && dice.chance(cliShare)
        switch kind {
        case .clock: step.minutes = dice.int(1...12)
        case .book:
            let live = model.customers.indices.filter { !model.customers[$0].erased }
            step.user = dice.chance(0.9) ? dice.pick(live) : dice.int(0...model.customers.count - 1)
            step.day = evening
            step.slot = dice.int(first...19)
            step.items = picks(model, count: dice.int(1...3))
            if dice.chance(0.15) { step.key = "k\(number)" }
            if dice.chance(0.1) {
                step.override = true
                // A walk-in often wants fritti: an override that a full fryer, not the oven, needs.
                let fried = model.items.indices.filter { !model.items[$0].usesOven && !model.items[$0].counter }
                if dice.chance(0.6), let item = dice.pick(fried) {
                    step.items =
                        (step.items ?? []) + [
                            Step.Pick(item: item, variant: nil, modifiers: [], quantity: dice.int(2...4))
                        ]
                }
            }
            if dice.chance(0.08) {
                step.party = true
                step.items = [Step.Pick(item: 0, variant: nil, modifiers: [], quantity: dice.int(6...14))]
                // Often with fritti, which spread over the party's slots by the fryer's room.
                let fried = model.items.indices.filter { !model.items[$0].usesOven && !model.items[$0].counter }
                if dice.chance(0.5), let item = dice.pick(fried) {
                    step.items =
                        (step.items ?? []) + [
                            Step.Pick(item: item, variant: nil, modifiers: [], quantity: dice.int(2...8))
                        ]
                }
            }
            step.cli = cli
        case .retry: step.order = dice.pick(model.booked.filter { $0.key != nil })?.label
        case .move:
            step.order = dice.pick(placed)?.label
            step.day = evening
            step.slot = dice.int(first...19)
            step.override = dice.chance(0.15)
            step.cli = cli
        case .delay:
            step.order = dice.pick(open)?.label
            step.minutes = dice.int(1...2)
        case .edit:
            step.order = dice.pick(placed)?.label
            if dice.chance(0.5) { step.items = picks(model, count: 1) }
            if dice.chance(0.6) {
                step.line = dice.int(0...2)
                if dice.chance(0.5) { step.quantity = dice.int(1...4) }
            }
            if dice.chance(0.25) {
                step.noteLine = dice.int(0...2)
                step.noteSet = dice.chance(0.7)
            }
        case .advance, .collect, .cancel:
            step.order = dice.pick(open)?.label
            step.cli = cli
            // Handed over: paid as it goes, left unpaid on purpose, or neither (refused if it owes).
            if step.kind != .cancel {
                if dice.chance(0.5) {
                    step.method = dice.pick(["cash", "card"])
                } else if dice.chance(0.5) {
                    step.unpaid = true
                }
            }
        case .noShow:
            step.order = dice.pick(ready)?.label
            step.cli = cli
        case .bump:
            step.order = dice.pick(open)?.label
            step.item = dice.int(0...1)
            step.cli = cli
        case .undo:
            step.order = dice.pick(recent)?.label
            step.cli = cli
        case .pay:
            let order = dice.pick(!owing.isEmpty && dice.chance(0.8) ? owing : model.booked)
            step.order = order?.label
            step.method = dice.pick(["cash", "card", "online", "voucher"])
            if dice.chance(0.35), let order { step.amount = dice.int(1...max(1, Int(order.total))) }
            if step.method == "cash", dice.chance(0.4) {
                step.tendered = (step.amount ?? Int(order?.balance ?? 0)) + 500
            }
            if step.method == "card" || step.method == "online" { step.reference = "REF\(number)" }
            // A party's order: a third of the time its whole party pays as one bill.
            if order?.party != nil, dice.chance(0.35) { step.party = true }
            step.cli = cli
        case .refund:
            let order = dice.pick(!owedRefund.isEmpty && dice.chance(0.6) ? owedRefund : paidOrders)
            step.order = order?.label
            if dice.chance(0.5), let order { step.amount = dice.int(1...max(1, Int(order.kept))) }
            step.cli = cli
        case .price:
            step.item = dice.int(0...model.items.count - 1)
            step.amount = [105, 450, 600, 750, 999, 1050][dice.int(0...5)]
        case .archive: step.item = dice.int(0...model.items.count - 1)
        case .restore: step.item = dice.pick(archived)
        case .stock:
            step.item = dice.int(0...model.items.count - 1)
            step.left = dice.chance(0.3) ? nil : dice.int(0...6)
        case .modifierStock:
            step.item = dice.int(0...model.modifiers.count - 1)
            step.left = dice.chance(0.3) ? nil : dice.int(0...4)
        case .capacity: step.quantity = dice.int(3...9)
        case .discount:
            step.order = dice.pick(model.booked)?.label
            if dice.chance(0.4) {
                step.line = dice.int(0...2)
            } else {
                step.quantity = [5, 10, 20, 50][dice.int(0...3)]
            }
            step.cli = cli
        case .counterAdd:
            step.order = dice.pick(dice.chance(0.8) && !open.isEmpty ? open : model.booked)?.label
            step.item = dice.int(0...model.items.count - 1)
            step.quantity = dice.int(1...3)
            step.cli = cli
        case .stationCapacity:
            step.slot = dice.int(0...6)
            step.minutes = [60, 90, 120][dice.int(0...2)]
            step.quantity = dice.int(1...6)
        case .hours:
            step.quantity = dice.int(0...1)
            step.override = dice.chance(0.5)
        case .erase: step.user = dice.int(0...model.customers.count - 1)
        case .notify: step.left = dice.chance(0.2) ? 1 : 0
        case .hand:
            step.edit = dice.int(0...HandEdits.catalogue.count - 1)
            step.order = dice.pick(model.booked)?.label
        case .close: break
        }
        return step
    }

    /// `count` items: pizzas mostly, with a variant or modifiers now and then, drinks and desserts.
    mutating func picks(_ model: Model, count: Int) -> [Step.Pick] {
        (0..<count).map { _ in
            let item = dice.int(0...model.items.count - 1)
            var pick = Step.Pick(item: item, variant: nil, modifiers: [], quantity: dice.int(1...3))
            if dice.chance(0.1) { pick.note = true }
            if model.items[item].variants.count > 1, dice.chance(0.3) { pick.variant = 1 }
            if model.items[item].modifiers, dice.chance(0.35) {
                pick.modifiers = [dice.int(0...model.modifiers.count - 1)]
                if dice.chance(0.2) { pick.modifiers.append(dice.int(0...model.modifiers.count - 1)) }
            }
            return pick
        }
    }
}
