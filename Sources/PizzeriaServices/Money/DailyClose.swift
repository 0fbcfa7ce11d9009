import Foundation
import PizzeriaStorage

/// The end-of-night cash-up of one service day: its orders by status, what was collected and
/// what was paid, payments and refunds by method, VAT by rate, the cash the drawer should hold,
/// no-shows, and the collected orders nobody paid for.
///
/// Every figure is of the day's orders (their service day), in cents: payments and refunds of
/// an order count on its day, whenever they were taken. The VAT table is of the collected
/// orders, each split per rate on the order (``VATBreakdown``), so it is the sum of their receipts.
public struct DailyClose: Sendable, Hashable, Encodable {
    /// One status's orders.
    public struct StatusRow: Sendable, Hashable, Encodable {
        /// The status.
        public let status: OrderStatus
        /// How many orders.
        public let orders: Int
        /// How many items they hold.
        public let items: Int
        /// Their totals.
        public let value: Money

        private enum CodingKeys: String, CodingKey { case status, orders, items, valueCents = "value_cents" }

        /// JSON: `{"status", "orders", "items", "value_cents"}`.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(status, forKey: .status)
            try container.encode(orders, forKey: .orders)
            try container.encode(items, forKey: .items)
            try container.encode(value.cents, forKey: .valueCents)
        }
    }

    /// One method's payments and refunds.
    public struct MethodRow: Sendable, Hashable, Encodable {
        /// The method.
        public let method: PaymentMethod
        /// How many payments, and their sum.
        public let payments: Int
        /// Σ payments.
        public let paid: Money
        /// How many refunds, and their sum.
        public let refunds: Int
        /// Σ refunds.
        public let refunded: Money
        /// paid − refunded.
        public var net: Money { Money(cents: paid.cents - refunded.cents) }

        private enum CodingKeys: String, CodingKey {
            case method, payments, paidCents = "paid_cents", refunds, refundedCents = "refunded_cents"
            case netCents = "net_cents"
        }

        /// JSON: `{"method", "payments", "paid_cents", "refunds", "refunded_cents", "net_cents"}`.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(method, forKey: .method)
            try container.encode(payments, forKey: .payments)
            try container.encode(paid.cents, forKey: .paidCents)
            try container.encode(refunds, forKey: .refunds)
            try container.encode(refunded.cents, forKey: .refundedCents)
            try container.encode(net.cents, forKey: .netCents)
        }
    }

    /// An order of the day that is not settled: collected and not (fully) paid, or owing a refund.
    public struct OpenOrder: Sendable, Hashable, Encodable {
        /// The order.
        public let orderID: Order.ID
        /// Its customer's handle.
        public let handle: String
        /// Its pickup, local.
        public let pickupLocal: String
        /// Its status and money.
        public let payments: OrderPayments

        private enum CodingKeys: String, CodingKey {
            case orderID = "order_id", handle, pickupLocal = "pickup_local", state, totalCents = "total_cents"
            case balanceCents = "balance_cents", owesRefundCents = "owes_refund_cents"
        }

        /// JSON: `{"order_id", "handle", "pickup_local", "state", "total_cents", "balance_cents", "owes_refund_cents"}`.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(orderID, forKey: .orderID)
            try container.encode(handle, forKey: .handle)
            try container.encode(pickupLocal, forKey: .pickupLocal)
            try container.encode(payments.state, forKey: .state)
            try container.encode(payments.total.cents, forKey: .totalCents)
            try container.encode(payments.balance.cents, forKey: .balanceCents)
            try container.encode(payments.owesRefund.cents, forKey: .owesRefundCents)
        }
    }

    /// The service day.
    public let day: LocalDate
    /// Orders by status, in lifecycle order (statuses without orders left out).
    public let byStatus: [StatusRow]
    /// Payments and refunds by method (methods without any left out).
    public let byMethod: [MethodRow]
    /// VAT of the collected orders, per rate.
    public let vat: VATBreakdown
    /// Cash in the drawer when the night began, if given.
    public let openingCash: Money?
    /// Collected orders not fully paid: they left without paying.
    public let unpaidCollected: [OpenOrder]
    /// Orders that keep more than they owe (cancelled after being paid).
    public let owingRefunds: [OpenOrder]
    /// Cash taken while the day's drawer was open (06:00 to 06:00 the next morning, local),
    /// whatever day its orders are: the drawer follows when cash moved.
    public let drawerCashIn: Money
    /// Cash given back while the day's drawer was open.
    public let drawerCashOut: Money
    /// The day's latest count of the drawer (`report close --counted-cash`), if any.
    public let count: DrawerCount?
    /// Discounts and comps of the collected orders, by kind and reason (most money first).
    public let discounts: [DiscountTotal]

    /// Discounts or comps of one kind and reason over a day.
    ///
    /// JSON: `{"kind", "reason", "count", "amount_cents"}`.
    public struct DiscountTotal: Sendable, Hashable, Encodable {
        /// A discount or a comp.
        public let kind: OrderDiscount.Kind
        /// Why.
        public let reason: String
        /// How many.
        public let count: Int
        /// How much came off.
        public let amount: Money

        private enum CodingKeys: String, CodingKey { case kind, reason, count, amountCents = "amount_cents" }

        /// The documented JSON shape.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encode(reason, forKey: .reason)
            try container.encode(count, forKey: .count)
            try container.encode(amount.cents, forKey: .amountCents)
        }
    }
    /// The pizzeria's zone, for local times.
    public let timeZone: TimeZone

    /// The collected orders' totals (the night's sales, VAT included).
    public var collected: Money { row(.collected)?.value ?? Money(cents: 0) }
    /// No-shows and their value.
    public var noShows: (orders: Int, value: Money) {
        (row(.noShow)?.orders ?? 0, row(.noShow)?.value ?? Money(cents: 0))
    }
    /// Σ payments of every method.
    public var paid: Money { Money(cents: byMethod.reduce(0) { $0 + $1.paid.cents }) }
    /// Σ refunds of every method.
    public var refunded: Money { Money(cents: byMethod.reduce(0) { $0 + $1.refunded.cents }) }
    /// What the drawer should hold: opening cash + cash taken − cash given back while the
    /// day's drawer was open (change handed back is already out of it: a payment's amount is
    /// what was kept). A cash refund on Saturday of Friday's order is Saturday's drawer's.
    public var expectedCash: Money {
        Money(cents: (openingCash?.cents ?? 0) + drawerCashIn.cents - drawerCashOut.cents)
    }

    /// The row of one status, if the day has orders in it.
    public func row(_ status: OrderStatus) -> StatusRow? { byStatus.first { $0.status == status } }

    private enum CodingKeys: String, CodingKey {
        case day, byStatus = "orders", byMethod = "payments", vat, collectedCents = "collected_cents"
        case paidCents = "paid_cents", refundedCents = "refunded_cents", openingCashCents = "opening_cash_cents"
        case expectedCashCents = "expected_cash_cents", noShows = "no_shows", noShowCents = "no_show_cents"
        case unpaidCollected = "unpaid_collected", owingRefunds = "owing_refunds"
        case drawerCashInCents = "drawer_cash_in_cents", drawerCashOutCents = "drawer_cash_out_cents", count
        case discounts, discountCents = "discount_cents"
    }

    /// JSON: `{"day", "orders": [status rows], "payments": [method rows], "vat", "collected_cents",
    /// "paid_cents", "refunded_cents", "opening_cash_cents", "expected_cash_cents", "no_shows",
    /// "no_show_cents", "unpaid_collected": [open orders], "owing_refunds": [open orders],
    /// "drawer_cash_in_cents", "drawer_cash_out_cents", "count", "discounts": [{"kind", "reason",
    /// "count", "amount_cents"}], "discount_cents"}`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(day.description, forKey: .day)
        try container.encode(byStatus, forKey: .byStatus)
        try container.encode(byMethod, forKey: .byMethod)
        try container.encode(vat, forKey: .vat)
        try container.encode(collected.cents, forKey: .collectedCents)
        try container.encode(paid.cents, forKey: .paidCents)
        try container.encode(refunded.cents, forKey: .refundedCents)
        try container.encode(openingCash?.cents, forKey: .openingCashCents)
        try container.encode(expectedCash.cents, forKey: .expectedCashCents)
        try container.encode(noShows.orders, forKey: .noShows)
        try container.encode(noShows.value.cents, forKey: .noShowCents)
        try container.encode(unpaidCollected, forKey: .unpaidCollected)
        try container.encode(owingRefunds, forKey: .owingRefunds)
        try container.encode(drawerCashIn.cents, forKey: .drawerCashInCents)
        try container.encode(drawerCashOut.cents, forKey: .drawerCashOutCents)
        try container.encode(count, forKey: .count)
        try container.encode(discounts, forKey: .discounts)
        try container.encode(discounts.reduce(0) { $0 + $1.amount.cents }, forKey: .discountCents)
    }
}

