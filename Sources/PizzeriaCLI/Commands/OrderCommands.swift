import Foundation
import PizzeriaServices

/// `pizzeria order …`: booking and the order lifecycle.
enum OrderCommands {
    static let command = Command(
        name: "order",
        abstract: "Book orders for a pickup slot and move them through their lifecycle.",
        discussion: """
            Lifecycle: placed → preparing → ready → collected, or ready → no-show; cancelled from placed or
            preparing; `undo` takes back the last status change within 10 minutes. A placed order can be
            moved and edited. Every change is in the order's history, with --by NAME (default $PIZZERIA_STAFF).
            """,
        subcommands: [
            place, list, show, move, DelayCommand.command, edit, CounterAddCommand.command, advance, collect, noShow,
            undo, cancel,
            MoneyCommands.pay,
            MoneyCommands.refund, DiscountCommands.discount, DiscountCommands.comp, MoneyCommands.receipt,
            TicketCommand.command, BumpCommand.command,
            OrderWatchCommand.command,
            BoardCommand.command,
        ])

    /// Who makes a change, for the order's history.
    static let by = Option("by", "name", help: "Who makes the change, for the history (default: $PIZZERIA_STAFF).")
    static let ifVersion = Option(
        "if-version", "n", help: "Refuse (exit 1) unless the order is still at this version.",
        .integer(in: 1...Int(Int32.max)))

    /// `--by`, else `$PIZZERIA_STAFF`.
    static func actor(_ invocation: Invocation) throws -> String? {
        if let name = try invocation[by] { return name }
        return invocation.context.environment["PIZZERIA_STAFF"].flatMap { $0.isEmpty ? nil : $0 }
    }

    static let orderArgument = Argument(
        "order", help: "Order id, its short id, or the unique start of either (4+ characters).", completion: .orders)
    static let user = Argument(
        "user", help: "The customer: handle, id, phone (any format) or a name that is unique.", completion: .users)
    static let items = VariadicArgument(
        "item", help: "PIZZA[/VARIANT][+MODIFIER…][=QTY] (one or more).", optional: true, completion: .pizzas)
    static let pickup = RequiredOption("pickup", "time", help: "The start of the pickup slot.")
    static let walkIn = Option(
        "walk-in", "name",
        help: "Book for someone without an account (a guest customer is made with this name); every word is an item.")
    static let phone = Option("phone", "phone", help: "With --walk-in: their phone, to call when it is ready.")
    static let key = Option("key", "key", help: "An idempotency key (1 to 128 characters).")
    static let override = Option(
        "override", "reason",
        help: "Staff: pass the lead time, a pause and a slot's capacity by at most a quarter, for this reason "
            + "(1 to 200 characters; recorded with --by).")
    static let split = Flag(
        "split",
        help: "A party: fill this slot and the next ones of the service day (up to 8, no gap) as linked orders "
            + "with one total, when one slot cannot take them all.")

    /// The staff override of `--override`, if given.
    static func staffOverride(_ invocation: Invocation) throws -> StaffOverride? {
        try invocation[override].map { StaffOverride(reason: $0) }
    }
    static let userFilter = Option(
        "user", "text",
        help: "Only this customer's orders: a handle, an id, or what `user find` matches (name, phone) if one user.")
    static let statusFilter = Option(
        "status", "status", help: "Only orders with this status (placed, preparing, ready, collected, cancelled).",
        completion: .orderStatuses, .orderStatus)
    static let date = Option(
        "date", "date", help: "Only pickups of this service day: YYYY-MM-DD (pizzeria time), today or tomorrow.")
    static let limit = Option(
        "limit", "n", help: "At most this many orders (a page; its JSON gives `next`).", .integer(in: 1...10_000))
    static let after = Option(
        "after", "cursor", help: "Start after this cursor (the `next` of the previous page).", .cursor)

