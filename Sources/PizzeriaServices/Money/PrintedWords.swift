/// The words printed on paper — receipts and kitchen tickets — in the shop's language
/// (``ShopLanguage``): the one table of them, so a printed document is all Italian or all English.
/// The JSON keeps its keys in English whatever the language.
public struct PrintedWords: Sendable, Hashable {
    /// The language they are in.
    public let language: ShopLanguage

    /// The words of `language`.
    public init(_ language: ShopLanguage) { self.language = language }

    private var italian: Bool { language == .italian }

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
}
