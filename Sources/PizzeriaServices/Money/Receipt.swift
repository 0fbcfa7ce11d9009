import Foundation

/// What the customer takes home: the shop, the order's lines with variants and modifiers, the
/// VAT table, payments, refunds and change. **Not a fiscal document**: in Italy the fiscal
/// receipt (documento commerciale) comes from the shop's registered till or fiscal printer;
/// this is what a fiscal-printer bridge or an e-mail template consumes (the JSON) or a plain
/// thermal printer prints (``text(width:)``).
public struct Receipt: Sendable, Hashable, Encodable {
    /// The shop's details when printed.
    public let shop: ShopDetails
    /// The order.
    public let order: Order
    /// The VAT of the receipt's orders that are not cancelled: each order's per-rate breakdown,
    /// summed (the rounding of the cash-up and of `daily_vat`).
    public let vat: VATBreakdown
    /// Its payments, refunds and state.
    public let payments: OrderPayments
    /// When it was printed.
    public let printedAt: Date
    /// The other orders of its party (``Order/partyID``) in pickup order, with their payments;
    /// empty for an order on its own. A party's receipt is one: every order's lines, one total,
    /// the VAT of them all (``vat``), every payment.
    public let party: [PartyMember]
    /// The party's payments taken as one (each listed once, with its tendered cash and change;
    /// their shares are in the members' ``OrderPayments``).
    public let partyPayments: [PartyPayment]
    /// The discounts and comps of the receipt's orders, by order.
    public let discounts: [Order.ID: [OrderDiscount]]

    /// A receipt; ``PaymentService/receipt(of:)`` makes them.
    public init(
        shop: ShopDetails, order: Order, vat: VATBreakdown, payments: OrderPayments, printedAt: Date,
        party: [PartyMember], partyPayments: [PartyPayment] = [], discounts: [Order.ID: [OrderDiscount]] = [:]
    ) {
        (self.shop, self.order, self.vat, self.payments, self.printedAt) = (shop, order, vat, payments, printedAt)
        (self.party, self.partyPayments, self.discounts) = (party, partyPayments, discounts)
    }

    /// Another order of the receipt's party, and its payments.
    public struct PartyMember: Sendable, Hashable, Encodable {
        /// The order.
        public let order: Order
        /// Its payments, refunds and state.
        public let payments: OrderPayments

        private enum CodingKeys: String, CodingKey {
            case orderID = "order_id", pickupLocal = "pickup_local", status, lines, totalCents = "total_cents"
            case paidCents = "paid_cents", balanceCents = "balance_cents"
        }

