import Foundation
import PizzeriaServices

// A party's one bill: the whole party pays as one payment (by the library or `order pay
// --party`). The model's own rule: the party owes the sum of its members' balances; a payment
// of at most that is taken whole, spread over the members in pickup order, each member's balance
// paid whole before the next.
extension Shop {
    func payParty(_ step: Step, actor: String) throws -> Outcome {
        guard let label = step.order, let booked = model.orders[label], let party = booked.party else {
            return .skipped
        }
        let members = model.booked.filter { $0.party == party }.sorted {
            ($0.pickup, $0.id.description) < ($1.pickup, $1.id.description)
        }
        let method = PaymentMethod(rawValue: step.method ?? "cash") ?? .cash
        let amount = step.amount.map { Money(cents: Int64($0)) }
        let reference = step.reference.map { "\($0)-\(tokenOf(booked))" }
        let tendered = step.tendered.map { Money(cents: Int64($0)) }
        let before = try members.map { try pizzeria.payments.payments(of: $0.id).paid.cents }
        let owed = members.reduce(Int64(0)) { $0 + $1.balance }
        let outcome: Outcome
        if step.cli == true {
            var arguments = [
                "order", "pay", booked.id.description, "--party", "--method", method.rawValue, "--by", actor,
            ]
            if let amount { arguments += ["--amount", amount.plain] }
            if let reference { arguments += ["--reference", reference] }
            if let tendered { arguments += ["--tendered", tendered.plain] }
            outcome = try cli(arguments).outcome
        } else {
            outcome = try attempt("party payment") {
                _ = try pizzeria.payments.payParty(
                    PaymentRequest(
                        order: booked.id, amount: amount, method: method, reference: reference, tendered: tendered),
                    by: actor)
            }
        }
        let after = try members.map { try pizzeria.payments.payments(of: $0.id).paid.cents }
        let taken = zip(after, before).map { $0 - $1 }
        let asked = amount?.cents ?? owed
        if outcome == .done {
            // The shares: each member's balance whole, in pickup order, until the amount is spent.
            var left = asked
            for (member, share) in zip(members, taken) {
                let expected = min(left, member.balance)
                left -= expected
                guard share == expected else {
                    throw Finding(
                        invariant: "money-party",
                        detail: "order \(member.label) took \(share) of a party payment of \(asked), not \(expected)")
                }
                if share > 0 {
                    model.orders[member.label]?.paid.append(share)
                    model.orders[member.label]?.events["paid", default: 0] += 1
                }
            }
            if asked > owed {
                throw Finding(invariant: "money-party", detail: "a party payment of \(asked) taken on \(owed) owed")
            }
        } else if owed > 0, asked <= owed, asked > 0, (tendered?.cents ?? asked) >= asked,
            !(outcome.refusal?.contains("reference") ?? false)
        {
            throw Finding(
                invariant: "money-party",
                detail: "a party payment of \(asked) on a party owing \(owed) was refused: \(outcome)")
        }
        return outcome
    }
}

// The counter's addition: a drink added to an order until it is collected; what a station makes
// only while placed (by edit). The model's rule decides which must be taken.
extension Shop {
    func counterAdd(_ step: Step, actor: String) throws -> Outcome {
        guard let label = step.order, let booked = model.orders[label], let index = step.item,
            let item = model.items[safe: index]
        else { return .skipped }
        let quantity = step.quantity ?? 1
        let outcome =
            step.cli == true
            ? try cli([
                "order", "add", booked.id.description, "\(item.name)=\(quantity)", "--by", actor,
            ]).outcome
            : try attempt("counter add") {
                _ = try pizzeria.orders.addAtCounter(
                    id: booked.id, items: [.init(pizza: item.id, quantity: quantity)], by: actor)
            }
        let open: Set<OrderStatus> = [.placed, .preparing, .ready]
        let allowed = open.contains(booked.status) && item.counter
        if outcome == .done {
            guard allowed else {
                throw Finding(
                    invariant: "counter-add",
                    detail: "\(item.name) added at the counter to order \(label), \(booked.status.rawValue)")
            }
            model.orders[label]?.events["edited", default: 0] += 1
            try refresh(label)
        } else if allowed, !item.archived, item.stock == nil, !model.customers[booked.user].erased {
            throw Finding(
                invariant: "counter-add",
                detail: "\(item.name) refused at the counter on order \(label), \(booked.status.rawValue): \(outcome)")
        }
        return outcome
    }
}

// A manager's discount or comp (by the library or the CLI). The model's rules: what came off is
// off each rate at most what the rate had left, and the total falls by exactly that.
extension Shop {
    func discount(_ step: Step, actor: String) throws -> Outcome {
        guard let label = step.order, let booked = model.orders[label] else { return .skipped }
        let before = try pizzeria.payments.discounts(of: booked.id)
        let outcome: Outcome
        if let line = step.line {
            outcome =
                step.cli == true
                ? try cli([
                    "order", "comp", booked.id.description, "--line", "\(line + 1)", "--reason",
                    "omaggio \(tokenOf(booked))",
                    "--by", "giulia",
                ]).outcome
                : try attempt("comp") {
                    _ = try pizzeria.payments.comp(
                        order: booked.id, line: line + 1, reason: "omaggio \(tokenOf(booked))", by: "giulia")
                }
        } else {
            let percent = step.quantity ?? 10
            outcome =
                step.cli == true
                ? try cli([
                    "order", "discount", booked.id.description, "--percent", "\(percent)", "--reason",
                    "sconto \(tokenOf(booked))", "--by", "giulia",
                ]).outcome
                : try attempt("discount") {
                    _ = try pizzeria.payments.discount(
                        order: booked.id, .percent(basisPoints: percent * 100), reason: "sconto \(tokenOf(booked))",
                        by: "giulia")
                }
        }
        guard outcome == .done else { return outcome }
        let after = try pizzeria.payments.discounts(of: booked.id)
        guard after.count == before.count + 1, let given = after.last else {
            throw Finding(
                invariant: "discount", detail: "order \(label): \(after.count - before.count) discounts recorded")
        }
        var left: [Int: Int64] = [:]
        for line in booked.lines { left[line.vatRate.basisPoints, default: 0] += line.total.cents }
        for (rate, cents) in booked.discounts { left[rate, default: 0] -= cents }
        for (rate, amount) in given.byRate where amount.cents > (left[rate.basisPoints] ?? 0) {
            throw Finding(
                invariant: "discount",
                detail: "order \(label): \(amount.cents) off \(rate) which had \(left[rate.basisPoints] ?? 0) left")
        }
        for (rate, amount) in given.byRate {
            model.orders[label]?.discounts[rate.basisPoints, default: 0] += amount.cents
        }
        model.orders[label]?.events["edited", default: 0] += 1
        return outcome
    }
}
