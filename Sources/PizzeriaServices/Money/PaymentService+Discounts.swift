import Foundation
import PizzeriaStorage

// Discounts and comps: money taken off an order at the counter, a manager's (the CLI's roles),
// with who and why, off each VAT rate (``OrderDiscount``). One `BEGIN IMMEDIATE` each: what the
// order has left per rate is read and the rows written inside it; the schema refuses the same
// (`discount_over_rate`, `comp_line`) and keeps `orders.total_cents` the lines less the discounts.
extension PaymentService {
    /// How much a discount takes off.
    public enum DiscountSize: Sendable, Hashable {
        /// A percentage of what the order has left, in basis points (10 % = 1000), 1 to 10000.
        case percent(basisPoints: Int)
        /// An amount, 0.01 up to what the order has left.
        case amount(Money)
    }

    /// Takes `size` off the order: a percentage off each rate's gross (rounded half up per
    /// rate), or an amount spread over the rates in proportion to their gross.
    /// - Throws: ``ValidationError`` (size, reason, by; an amount over what the order has left);
    ///   ``OrderError/notFound(_:)``; ``PaymentError/orderCancelled(_:)``.
    @discardableResult
    public func discount(order: Order.ID, _ size: DiscountSize, reason: String, by actor: String? = nil) throws
        -> OrderDiscount
    {
        let reason = reason.trimmingWhitespace()
        var problems = TextLimit.problems(reason, field: "reason", maximum: Self.maximumReasonLength)
        problems += OrderService.actorProblems(actor)
        switch size {
        case .percent(let points) where !(1...10_000).contains(points):
            problems.append(
                FieldError(field: "percent", message: "must be from 0.01 to 100, not \(Double(points) / 100)"))
        case .amount(let money): problems += Self.amountProblems(money, field: "amount")
        default: break
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        let now = now()
        return try database.write { db in
            let (header, lines, left) = try Self.discountable(order, in: db)
            let byRate: [(rate: VATRate, amount: Money)]
            let percent: Int?
            switch size {
            case .percent(let points):
                percent = points
                byRate = left.compactMap { rate, cents in
                    let off = (cents * Int64(points) + 5_000) / 10_000
                    return off > 0 ? (rate, Money(cents: off)) : nil
                }
            case .amount(let money):
                percent = nil
                let total = left.reduce(0) { $0 + $1.cents }
                guard money.cents <= total else {
                    throw ValidationError([
                        FieldError(
                            field: "amount",
                            message:
                                "\(money.formatted) is more than the \(Money(cents: total).formatted) order \(header.id.short) has left"
                        )
                    ])
                }
                byRate = OrderDiscount.spread(money.cents, over: left)
            }
            guard !byRate.isEmpty else {
                throw ValidationError([
                    FieldError(
                        field: "percent", message: "takes nothing off the \(lines.count)-line order: it is already free"
                    )
                ])
            }
            let detail =
                "discount " + (percent.map { "\(Double($0) / 100)% " } ?? "") + "−"
                + Money(cents: byRate.reduce(0) { $0 + $1.amount.cents }).plain
            return try Self.record(
                kind: .discount, line: nil, percent: percent, byRate: byRate, detail: detail, reason: reason,
                header: header,
                actor: actor, at: now, in: db)
        }
    }

    /// Gives line `line` of the order (1 = its first, as `order show` lists them) free: its whole
    /// amount comes off its rate.
    /// - Throws: ``ValidationError`` (line, reason, by; a line comped already or worth more than
    ///   its rate has left); ``OrderError/notFound(_:)``; ``PaymentError/orderCancelled(_:)``.
    @discardableResult
    public func comp(order: Order.ID, line: Int, reason: String, by actor: String? = nil) throws -> OrderDiscount {
        let reason = reason.trimmingWhitespace()
        var problems = TextLimit.problems(reason, field: "reason", maximum: Self.maximumReasonLength)
        problems += OrderService.actorProblems(actor)
        guard problems.isEmpty else { throw ValidationError(problems) }
        let now = now()
        return try database.write { db in
            let (header, lines, left) = try Self.discountable(order, in: db)
            guard lines.indices.contains(line - 1) else {
                throw ValidationError([
                    FieldError(
                        field: "line", message: "order \(header.id.short) has lines 1 to \(lines.count), not \(line)")
                ])
            }
            let (number, chosen) = lines[line - 1]
            let existing = try DiscountStore.discounts(of: [header.id], in: db)[header.id] ?? []
            guard !existing.contains(where: { $0.kind == .comp && $0.line == Int(number) }) else {
                throw ValidationError([
                    FieldError(field: "line", message: "line \(line) (\(chosen.label)) is free already")
                ])
            }
            let room = left.first { $0.rate == chosen.vatRate }?.cents ?? 0
            guard chosen.total.cents <= room else {
                throw ValidationError([
                    FieldError(
                        field: "line",
                        message:
                            "line \(line) (\(chosen.label), \(chosen.total.formatted)) is worth more than the \(Money(cents: room).formatted) its VAT rate has left after the discounts"
                    )
                ])
            }
            return try Self.record(
                kind: .comp, line: Int(number), lineName: chosen.pizzaName, percent: nil,
                byRate: [(chosen.vatRate, chosen.total)],
                detail: "comp: \(chosen.quantity) × \(chosen.label) −\(chosen.total.plain)", reason: reason,
                header: header,
                actor: actor, at: now, in: db)
        }
    }

    /// The order's discounts and comps, oldest first.
    /// - Throws: ``OrderError/notFound(_:)``.
    public func discounts(of order: Order.ID) throws -> [OrderDiscount] {
        try database.read { db in
            guard try OrderStore.header(id: order, in: db) != nil else { throw OrderError.notFound(order.description) }
            return try DiscountStore.discounts(of: [order], in: db)[order] ?? []
        }
    }

    /// The order, its numbered lines, and what each of its rates has left (lines less discounts).
    static func discountable(_ id: Order.ID, in db: Connection) throws -> (
        header: OrderStore.Header, lines: [(number: Int64, line: OrderLine)], left: [(rate: VATRate, cents: Int64)]
    ) {
        guard let header = try OrderStore.header(id: id, in: db) else { throw OrderError.notFound(id.description) }
        guard header.status != .cancelled else { throw PaymentError.orderCancelled(header.id) }
        let lines = try OrderStore.numberedLines(of: header.id, in: db)
        var gross: [VATRate: Int64] = [:]
        for (_, line) in lines { gross[line.vatRate, default: 0] += line.total.cents }
        for discount in try DiscountStore.discounts(of: [header.id], in: db)[header.id] ?? [] {
            for (rate, amount) in discount.byRate { gross[rate, default: 0] -= amount.cents }
        }
        return (header, lines, gross.keys.sorted().map { ($0, max(0, gross[$0] ?? 0)) })
    }

    /// Writes a discount's rows and its history entry (`reason:` is staff's text: a customer's
    /// message leaves it out).
    static func record(
        kind: OrderDiscount.Kind, line: Int?, lineName: String? = nil, percent: Int?,
        byRate: [(rate: VATRate, amount: Money)], detail: String,
        reason: String, header: OrderStore.Header, actor: String?, at now: Date, in db: Connection
    ) throws -> OrderDiscount {
        let erased = try PaymentStore.isErasedCustomer(order: header.id, in: db)
        let discount = OrderDiscount(
            kind: kind, line: line, lineName: lineName, percentBasisPoints: percent, byRate: byRate,
            reason: erased ? "[erased]" : reason,
            actor: actor, at: Timestamp.date(from: Timestamp.string(from: now)) ?? now)
        try DiscountStore.insert(discount, order: header.id, in: db)
        _ = try OrderStore.bumpVersion(id: header.id, version: header.version, at: now, in: db)
        try OrderStore.appendEvent(
            order: header.id, kind: .edited, from: header.status, to: header.status,
            detail: detail + ", reason: " + discount.reason, actor: actor, at: now, in: db)
        return discount
    }
}
