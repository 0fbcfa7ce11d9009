import Foundation
import PizzeriaServices
import PizzeriaStorage
import Synchronization

/// The clock every rule of the simulated shop reads: moved only by the simulator's steps.
final class SimulatedClock: Sendable {
    private let time: Mutex<Date>
    init(_ start: Date) { time = Mutex(start) }
    var now: Date { time.withLock { $0 } }
    func set(_ date: Date) { time.withLock { $0 = date } }
}

/// Something the simulator found: a rule that does not hold, or a refusal that is not a rule's.
struct Finding: Error, CustomStringConvertible {
    /// Which invariant (the shrinker keeps a failure of the same invariant).
    let invariant: String
    let detail: String
    var description: String { "\(invariant): \(detail)" }
}

/// How a step ended.
enum Outcome: Equatable {
    case done
    case refused(String)
    case skipped
}

/// The shop the simulator drives: a real Pizzeria file, its services through the library, and
/// (for a share of the steps) the real `pizzeria` binary on the same file.
final class Shop {
    static let zone = TimeZone(identifier: "Europe/Rome") ?? .current
    /// The first evening: Friday 2026-12-04.
    static let firstDay: LocalDate = {
        guard let day = LocalDate(year: 2026, month: 12, day: 4) else { preconditionFailure("a real date") }
        return day
    }()
    static let staff = ["giulia", "marco"]

    let path: String
    let clock: SimulatedClock
    let pizzeria: Pizzeria
    var model = Model()
    /// The `pizzeria` binary beside this one, for the steps run through the CLI.
    let binary: String?
    /// The step being applied (for deliveries and erasures).
    var currentStep = 0

    init(path: String, binary: String?) throws {
        self.path = path
        self.binary = binary
        let start = try Self.instant(day: 0, minute: 16 * 60)
        let clock = SimulatedClock(start)
        self.clock = clock
        pizzeria = try Pizzeria.open(
            path: path, now: { clock.now }, acting: Acting(name: "simulator", source: "pizzeria-simulate"))
        try setUp()
    }

    /// An instant: `minute` minutes after midnight of evening `day`, in Rome (past 1440: the next morning).
    static func instant(day: Int, minute: Int) throws -> Date {
        let date = firstDay.adding(days: day + minute / 1440)
        let stamp = "\(date)T" + String(format: "%02d:%02d", minute % 1440 / 60, minute % 60)
        return try PickupTime.parse(stamp, timeZone: zone, now: Date(timeIntervalSince1970: 0)).get()
    }

    /// The pickup of slot `slot` (0…19: 18:00 to 22:45) of evening `day`.
    static func pickup(day: Int, slot: Int) throws -> Date { try instant(day: day, minute: 18 * 60 + 15 * slot) }

    // MARK: - The shop