/// A count of the cash drawer at a night's close: what was counted against what was expected
/// then, by whom and when (`drawer_counts`, never changed).
///
/// JSON: `{"service_day", "opening_cents", "counted_cents", "expected_cents",
/// "over_short_cents", "actor", "at"}`.
public struct DrawerCount: Sendable, Hashable, Encodable {
    /// The service day counted.
    public let serviceDay: LocalDate
    /// The opening cash the expectation started from.
    public let opening: Money
    /// What was in the drawer.
    public let counted: Money
    /// What the drawer should have held when it was counted.
    public let expected: Money
    /// Who counted, if named.
    public let actor: String?
    /// When.
    public let at: Date

    /// Counted − expected: over when positive, short when negative.
    public var overShort: Money { Money(cents: counted.cents - expected.cents) }

    private enum CodingKeys: String, CodingKey {
        case serviceDay = "service_day", opening = "opening_cents", counted = "counted_cents"
        case expected = "expected_cents", overShort = "over_short_cents", actor, at
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(serviceDay.description, forKey: .serviceDay)
        try container.encode(opening.cents, forKey: .opening)
        try container.encode(counted.cents, forKey: .counted)
        try container.encode(expected.cents, forKey: .expected)
        try container.encode(overShort.cents, forKey: .overShort)
        try container.encode(actor, forKey: .actor)
        try container.encode(Timestamp.string(from: at), forKey: .at)
    }
}

