/// The words of the reports — `report sales` and the cash-up (`report close`) — in the shop's
/// language. Heads, totals and the close's lines are translated; the rows' data (names, figures,
/// dates) and every machine format (JSON, CSV, TSV, `--nl`, `--no-headers`) stay as they are.
extension PrintedWords {
    /// A weekday's three-letter name: `fri` / `ven`.
    public func weekday(_ day: Weekday) -> String {
        guard italian else { return day.short }
        let names = ["lun", "mar", "mer", "gio", "ven", "sab", "dom"]
        return names[(day.rawValue - 1) % 7]
    }

    /// `fri 2026-12-04` / `ven 2026-12-04`.
    public func day(_ day: LocalDate) -> String { "\(weekday(day.weekday)) \(day)" }

    // MARK: - report sales

    /// The head of `report sales` by day.
    public var salesDayHeads: [String] {
        italian
            ? [
                "GIORNO", "ORDINI RITIRATI", "INCASSO", "ORDINI PRENOTATI", "VALORE PRENOTATO", "NON RITIRATI",
                "ANNULLATI",
            ]
            : [
                "DAY", "ORDERS COLLECTED", "REVENUE", "ORDERS BOOKED", "BOOKED VALUE", "NO-SHOW ORDERS",
                "CANCELLED ORDERS",
            ]
    }

    /// The head of `report sales` by item (`category: false`) or by category.
    public func salesItemHeads(category: Bool) -> [String] {
        italian
            ? [
                category ? "CATEGORIA" : "PRODOTTO", "PEZZI RITIRATI", "INCASSO", "PEZZI PRENOTATI",
                "PEZZI NON RITIRATI", "PEZZI ANNULLATI",
            ]
            : [
                category ? "CATEGORY" : "ITEM", "ITEMS COLLECTED", "REVENUE", "ITEMS BOOKED", "ITEMS NO-SHOW",
                "ITEMS CANCELLED",
            ]
    }

    /// The head of `report sales` by hour (`staff: false`) or by staff.
    public func salesGroupHeads(staff: Bool) -> [String] {
        italian
            ? [staff ? "PERSONALE" : "ORA", "ORDINI RITIRATI", "PEZZI", "INCASSO", "PAGAMENTI", "INCASSATO"]
            : [staff ? "STAFF" : "HOUR", "ORDERS COLLECTED", "ITEMS", "REVENUE", "PAYMENTS", "PAID"]
    }

    /// A group with no staff name.
    public var nobody: String { italian ? "(nessuno)" : "(nobody)" }
    /// A period with no orders.
    public var noOrdersInPeriod: String { italian ? "Nessun ordine nel periodo.\n" : "No orders in this period.\n" }
    /// A period with no collected orders.
    public var noCollectedInPeriod: String {
        italian ? "Nessun ordine ritirato nel periodo.\n" : "No collected orders in this period.\n"
    }
    /// `(+3 booked)` after an item's figures in the chart.
    public func booked(_ count: Int) -> String { italian ? "(+\(count) prenotati)" : "(+\(count) booked)" }

    /// The sales' last line: `Total: 12 items collected, €144.00, €30.00 still booked` (no full stop).
    public func salesTotal(items: Int, revenue: Money, booked: Money) -> String {
        let still =
            booked.cents > 0
            ? (italian ? ", \(booked.formatted) ancora prenotati" : ", \(booked.formatted) still booked") : ""
        return italian
            ? "Totale: \(items) pezzi ritirati, \(revenue.formatted)\(still)"
            : "Total: \(items) items collected, \(revenue.formatted)\(still)"
    }

    // MARK: - report close

    /// `Cash-up fri 2026-12-04` / `Chiusura cassa ven 2026-12-04`.
    public func cashUp(_ day: LocalDate) -> String { (italian ? "Chiusura cassa " : "Cash-up ") + self.day(day) }
    /// The close's orders table head: status, orders, items, value.
    public var closeStatusHeads: [String] {
        italian ? ["STATO", "ORDINI", "PEZZI", "VALORE"] : ["STATUS", "ORDERS", "ITEMS", "VALUE"]
    }
    /// The close's payments table head: method, payments, paid, refunds, refunded, net.
    public var closeMethodHeads: [String] {
        italian
            ? ["METODO", "PAGAMENTI", "PAGATO", "RIMBORSI", "RIMBORSATO", "NETTO"]
            : ["METHOD", "PAYMENTS", "PAID", "REFUNDS", "REFUNDED", "NET"]
    }
    /// The close's VAT table head: rate, net, VAT, gross.
    public var closeVATHeads: [String] {
        italian ? ["ALIQUOTA IVA", "IMPONIBILE", "IVA", "TOTALE"] : ["VAT RATE", "NET", "VAT", "GROSS"]
    }
    /// A day with no orders.
    public var noOrdersOnDay: String { italian ? "Nessun ordine in questo giorno.\n" : "No orders on this day.\n" }
    /// A day with no payments.
    public var noPayments: String { italian ? "Nessun pagamento.\n" : "No payments.\n" }
    /// A day with nothing collected, so no VAT.
    public var noVAT: String { italian ? "Nessun ordine ritirato: niente IVA.\n" : "No collected orders: no VAT.\n" }