    private func setUp() throws {
        try pizzeria.settings.update(.timeZone(Self.zone))
        try pizzeria.settings.update(.slotCapacity(model.capacity))
        try pizzeria.settings.update(.leadMinutes(0))
        try pizzeria.settings.update(.openingHours([try HoursSyntax.parseInterval("18:00-23:00")]))
        let menu = pizzeria.menu
        let pizze = try menu.category(named: "Pizze")
        // The fryer: a station of its own, four pieces a slot.
        let friggitrice = try menu.addStation(name: "Friggitrice", capacity: 4)
        let fritti = try menu.addCategory(name: "Fritti", station: friggitrice.id)
        // The bar: a station with no limit, so its items go to the kitchen board and to bump but
        // never fill a slot (a party's spreading once overflowed summing its room).
        let bar = try menu.addStation(name: "Bar")
        let cocktail = try menu.addCategory(name: "Cocktail", station: bar.id)
        let bevande = try menu.addCategory(name: "Bevande", usesOven: false)
        let dolci = try menu.addCategory(name: "Dolci", usesOven: false)
        _ = try pizzeria.payments.setVATRate(VATRate(basisPoints: 2200), of: bevande.id)
        _ = try pizzeria.payments.setVATRate(VATRate(basisPoints: 2200), of: cocktail.id)
        let aggiunte = try menu.addModifierGroup(name: "Aggiunte", min: 0, max: 3)
        let senza = try menu.addModifierGroup(name: "Senza", min: 0, max: 3, kind: .removal)
        // A choice: a line that names no dough takes the default, classico.
        let impasto = try menu.addModifierGroup(name: "Impasto", kind: .choice)
        for (group, name, cents) in [
            (aggiunte, "bufala", 200), (aggiunte, "'nduja", 150), (senza, "bufala", 0), (senza, "basilico", 0),
            (impasto, "classico", 0), (impasto, "integrale", 100),
        ] {
            let modifier = try menu.addModifier(to: group.id, name: name, price: Money(cents: Int64(cents)))
            model.modifiers.append(.init(group: group.name, name: name, id: modifier.id))
            if name == "classico" { _ = try menu.editModifierGroup(impasto.id, defaultModifier: modifier.id) }
        }
        // Prices with awkward VAT (1.05 at 10 % rounds up alone, down in pairs).
        let items: [(String, Int64, Category, Bool)] = [
            ("Margherita", 600, pizze, true), ("Marinara", 450, pizze, true), ("Diavola", 750, pizze, true),
            ("Bufalina", 850, pizze, true), ("Frittatina", 350, fritti, false), ("Pane", 105, fritti, false),
            ("Coca-Cola", 300, bevande, false), ("Acqua", 150, bevande, false), ("Tiramisù", 450, dolci, false),
            ("Spritz", 550, cocktail, false),
        ]
        for (name, cents, category, takesModifiers) in items {
            var draft = PizzaDraft.blank
            draft.name = name
            draft.price = Money(cents: cents)
            draft.categoryID = category.id
            let pizza = try menu.save(draft)
            var variants = [try menu.variant(named: Variant.defaultName, of: pizza.id).id]
            if name == "Margherita" || name == "Diavola" {
                variants.append(try menu.addVariant(to: pizza.id, name: "Maxi", price: Money(cents: cents + 300)).id)
            }
            if takesModifiers {
                _ = try menu.attach(aggiunte.id, to: pizza.id)
                _ = try menu.attach(senza.id, to: pizza.id)
                _ = try menu.attach(impasto.id, to: pizza.id)
            }
            model.items.append(
                .init(
                    name: name, id: pizza.id, usesOven: category.usesOven, variants: variants,
                    modifiers: takesModifiers, counter: category.stationID == nil && !category.usesOven))
        }
        for number in 1...10 {
            let token = "tok\(number)q"
            let digits = "3330000\(100 + number)"
            let user = try pizzeria.users.add(
                handle: "cliente\(number)", displayName: "Cliente \(token)", phone: "+39 \(digits)")
            model.customers.append(.init(handle: user.handle, id: user.id, token: token, phoneDigits: digits))
        }
    }

    // MARK: - Steps

    /// Applies `step`, updating the model with what happened.
    /// - Throws: a ``Finding`` when the shop refused with something that is not a rule's refusal.
    func apply(_ step: Step) throws -> Outcome {
        currentStep = step.number
        let actor = Self.staff[step.number % Self.staff.count]
        switch step.kind {
        case .clock:
            if let day = step.day {
                // An evening opens: the clock to that day's hour (never back).
                clock.set(max(clock.now, try Self.instant(day: day, minute: step.minutes ?? 0)))
            } else {
                clock.set(clock.now.addingTimeInterval(Double((step.minutes ?? 1) * 60)))
            }
            return .done
        case .book: return try book(step, actor: actor)
        case .retry: return try retry(step, actor: actor)
        case .move, .delay: return try move(step, actor: actor)
        case .edit: return try edit(step, actor: actor)
        case .advance, .collect, .cancel, .undo, .noShow: return try lifecycle(step, actor: actor)
        case .bump: return try bump(step, actor: actor)
        case .stationCapacity: return try stationCapacity(step, actor: actor)
        case .counterAdd: return try counterAdd(step, actor: actor)
        case .discount: return try discount(step, actor: actor)
        case .pay, .refund: return try money(step, actor: actor)
        case .price, .archive, .restore, .stock, .modifierStock, .capacity: return try menu(step)
        case .hours:
            // The week changes: every day closes at 22:30 or 23:00; orders it leaves outside the
            // hours are refused by name, or kept when the step says so.
            let hours = try HoursSyntax.parseInterval(step.quantity == 1 ? "18:00-22:30" : "18:00-23:00")
            return try attempt("hours") {
                _ = try pizzeria.schedule.setHours(Set(Weekday.allCases), [hours], keepOrders: step.override == true)
            }
        case .erase: return try erase(step, actor: actor)
        case .notify: return try notify(step)
        case .hand: return try HandEdits.apply(step, shop: self)
        case .close: return try closeEvening(step, actor: actor)
        }
    }