extension PaymentService {
    /// The order's receipt, as of now.
    /// - Throws: ``OrderError/notFound(_:)``.
    public func receipt(of order: Order.ID) throws -> Receipt {
        let now = now()
        return try database.read { db in
            guard let header = try OrderStore.header(id: order, in: db) else {
                throw OrderError.notFound(order.description)
            }
            let assembler = try OrderAssembler(now: now, in: db)
            let full = try assembler.order(header)
            // A party's receipt is one: its other orders, with their payments.
            let party = try header.partyID.map { try OrderStore.partyHeaders($0, in: db) } ?? []
            let members = try party.filter { $0.id != header.id }.map {
                Receipt.PartyMember(order: try assembler.order($0), payments: try Self.summary(of: $0.id, in: db))
            }
            let discounts = try DiscountStore.discounts(of: [full.id] + members.map(\.order.id), in: db)
            return Receipt(
                shop: try ShopStore.details(in: db), order: full,
                vat: VATBreakdown(
                    summing: ([full] + members.map(\.order)).filter { $0.status != .cancelled }.map {
                        VATBreakdown(lines: $0.lines, discounts: discounts[$0.id] ?? [])
                    }),
                payments: try Self.summary(of: header.id, in: db), printedAt: now, party: members,
                partyPayments: try header.partyID.map { try PartyPaymentStore.payments(ofParty: $0, in: db) } ?? [],
                discounts: discounts)
        }
    }

    /// The cash-up of a service day (today in the pizzeria's zone when `nil`), read in one
    /// transaction.
    public func dailyClose(day: LocalDate? = nil, openingCash: Money? = nil) throws -> DailyClose {
        let now = now()
        return try database.read { db in try Self.dailyClose(day: day, openingCash: openingCash, now: now, in: db) }
    }

