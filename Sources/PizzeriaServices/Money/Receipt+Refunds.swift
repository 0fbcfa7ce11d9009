import Foundation

// A refund as its own document: what the customer takes home when money is given back — the
// shop, the order, each refund with its method, time and reason, the total given back — never a
// sale's figures (no lines, no VAT table). Not a fiscal document either.
extension Receipt {
    /// The refunds of the receipt's orders (the party's too), oldest first.
    public var allRefunds: [Refund] {
        (payments.refunds + party.flatMap(\.payments.refunds)).sorted { ($0.at, $0.id) < ($1.at, $1.id) }
    }

    /// The refund document for a thermal printer `width` display columns wide, in the shop's
    /// language; `nil` when nothing was given back.
    public func refundText(width: Int) -> String? {
        let refunds = allRefunds
        guard !refunds.isEmpty else { return nil }
        let width = max(width, 24)
        let words = PrintedWords(shop.language)
        let italian = shop.language == .italian
        var out: [String] = []
        func centered(_ text: String) {
            for line in Self.wrap(text, width: width) {
                out.append(String(repeating: " ", count: (width - DisplayWidth.of(line)) / 2) + line)
            }
        }
        func row(_ left: String, _ right: String) {
            var parts = Self.wrap(left, width: width)
            let last = parts.removeLast()
            out += parts
            let used = DisplayWidth.of(last)
            if used + 1 + right.count <= width {
                out.append(last + String(repeating: " ", count: width - used - right.count) + right)
            } else {
                out.append(last)
                out.append(String(repeating: " ", count: max(width - right.count, 0)) + right)
            }
        }
        let rule = String(repeating: "-", count: width)
        if let name = shop.name { centered(name) }
        if let address = shop.address { centered(address) }
        if let number = shop.vatNumber { centered("P.IVA " + number) }
        out.append(rule)
        centered(italian ? "RIMBORSO" : "REFUND")
        row(words.order(order.id.short), String(order.pickupLocal.prefix(16)).replacingOccurrences(of: "T", with: " "))
        out.append(rule)
        let zone = order.timeZone
        for refund in refunds {
            row(
                PickupTime.local(refund.at, in: zone) + " " + words.method(refund.method),
                "-" + refund.amount.plain)
            out += Self.wrap("  " + refund.reason, width: width)
        }
        out.append(rule)
        row(
            italian ? "TOTALE RIMBORSATO EUR" : "TOTAL REFUNDED EUR",
            refunds.reduce(Money(cents: 0)) {
                Money(cents: $0.cents + $1.amount.cents)
            }.plain)
        out.append(rule)
        centered(words.notFiscal.0)
        centered(words.notFiscal.1)
        return out.joined(separator: "\n") + "\n"
    }
}