    /// Runs `body`; a refusal a person can act on is `.refused`, anything else a ``Finding``.
    func attempt(_ what: String, _ body: () throws -> Void) throws -> Outcome {
        do {
            try body()
            return .done
        } catch let error as Finding {
            throw error
        } catch let error as DatabaseError {
            throw Finding(
                invariant: "refusals-are-rules",
                detail: "\(what) was refused by the schema's own text, not by a rule: \(error)")
        } catch let error as PizzeriaFailure {
            guard error.category == .refused || error.category == .invalidInput || error.category == .notFound
            else { throw Finding(invariant: "refusals-are-rules", detail: "\(what): \(error.category) \(error)") }
            return .refused(error.description)
        } catch {
            throw Finding(invariant: "refusals-are-rules", detail: "\(what): \(error)")
        }
    }

    /// The line items of a step's picks (a note names the customer `user`, as staff might).
    func requestItems(_ picks: [Step.Pick], user: Int? = nil) -> [OrderRequest.Item] {
        let token = user.flatMap { model.customers[safe: $0]?.token } ?? "x"
        return picks.compactMap { pick in
            guard model.items.indices.contains(pick.item) else { return nil }
            let item = model.items[pick.item]
            let variant = pick.variant.flatMap { item.variants.indices.contains($0) ? item.variants[$0] : nil }
            let modifiers = item.modifiers ? pick.modifiers.compactMap { model.modifiers[safe: $0]?.id } : []
            return OrderRequest.Item(
                pizza: item.id, quantity: pick.quantity, variant: variant, modifiers: modifiers,
                note: pick.note == true ? "ben cotta per \(token)" : nil)
        }
    }

    /// The model's order booked by step `label` with its id read again from the file.
    func refresh(_ label: Int) throws {
        guard var booked = model.orders[label], let order = try pizzeria.orders.order(id: booked.id) else { return }
        booked.status = order.status
        booked.lines = order.lines
        booked.pickup = order.pickupAt
        booked.serviceDay = order.serviceDay
        booked.party = order.partyID
        model.orders[label] = booked
    }

    /// Records an order the file has as booked by step `label`, from `request`.
    func record(
        _ order: Order, label: Int, user: Int, key: String?, override: Bool, request: [OrderRequest.Item] = []
    ) {
        model.orders[label] = Model.Booked(
            label: label, id: order.id, user: user, pickup: order.pickupAt, serviceDay: order.serviceDay,
            status: order.status, lines: order.lines, party: order.partyID, key: key,
            heldOverride: override, request: request, statusAt: clock.now)
    }

