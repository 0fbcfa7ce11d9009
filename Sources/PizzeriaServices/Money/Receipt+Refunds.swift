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
        var paper = Paper(width: width)
        paper.head(shop)
        paper.centered(italian ? "RIMBORSO" : "REFUND")
        paper.row(
            words.order(order.id.short), String(order.pickupLocal.prefix(16)).replacingOccurrences(of: "T", with: " "))
        paper.lines.append(paper.rule)
        for refund in refunds {
            paper.row(
                PickupTime.local(refund.at, in: order.timeZone) + " " + words.method(refund.method),
                "-" + refund.amount.plain)
            paper.lines += Self.wrap("  " + refund.reason, width: width)
        }
        paper.lines.append(paper.rule)
        paper.row(
            italian ? "TOTALE RIMBORSATO EUR" : "TOTAL REFUNDED EUR",
            Money(cents: refunds.reduce(0) { $0 + $1.amount.cents }).plain)
        paper.foot(words)
        return paper.text
    }
}
