import Foundation
import PizzeriaServices

/// `order discount` and `order comp`: the counter's "sconto" and "omaggio", a manager's.
enum DiscountCommands {
    static let percent = Option(
        "percent", "p", help: "A percentage of what the order has left: 0.01 to 100 (10, 12.5).")
    static let amount = Option("amount", "eur", help: "An amount off, in EUR.", .amount)
    static let reason = RequiredOption(
        "reason", "text", help: "Why (1 to 200 characters): in the cash-up by reason; never in a customer's message.")

    static let discount = Command(
        name: "discount",
        abstract: "Take a percentage or an amount off an order (a manager's), with the reason.",
        discussion: """
            It comes off each VAT rate of the order — a percentage of each rate's gross, an amount in proportion to
            the rates' gross — so the receipt's VAT is what is left. The total and the balance follow; a paid order
            then owes a refund (`order refund`). An order with a discount keeps its lines. The cash-up lists
            discounts and comps by reason.
            """,
        arguments: [OrderCommands.orderArgument], options: [percent, amount, reason, OrderCommands.by],
        examples: [
            "pizzeria order discount 84af --percent 10 --reason compleanno",
            "pizzeria order discount 84af --amount 5 --reason 'attesa lunga'",
        ],
        run: { invocation in
            let context = invocation.context
            let percentText = try invocation[percent], money = try invocation[amount]
            guard (percentText == nil) != (money == nil) else {
                throw invocation.usage("give --percent P or --amount EUR (one of them)")
            }
            let size: PaymentService.DiscountSize
            if let percentText {
                let normalized = percentText.replacingOccurrences(of: ",", with: ".").replacingOccurrences(
                    of: "%", with: "")
                guard let value = Double(normalized), value.isFinite else {
                    throw ValidationError([
                        FieldError(field: "percent", message: "must be a number from 0.01 to 100, not '\(percentText)'")
                    ])
                }
                size = .percent(basisPoints: Int((value * 100).rounded()))
            } else {
                size = .amount(money ?? Money(cents: 0))
            }
            let pizzeria = try context.open(.requireCurrent)
            let order = try pizzeria.lookup.order(try invocation[OrderCommands.orderArgument])
            let given = try pizzeria.payments.discount(
                order: order.id, size, reason: try invocation[reason], by: try OrderCommands.actor(invocation))
            try emit(given, order: order.id, pizzeria, context)
            return .ok
        })

    static let line = RequiredOption(
        "line", "n", help: "The line given free: 1 is the order's first (order show).", .integer(in: 1...1_000))

    static let comp = Command(
        name: "comp",
        abstract: "Give one line of an order free (a manager's), with the reason.",
        discussion: "Its whole amount comes off its VAT rate; the total, the balance and the cash-up follow.",
        arguments: [OrderCommands.orderArgument], options: [line, reason, OrderCommands.by],
        examples: ["pizzeria order comp 84af --line 2 --reason 'attesa lunga'"],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let order = try pizzeria.lookup.order(try invocation[OrderCommands.orderArgument])
            let given = try pizzeria.payments.comp(
                order: order.id, line: try invocation[line], reason: try invocation[reason],
                by: try OrderCommands.actor(invocation))
            try emit(given, order: order.id, pizzeria, context)
            return .ok
        })

    static func emit(_ given: OrderDiscount, order: Order.ID, _ pizzeria: Pizzeria, _ context: Context) throws {
        let summary = try pizzeria.payments.payments(of: order)
        try context.emit(given) {
            (given.kind == .comp
                ? "Comp on order \(order.short): \(given.lineName ?? "a line")" : "Discount on order \(order.short)")
                + " −\(given.amount.formatted) (\(given.reason)); total \(summary.total.formatted)"
                + (summary.balance.cents > 0 ? ", \(summary.balance.formatted) to pay" : "")
                + (summary.owesRefund.cents > 0 ? ", owes a refund of \(summary.owesRefund.formatted)" : "") + ".\n"
        }
    }
}