    private func book(_ step: Step, actor: String) throws -> Outcome {
        guard let user = step.user, let customer = model.customers[safe: user], let day = step.day, let slot = step.slot
        else { return .skipped }
        let pickup = try Self.pickup(day: day, slot: slot)
        let items = requestItems(step.items ?? [], user: user)
        guard !items.isEmpty else { return .skipped }
        let override = step.override == true ? StaffOverride(reason: "walk-in \(customer.token)") : nil
        if step.cli == true, step.party != true, let text = cliItems(step.items ?? []) {
            var arguments = ["order", "place", customer.handle, "--pickup", PickupTime.utc(pickup)] + text
            for (index, pick) in (step.items ?? []).enumerated() where pick.note == true {
                arguments += ["--line-note", "\(index + 1)=ben cotta per \(customer.token)"]
            }
            if let key = step.key { arguments += ["--key", key] }
            if let override { arguments += ["--override", override.reason] }
            let result = try cli(arguments + ["--by", actor])
            guard case .done = result.outcome, let id = result.json?["id"] as? String,
                let orderID = Order.ID(id), let order = try pizzeria.orders.order(id: orderID)
            else { return result.outcome }
            record(order, label: step.number, user: user, key: step.key, override: override != nil, request: items)
            return .done
        }
        let request = OrderRequest(user: customer.id, items: items, pickup: pickup, idempotencyKey: step.key)
        var booked: [Order] = []
        let outcome = try attempt("booking") {
            if step.party == true {
                booked = try pizzeria.orders.placeParty(request, by: actor, override: override).party.orders
            } else {
                booked = [try pizzeria.orders.place(request, by: actor, override: override).order]
            }
        }
        guard outcome == .done else { return outcome }
        // A party's later orders are the model's under the step's number and the next ones (×1000).
        for (index, order) in booked.enumerated() {
            record(
                order, label: index == 0 ? step.number : step.number * 1_000 + index, user: user,
                key: index == 0 ? step.key : nil, override: override != nil, request: items)
        }
        return .done
    }

    /// A booking sent again under its key: the same order(s) answer, nothing new is booked.
    private func retry(_ step: Step, actor: String) throws -> Outcome {
        guard let label = step.order, let booked = model.orders[label], let key = booked.key,
            let customer = model.customers[safe: booked.user], let order = try pizzeria.orders.order(id: booked.id)
        else { return .skipped }
        let items = booked.request
        let before = try count("SELECT count(*) AS n FROM orders")
        var answer: Order?
        let outcome = try attempt("retry") {
            answer = try pizzeria.orders.place(
                OrderRequest(user: customer.id, items: items, pickup: order.pickupAt, idempotencyKey: key), by: actor
            ).order
        }
        let after = try count("SELECT count(*) AS n FROM orders")
        if before != after { throw Finding(invariant: "idempotency", detail: "a retry of key \(key) booked again") }
        if outcome == .done, answer?.id != booked.id {
            throw Finding(invariant: "idempotency", detail: "a retry of key \(key) answered another order")
        }
        return outcome
    }

    private func move(_ step: Step, actor: String) throws -> Outcome {
        guard let label = step.order, let booked = model.orders[label] else { return .skipped }
        let override = step.override == true ? StaffOverride(reason: "squeeze in") : nil
        let outcome: Outcome
        if step.kind == .delay {
            let minutes = (step.minutes ?? 1) * 15
            outcome = try attempt("delay") {
                _ = try pizzeria.orders.delay(.orders([booked.id]), byMinutes: minutes, by: actor, override: override)
            }
        } else {
            guard let day = step.day, let slot = step.slot else { return .skipped }
            let pickup = try Self.pickup(day: day, slot: slot)
            if step.cli == true {
                outcome = try cli([
                    "order", "move", booked.id.description, "--pickup", PickupTime.utc(pickup), "--by", actor,
                ])
                .outcome
            } else {
                outcome = try attempt("move") {
                    _ = try pizzeria.orders.move(id: booked.id, to: pickup, by: actor, override: override)
                }
            }
        }
        if outcome == .done {
            model.orders[label]?.events["moved", default: 0] += 1
            try refresh(label)
        }
        return outcome
    }