    /// Counts the drawer at a night's close: records what was `counted` against what the drawer
    /// should hold now (`openingCash`, default 0, + cash taken − cash given back while the day's
    /// drawer was open), with who and when, and returns the cash-up with the count and its
    /// over/short. One write transaction.
    /// - Throws: ``ValidationError`` for an amount out of range or a bad `by`.
    public func countDrawer(day: LocalDate? = nil, openingCash: Money? = nil, counted: Money, by actor: String? = nil)
        throws -> DailyClose
    {
        var problems = OrderService.actorProblems(actor)
        if !(0...Self.maximumCountedCents).contains(counted.cents) {
            problems.append(FieldError(field: "counted-cash", message: "must be 0 to 1,000,000.00"))
        }
        if let openingCash, !(0...PaymentRequest.maximumAmount.cents).contains(openingCash.cents) {
            problems.append(FieldError(field: "opening-cash", message: "must be 0 to 100,000.00"))
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        let now = now()
        return try database.audited(acting, at: now) { db in
            let before = try Self.dailyClose(day: day, openingCash: openingCash ?? Money(cents: 0), now: now, in: db)
            try PaymentStore.insertCount(
                day: before.day, opening: before.openingCash ?? Money(cents: 0), counted: counted,
                expected: before.expectedCash, actor: actor, at: now, in: db)
            return try Self.dailyClose(day: before.day, openingCash: before.openingCash, now: now, in: db)
        }
    }

    /// The most a count takes, in cents: 1,000,000.00 EUR.
    static let maximumCountedCents: Int64 = 100_000_000

    /// The cash-up, read in the caller's transaction.
    static func dailyClose(day: LocalDate?, openingCash: Money?, now: Date, in db: Connection) throws -> DailyClose {
        let settings = try SettingsStore.current(in: db)
        let date = try day ?? ScheduleService.today(at: now, in: db)
        let filter = OrderFilter(serviceDay: date)
        let headers = try OrderStore.headers(filter, after: nil, limit: Int(Int32.max), in: db)
        let (lines, _) = try OrderStore.attach(to: headers, filter: filter, in: db)
        let payments = try PaymentStore.payments(ofDay: date, in: db)
        let refunds = try PaymentStore.refunds(ofDay: date, in: db)
        let paymentsByOrder = Dictionary(grouping: payments, by: \.orderID)
        let orderOfPayment = Dictionary(uniqueKeysWithValues: payments.map { ($0.id, $0.orderID) })
        let refundsByOrder = Dictionary(grouping: refunds) { orderOfPayment[$0.paymentID] }

        let discountsByOrder = try DiscountStore.discounts(of: headers.map(\.id), in: db)
        var discountTotals: [String: DailyClose.DiscountTotal] = [:]
        var byStatus: [OrderStatus: (orders: Int, items: Int, cents: Int64)] = [:]
        var breakdowns: [VATBreakdown] = [], unpaid: [DailyClose.OpenOrder] = [], owing: [DailyClose.OpenOrder] = []
        let clock = settings.clock
        for (index, header) in headers.enumerated() {
            let items = lines[index].reduce(0) { $0 + $1.quantity }
            byStatus[header.status, default: (0, 0, 0)].orders += 1
            byStatus[header.status, default: (0, 0, 0)].items += items
            byStatus[header.status, default: (0, 0, 0)].cents += header.totalCents
            let summary = OrderPayments(
                orderID: header.id, status: header.status, total: Money(cents: header.totalCents),
                payments: paymentsByOrder[header.id] ?? [], refunds: refundsByOrder[header.id] ?? [])
            let open = DailyClose.OpenOrder(
                orderID: header.id, handle: header.handle, pickupLocal: clock.localText(header.pickupAt),
                payments: summary)
            if header.status == .collected {
                let discounts = discountsByOrder[header.id] ?? []
                breakdowns.append(VATBreakdown(lines: lines[index], discounts: discounts))
                for discount in discounts {
                    let key = discount.kind.rawValue + "\u{0}" + discount.reason
                    let before = discountTotals[key]
                    discountTotals[key] = DailyClose.DiscountTotal(
                        kind: discount.kind, reason: discount.reason, count: (before?.count ?? 0) + 1,
                        amount: Money(cents: (before?.amount.cents ?? 0) + discount.amount.cents))
                }
                if summary.balance.cents > 0 { unpaid.append(open) }
            }
            if summary.owesRefund.cents > 0 { owing.append(open) }
        }
        let methods = PaymentMethod.allCases.compactMap { method -> DailyClose.MethodRow? in
            let paid = payments.filter { $0.method == method }, back = refunds.filter { $0.method == method }
            guard !paid.isEmpty || !back.isEmpty else { return nil }
            return DailyClose.MethodRow(
                method: method, payments: paid.count, paid: Money(cents: paid.reduce(0) { $0 + $1.amount.cents }),
                refunds: back.count, refunded: Money(cents: back.reduce(0) { $0 + $1.amount.cents }))
        }
        // The drawer's day: from the close-out hour (06:00) of the day to that of the next.
        let opens = clock.instants(date, minutes: Schedule.closeOutMinute).first ?? ZonedClock.naive(date, minutes: 0)
        let closes =
            clock.instants(date.adding(days: 1), minutes: Schedule.closeOutMinute).first
            ?? opens.addingTimeInterval(86_400)
        let cash = try PaymentStore.cashMoved(from: opens, to: closes, in: db)
        return DailyClose(
            day: date,
            byStatus: OrderStatus.allCases.compactMap { status in
                byStatus[status].map {
                    DailyClose.StatusRow(
                        status: status, orders: $0.orders, items: $0.items, value: Money(cents: $0.cents))
                }
            },
            byMethod: methods, vat: VATBreakdown(summing: breakdowns), openingCash: openingCash,
            unpaidCollected: unpaid, owingRefunds: owing, drawerCashIn: Money(cents: cash.paid),
            drawerCashOut: Money(cents: cash.refunded), count: try PaymentStore.latestCount(of: date, in: db),
            discounts: discountTotals.values.sorted {
                ($1.amount.cents, $0.kind.rawValue, $0.reason) < ($0.amount.cents, $1.kind.rawValue, $1.reason)
            }, timeZone: settings.timeZone)
    }
}