    static let place = Command(
        name: "place",
        abstract: "Book an order for a pickup slot.",
        discussion: """
            ITEM is PIZZA[/VARIANT][+MODIFIER…][=QTY]: Margherita, Margherita=2, Margherita/Maxi+bufala=2
            (QTY 1 to 20; no variant is the default; GROUP:MODIFIER where two groups share a name); a name
            with / + = or : is typed in double quotes ("Calzone=2"=3); the same choice twice is merged. TIME is HH:MM (today),
            YYYY-MM-DDTHH:MM (both in the pizzeria's time zone) or ISO-8601 with an offset or Z. A local time
            the clocks skip is refused; one they pass twice needs its offset. With --key, booking again with
            the same content returns the first order instead of a new one, so a retry is always safe.

            --override REASON (staff, with --by) passes the lead time and a pause, and lets the slot and each
            station (the fryer) take up to a quarter of its capacity (rounded up) over it; each is recorded in
            the order's history and, over a capacity, in capacity_overrides. --split books a party too large for one slot: its pizzas
            fill the slot and the ones right after it, each up to its capacity, as linked orders of one
            party (fritti spread the same way by the fryer's room; drinks go with the first); `order receipt` of
            any of them prints the party's one receipt.

            USER is the customer as `order list --user` finds them: handle, id, phone in any format, or a name
            that is unique. --walk-in NAME [--phone P] books for someone without an account instead (a guest
            customer `walkin-…` is made in the same transaction; every word is then an item).
            """,
        arguments: [user, items],
        options: [pickup, key, split, lineNote, walkIn, phone, by, override],
        examples: [
            "pizzeria order place anna --pickup 19:30 Margherita=2 Porcini",
            "pizzeria order place anna --pickup 19:30 Margherita/Maxi+bufala+Senza:basilico Coca-Cola/'33 cl'",
            "pizzeria order place walkin --pickup 19:00 Margherita --override 'walk-in at the counter'",
            "pizzeria order place anna --pickup 2026-12-24T19:30 --key xmas-anna Marinara",
            "pizzeria order place marco --pickup 20:00 --split Margherita=15 Diavola=5",
            "pizzeria order place anna --pickup 19:30 Margherita=2 Marinara --line-note 1='ben cotta'",
            "pizzeria order place --walk-in Gennaro --phone '333 123 4567' --pickup 19:30 Margherita Porcini",
        ],
        lostOutputHint: "the order was booked; `order place --key KEY` makes a retry safe",
        run: { invocation in
            let context = invocation.context
            let pickupText = try invocation[pickup]
            let pizzeria = try context.open(.requireCurrent)
            // A walk-in has no account: every word is an item.
            let walkIn = try invocation[Self.walkIn], phoneGiven = try invocation[Self.phone] != nil
            guard walkIn != nil || !phoneGiven else {
                throw invocation.usage("--phone goes with --walk-in")
            }
            if walkIn != nil, try invocation[split] { throw invocation.usage("book a walk-in's party with an account") }
            let words = (walkIn == nil ? [] : [try invocation[user]]) + (try invocation[items])
            guard !words.isEmpty else { throw invocation.usage("missing argument <item>") }
            var items = try words.map { try parseItem($0, lookup: pizzeria.lookup, menu: pizzeria.menu) }
            for (position, note) in try lineNotes(invocation) {
                guard items.indices.contains(position - 1) else {
                    throw ValidationError([
                        FieldError(field: "line-note", message: "names item \(position); there are \(items.count)")
                    ])
                }
                items[position - 1].note = note
            }
            let pickup = try pizzeria.orders.pickup(parsing: pickupText)
            let typedKey = try invocation[key]
            if let walkIn {
                let (order, created) = try pizzeria.orders.place(
                    walkIn: .init(name: walkIn, phone: try invocation[Self.phone]), items: items, pickup: pickup,
                    idempotencyKey: typedKey, by: try actor(invocation), override: try staffOverride(invocation))
                try context.emit(Extended(base: order, key: "created", extra: created)) {
                    (created ? "Booked" : "Already booked with key '\(order.idempotencyKey ?? "")':")
                        + " order \(order.id.short) for \(order.customer.name ?? order.handle) (walk-in, "
                        + "\(order.handle)), pickup \(order.pickupLocal): \(OrderText.items(order)), total "
                        + "\(order.total.formatted).\n"
                }
                return .ok
            }
            // The customer as staff name them: handle, id, phone in any format, or a name that is unique.
            let user = try pizzeria.lookup.customer(try invocation[user])
            func emitParty(_ party: Party, created: Bool) throws -> ExitCode {
                try context.emit(Extended(base: party, key: "created", extra: created)) {
                    let others = party.otherItemCount
                    var text =
                        (created ? "Booked" : "Already booked with key '\(typedKey ?? "")':")
                        + (party.orders.count == 1
                            ? " order \(party.id.short)" : " party \(party.id.short) (\(party.orders.count) orders)")
                        + " for \(party.orders[0].handle): \(party.pizzaCount) pizza\(party.pizzaCount == 1 ? "" : "s")"
                        + (others > 0 ? " and \(others) other item\(others == 1 ? "" : "s")" : "")
                        + ", total \(party.total.formatted).\n"
                    for order in party.orders {
                        text +=
                            "  \(order.id.short)  \(order.pickupLocal)  \(OrderText.items(order))"
                            + (order.status == .cancelled ? "  (cancelled)" : "") + "\n"
                    }
                    return text
                }
                return .ok
            }
            if try invocation[split] {
                let (party, created) = try pizzeria.orders.placeParty(
                    OrderRequest(user: user.id, items: items, pickup: pickup, idempotencyKey: typedKey),
                    by: try actor(invocation), override: try staffOverride(invocation))
                return try emitParty(party, created: created)
            }
            let (order, created) = try pizzeria.orders.place(
                OrderRequest(
                    user: user.id, items: items, pickup: pickup, idempotencyKey: typedKey),
                by: try actor(invocation),
                override: try staffOverride(invocation))
            // A retry of a party's key answers with the whole party, --split or not.
            if !created, let partyID = order.partyID, let party = try pizzeria.orders.party(of: partyID),
                party.orders.count > 1
            {
                return try emitParty(party, created: false)
            }
            try context.emit(Extended(base: order, key: "created", extra: created)) {
                (created ? "Booked" : "Already booked with key '\(order.idempotencyKey ?? "")':")
                    + " order \(order.id.short) for \(order.handle), pickup \(order.pickupLocal): "
                    + "\(OrderText.items(order)), total \(order.total.formatted).\n"
            }
            return .ok
        })