    private func edit(_ step: Step, actor: String) throws -> Outcome {
        guard let label = step.order, let booked = model.orders[label] else { return .skipped }
        var change = OrderEdit()
        change.add = requestItems(step.items ?? [], user: booked.user)
        if let line = step.line, let chosen = booked.lines[safe: line] {
            // The line's choice is its item, variant, modifiers and annotations (a noted line too).
            let item = OrderRequest.Item(
                pizza: chosen.pizzaID, quantity: step.quantity ?? 1, variant: chosen.variantID,
                modifiers: chosen.modifiers.map(\.id), annotations: chosen.annotations)
            if step.quantity == nil { change.removeChoices = [item] } else { change.setQuantity = [item] }
        }
        if let line = step.noteLine, booked.lines.indices.contains(line) {
            // A note the counter sets names the customer, as the booked ones do: erased with them.
            let token = model.customers[safe: booked.user]?.token ?? "x"
            change.lineAnnotations[line + 1] = LineAnnotations.Change(
                note: step.noteSet == true ? .set("tagliata per \(token)") : .clear)
        }
        guard !change.isEmpty else { return .skipped }
        let outcome = try attempt("edit") { _ = try pizzeria.orders.edit(id: booked.id, change, by: actor) }
        if outcome == .done {
            model.orders[label]?.events["edited", default: 0] += 1
            try refresh(label)
        }
        return outcome
    }

    private func lifecycle(_ step: Step, actor: String) throws -> Outcome {
        guard let label = step.order, let booked = model.orders[label] else { return .skipped }
        let id = booked.id
        let before = booked.status
        let paidBefore = try pizzeria.payments.payments(of: id)
        // Handing over settles the balance: paid as it goes, or left unpaid with a reason.
        let handsOver = step.kind == .collect || step.kind == .advance
        let method = step.method.flatMap(PaymentMethod.init(rawValue:))
        let settling: OrderService.Settlement? =
            !handsOver
            ? nil
            : method.map { .pay(PaymentRequest(order: id, method: $0)) }
                ?? (step.unpaid == true ? .unpaid(reason: "paga domani \(tokenOf(booked))") : nil)
        var outcome: Outcome
        if step.cli == true, step.kind != .noShow {
            let verb: String =
                [.advance: "advance", .collect: "collect", .cancel: "cancel", .undo: "undo"][step.kind]
                ?? "advance"
            var arguments = ["order", verb, id.description, "--by", actor]
            if step.kind == .cancel, booked.kept > 0 { arguments += ["--reason", "ci ripensa \(tokenOf(booked))"] }
            switch settling {
            case .pay(let request): arguments += ["--pay", request.method.rawValue]
            case .unpaid(let reason): arguments += ["--unpaid", reason]
            case nil: break
            }
            outcome = try cli(arguments).outcome
        } else {
            outcome = try attempt(step.kind.rawValue) {
                switch step.kind {
                case .advance: _ = try pizzeria.orders.advance(id: id, by: actor, settling: settling)
                case .collect: _ = try pizzeria.orders.collect(id: id, by: actor, settling: settling)
                case .cancel:
                    _ = try pizzeria.orders.cancel(
                        id: id, by: actor, reason: booked.kept > 0 ? "ci ripensa \(tokenOf(booked))" : nil)
                case .undo: _ = try pizzeria.orders.undo(id: id, by: actor)
                default: _ = try pizzeria.orders.markNoShow(id: id, by: actor)
                }
            }
        }
        guard outcome == .done else { return outcome }
        try refresh(label)
        let after = model.orders[label]?.status ?? before
        let paidAfter = try pizzeria.payments.payments(of: id)
        if paidAfter.paid.cents > paidBefore.paid.cents {
            model.orders[label]?.paid.append(paidAfter.paid.cents - paidBefore.paid.cents)
            model.orders[label]?.events["paid", default: 0] += 1
        }
        // No silent unpaid: an order handed over owing money was left unpaid on purpose.
        if after == .collected, before != .collected, paidAfter.balance.cents > 0, step.unpaid != true {
            throw Finding(
                invariant: "money-collected-unpaid",
                detail: "order \(id.short) was handed over owing \(paidAfter.balance.cents) without --unpaid")
        }
        if step.kind == .undo {
            model.orders[label]?.events["undo", default: 0] += 1
        } else {
            var steps = 1
            if step.kind == .collect {
                let order: [OrderStatus] = [.placed, .preparing, .ready, .collected]
                steps = (order.firstIndex(of: after) ?? 0) - (order.firstIndex(of: before) ?? 0)
            }
            model.orders[label]?.events["status", default: 0] += steps
        }
        model.orders[label]?.statusAt = clock.now
        return .done
    }

