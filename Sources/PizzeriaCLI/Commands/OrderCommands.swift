import Foundation
import PizzeriaServices

/// `pizzeria order …`: booking and the order lifecycle.
enum OrderCommands {
    static let command = Command(
        name: "order",
        abstract: "Book orders for a pickup slot and move them through their lifecycle.",
        discussion: "Lifecycle: placed → preparing → ready → collected; cancelled from placed or preparing.",
        subcommands: [place, list, show, advance, cancel, OrderWatchCommand.command])

    static let orderArgument = Argument(name: "order", help: "Order id or unique id prefix (4+ characters).", completion: .orders)

    static let place = Command(
        name: "place",
        abstract: "Book an order for a pickup slot.",
        discussion: """
            ITEM is PIZZA or PIZZA=QTY (1 to 20); the same pizza twice is merged. TIME is HH:MM (today),
            YYYY-MM-DDTHH:MM (both in the pizzeria's time zone) or ISO-8601 with an offset or Z. A local time
            the clocks skip is refused; one they pass twice needs its offset. With --key, booking again with
            the same content returns the first order instead of a new one, so a retry is always safe.
            """,
        arguments: [Argument(name: "user", help: "The user's handle.", completion: .users),
                    Argument(name: "item", help: "PIZZA or PIZZA=QTY.", isVariadic: true, completion: .items)],
        options: [.value("pickup", "time", help: "The start of the pickup slot.", required: true),
                  .value("key", "key", help: "An idempotency key (1 to 128 characters).")],
        examples: ["pizzeria order place anna --pickup 19:30 Margherita=2 Porcini",
                   "pizzeria order place anna --pickup 2026-12-24T19:30 --key xmas-anna Marinara"],
        run: { invocation in
            let context = invocation.context
            let pickupText = invocation.option("pickup") ?? ""
            let pizzeria = try context.open(.requireCurrent)
            let items = try invocation.variadic("item").map { try parseItem($0, lookup: pizzeria.lookup) }
            let user = try pizzeria.lookup.user(try invocation.required("user"))
            let pickup = try pizzeria.orders.pickup(parsing: pickupText)
            let (order, created) = try pizzeria.orders.place(OrderRequest(
                user: user.id, items: items, pickup: pickup, idempotencyKey: invocation.option("key")))
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
        options: [.value("user", "handle", help: "Only this user's orders."),
                  .value("status", "status", help: "Only orders with this status (placed, preparing, ready, collected, cancelled).",
                         completion: .choices(OrderStatus.allCases.map(\.rawValue))),
                  .value("date", "date", help: "Only pickups on this day, YYYY-MM-DD (pizzeria time)."),
                  .value("limit", "n", help: "At most this many orders (a page; its JSON gives `next`)."),
                  .value("after", "cursor", help: "Start after this cursor (the `next` of the previous page)."), GlobalOptions.csv],
        run: { invocation in
            let context = invocation.context
            var status: OrderStatus?
            if let text = invocation.option("status") {
                guard let parsed = OrderStatus(rawValue: text.lowercased()) else {
                    throw ValidationError([FieldError(field: "status", message: "must be one of "
                        + OrderStatus.allCases.map(\.rawValue).joined(separator: ", ") + ", not '\(text)'")])
                }
                status = parsed
            }
            let pizzeria = try context.open(.requireCurrent)
            var filter = OrderFilter(status: status)
            if let user = invocation.option("user") { filter.user = try pizzeria.lookup.user(user).id }
            if let date = invocation.option("date") {
                let day = try pizzeria.orders.day(date)
                (filter.pickupFrom, filter.pickupBefore) = (day.start, day.end)
            }
            let limit = try invocation.integer("limit", in: 1...10_000)
            let after = try invocation.cursor("after")
            if limit != nil || after != nil {
                let page = try pizzeria.orders.page(filter, limit: limit ?? 100, after: after)
                try context.emit(PageJSON(items: page.items, next: page.next)) {
                    OrderText.table(page.items) + (page.next.map { "More: --after \($0)\n" } ?? "")
                }
                return .ok
            }
            // Streamed, page by page: any number of orders prints in the memory of one page.
            let orders = pizzeria.orders
            let shapes = ListOutput.Shapes<Order>(csvHeader: CSVRows.orderHeader, csvRow: CSVRows.order, table: OrderText.table,
                                                  cells: OrderText.cells, empty: "No orders.\n")
            try context.list.stream(invocation, shapes) { each in try orders.forEach(filter, each) }
            return .ok
        })

    static let show = Command(
        name: "show",
        abstract: "Show an order: lines with their price snapshots, total, status history.",
        arguments: [orderArgument],
        run: { invocation in
            let context = invocation.context
            let order = try context.open(.requireCurrent).lookup.order(try invocation.required("order"))
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
            let order = try pizzeria.orders.advance(id: try pizzeria.lookup.order(try invocation.required("order")).id)
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
            let order = try pizzeria.orders.cancel(id: try pizzeria.lookup.order(try invocation.required("order")).id)
            try context.emit(order) { "Order \(order.id.short) is cancelled.\n" }
            return .ok
        })
}