    /// `Margherita`, `Margherita=2`, `Margherita/Maxi+bufala+Senza:basilico=2`, `"Calzone=2"=3`: the
    /// item looked up as PIZZA, then its variant and modifiers by name among its own
    /// (``ItemSyntax``, one rule for every command).
    static func parseItem(_ text: String, lookup: LookupService, menu: MenuService) throws -> OrderRequest.Item {
        try ItemSyntax.item(text, lookup: lookup, menu: menu).item
    }

    static let list = Command(
        name: "list",
        abstract: "List orders by pickup time, optionally filtered.",
        discussion: """
            The table marks an open order due within 30 minutes that still owes money (`ready · TO PAY €6.00`):
            take the payment as it is handed over (order collect ID --pay METHOD). CSV, TSV and JSON keep one
            shape; `order show ID` has the payments.
            """,
        options: [userFilter, statusFilter, date, with, limit, after, owesRefund, perLine] + ListOptions.all,
        run: { invocation in
            let context = invocation.context
            let status = try invocation[statusFilter]
            let pizzeria = try context.open(.requireCurrent)
            if try invocation[owesRefund] {
                // Few by nature (cancelled after being paid): listed whole, oldest service day first.
                let owing = try pizzeria.payments.owingRefunds().compactMap {
                    try pizzeria.orders.order(id: $0.orderID)
                }
                try context.list.write(invocation, OrderText.shape) { each in try owing.forEach(each) }
                return .ok
            }
            var filter = OrderFilter(status: status)
            if let user = try invocation[userFilter] { filter.user = try pizzeria.lookup.customer(user).id }
            if let date = try invocation[date] { filter.serviceDay = try DateText.date(date, field: "date", pizzeria) }
            if let name = try invocation[with] {
                // An item by its name or id, else a modifier (GROUP:NAME where two groups share a name).
                if let item = try? pizzeria.lookup.pizza(name) {
                    filter.item = item.id
                } else {
                    let colon = name.firstIndex(of: ":")
                    let group = colon.map { String(name[..<$0]) }
                    let modifier = colon.map { String(name[name.index(after: $0)...]) } ?? name
                    filter.modifier = try pizzeria.menu.modifier(named: modifier, for: nil, group: group).id
                }
            }
            if try invocation[perLine] {
                // One row per line, streamed order by order: any number of orders in the memory of a page.
                try context.list.write(invocation, MoneyCommands.lineShape) { each in
                    try pizzeria.orders.forEach(filter) { order in try OrderLineRow.rows(of: order).forEach(each) }
                }
                return .ok
            }
            let limit = try invocation[limit]
            let after = try invocation[after]
            let orders = pizzeria.orders
            // The table marks what the counter must take from orders due now; the data formats stay one shape.
            let marked = try invocation.listFormat().format == .table
            let shape = marked ? OrderText.shape(marking: try pizzeria.payments.unpaidDue()) : OrderText.shape
            if limit != nil || after != nil {
                let page = try orders.page(filter, limit: limit ?? 100, after: after)
                switch try invocation.listFormat().format {
                case .json:
                    try context.printJSON(PageJSON(items: page.items, next: page.next))
                case .table:
                    try context.list.write(invocation, shape) { each in try page.items.forEach(each) }
                    if let next = page.next { context.console.out("More: --after \(next)\n") }
                case .lines, .csv, .tsv:
                    // The data stays one shape per line or row; the cursor goes to stderr.
                    try context.list.write(invocation, OrderText.shape) { each in try page.items.forEach(each) }
                    if let next = page.next { context.console.note("more: --after \(next)") }
                }
                return .ok
            }
            // Streamed, page by page: any number of orders prints in the memory of one page.
            try context.list.write(invocation, shape) { each in try orders.forEach(filter, each) }
            return .ok
        })