    /// A station's part of an order done: the last one makes it ready, each step in its history.
    private func bump(_ step: Step, actor: String) throws -> Outcome {
        guard let label = step.order, let booked = model.orders[label],
            let station = try pizzeria.menu.stations()[safe: step.item ?? 0]
        else { return .skipped }
        let before = booked.status
        let outcome =
            step.cli == true
            ? try cli(["order", "bump", booked.id.description, "--station", station.name, "--by", actor]).outcome
            : try attempt("bump") { _ = try pizzeria.orders.bump(id: booked.id, station: station.id, by: actor) }
        guard outcome == .done else { return outcome }
        try refresh(label)
        let after = model.orders[label]?.status ?? before
        let order: [OrderStatus] = [.placed, .preparing, .ready]
        let steps = (order.firstIndex(of: after) ?? 0) - (order.firstIndex(of: before) ?? 0)
        if steps > 0 {
            model.orders[label]?.events["status", default: 0] += steps
            model.orders[label]?.statusAt = clock.now
        }
        return .done
    }

    /// The customer's token, for free text that must go with an erasure.
    func tokenOf(_ booked: Model.Booked) -> String { model.customers[safe: booked.user]?.token ?? "?" }

    private func money(_ step: Step, actor: String) throws -> Outcome {
        guard let label = step.order, let booked = model.orders[label] else { return .skipped }
        let before = try pizzeria.payments.payments(of: booked.id)
        if step.kind == .pay, step.party == true, booked.party != nil { return try payParty(step, actor: actor) }
        if step.kind == .pay {
            let method = PaymentMethod(rawValue: step.method ?? "cash") ?? .cash
            let amount = step.amount.map { Money(cents: Int64($0)) }
            let reference = step.reference.map { "\($0)-\(tokenOf(booked))" }
            let tendered = step.tendered.map { Money(cents: Int64($0)) }
            // The model's own rule: what is owed is due − kept; a payment above it is refused.
            let owed = booked.balance
            var outcome: Outcome
            if step.cli == true {
                var arguments = ["order", "pay", booked.id.description, "--method", method.rawValue, "--by", actor]
                if let amount { arguments += ["--amount", amount.plain] }
                if let reference { arguments += ["--reference", reference] }
                if let tendered { arguments += ["--tendered", tendered.plain] }
                outcome = try cli(arguments).outcome
            } else {
                outcome = try attempt("payment") {
                    _ = try pizzeria.payments.pay(
                        PaymentRequest(
                            order: booked.id, amount: amount, method: method, reference: reference, tendered: tendered),
                        by: actor)
                }
            }
            let after = try pizzeria.payments.payments(of: booked.id)
            let taken = after.paid.cents - before.paid.cents
            if outcome == .done, taken > 0 {
                model.orders[label]?.paid.append(taken)
                model.orders[label]?.events["paid", default: 0] += 1
            }
            let asked = Int64(step.amount ?? Int(owed))
            if booked.status != .cancelled, owed > 0, asked <= owed, asked > 0, (tendered?.cents ?? asked) >= asked,
                outcome != .done, !(outcome.refusal?.contains("reference") ?? false)
            {
                throw Finding(
                    invariant: "money-balance",
                    detail: "a payment of \(asked) on an order owing \(owed) (due − kept) was refused: \(outcome)")
            }
            if outcome == .done, asked > owed {
                throw Finding(invariant: "money-balance", detail: "a payment of \(asked) was taken on \(owed) owed")
            }
            return outcome
        }
        let amount = step.amount.map { Money(cents: Int64($0)) }
        let reason = "motivo \(tokenOf(booked))"
        var outcome: Outcome
        if step.cli == true {
            var arguments = ["order", "refund", booked.id.description, "--reason", reason, "--by", actor]
            if let amount { arguments += ["--amount", amount.plain] }
            outcome = try cli(arguments).outcome
        } else {
            outcome = try attempt("refund") {
                _ = try pizzeria.payments.refund(order: booked.id, amount: amount, reason: reason, by: actor)
            }
        }
        let after = try pizzeria.payments.payments(of: booked.id)
        if outcome == .done {
            // A refund spread over several payments is one record each.
            let records = after.refunds.count - before.refunds.count
            model.orders[label]?.refunded.append(after.refunded.cents - before.refunded.cents)
            model.orders[label]?.events["refunded", default: 0] += records
            if after.refunded.cents - before.refunded.cents > booked.kept {
                throw Finding(invariant: "money-refund", detail: "refunded more than the order kept")
            }
        }
        return outcome
    }

