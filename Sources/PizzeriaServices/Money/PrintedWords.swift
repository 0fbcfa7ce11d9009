/// The words printed on paper and shown to the kitchen — receipts, kitchen tickets, the board —
/// in the shop's language (``ShopLanguage``): the one table of them, so each is all Italian or
/// all English. The JSON keeps its keys and values in English whatever the language.
public struct PrintedWords: Sendable, Hashable {
    /// The language they are in.
    public let language: ShopLanguage

    /// The words of `language`.
    public init(_ language: ShopLanguage) { self.language = language }

    var italian: Bool { language == .italian }

    /// `TOTAL EUR` / `TOTALE EUR`.
    public var total: String { italian ? "TOTALE EUR" : "TOTAL EUR" }
    /// The VAT table's head: rate, net, VAT, gross.
    public var vatHead: (String, String, String, String) {
        italian ? ("IVA", "IMPON.", "IVA", "TOTALE") : ("VAT", "NET", "VAT", "GROSS")
    }
    /// `Paid cash` / `Pagato contanti`.
    public func paid(_ method: PaymentMethod) -> String { (italian ? "Pagato " : "Paid ") + self.method(method) }
    /// A payment method's name.
    public func method(_ method: PaymentMethod) -> String {
        guard italian else { return method.rawValue }
        switch method {
        case .cash: return "contanti"
        case .card: return "carta"
        case .online: return "online"
        case .voucher: return "buono"
        case .unknown: return "non noto"
        }
    }
    /// `(party)` after a party's payment.
    public var partySuffix: String { italian ? " (gruppo)" : " (party)" }
    /// Cash handed over.
    public var tendered: String { italian ? "  Contanti" : "  Tendered" }
    /// Change given back.
    public var change: String { italian ? "  Resto" : "  Change" }
    /// `Refund: …` / `Rimborso: …`.
    public func refund(_ reason: String) -> String { (italian ? "Rimborso: " : "Refund: ") + reason }
    /// What is left to pay.
    public var toPay: String { italian ? "DA PAGARE" : "TO PAY" }
    /// `Party 3f2a` / `Gruppo 3f2a`.
    public func party(_ id: String) -> String { (italian ? "Gruppo " : "Party ") + id }
    /// `3 orders` / `3 ordini`.
    public func orders(_ count: Int) -> String { italian ? "\(count) ordini" : "\(count) orders" }
    /// `Order 3f2a` / `Ordine 3f2a`.
    public func order(_ id: String) -> String { (italian ? "Ordine " : "Order ") + id }
    /// A cancelled order's mark beside it.
    public var cancelled: String { italian ? "ANNULLATO" : "CANCELLED" }
    /// What a receipt of nothing sold says, in both languages as it always has.
    public var notASale: (String, String) { ("CANCELLED - ANNULLATO", "not a sale - non una vendita") }
    /// The receipt's foot, in both languages as it always has.
    public var notFiscal: (String, String) { ("Not a fiscal document", "Documento non fiscale") }
    /// `PICKUP` / `RITIRO` on a kitchen ticket.
    public var pickup: String { italian ? "RITIRO" : "PICKUP" }
    /// `party #…` on a kitchen ticket.
    public var partyMark: String { italian ? "gruppo #" : "party #" }
    /// A ticket with nothing for its station.
    public var nothingHere: String { italian ? "(niente per questa postazione)" : "(nothing for this station)" }
    /// `1 item`, `3 items` / `1 pezzo`, `3 pezzi`.
    public func items(_ count: Int) -> String {
        italian ? (count == 1 ? "1 pezzo" : "\(count) pezzi") : (count == 1 ? "1 item" : "\(count) items")
    }
    /// A discount's row: `Sconto 10% (compleanno)`, `Omaggio: Coca-Cola (attesa)` / `Discount …`, `Comp: …`.
    public func discount(_ discount: OrderDiscount, line: String?) -> String {
        switch discount.kind {
        case .discount:
            let percent =
                discount.percentBasisPoints.map {
                    " " + String(format: $0 % 100 == 0 ? "%.0f%%" : "%.2f%%", Double($0) / 100)
                } ?? ""
            return (italian ? "Sconto" : "Discount") + percent + " (\(discount.reason))"
        case .comp:
            return (italian ? "Omaggio" : "Comp") + (line.map { ": " + $0 } ?? "") + " (\(discount.reason))"
        }
    }
    /// `NOTE: ` / `NOTA: ` before the order's note on a ticket.
    public var note: String { italian ? "NOTA: " : "NOTE: " }

    // MARK: - The kitchen board

    /// `Board Fri 2026-12-04` / `Cucina ven 2026-12-04`.
    public func board(_ day: LocalDate) -> String {
        (italian ? "Cucina " : "Board ") + self.day(day)
    }
    /// `at 20:41` / `alle 20:41`.
    public func at(_ time: String) -> String { (italian ? "alle " : "at ") + time }
    /// A slot's pieces to make.
    public func pieces(_ count: Int) -> String {
        if count == 0 { return italian ? "niente da fare" : "nothing to make" }
        return italian ? (count == 1 ? "1 pezzo" : "\(count) pezzi") : (count == 1 ? "1 piece" : "\(count) pieces")
    }
    /// The board's column heads: order, customer, state, when, owes, items, counter.
    public var boardHeads: [String] {
        italian
            ? ["ORDINE", "CLIENTE", "STATO", "QUANDO", "MANCA", "PRODOTTI", "BANCO"]
            : ["ORDER", "CUSTOMER", "STATE", "WHEN", "OWES", "ITEMS", "COUNTER"]
    }
    /// An order's state on the board.
    public func state(_ status: OrderStatus) -> String {
        guard italian else { return status.rawValue }
        switch status {
        case .placed: return "ricevuto"
        case .preparing: return "in preparazione"
        case .ready: return "pronto"
        case .collected: return "ritirato"
        case .noShow: return "non ritirato"
        case .cancelled: return "annullato"
        }
    }
    /// `LATE 12 min` / `RITARDO 12 min`.
    public func late(_ minutes: Int) -> String { (italian ? "RITARDO " : "LATE ") + "\(minutes) min" }
    /// An order due now.
    public var due: String { italian ? "ORA" : "DUE" }
    /// `counter:` before the items the counter hands over.
    public var counter: String { italian ? "banco" : "counter" }
    /// A board with nothing open.
    public var noOpenOrders: String { italian ? "Nessun ordine aperto." : "No open orders." }
    /// The last line of a board that does not fit the screen.
    public func more(orders: Int, slots: Int) -> String {
        italian
            ? "+\(orders) altr\(orders == 1 ? "o ordine" : "i ordini") in \(slots) fasc\(slots == 1 ? "ia" : "e")"
                + " (una finestra più grande o `order board` li mostra tutti)"
            : "+\(orders) more order\(orders == 1 ? "" : "s") in \(slots) slot\(slots == 1 ? "" : "s")"
                + " (a larger window or `order board` shows them all)"
    }
}