        /// JSON: `{"order_id", "pickup_local", "status", "lines", "total_cents", "paid_cents", "balance_cents"}`.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(order.id, forKey: .orderID)
            try container.encode(order.pickupLocal, forKey: .pickupLocal)
            try container.encode(order.status, forKey: .status)
            try container.encode(order.lines, forKey: .lines)
            try container.encode(order.total.cents, forKey: .totalCents)
            try container.encode(payments.paid.cents, forKey: .paidCents)
            try container.encode(payments.balance.cents, forKey: .balanceCents)
        }
    }

    /// What the receipt totals: what the order is due (its total, nothing once cancelled), with
    /// its party's other orders'.
    public var total: Money { Money(cents: payments.due.cents + party.reduce(0) { $0 + $1.payments.due.cents }) }
    /// What is left to pay on the receipt's orders.
    public var balance: Money {
        Money(cents: payments.balance.cents + party.reduce(0) { $0 + $1.payments.balance.cents })
    }

    /// What every receipt says at its foot.
    public static let notice = "Not a fiscal document - Documento non fiscale"
    /// The widths a thermal printer takes, in characters.
    public static let widths = [32, 42, 48]

    /// Change handed back on cash payments.
    public var change: Money {
        Money(
            cents: (payments.payments + party.flatMap(\.payments.payments)).reduce(0) { $0 + $1.change.cents }
                + partyPayments.reduce(0) { $0 + $1.change.cents })
    }

    private enum CodingKeys: String, CodingKey {
        case shop, orderID = "order_id", pickupLocal = "pickup_local", status, lines, totalCents = "total_cents"
        case vat, payments, refunds, paidCents = "paid_cents", refundedCents = "refunded_cents"
        case changeCents = "change_cents", balanceCents = "balance_cents", state, printedAt = "printed_at", notice
        case party, partyTotalCents = "party_total_cents", partyBalanceCents = "party_balance_cents"
        case partyPayments = "party_payments", discounts
    }

    /// JSON: `{"shop", "order_id", "pickup_local", "status", "lines", "total_cents", "vat",
    /// "payments", "refunds", "paid_cents", "refunded_cents", "change_cents", "balance_cents",
    /// "state", "printed_at", "notice", "party": […], "party_total_cents", "party_balance_cents",
    /// "party_payments": […]}`:
    /// `total_cents`, `paid_cents` and `balance_cents` are the order's own, the `party_…` ones the
    /// whole receipt's (the same for an order on its own); `vat` is of every order on the receipt.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(shop, forKey: .shop)
        try container.encode(order.id, forKey: .orderID)
        try container.encode(order.pickupLocal, forKey: .pickupLocal)
        try container.encode(order.status, forKey: .status)
        try container.encode(order.lines, forKey: .lines)
        try container.encode(order.total.cents, forKey: .totalCents)
        try container.encode(vat, forKey: .vat)
        try container.encode(payments.payments, forKey: .payments)
        try container.encode(payments.refunds, forKey: .refunds)
        try container.encode(payments.paid.cents, forKey: .paidCents)
        try container.encode(payments.refunded.cents, forKey: .refundedCents)
        try container.encode(change.cents, forKey: .changeCents)
        try container.encode(payments.balance.cents, forKey: .balanceCents)
        try container.encode(payments.state, forKey: .state)
        try container.encode(Timestamp.string(from: printedAt), forKey: .printedAt)
        try container.encode(Self.notice, forKey: .notice)
        try container.encode(party, forKey: .party)
        try container.encode(total.cents, forKey: .partyTotalCents)
        try container.encode(balance.cents, forKey: .partyBalanceCents)
        try container.encode(partyPayments, forKey: .partyPayments)
        try container.encode(
            ([order] + party.map(\.order)).flatMap { discounts[$0.id] ?? [] }, forKey: .discounts)
    }

    /// The receipt for a thermal printer `width` display columns wide (32, 42 or 48): every line
    /// at most that many columns (CJK and emoji count as two), amounts right-aligned, its words
    /// in the shop's language (``PrintedWords``).
    public func text(width: Int) -> String {
        let width = max(width, 24)
        let words = PrintedWords(shop.language)
        var paper = Paper(width: width)
        func centered(_ text: String) { paper.centered(text) }
        func row(_ left: String, _ right: String) { paper.row(left, right) }
        let rule = paper.rule
        paper.head(shop)
        if !party.isEmpty {
            row(words.party((order.partyID ?? order.id).short), words.orders(party.count + 1))
            paper.lines.append(rule)
        }
        // The party's orders in pickup order, wherever the receipt was asked from.
        for (index, each) in ([order] + party.map(\.order)).sorted(by: { $0.pickupAt < $1.pickupAt }).enumerated() {
            if index > 0 { paper.lines.append("") }
            row(
                words.order(each.id.short),
                each.status == .cancelled
                    ? words.cancelled : String(each.pickupLocal.prefix(16)).replacingOccurrences(of: "T", with: " "))
            if party.isEmpty { paper.lines.append(rule) }
            for line in each.lines {
                // A cancelled order's lines are not a sale: listed, without amounts.
                row(
                    "\(line.quantity) x " + line.pizzaName + (line.variantName.map { " " + $0 } ?? ""),
                    each.status == .cancelled ? "" : line.total.plain)
                // The modifiers' prices are in the line's total.
                for text in line.modifiers.compactMap(\.listed) { paper.lines += Self.wrap("  " + text, width: width) }
                for remark in line.remarks { paper.lines += Self.wrap("  (\(remark.text))", width: width) }
            }
            // Its discounts and comps, each off the order's total (the VAT below is of what is left).
            for discount in discounts[each.id] ?? [] where each.status != .cancelled {
                row(words.discount(discount, line: discount.lineName), "-" + discount.amount.plain)
            }
        }
        paper.lines.append(rule)
        // Nothing on the receipt was sold: no total, no VAT; what was paid and given back stays.
        let sold = ([order] + party.map(\.order)).contains { $0.status != .cancelled }
        if !sold {
            centered(words.notASale.0)
            centered(words.notASale.1)
        }
        if sold { row(words.total, total.plain) }
        let columns = (width - 6) / 3
        func vatRow(_ a: String, _ b: String, _ c: String, _ d: String) {
            paper.lines.append(
                a.padding(toLength: width - 3 * columns, withPad: " ", startingAt: 0)
                    + [b, c, d].map { String(repeating: " ", count: max(columns - $0.count, 0)) + $0 }.joined())
        }
        if sold {
            let head = words.vatHead
            vatRow(head.0, head.1, head.2, head.3)
            for rate in vat.rows { vatRow(rate.rate.description, rate.net.plain, rate.vat.plain, rate.gross.plain) }
        }
        paper.lines.append(rule)
        // A party's payment once, as the counter took it; its shares are not listed again.
        for payment in partyPayments {
            row(words.paid(payment.method) + words.partySuffix, payment.amount.plain)
            if let tendered = payment.tendered, tendered != payment.amount {
                row(words.tendered, tendered.plain)
                row(words.change, payment.change.plain)
            }
        }
        for payment in payments.payments + party.flatMap(\.payments.payments) where payment.partyPaymentID == nil {
            row(words.paid(payment.method), payment.amount.plain)
            if let tendered = payment.tendered, tendered != payment.amount {
                row(words.tendered, tendered.plain)
                row(words.change, payment.change.plain)
            }
        }
        for refund in payments.refunds + party.flatMap(\.payments.refunds) {
            row(words.refund(refund.reason), "-" + refund.amount.plain)
        }
        if balance.cents > 0 { row(words.toPay, balance.plain) }
        paper.foot(words)
        return paper.text
    }

    /// `text` in lines of at most `width` characters, broken at spaces where it can be.
    static func wrap(_ text: String, width: Int) -> [String] {
        DisplayWidth.wrap(text, width: width, indent: text.prefix { $0 == " " }.count)
    }
}