    private func menu(_ step: Step) throws -> Outcome {
        let menu = pizzeria.menu
        switch step.kind {
        case .capacity:
            let capacity = step.quantity ?? model.capacity
            let outcome = try attempt("slot capacity") { _ = try pizzeria.settings.update(.slotCapacity(capacity)) }
            if outcome == .done { model.capacity = capacity }
            return outcome
        case .modifierStock:
            guard let index = step.item, let modifier = model.modifiers[safe: index] else { return .skipped }
            let outcome = try attempt("modifier stock") {
                if let left = step.left {
                    _ = try menu.setStock(ofModifier: modifier.id, left: left, until: .untilAvailable)
                } else {
                    _ = try menu.makeAvailable(modifier: modifier.id)
                }
            }
            if outcome == .done {
                model.modifiers[index].stock = step.left.map { ($0, model.liveUnits(ofModifier: modifier.id)) }
            }
            return outcome
        default: break
        }
        guard let index = step.item, let item = model.items[safe: index] else { return .skipped }
        let outcome = try attempt(step.kind.rawValue) {
            switch step.kind {
            case .price:
                var draft = try menu.editDraft(for: item.id)
                draft.price = Money(cents: Int64(step.amount ?? 500))
                _ = try menu.save(draft)
            case .archive: _ = try menu.archive(id: item.id)
            case .restore: _ = try menu.restore(id: item.id)
            default:
                if let left = step.left {
                    _ = try menu.setStock(of: item.id, left: left, until: .untilAvailable)
                } else {
                    _ = try menu.makeAvailable(item.id)
                }
            }
        }
        if outcome == .done {
            switch step.kind {
            case .archive: model.items[index].archived = true
            case .restore: model.items[index].archived = false
            case .stock: model.items[index].stock = step.left.map { ($0, model.liveUnits(ofItem: item.id)) }
            default: break
            }
        }
        return outcome
    }

    private func erase(_ step: Step, actor: String) throws -> Outcome {
        guard let index = step.user, let customer = model.customers[safe: index], !customer.erased else {
            return .skipped
        }
        let outcome = try attempt("erasure") { _ = try pizzeria.users.erase(id: customer.id, by: actor) }
        guard outcome == .done else { return outcome }
        model.customers[index].erased = true
        model.customers[index].erasedAtStep = step.number
        // Its future orders are cancelled by the erasure (a status event each).
        for (label, booked) in model.orders where booked.user == index {
            let before = booked.status
            try refresh(label)
            if model.orders[label]?.status != before { model.orders[label]?.events["status", default: 0] += 1 }
        }
        return .done
    }

    /// Runs the notifier once over what waits (as `notify run --once` does), keeping what it hands over.
    private func notify(_ step: Step) throws -> Outcome {
        guard let name = NotifierName("sms") else { return .skipped }
        if step.left == 1 {
            // A restart from the start: every event again (redeliveries are what a gateway dedupes).
            return try attempt("notifier reset") { _ = try pizzeria.notifications.reset(name, to: .start) }
        }
        return try attempt("notifier") {
            try pizzeria.notifications.run(name, from: nil, by: "giulia", policy: NotifierPolicy(once: true)) {
                note in
                let json = String(decoding: try JSONEncoder().encode(note), as: UTF8.self)
                model.deliveries.append((currentStep, json))
            }
        }
    }