    /// `Collected: 3 orders, €40.00 (net €36.36, VAT €3.64)`.
    public func collected(orders: Int, total: Money, net: Money, vat: Money) -> String {
        italian
            ? "Ritirati: \(orders) ordin\(orders == 1 ? "e" : "i"), \(total.formatted) "
                + "(imponibile \(net.formatted), IVA \(vat.formatted))"
            : "Collected: \(orders) order\(orders == 1 ? "" : "s"), \(total.formatted) "
                + "(net \(net.formatted), VAT \(vat.formatted))"
    }
    /// `Paid: €40.00; refunded: €2.00`.
    public func paidAndRefunded(paid: Money, refunded: Money) -> String {
        italian
            ? "Pagato: \(paid.formatted); rimborsato: \(refunded.formatted)"
            : "Paid: \(paid.formatted); refunded: \(refunded.formatted)"
    }
    /// `Cash expected in the drawer: €112.00 (opening €100.00)`, or without an opening amount.
    public func expectedCash(_ expected: Money, opening: Money?) -> String {
        let head = italian ? "Contanti attesi nel cassetto: " : "Cash expected in the drawer: "
        let tail =
            opening.map { italian ? " (fondo cassa \($0.formatted))" : " (opening \($0.formatted))" }
            ?? (italian ? " (--opening-cash non indicato)" : " (no --opening-cash given)")
        return head + expected.formatted + tail
    }
    /// `Counted: €10.50 against €12.00 expected (opening €0.00): short €1.50 — by giulia at 21:30`.
    public func counted(_ count: DrawerCount, at time: String) -> String {
        let difference = count.overShort.cents
        let verdict: String
        if difference == 0 {
            verdict = italian ? "pari" : "even"
        } else if difference > 0 {
            verdict = (italian ? "eccedenza " : "over ") + count.overShort.formatted
        } else {
            verdict = (italian ? "ammanco " : "short ") + Money(cents: -difference).formatted
        }
        let who = count.actor ?? (italian ? "(senza nome)" : "(no name)")
        return italian
            ? "Contati: \(count.counted.formatted) contro \(count.expected.formatted) attesi (fondo cassa "
                + "\(count.opening.formatted)): \(verdict) — da \(who) alle \(time)"
            : "Counted: \(count.counted.formatted) against \(count.expected.formatted) expected (opening "
                + "\(count.opening.formatted)): \(verdict) — by \(who) at \(time)"
    }
    /// `No-shows: 2 orders, €24.00`.
    public func noShows(_ orders: Int, lost: Money) -> String {
        italian
            ? "Non ritirati: \(orders) ordin\(orders == 1 ? "e" : "i"), \(lost.formatted)"
            : "No-shows: \(orders) order\(orders == 1 ? "" : "s"), \(lost.formatted)"
    }
    /// The head of the close's discounts.
    public var discountsHead: String {
        italian ? "Sconti e omaggi (sugli ordini ritirati):" : "Discounts and comps (off the collected orders):"
    }
    /// `discount` / `sconto`, `comp` / `omaggio`.
    public func kind(_ kind: OrderDiscount.Kind) -> String {
        guard italian else { return kind.rawValue }
        switch kind {
        case .discount: return "sconto"
        case .comp: return "omaggio"
        }
    }
    /// The head of the collected orders left unpaid.
    public var unpaidCollectedHead: String {
        italian
            ? "Ritirati ma non pagati (andati via senza pagare):" : "Collected but not paid (left without paying):"
    }
    /// `to pay` after an amount.
    public var toPayLower: String { italian ? "da pagare" : "to pay" }
    /// The head of the orders owing a refund.
    public var owingRefundHead: String {
        italian
            ? "Da rimborsare (`order refund ID --reason …`):" : "Owing a refund (`order refund ID --reason …`):"
    }
}
