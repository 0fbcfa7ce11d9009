import PizzeriaServices

extension ValueParser where Value == Money {
    /// An amount paid or refunded: as a price, up to 100,000.00 EUR.
    static let amount = ValueParser { text, field in
        switch Money.parse(text, maximum: PaymentRequest.maximumAmount) {
        case .success(let money): return money
        case .failure(let error): throw ValidationError([FieldError(field: field, message: error.message)])
        }
    }
}

extension ValueParser where Value == Money {
    /// Cash in a drawer: 0 or more, up to 1,000,000.00 EUR.
    static let drawerCash = ValueParser { text, field in
        switch Money.parse(text, allowingZero: true, maximum: Money(cents: 100_000_000)) {
        case .success(let money): return money
        case .failure(let error): throw ValidationError([FieldError(field: field, message: error.message)])
        }
    }
}

extension ValueParser where Value == PaymentMethod {
    /// cash, card, online or voucher.
    static let paymentMethod = ValueParser { text, field in
        guard let method = PaymentMethod(rawValue: text.lowercased()), PaymentMethod.recordable.contains(method) else {
            throw ValidationError([
                FieldError(
                    field: field,
                    message: "must be one of " + PaymentMethod.recordable.map(\.rawValue).joined(separator: ", ")
                        + ", not '\(text)'")
            ])
        }
        return method
    }
}

/// `order pay`, `order refund`, `order receipt`, `report close`: the money of orders.
enum MoneyCommands {
    static let amount = Option(
        "amount", "eur", help: "How much, in EUR (default: the whole balance).", .amount)
    static let method = RequiredOption(
        "method", "method", help: "cash, card, online or voucher.",
        completion: .choices(PaymentMethod.recordable.map(\.rawValue)), .paymentMethod)
    static let reference = Option(
        "reference", "ref",
        help: "The provider's or terminal's reference (1 to 200 characters): recording it again is harmless.")
    static let tendered = Option(
        "tendered", "eur", help: "Cash handed over (cash only): the change is printed.", .amount)
    static let reason = RequiredOption("reason", "text", help: "Why (1 to 200 characters), for the records.")

    /// `order list --lines`: one row per order line with its VAT.
    static let lineShape = ListOutput.Shape<OrderLineRow>(
        table: Table(
            "ORDER", "DAY", "STATUS", "ITEM", "QTY", "UNIT", "VAT", "NET", "VAT EUR", "GROSS",
            rightAligned: [4, 5, 6, 7, 8, 9]),
        cells: {
            [
                $0.orderID.short, $0.serviceDay.description, $0.status.rawValue, $0.line.label, "\($0.line.quantity)",
                $0.line.unitPrice.plain, $0.line.vatRate.description, $0.net.plain, $0.vat.plain, $0.gross.plain,
            ]
        },
        empty: "No orders.\n",
        csv: CSVColumns([
            .member("order_id"), .member("service_day", plain: true), .member("pickup_local", plain: true),
            .member("status", plain: true), .member("line_no"), .member("item"), .member("variant"),
            .member("modifiers"), .member("quantity"), .member("unit_price"), .member("unit_price_cents"),
            .member("vat_rate_bp"), .member("net"), .member("net_cents"), .member("vat"), .member("vat_cents"),
            .member("gross"), .member("gross_cents"),
        ]))

