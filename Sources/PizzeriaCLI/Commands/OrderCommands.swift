import Foundation
import PizzeriaServices

/// `pizzeria order …`: booking and the order lifecycle.
enum OrderCommands {
    static let command = Command(
        name: "order",
        abstract: "Book orders for a pickup slot and move them through their lifecycle.",
        discussion: "Lifecycle: placed → preparing → ready → collected; cancelled from placed or preparing.",
        subcommands: [place, list, show, advance, cancel, OrderWatchCommand.command])

    static let orderArgument = Argument("order", help: "Order id or unique id prefix (4+ characters).", completion: .orders)
    static let user = Argument("user", help: "The user's handle.", completion: .users)
    static let items = VariadicArgument("item", help: "PIZZA or PIZZA=QTY.", completion: .pizzas)
    static let pickup = Option("pickup", "time", help: "The start of the pickup slot.", required: true)
    static let key = Option("key", "key", help: "An idempotency key (1 to 128 characters).")
    static let userFilter = Option("user", "handle", help: "Only this user's orders.")
    static let statusFilter = Option("status", "status", help: "Only orders with this status (placed, preparing, ready, collected, cancelled).",
                                     completion: .orderStatuses, .orderStatus)
    static let date = Option("date", "date", help: "Only pickups of this service day: YYYY-MM-DD (pizzeria time), today or tomorrow.")
    static let limit = Option("limit", "n", help: "At most this many orders (a page; its JSON gives `next`).", .integer(in: 1...10_000))
    static let after = Option("after", "cursor", help: "Start after this cursor (the `next` of the previous page).", .cursor)

    static let place = Command(
        name: "place",
        abstract: "Book an order for a pickup slot.",
        discussion: """
            ITEM is PIZZA or PIZZA=QTY (1 to 20); the same pizza twice is merged. TIME is HH:MM (today),
            YYYY-MM-DDTHH:MM (both in the pizzeria's time zone) or ISO-8601 with an offset or Z. A local time
            the clocks skip is refused; one they pass twice needs its offset. With --key, booking again with
            the same content returns the first order instead of a new one, so a retry is always safe.
            """,
        arguments: [user, items],
        options: [pickup, key],
        examples: ["pizzeria order place anna --pickup 19:30 Margherita=2 Porcini",
                   "pizzeria order place anna --pickup 2026-12-24T19:30 --key xmas-anna Marinara"],
        run: { invocation in
            let context = invocation.context
            let pickupText = try invocation[pickup] ?? ""
            let pizzeria = try context.open(.requireCurrent)
            let items = try invocation[items].map { try parseItem($0, lookup: pizzeria.lookup) }
            let user = try pizzeria.lookup.user(try invocation[user])
            let pickup = try pizzeria.orders.pickup(parsing: pickupText)
            let (order, created) = try pizzeria.orders.place(OrderRequest(
                user: user.id, items: items, pickup: pickup, idempotencyKey: try invocation[key]))
            try context.emit(Extended(base: order, key: "created", extra: created)) {
                (created ? "Booked" : "Already booked with key '\(order.idempotencyKey ?? "")':")
                    + " order \(order.id.short) for \(order.handle), pickup \(order.pickupLocal): "
                    + "\(OrderText.items(order)), total \(order.total.formatted).\n"
            }
            return .ok
        })

    /// `Margherita` or `Margherita=2`, the pizza looked up as PIZZA.
    static func parseItem(_ text: String, lookup: LookupService) throws -> OrderRequest.Item {
        guard let equals = text.lastIndex(of: "=") else { return OrderRequest.Item(pizza: try lookup.pizza(text).id, quantity: 1) }
        let name = String(text[..<equals]), count = String(text[text.index(after: equals)...])
        guard !name.isEmpty, let quantity = Int(count) else {
            throw ValidationError([FieldError(field: "item", message: "must be PIZZA or PIZZA=QTY with a whole number, not '\(text)'")])
        }
        guard (1...OrderRequest.maximumQuantity).contains(quantity) else {
            throw ValidationError([FieldError(field: "quantity", message: "must be from 1 to \(OrderRequest.maximumQuantity) (\(name): \(quantity))")])
        }
        return OrderRequest.Item(pizza: try lookup.pizza(name).id, quantity: quantity)
    }

    static let list = Command(
        name: "list",
        abstract: "List orders by pickup time, optionally filtered.",
        options: [userFilter, statusFilter, date, limit, after] + ListOptions.all,
        run: { invocation in
            let context = invocation.context
            let status = try invocation[statusFilter]
            let pizzeria = try context.open(.requireCurrent)
            var filter = OrderFilter(status: status)
            if let user = try invocation[userFilter] { filter.user = try pizzeria.lookup.user(user).id }
            if let date = try invocation[date] { filter.serviceDay = try DateText.date(date, field: "date", pizzeria) }
            let limit = try invocation[limit]
            let after = try invocation[after]
            let orders = pizzeria.orders
            if limit != nil || after != nil {
                let page = try orders.page(filter, limit: limit ?? 100, after: after)
                switch try invocation.listFormat().format {
                case .json:
                    try context.printJSON(PageJSON(items: page.items, next: page.next))
                case .table:
                    try context.list.write(invocation, OrderText.shape) { each in try page.items.forEach(each) }
                    if let next = page.next { context.console.out("More: --after \(next)\n") }
                case .lines, .csv, .tsv:
                    // The data stays one shape per line or row; the cursor goes to stderr.
                    try context.list.write(invocation, OrderText.shape) { each in try page.items.forEach(each) }
                    if let next = page.next { context.console.note("more: --after \(next)") }
                }
                return .ok
            }
            // Streamed, page by page: any number of orders prints in the memory of one page.
            try context.list.write(invocation, OrderText.shape) { each in try orders.forEach(filter, each) }
            return .ok
        })

    static let show = Command(
        name: "show",
        abstract: "Show an order: lines with their price snapshots, total, status history.",
        arguments: [orderArgument],
        run: { invocation in
            let context = invocation.context
            let order = try context.open(.requireCurrent).lookup.order(try invocation[orderArgument])
            try context.emit(order) { OrderText.detail(order) }
            return .ok
        })

    static let advance = Command(
        name: "advance",
        abstract: "Move an order to its next status (placed → preparing → ready → collected).",
        arguments: [orderArgument],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let order = try pizzeria.orders.advance(id: try pizzeria.lookup.order(try invocation[orderArgument]).id)
            try context.emit(order) { "Order \(order.id.short) is now \(order.status.rawValue).\n" }
            return .ok
        })

    static let cancel = Command(
        name: "cancel",
        abstract: "Cancel a placed or preparing order (frees its capacity).",
        arguments: [orderArgument],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let order = try pizzeria.orders.cancel(id: try pizzeria.lookup.order(try invocation[orderArgument]).id)
            try context.emit(order) { "Order \(order.id.short) is cancelled.\n" }
            return .ok
        })
}