/// A document for a thermal printer, `width` display columns wide: the receipt's and the refund
/// document's one layout — the shop's head, centred lines, rows with an amount at the right
/// edge (wrapped, never cut), the foot.
struct Paper {
    let width: Int
    var lines: [String] = []

    /// A full-width rule.
    var rule: String { String(repeating: "-", count: width) }
    /// The document, a newline after each line.
    var text: String { lines.joined(separator: "\n") + "\n" }

    /// `text` centred, wrapped at spaces.
    mutating func centered(_ text: String) {
        for line in Receipt.wrap(text, width: width) {
            lines.append(String(repeating: " ", count: (width - DisplayWidth.of(line)) / 2) + line)
        }
    }

    /// `left` (wrapped) with `right` at the right edge of its last line, or alone below it when
    /// they do not fit side by side; nothing after `left` when `right` is empty.
    mutating func row(_ left: String, _ right: String) {
        var parts = Receipt.wrap(left, width: width)
        let last = parts.removeLast()
        lines += parts
        let used = DisplayWidth.of(last)
        if right.isEmpty {
            lines.append(last)
        } else if used + 1 + right.count <= width {
            lines.append(last + String(repeating: " ", count: width - used - right.count) + right)
        } else {
            lines.append(last)
            lines.append(String(repeating: " ", count: max(width - right.count, 0)) + right)
        }
    }

    /// The shop's name, address and VAT number, centred, then a rule.
    mutating func head(_ shop: ShopDetails) {
        if let name = shop.name { centered(name) }
        if let address = shop.address { centered(address) }
        if let number = shop.vatNumber { centered("P.IVA " + number) }
        lines.append(rule)
    }

    /// A rule, then "not a fiscal document" in both languages.
    mutating func foot(_ words: PrintedWords) {
        lines.append(rule)
        centered(words.notFiscal.0)
        centered(words.notFiscal.1)
    }
}