    /// The end of an evening: every order still open is collected (paid first, as a till would)
    /// or, for some, a no-show.
    private func closeEvening(_ step: Step, actor: String) throws -> Outcome {
        clock.set(clock.now.addingTimeInterval(3_600))
        for booked in model.booked where booked.status.isBooked && booked.pickup <= clock.now {
            var pay = Step(.pay, step.number)
            pay.order = booked.label
            pay.method = booked.label % 3 == 0 ? "card" : "cash"
            if booked.label % 7 != 0, booked.balance > 0 { _ = try money(pay, actor: actor) }
            var end = Step(booked.label % 11 == 0 ? .noShow : .collect, step.number)
            end.order = booked.label
            // Those who did not pay are handed over unpaid on purpose (no silent unpaid).
            if booked.label % 7 == 0 { end.unpaid = true }
            if end.kind == .noShow, booked.status != .ready {
                end.kind = .collect
            }
            _ = try lifecycle(end, actor: actor)
        }
        // The drawer counted: a little over or short, recorded against what it should hold.
        let opening = Money(cents: 15_000)
        let before = try pizzeria.payments.dailyClose(openingCash: opening)
        let difference = Int64(step.number % 5 - 2) * 50
        let counted = Money(cents: max(0, before.expectedCash.cents + difference))
        let outcome = try attempt("count") {
            let after = try pizzeria.payments.countDrawer(openingCash: opening, counted: counted, by: actor)
            guard let count = after.count, count.expected == before.expectedCash, count.counted == counted,
                count.overShort.cents == counted.cents - before.expectedCash.cents, count.actor == actor,
                after.expectedCash == before.expectedCash
            else {
                throw Finding(
                    invariant: "drawer-count",
                    detail:
                        "counted \(counted.cents) against \(before.expectedCash.cents): \(String(describing: after.count))"
                )
            }
        }
        return outcome
    }

    // MARK: - The CLI

    /// The step's picks as the CLI's item syntax (names quoted), or nil when one cannot be.
    func cliItems(_ picks: [Step.Pick]) -> [String]? {
        var texts: [String] = []
        for pick in picks {
            guard let item = model.items[safe: pick.item] else { return nil }
            var text = "\"\(item.name)\""
            if let variant = pick.variant, variant > 0 { text += "/Maxi" }
            if item.modifiers {
                for index in pick.modifiers {
                    guard let modifier = model.modifiers[safe: index] else { return nil }
                    text += "+\(modifier.group):\"\(modifier.name)\""
                }
            }
            texts.append(text + "=\(pick.quantity)")
        }
        return texts
    }

    /// What a run of the binary gave: the outcome and its JSON.
    struct CLIResult {
        let outcome: Outcome
        let json: [String: Any]?
    }

    /// Runs `pizzeria --json ARGUMENTS` on the shop's file at the simulated time.
    func cli(_ arguments: [String]) throws -> CLIResult {
        guard let binary else { throw Finding(invariant: "setup", detail: "no pizzeria binary beside the simulator") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--json", "--db", path] + arguments
        process.environment = [
            "PIZZERIA_NOW": Timestamp.string(from: clock.now), "PATH": "/usr/bin:/bin", "HOME": "/tmp",
        ]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let command = "pizzeria " + arguments.prefix(2).joined(separator: " ")
        switch process.terminationStatus {
        case 0:
            return CLIResult(
                outcome: .done, json: try? JSONSerialization.jsonObject(with: data) as? [String: Any])
        case 1, 65, 66:
            if problem.contains("the database refused the change") {
                throw Finding(
                    invariant: "refusals-are-rules",
                    detail: "\(command) was refused by the schema's own text: \(problem)")
            }
            return CLIResult(outcome: .refused(problem), json: nil)
        default:
            throw Finding(
                invariant: "refusals-are-rules",
                detail: "\(command) exited \(process.terminationStatus): \(problem)")
        }
    }

    // MARK: - SQL

    /// One whole number from the file (`… AS n`).
    func count(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) throws -> Int {
        try pizzeria.database.read { db in try db.fetchOne(sql, arguments) { try $0.int("n") } ?? 0 }
    }
}

extension Outcome {
    /// The refusal's text, if refused.
    var refusal: String? { if case .refused(let text) = self { text } else { nil } }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
