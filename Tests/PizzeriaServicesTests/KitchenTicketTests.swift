import Foundation
import PizzeriaStorage
import PizzeriaTestSupport
import Testing

@testable import PizzeriaServices

/// Display widths (CJK and emoji two columns, combining marks none) and the kitchen ticket laid
/// out with them.
@Suite("Kitchen tickets and display widths")
struct KitchenTicketTests {
    @Test(
        "display widths: ASCII one a character, CJK and emoji two, combining marks and format characters none",
        arguments: [
            ("Margherita", 10), ("山田", 4), ("🍕", 2), ("e\u{301}", 1), ("👨‍👩‍👧", 2), ("🇮🇹", 2), ("a\u{200B}b", 2),
            ("Ｐｉｚｚａ", 10), ("ß", 1), ("❤️", 2), ("", 0),
        ])
    func widths(text: String, columns: Int) {
        #expect(DisplayWidth.of(text) == columns, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test("wrapped text never passes its width, and loses no character", arguments: KitchenTicket.widths)
    func wrapFits(width: Int) {
        var generator = SeededGenerator(seed: UInt64(width))
        let pieces = [
            "pizza", "山田健二", "🍕", "senza", "a\u{301}", "ＰＩＺＺＡ", "x", "bufalaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        ]
        for _ in 0..<500 {
            let words = (0..<Int.random(in: 1...20, using: &generator)).map { _ in
                pieces.randomElement(using: &generator) ?? ""
            }
            let text = "  " + words.joined(separator: " ")
            let lines = DisplayWidth.wrap(text, width: width, indent: 4)
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "\(lines)")
            let kept = lines.joined().filter { $0 != " " }, given = text.filter { $0 != " " }
            #expect(kept == given)
        }
    }

    @Test("a ticket: pickup, short id, customer, items with modifiers, removals and notes; no money; within its width")
    func ticket() throws {
        let (m, _, basilico) = try ModifierGroupKindTests.menu()
        let user = try m.f.pizzeria.users.add(handle: "kenji", displayName: "山田 健二 🍕")
        let placed = try m.f.pizzeria.orders.place(
            OrderRequest(
                user: user.id,
                items: [
                    .init(
                        pizza: m.margherita, quantity: 2, modifiers: [basilico.id, m.bufala.id],
                        note: "ben cotta, tagliata in otto pezzi per favore grazie mille"),
                    .init(pizza: m.margherita, quantity: 1, variant: m.maxi.id, modifiers: [m.integrale.id]),
                ],
                pickup: try m.f.at("19:30"))
        ).order
        var change = OrderEdit()
        change.note = .set("citofono rotto: chiamare")
        try m.f.pizzeria.orders.edit(id: placed.id, change)
        let ticket = try m.f.pizzeria.orders.ticket(of: placed.id)
        #expect(ticket.items == 3 && ticket.customer == "山田 健二 🍕")
        for width in KitchenTicket.widths {
            let text = ticket.text(width: width)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "\(text)")
            #expect(lines.first.map { DisplayWidth.of($0) } == width)
            #expect(text.contains("PICKUP 19:30") && text.contains("#" + placed.id.short) && text.contains("山田 健二 🍕"))
            #expect(
                text.contains("2 x Margherita Normale") && text.contains("\n  senza basilico")
                    && !text.contains("+ senza"))
            #expect(text.contains("+ Aggiunte: bufala") && text.contains("1 x Margherita Maxi"))
            #expect(text.contains("+ Impasto: integrale") && !text.contains("classico"))
            #expect(text.contains(">> ben cotta") && text.contains("NOTE: citofono rotto") && text.contains("3 items"))
            #expect(!text.contains("€") && !text.contains("2.00"), "no money on a kitchen ticket: \(text)")
        }
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(ticket)) as? [String: Any]
        #expect(
            Set(json?.keys.map { $0 } ?? [])
                == [
                    "customer", "items", "lines", "note", "order_id", "party_id", "pickup_at", "pickup_local",
                    "printed_at", "service_day", "short_id", "station", "status",
                ])
        #expect(json?["short_id"] as? String == placed.id.short && json?["items"] as? Int == 3)
        #expect(throws: OrderError.self) { try m.f.pizzeria.orders.ticket(of: Order.ID(uuid: UUID())) }
    }
}