    static let pay = Command(
        name: "pay",
        abstract: "Record a payment of an order (the whole balance by default).",
        discussion: """
            An order's payment state is derived from its payments and refunds: unpaid, partially_paid, paid,
            partially_refunded, refunded or overpaid. A payment is never changed: a mistake is put right with
            `order refund`. With --reference, recording the same payment again (an app's retry) returns the first.

            With --party (ID: any order of the party) the party's balance is paid as one payment: one reference,
            one cash tendered and its change, spread over the members' orders in pickup order, each paid whole
            before the next. The receipt lists it once.
            """,
        arguments: [OrderCommands.orderArgument],
        options: [amount, method, reference, tendered, party, OrderCommands.by],
        examples: [
            "pizzeria order pay 84af --method card",
            "pizzeria order pay 84af --method cash --tendered 50",
            "pizzeria order pay 84af --method online --reference psp_3MtwBwLkdIwHu7ix",
            "pizzeria order pay 84af --party --method card --reference T-0042",
        ],
        lostOutputHint: "the payment was recorded; `order show ID` lists it",
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let order = try pizzeria.lookup.order(try invocation[OrderCommands.orderArgument])
            let request = PaymentRequest(
                order: order.id, amount: try invocation[amount], method: try invocation[method],
                reference: try invocation[reference], tendered: try invocation[tendered])
            if try invocation[party] { return try payParty(request, invocation) }
            let (payment, created) = try pizzeria.payments.pay(request, by: try OrderCommands.actor(invocation))
            let summary = try pizzeria.payments.payments(of: order.id)
            try context.emit(summary) {
                (created ? "Paid " : "Already recorded: ")
                    + "\(payment.amount.formatted) by \(payment.method.rawValue) "
                    + "for order \(order.id.short); it is \(summary.state.rawValue)"
                    + (summary.balance.cents > 0 ? ", \(summary.balance.formatted) to pay" : "")
                    + (payment.change.cents > 0 ? ". Change: \(payment.change.formatted)" : "") + ".\n"
            }
            return .ok
        })

    static let party = Flag("party", help: "The whole party of the order, as one bill.")

    /// `order pay ID --party`: the party's balance as one payment.
    static func payParty(_ request: PaymentRequest, _ invocation: Invocation) throws -> ExitCode {
        let context = invocation.context
        let pizzeria = try context.open(.requireCurrent)
        let (payment, created) = try pizzeria.payments.payParty(request, by: try OrderCommands.actor(invocation))
        let balance = try pizzeria.payments.partyBalance(of: request.order)
        try context.emit(payment) {
            (created ? "Paid " : "Already recorded: ")
                + "\(payment.amount.formatted) by \(payment.method.rawValue) for party \(payment.partyID.short) ("
                + payment.shares.map { "\($0.orderID.short) \($0.amount.formatted)" }.joined(separator: ", ") + ")"
                + (balance.cents > 0 ? "; \(balance.formatted) to pay" : "; the party is paid")
                + (payment.change.cents > 0 ? ". Change: \(payment.change.formatted)" : "") + ".\n"
        }
        return .ok
    }

    static let refund = Command(
        name: "refund",
        abstract: "Give money back on an order (by default what it owes back), with a reason.",
        discussion: """
            The refund is taken from the order's newest payments first; no payment is refunded more than it paid
            (the database refuses it, so two tills refunding at once cannot). A cancelled paid order owes its
            refund: `order list --owes-refund` lists them.
            """,
        arguments: [OrderCommands.orderArgument], options: [amount, reason, party, OrderCommands.by],
        examples: [
            "pizzeria order refund 84af --reason 'cancelled: oven down'",
            "pizzeria order refund 84af --amount 3.50 --reason 'burnt calzone'",
            "pizzeria order refund 84af --party --amount 10 --reason 'late: 20 minutes'",
        ],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let order = try pizzeria.lookup.order(try invocation[OrderCommands.orderArgument])
            let actor = try OrderCommands.actor(invocation)
            let forParty = try invocation[party]
            let refunds =
                forParty
                ? try pizzeria.payments.refundParty(
                    order: order.id, amount: try invocation[amount], reason: try invocation[reason], by: actor)
                : try pizzeria.payments.refund(
                    order: order.id, amount: try invocation[amount], reason: try invocation[reason], by: actor)
            let summary = try pizzeria.payments.payments(of: order.id)
            let total = Money(cents: refunds.reduce(0) { $0 + $1.amount.cents })
            try context.emit(summary) {
                "Refunded \(total.formatted) of " + (forParty ? "the party of " : "")
                    + "order \(order.id.short) ("
                    + refunds.map { "\($0.amount.formatted) \($0.method.rawValue)" }.joined(separator: ", ")
                    + "); it is \(summary.state.rawValue).\n"
            }
            return .ok
        })

    static let format = Option(
        "format", "format", help: "text (for a printer) or json (for a fiscal-printer bridge or an e-mail).",
        default: "text", completion: .choices(["text", "json"]))
    static let width = Option(
        "width", "columns", help: "The printer's width: 32, 42 or 48 characters (default 42).",
        completion: .choices(["32", "42", "48"]), .integer(in: 32...48))

    static let receipt = Command(
        name: "receipt",
        abstract: "Print an order's receipt: lines, VAT by rate, payments, refunds, change.",
        discussion: """
            Not a fiscal document: the fiscal receipt is the shop's registered till's or fiscal printer's. The
            head prints `config set shop-name`, `shop-address` and `vat-number`. VAT is split per rate on the
            order (docs/MONEY.md).
            """,
        arguments: [OrderCommands.orderArgument], options: [format, width, refundsOnly],
        examples: [
            "pizzeria order receipt 84af", "pizzeria order receipt 84af --width 32",
            "pizzeria order receipt 84af --format json", "pizzeria order receipt 84af --refunds",
        ],
        run: { invocation in
            let context = invocation.context
            let formatName = try invocation[format] ?? "text"
            guard ["text", "json"].contains(formatName) else {
                throw ValidationError([
                    FieldError(field: "format", message: "must be text or json, not '\(formatName)'")
                ])
            }
            let width = try invocation[width] ?? 42
            guard Receipt.widths.contains(width) else {
                throw ValidationError([FieldError(field: "width", message: "must be 32, 42 or 48, not \(width)")])
            }
            let pizzeria = try context.open(.requireCurrent)
            let receipt = try pizzeria.payments.receipt(
                of: try pizzeria.lookup.order(try invocation[OrderCommands.orderArgument]).id)
            if try invocation[refundsOnly] {
                guard let document = receipt.refundText(width: width) else {
                    throw PaymentError.nothingRefunded(order: receipt.order.id)
                }
                if formatName == "json" || context.json {
                    try context.printJSON(receipt.allRefunds)
                } else {
                    context.console.out(document)
                }
                return .ok
            }
            if formatName == "json" || context.json {
                try context.printJSON(receipt)
            } else {
                context.console.out(receipt.text(width: width))
            }
            return .ok
        })

    static let refundsOnly = Flag(
        "refunds", help: "The refund document: what was given back, when, how and why (no sale figures).")
}

