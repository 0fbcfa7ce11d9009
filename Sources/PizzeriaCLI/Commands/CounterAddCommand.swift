import PizzeriaServices

/// `pizzeria order add ID ITEM…`: a drink added at the counter, until the order is collected.
enum CounterAddCommand {
    static let items = VariadicArgument(
        "item", help: "ITEM[/VARIANT][=QTY] that no station prepares (a drink), one or more.", completion: .pizzas)

    static let command = Command(
        name: "add",
        abstract: "Add items no station prepares (drinks) to an order at the counter, until it is collected.",
        discussion: """
            For the customer waiting at the counter: a drink added to an order that is placed, preparing or
            ready, each a new line priced as now (its stock taken); the total and what is left to pay follow,
            and the history says "at the counter: +1 × Coca-Cola". What a station makes (a pizza, a fried
            side) is added only while the order is placed, with `order edit --add` (exit 65 names it).
            """,
        arguments: [OrderCommands.orderArgument, items], options: [OrderCommands.by],
        examples: ["pizzeria order add 84af 'Coca-Cola 33cl=2'", "pizzeria order add 84af Acqua --json"],
        lostOutputHint: "the items were added; `order show ID` lists them",
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let order = try pizzeria.lookup.order(try invocation[OrderCommands.orderArgument])
            let parsed = try (try invocation[items]).map {
                try OrderCommands.parseItem($0, lookup: pizzeria.lookup, menu: pizzeria.menu)
            }
            let changed = try pizzeria.orders.addAtCounter(
                id: order.id, items: parsed, by: try OrderCommands.actor(invocation))
            let owing = try pizzeria.payments.payments(of: changed.id).balance
            try context.emit(changed) {
                "Added to order \(changed.id.short): "
                    + (changed.history.last?.detail ?? "")
                    .replacingOccurrences(of: "at the counter: ", with: "") + "; total \(changed.total.formatted)"
                    + (owing.cents > 0 ? ", \(owing.formatted) to pay" : "") + ".\n"
            }
            return .ok
        })
}