    static let with = Option(
        "with", "item",
        help: "Only orders with a line of this item, or carrying this modifier (GROUP:NAME when two groups share it).")
    static let perLine = Flag(
        "lines",
        help: "One row per order line (item, variant, modifiers, quantity, unit price, VAT rate, net, VAT, gross): "
            + "for the accountant.")
    static let owesRefund = Flag(
        "owes-refund", help: "Only orders that keep more than they owe (cancelled after being paid): refund them.")

    static let show = Command(
        name: "show",
        abstract: "Show an order: lines with their price snapshots, total, status history.",
        arguments: [orderArgument],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let order = try pizzeria.lookup.order(try invocation[orderArgument])
            let money = try pizzeria.payments.payments(of: order.id)
            let discounts = try pizzeria.payments.discounts(of: order.id)
            try context.emit(order) {
                OrderText.detail(order)
                    + discounts.map {
                        ($0.kind == .comp ? "Comp: \($0.lineName ?? "a line")" : "Discount")
                            + ($0.percentBasisPoints.map { " \(Double($0) / 100)%" } ?? "")
                            + " −\($0.amount.formatted) (\($0.reason)), by \($0.actor ?? "(no name)")\n"
                    }.joined()
                    + OrderText.money(money, zone: order.timeZone)
            }
            return .ok
        })

    static let orders = VariadicArgument(
        "order", help: "Order ids or short ids (or the unique start of either, 4+ characters), one or more.",
        completion: .orders)

    /// A lifecycle command: `change` on each order the arguments name, each in its own
    /// transaction, each reported (a line, or its error); the exit code is the worst of them.
    static func lifecycle(
        _ name: String, _ abstract: String, options: [any OptionDeclaration] = [],
        exclusive: [[any OptionDeclaration]] = [],
        _ change: @escaping @Sendable (OrderService, Order.ID, String?, Invocation) throws -> Order,
        _ message: @escaping @Sendable (Order) -> String
    ) -> Command {
        Command(
            name: name, abstract: abstract,
            discussion:
                "Several orders may be named: each changes in its own transaction and is reported; the exit code is the worst.",
            arguments: [orders], options: [by] + options, exclusive: exclusive,
            run: { invocation in
                let context = invocation.context
                let pizzeria = try context.open(.requireCurrent)
                let references = try invocation[orders]
                guard !references.isEmpty else { throw invocation.usage("missing argument <order>") }
                let actor = try actor(invocation)
                var worst = ExitCode.ok, changed: [Order] = []
                for reference in references {
                    do {
                        let order = try change(
                            pizzeria.orders, try pizzeria.lookup.order(reference).id, actor, invocation)
                        changed.append(order)
                        if !context.json { context.console.out(message(order)) }
                    } catch {
                        let code = ErrorReport.report(error, console: context.console)
                        if code.rawValue > worst.rawValue { worst = code }
                    }
                }
                if context.json {
                    if references.count == 1, let order = changed.first {
                        try context.printJSON(order)
                    } else {
                        try context.printJSON(changed)
                    }
                }
                return worst
            })
    }

    static let advance = lifecycle(
        "advance",
        "Move an order to its next status (placed → preparing → ready → collected); handed over owing money, it "
            + "needs --pay or --unpaid.",
        options: settlingOptions, exclusive: [[payMethod, unpaid]],
        { service, id, actor, invocation in
            try service.advance(id: id, by: actor, settling: try settling(invocation, id))
        },
        { "Order \($0.id.short) is now \($0.status.rawValue).\n" })
    static let payMethod = Option(
        "pay", "method", help: "Take the balance as the order is handed over: cash, card, online or voucher.",
        completion: .choices(PaymentMethod.recordable.map(\.rawValue)), .paymentMethod)
    static let unpaid = Option(
        "unpaid", "reason",
        help: "Hand the order over owing money on purpose: why (1 to 200 characters, in the history).")
    /// How an order handed over settles its balance: `--pay METHOD [--tendered X] [--reference R]` or `--unpaid REASON`.
    static let settlingOptions: [any OptionDeclaration] = [
        payMethod, MoneyCommands.tendered, MoneyCommands.reference, unpaid,
    ]

    /// The settlement the options ask for, for order `id`.
    static func settling(_ invocation: Invocation, _ id: Order.ID) throws -> OrderService.Settlement? {
        let method = try invocation[payMethod], reason = try invocation[unpaid]
        let tendered = try invocation[MoneyCommands.tendered], reference = try invocation[MoneyCommands.reference]
        if method == nil, tendered != nil || reference != nil {
            throw invocation.usage("--tendered and --reference go with --pay")
        }
        if let method {
            return .pay(PaymentRequest(order: id, method: method, reference: reference, tendered: tendered))
        }
        return reason.map { .unpaid(reason: $0) }
    }
    static let cancelReason = Option(
        "reason", "text", help: "Why (1 to 200 characters, in the history); required for a paid order.")
    static let cancel = lifecycle(
        "cancel",
        "Cancel a placed or preparing order (frees its capacity); a paid one then owes a refund (a void: a manager's).",
        options: [cancelReason],
        { service, id, actor, invocation in
            // A void — cancelling an order that keeps money — is a manager's under require-staff.
            let pizzeria = try invocation.context.open(.requireCurrent)
            if try pizzeria.payments.payments(of: id).kept.cents > 0 {
                try pizzeria.staff.authorize(invocation.context.acting.name, for: .manager)
            }
            return try service.cancel(id: id, by: actor, reason: try invocation[cancelReason])
        },
        { "Order \($0.id.short) is cancelled.\n" })
    static let noShow = lifecycle(
        "no-show", "Close a ready order whose customer never came (counted apart from revenue).",
        { service, id, actor, _ in try service.markNoShow(id: id, by: actor) },
        { "Order \($0.id.short) is a no-show.\n" })
    static let collect = lifecycle(
        "collect",
        "Hand over orders: from placed, preparing or ready to collected in one step (each step in the history); "
            + "one that owes money is paid in the same step (--pay METHOD) or left unpaid with a reason (--unpaid).",
        options: settlingOptions, exclusive: [[payMethod, unpaid]],
        { service, id, actor, invocation in
            try service.collect(id: id, by: actor, settling: try settling(invocation, id))
        },
        { "Order \($0.id.short) is collected.\n" })
    static let undo = Command(
        name: "undo", abstract: "Take back the order's last status change, made less than 10 minutes ago.",
        discussion: """
            Undoing a cancellation books the order again: its slot must still be open, in the future, with room,
            outside the lead time and not paused (--override REASON passes the last two).
            """,
        arguments: [orderArgument], options: [by, override],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let order = try pizzeria.orders.undo(
                id: try pizzeria.lookup.order(try invocation[orderArgument]).id, by: try actor(invocation),
                override: try staffOverride(invocation))
            try context.emit(order) { "Order \(order.id.short) is \(order.status.rawValue) again.\n" }
            return .ok
        })

    static let newPickup = RequiredOption("pickup", "time", help: "The new pickup slot (as for order place).")

    static let move = Command(
        name: "move",
        abstract: "Move a placed order to another pickup slot (checked like a booking, in one transaction).",
        arguments: [orderArgument],
        options: [newPickup, ifVersion, by, override],
        examples: ["pizzeria order move 1a2b3c4d --pickup 19:30"],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let id = try pizzeria.lookup.order(try invocation[orderArgument]).id
            let order = try pizzeria.orders.move(
                id: id, to: try pizzeria.orders.pickup(parsing: try invocation[newPickup]),
                expectedVersion: try invocation[ifVersion], by: try actor(invocation),
                override: try staffOverride(invocation))
            try context.emit(order) { "Moved order \(order.id.short) to \(order.pickupLocal).\n" }
            return .ok
        })

    static let add = Option(
        "add", "item", help: "Add PIZZA or PIZZA=QTY (repeatable; more of a pizza already ordered).",
        completion: .pizzas)
    static let remove = Option(
        "remove", "item",
        help: "Remove PIZZA's lines, or the one line of PIZZA/VARIANT+MODIFIER… (repeatable; before --add and --set).",
        completion: .pizzas)
    static let set = Option("set", "item", help: "Set PIZZA=QTY exactly (repeatable).", completion: .pizzas)
    static let lineNote = Option(
        "line-note", "n=text",
        help: "A note for the kitchen on item or line N (1-based), 1-200 characters: 2='ben cotta' (repeatable).")

    /// The `--line-note N=TEXT` values: the position and the note (an empty one clears it).
    static func lineNotes(_ invocation: Invocation) throws -> [(Int, String?)] {
        try invocation[all: lineNote].map { text in
            guard let equals = text.firstIndex(of: "="), let position = Int(text[..<equals]), position >= 1 else {
                throw ValidationError([
                    FieldError(
                        field: "line-note",
                        message: "must be N=TEXT, N the item's or line's number from 1, not '\(text)'")
                ])
            }
            let note = String(text[text.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
            return (position, note.isEmpty ? nil : note)
        }
    }
    static let note = Option("note", "text", help: "The kitchen's note (at most 200 characters).")
    static let clearNote = Flag("clear-note", help: "Remove the note.")

    static let edit = Command(
        name: "edit",
        abstract: "Change a placed order's pizzas or note (added pizzas at today's price; the total follows).",
        discussion: """
            At least one line stays (cancel the order instead). Refused (exit 1) once the order is preparing.
            --remove takes the order's lines away before --add and --set apply, so `--remove
            Margherita+Aggiunte:bufala --add Margherita` takes a modifier off one line. ITEM is as for
            `order place`.
            """,
        arguments: [orderArgument],
        options: [add, remove, set, note, clearNote, lineNote, ifVersion, by, override],
        exclusive: [[note, clearNote]],
        examples: [
            "pizzeria order edit 1a2b3c4d --add Diavola --set Margherita=3",
            "pizzeria order edit 1a2b --note \"no basil\"",
            "pizzeria order edit 1a2b --line-note 2='tagliata a spicchi'",
        ],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            var change = OrderEdit()
            change.add = try invocation[all: add].map {
                try parseItem($0, lookup: pizzeria.lookup, menu: pizzeria.menu)
            }
            change.setQuantity = try invocation[all: set].map {
                try parseItem($0, lookup: pizzeria.lookup, menu: pizzeria.menu)
            }
            for text in try invocation[all: remove] {
                let (item, parsed) = try ItemSyntax.item(text, lookup: pizzeria.lookup, menu: pizzeria.menu)
                // A bare name is every line of the item; a variant or a modifier names one line.
                if parsed.variant == nil && parsed.modifiers.isEmpty {
                    change.remove.append(item.pizza)
                } else {
                    change.removeChoices.append(item)
                }
            }
            for (position, text) in try lineNotes(invocation) {
                change.lineNotes[position] = text.map { .set($0) } ?? .clear
            }
            if let text = try invocation[note] {
                change.note = .set(text)
            } else if try invocation[clearNote] {
                change.note = .clear
            }
            let order = try pizzeria.orders.edit(
                id: try pizzeria.lookup.order(try invocation[orderArgument]).id, change,
                expectedVersion: try invocation[ifVersion], by: try actor(invocation),
                override: try staffOverride(invocation))
            try context.emit(order) {
                "Order \(order.id.short): \(OrderText.items(order)), total \(order.total.formatted)"
                    + (order.note.map { "; note: \($0)" } ?? "") + ".\n"
            }
            return .ok
        })
}