/// `report close`: the cash-up of a service day.
extension MoneyCommands {
    /// One figure of the cash-up, flat, for `--csv`, `--tsv` and `--nl`.
    struct CloseFigure: Sendable, Encodable {
        let section: String
        let name: String
        let count: Int?
        let amount: Money

        private enum CodingKeys: String, CodingKey { case section, name, count, amountCents = "amount_cents" }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(section, forKey: .section)
            try container.encode(name, forKey: .name)
            try container.encode(count, forKey: .count)
            try container.encode(amount.cents, forKey: .amountCents)
        }
    }

    static let figureShape = ListOutput.Shape<CloseFigure>(
        table: Table("SECTION", "NAME", "COUNT", "AMOUNT", rightAligned: [2, 3]),
        cells: { [$0.section, $0.name, $0.count.map(String.init) ?? "", $0.amount.formatted] },
        empty: "Nothing on this day.\n", csvHeader: ["section", "name", "count", "amount", "amount_cents"],
        csvRow: {
            [.plain($0.section), .text($0.name), $0.count.map { .number($0) } ?? .plain("")] + CSVField.money($0.amount)
        })

    /// Every figure of `close`, in the order the text shows them.
    static func figures(_ close: DailyClose) -> [CloseFigure] {
        var rows = close.byStatus.map {
            CloseFigure(section: "orders", name: $0.status.rawValue, count: $0.orders, amount: $0.value)
        }
        for method in close.byMethod {
            rows.append(
                CloseFigure(
                    section: "payments", name: method.method.rawValue, count: method.payments, amount: method.paid))
            if method.refunds > 0 {
                rows.append(
                    CloseFigure(
                        section: "refunds", name: method.method.rawValue, count: method.refunds, amount: method.refunded
                    ))
            }
        }
        for rate in close.vat.rows {
            rows.append(CloseFigure(section: "vat_net", name: rate.rate.description, count: nil, amount: rate.net))
            rows.append(CloseFigure(section: "vat", name: rate.rate.description, count: nil, amount: rate.vat))
            rows.append(CloseFigure(section: "vat_gross", name: rate.rate.description, count: nil, amount: rate.gross))
        }
        rows.append(
            CloseFigure(
                section: "total", name: "collected", count: close.row(.collected)?.orders ?? 0, amount: close.collected)
        )
        rows.append(CloseFigure(section: "total", name: "paid", count: nil, amount: close.paid))
        rows.append(CloseFigure(section: "total", name: "refunded", count: nil, amount: close.refunded))
        if let opening = close.openingCash {
            rows.append(CloseFigure(section: "cash", name: "opening", count: nil, amount: opening))
        }
        rows.append(CloseFigure(section: "cash", name: "taken", count: nil, amount: close.drawerCashIn))
        rows.append(CloseFigure(section: "cash", name: "given_back", count: nil, amount: close.drawerCashOut))
        rows.append(CloseFigure(section: "cash", name: "expected", count: nil, amount: close.expectedCash))
        for total in close.discounts {
            rows.append(
                CloseFigure(
                    section: total.kind.rawValue, name: total.reason, count: total.count, amount: total.amount))
        }
        if let count = close.count {
            rows.append(CloseFigure(section: "cash", name: "counted", count: nil, amount: count.counted))
            rows.append(CloseFigure(section: "cash", name: "over_short", count: nil, amount: count.overShort))
        }
        for open in close.unpaidCollected {
            rows.append(
                CloseFigure(
                    section: "unpaid_collected", name: open.orderID.description, count: nil,
                    amount: open.payments.balance))
        }
        for open in close.owingRefunds {
            rows.append(
                CloseFigure(
                    section: "owes_refund", name: open.orderID.description, count: nil, amount: open.payments.owesRefund
                ))
        }
        return rows
    }

    static func statusShape(_ words: PrintedWords) -> ListOutput.Shape<DailyClose.StatusRow> {
        ListOutput.Shape<DailyClose.StatusRow>(
            table: Table(columns: words.closeStatusHeads, rightAligned: [1, 2, 3]),
            cells: { [words.state($0.status), "\($0.orders)", "\($0.items)", $0.value.formatted] },
            empty: words.noOrdersOnDay, csvHeader: [], csvRow: { _ in [] })
    }
    static func methodShape(_ words: PrintedWords) -> ListOutput.Shape<DailyClose.MethodRow> {
        ListOutput.Shape<DailyClose.MethodRow>(
            table: Table(columns: words.closeMethodHeads, rightAligned: [1, 2, 3, 4, 5]),
            cells: {
                [
                    words.method($0.method), "\($0.payments)", $0.paid.formatted, "\($0.refunds)",
                    $0.refunded.formatted, $0.net.formatted,
                ]
            },
            empty: words.noPayments, csvHeader: [], csvRow: { _ in [] })
    }
    static func vatShape(_ words: PrintedWords) -> ListOutput.Shape<VATBreakdown.Row> {
        ListOutput.Shape<VATBreakdown.Row>(
            table: Table(columns: words.closeVATHeads, rightAligned: [1, 2, 3]),
            cells: { [$0.rate.description, $0.net.formatted, $0.vat.formatted, $0.gross.formatted] },
            empty: words.noVAT, csvHeader: [], csvRow: { _ in [] })
    }

    static let date = Option("date", "date", help: "The service day: YYYY-MM-DD, today (default) or yesterday.")
    static let openingCash = Option(
        "opening-cash", "eur", help: "Cash in the drawer when the night began (0 or more): the expected cash adds it.",
        .drawerCash)
    static let countedCash = Option(
        "counted-cash", "eur",
        help: "Record the count of the drawer (0 or more), with --by and the time: over/short against the expected.",
        .drawerCash)

    static let close = Command(
        name: "close",
        abstract: "The cash-up of a service day: orders, payments by method, refunds, VAT, the cash drawer.",
        discussion: """
            Figures are of the day's orders (their service day), whenever they were paid. Collected: the totals
            of collected orders (the night's sales). The VAT table is of the collected orders, split per rate on
            each order, so it adds up to their receipts. Expected cash: --opening-cash + cash payments − cash
            refunds. Lists the collected orders left unpaid and the orders owing a refund.

            The drawer follows when cash moved: expected cash is --opening-cash + cash taken − cash given back
            between 06:00 of the day and 06:00 the next morning (a cash refund on Saturday of Friday's order
            leaves Saturday's drawer), beside the figures by service day. --counted-cash AMOUNT records the count
            (drawer_counts: who, when, opening, counted, expected) and shows over/short; the day's latest count
            is shown on every close of that day.

            The text is in the shop's language (`config set language it|en`); --json, --csv, --tsv and --nl
            carry the same figures with English names in either.
            """,
        options: [date, openingCash, countedCash, OrderCommands.by] + ListOptions.all,
        examples: [
            "pizzeria report close", "pizzeria report close --date 2026-12-04 --opening-cash 150",
            "pizzeria report close --csv",
        ],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let day = try invocation[date].map { try DateText.date($0, field: "date", pizzeria) }
            let close: DailyClose
            if let counted = try invocation[countedCash] {
                // Reading the close needs no role; recording a count is the counter's (require-staff).
                try pizzeria.staff.authorize(context.acting.name, for: .counter)
                close = try pizzeria.payments.countDrawer(
                    day: day, openingCash: try invocation[openingCash], counted: counted,
                    by: try OrderCommands.actor(invocation))
            } else {
                close = try pizzeria.payments.dailyClose(day: day, openingCash: try invocation[openingCash])
            }
            let (format, headers) = try invocation.listFormat()
            switch format {
            case .json:
                try context.printJSON(close)
            case .table where headers:
                context.console.out(text(close, PrintedWords(try pizzeria.payments.shop().language)))
            case .table, .lines, .csv, .tsv:
                try context.list.write(invocation, figureShape) { each in try figures(close).forEach(each) }
            }
            return .ok
        })

    /// The cash-up for people, in `words`' language.
    static func text(_ close: DailyClose, _ words: PrintedWords) -> String {
        var out = words.cashUp(close.day) + "\n\n"
        out += statusShape(words).rendered(close.byStatus) + "\n"
        out += methodShape(words).rendered(close.byMethod) + "\n"
        out += vatShape(words).rendered(close.vat.rows) + "\n"
        out +=
            words.collected(
                orders: close.row(.collected)?.orders ?? 0, total: close.collected, net: close.vat.net,
                vat: close.vat.vat) + "\n"
        out += words.paidAndRefunded(paid: close.paid, refunded: close.refunded) + "\n"
        out += words.expectedCash(close.expectedCash, opening: close.openingCash) + "\n"
        if let count = close.count {
            out += words.counted(count, at: count.at.local(close.timeZone).description) + "\n"
        }
        let (noShows, lost) = close.noShows
        out += words.noShows(noShows, lost: lost) + "\n"
        if !close.discounts.isEmpty {
            out += "\n" + words.discountsHead + "\n"
            for total in close.discounts {
                out += "  \(words.kind(total.kind))  \(total.reason)  ×\(total.count)  −\(total.amount.formatted)\n"
            }
        }
        if !close.unpaidCollected.isEmpty {
            out += "\n" + words.unpaidCollectedHead + "\n"
            for open in close.unpaidCollected {
                out +=
                    "  \(open.orderID.short)  \(open.handle)  \(open.pickupLocal)  \(open.payments.balance.formatted) "
                    + words.toPayLower + "\n"
            }
        }
        if !close.owingRefunds.isEmpty {
            out += "\n" + words.owingRefundHead + "\n"
            for open in close.owingRefunds {
                out += "  \(open.orderID.short)  \(open.handle)  \(open.payments.owesRefund.formatted)\n"
            }
        }
        return out
    }
}
