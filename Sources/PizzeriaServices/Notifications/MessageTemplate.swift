import Foundation

/// The notifier's ready-made messages, in the shop's language (``ShopLanguage``): an `sms` of one
/// sentence, or an `email` with a subject line, a greeting and the shop's name and address. They
/// say what the customer may read — the event's kind, the order's short id, its pickup and total
/// *as they were at the event* (``OrderEvent/then``) — and never staff's text.
public enum MessageTemplate: String, Sendable, Hashable, CaseIterable {
    /// One sentence, for a text message.
    case sms
    /// `Subject: …`, a blank line, then the body.
    case email

    /// The finished text for `notification`, from `shop`'s name, address and language.
    public func message(for notification: OrderNotification, shop: ShopDetails) -> String {
        let sentence = Self.sentence(notification, language: shop.language)
        let name = shop.name ?? (shop.language == .italian ? "La pizzeria" : "The pizzeria")
        switch self {
        case .sms:
            return "\(name): \(sentence)"
        case .email:
            let order = notification.event.order
            let greeting =
                shop.language == .italian
                ? "Ciao" + (order.customer.name.map { " \($0)" } ?? "") + ","
                : "Hello" + (order.customer.name.map { " \($0)" } ?? "") + ","
            let subject =
                (shop.language == .italian ? "Ordine " : "Order ") + order.id.short + " — "
                + Self.headline(notification.kind, language: shop.language)
            let closing = shop.language == .italian ? "A presto," : "See you soon,"
            let body = sentence.prefix(1).uppercased() + sentence.dropFirst()
            return "Subject: \(subject)\n\n\(greeting)\n\n\(body)\n\n\(closing)\n\(name)"
                + (shop.address.map { "\n\($0)" } ?? "") + "\n"
        }
    }

    /// The kind in a few words, for a subject line.
    static func headline(_ kind: NotificationKind, language: ShopLanguage) -> String {
        let italian = language == .italian
        switch kind {
        case .placed: return italian ? "confermato" : "confirmed"
        case .moved: return italian ? "nuovo orario di ritiro" : "new pickup time"
        case .delayed: return italian ? "in ritardo" : "delayed"
        case .preparing: return italian ? "in preparazione" : "being prepared"
        case .ready: return italian ? "pronto" : "ready"
        case .collected: return italian ? "ritirato" : "collected"
        case .noShow: return italian ? "non ritirato" : "not collected"
        case .cancelled: return italian ? "annullato" : "cancelled"
        case .edited: return italian ? "modificato" : "changed"
        case .paid: return italian ? "pagamento ricevuto" : "payment received"
        case .refunded: return italian ? "rimborso" : "refund"
        case .undone: return italian ? "aggiornato" : "updated"
        }
    }

    /// The one sentence every template says.
    static func sentence(_ notification: OrderNotification, language: ShopLanguage) -> String {
        let event = notification.event, id = event.order.id.short
        let italian = language == .italian
        let when = pickup(event.pickupLocal, italian: italian)
        let total = amount(event.total, italian: italian)
        // What the history detail says of money (`paid 12.00 card`, `refunded 5.00 card`): its amount.
        let money = event.detail.flatMap { detail in
            detail.split(separator: " ").dropFirst().first.flatMap { Double($0) }.map {
                amount(Money(cents: Int64(($0 * 100).rounded())), italian: italian)
            }
        }
        if let party = notification.party {
            let whole = amount(party.total, italian: italian)
            switch notification.kind {
            case .placed:
                return italian
                    ? "gruppo \(id) confermato: \(party.orders) ordini dal ritiro \(when), totale \(whole)."
                    : "party \(id) confirmed: \(party.orders) orders from pickup \(when), total \(whole)."
            case .paid:
                return italian
                    ? "pagamento ricevuto per il gruppo \(id) (\(party.orders) ordini)."
                    : "payment received for party \(id) (\(party.orders) orders)."
            default: break
            }
        }
        switch notification.kind {
        case .placed:
            return italian
                ? "ordine \(id) confermato, ritiro \(when), totale \(total)."
                : "order \(id) confirmed, pickup \(when), total \(total)."
        case .moved:
            return italian ? "il ritiro dell'ordine \(id) è ora \(when)." : "order \(id) is now for pickup \(when)."
        case .delayed:
            return italian
                ? "ci scusiamo: l'ordine \(id) sarà pronto \(when)."
                : "we are sorry: order \(id) will be ready \(when)."
        case .preparing:
            return italian ? "stiamo preparando l'ordine \(id)." : "order \(id) is being prepared."
        case .ready:
            return italian ? "l'ordine \(id) è pronto, vi aspettiamo!" : "order \(id) is ready for you!"
        case .collected:
            return italian
                ? "grazie, ordine \(id) ritirato. Buon appetito!" : "thank you, order \(id) collected. Enjoy!"
        case .noShow:
            return italian
                ? "l'ordine \(id) non è stato ritirato \(when). Chiamateci."
                : "order \(id) was not collected \(when). Please call us."
        case .cancelled:
            return italian ? "l'ordine \(id) è stato annullato." : "order \(id) has been cancelled."
        case .edited:
            return italian
                ? "l'ordine \(id) è stato modificato, totale \(total)."
                : "order \(id) has been changed, total \(total)."
        case .paid:
            return italian
                ? "pagamento di \(money ?? total) ricevuto per l'ordine \(id)."
                : "payment of \(money ?? total) received for order \(id)."
        case .refunded:
            return italian
                ? "rimborso di \(money ?? total) per l'ordine \(id)."
                : "refund of \(money ?? total) for order \(id)."
        case .undone:
            return italian ? "l'ordine \(id) è stato aggiornato." : "order \(id) has been updated."
        }
    }

    /// `il 04/12 alle 20:30` / `at 20:30 on 2026-12-04`, from a local time with its offset.
    static func pickup(_ local: String, italian: Bool) -> String {
        let date = String(local.prefix(10)), time = String(local.dropFirst(11).prefix(5))
        guard date.count == 10, time.count == 5 else { return local }
        let day = String(date.suffix(2)) + "/" + String(date.dropFirst(5).prefix(2))
        return italian ? "il \(day) alle \(time)" : "at \(time) on \(date)"
    }

    /// `13,00 €` / `€13.00`.
    static func amount(_ money: Money, italian: Bool) -> String {
        italian ? money.plain.replacingOccurrences(of: ".", with: ",") + " €" : money.formatted
    }
}

extension OrderNotification {
    /// The same notification with `template`'s finished text in ``message``.
    public func templated(_ template: MessageTemplate, shop: ShopDetails) -> OrderNotification {
        var copy = self
        copy.message = template.message(for: self, shop: shop)
        return copy
    }
}
