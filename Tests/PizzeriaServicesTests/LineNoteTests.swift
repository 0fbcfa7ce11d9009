import Foundation
import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport
import Testing

/// A note on an order line for the kitchen (migration 39): booked with the item, set or cleared
/// by an edit, on the board, the receipt and the JSON, limited as an order's note, erased with
/// the customer.
@Suite("Line notes: for the kitchen, on every view of the order, erased with the customer")
struct LineNoteTests {
    @Test("a noted item is a line of its own; an edit sets and clears a line's note; both are in the history")
    func bookAndEdit() throws {
        let f = try OrderFixture()
        let margherita = try f.pizza("Margherita")
        let order = try f.pizzeria.orders.place(
            OrderRequest(
                user: try f.user("anna"),
                items: [
                    .init(pizza: margherita, quantity: 2, note: " ben cotta "), .init(pizza: margherita),
                    .init(pizza: margherita, note: "ben cotta"),
                ], pickup: try f.at("19:00"))
        ).order
        #expect(order.lines.map(\.quantity) == [3, 1] && order.lines.map(\.note) == ["ben cotta", nil])
        var change = OrderEdit()
        change.lineNotes = [1: .clear, 2: .set("tagliata a spicchi")]
        let edited = try f.pizzeria.orders.edit(id: order.id, change, by: "giulia")
        #expect(edited.lines.map(\.note) == [nil, "tagliata a spicchi"])
        #expect(
            edited.history.last?.detail == "Margherita note removed, Margherita note: tagliata a spicchi",
            "\(String(describing: edited.history.last?.detail))")
        let board = try f.pizzeria.orders.board(day: LocalDate("2026-12-01"))
        #expect(board.slots.first?.bake.contains { $0.item == "Margherita (tagliata a spicchi)" } == true)
        let receipt = try f.pizzeria.payments.receipt(of: order.id).text(width: 32)
        #expect(receipt.contains("(tagliata a spicchi)"))
        let json = String(decoding: try JSONEncoder().encode(edited), as: UTF8.self)
        #expect(json.contains(#""note":"tagliata a spicchi""#))
    }

    @Test("a line's remarks are one list every view shows in its own form; the customer's copy leaves the staff's out")
    func remarksOnEveryView() throws {
        let f = try OrderFixture()
        let order = try f.pizzeria.orders.place(
            OrderRequest(
                user: try f.user("anna"),
                items: [
                    .init(pizza: try f.pizza("Margherita"), note: "ben cotta"), .init(pizza: try f.pizza("Marinara")),
                ],
                pickup: try f.at("19:00"))
        ).order
        let noted = try #require(order.lines.first { $0.note != nil })
        #expect(noted.remarks == [LineRemark(label: "note", text: "ben cotta", isStaffText: true)])
        #expect(order.lines.first { $0.note == nil }?.remarks == [])
        #expect(noted.labelWithNote == "Margherita (ben cotta)")
        #expect(noted.forCustomer.remarks.isEmpty && noted.forCustomer.note == nil)
        #expect(noted.forCustomer.with(note: "ben cotta") == noted, "only the staff's words are left out")
        let ticket = try f.pizzeria.orders.ticket(of: order.id).text(width: 32)
        #expect(ticket.contains("\n  >> ben cotta\n"), "\(ticket)")
        let receipt = try f.pizzeria.payments.receipt(of: order.id).text(width: 32)
        #expect(receipt.contains("\n  (ben cotta)\n"), "\(receipt)")
        let board = try f.pizzeria.orders.board(day: LocalDate("2026-12-01"))
        #expect(board.slots.first?.bake.contains { $0.item == "Margherita (ben cotta)" } == true)
    }

    @Test("a line's note is trimmed and NFC-normalised as it is checked: blank is refused, é is one é")
    func normalised() throws {
        let f = try OrderFixture()
        let margherita = try f.pizza("Margherita")
        let before = try f.base.snapshot()
        let blank = #expect(throws: ValidationError.self) {
            try f.pizzeria.orders.place(
                OrderRequest(
                    user: try f.user("anna"),
                    items: [.init(pizza: margherita), .init(pizza: margherita, note: "   ")],
                    pickup: try f.at("19:00")))
        }
        #expect(
            blank?.errors.map(\.field) == ["line-note"] && blank?.description.contains("(item 2)") == true,
            "\(String(describing: blank))")
        #expect(try f.base.snapshot() == before)
        let order = try f.pizzeria.orders.place(
            OrderRequest(
                user: try f.user("anna"),
                items: [
                    .init(pizza: margherita, annotations: LineAnnotations(note: " caffe\u{301} ")),
                    .init(pizza: margherita, note: "caff\u{E9}"),
                ], pickup: try f.at("19:00"))
        ).order
        #expect(order.lines.map(\.note) == ["caff\u{E9}"] && order.lines.map(\.quantity) == [2])
        #expect(order.lines.first?.note?.unicodeScalars.count == 5)
        var change = OrderEdit()
        change.lineNotes = [1: .set("  ")]
        #expect(change.lineAnnotations == [1: LineAnnotations.Change(note: .set("  "))])
        let refused = #expect(throws: ValidationError.self) { try f.pizzeria.orders.edit(id: order.id, change) }
        #expect(refused?.description.contains("(line 1)") == true, "\(String(describing: refused))")
        change.lineNotes = [:]
        #expect(change.lineAnnotations.isEmpty && change.isEmpty)
    }

    @Test("a note is limited like an order's, and refused on a line that is not there; nothing is written")
    func limits() throws {
        let f = try OrderFixture()
        let margherita = try f.pizza("Margherita")
        #expect(throws: ValidationError.self) {
            try f.pizzeria.orders.place(
                OrderRequest(
                    user: try f.user("anna"),
                    items: [.init(pizza: margherita, note: String(repeating: "x", count: 201))],
                    pickup: try f.at("19:00")))
        }
        let order = try f.place("anna", "19:00", ("Margherita", 1)).order
        let before = try f.base.snapshot()
        var change = OrderEdit()
        change.lineNotes = [2: .set("ben cotta")]
        #expect(throws: ValidationError.self) { try f.pizzeria.orders.edit(id: order.id, change) }
        change.lineNotes = [1: .set("a\u{7}b")]
        #expect(throws: ValidationError.self) { try f.pizzeria.orders.edit(id: order.id, change) }
        #expect(try f.base.snapshot() == before)
    }

    @Test("an erasure takes the notes of the customer's lines, collected orders' included")
    func erased() throws {
        let f = try OrderFixture()
        let order = try f.pizzeria.orders.place(
            OrderRequest(
                user: try f.user("anna"), items: [.init(pizza: try f.pizza("Margherita"), note: "per Anna-Secret")],
                pickup: try f.at("19:00"))
        ).order
        try f.pizzeria.orders.collect(id: order.id, by: "giulia", settling: .unpaid(reason: "tab"))
        try f.pizzeria.users.erase(id: try f.user("anna"), by: "giulia")
        #expect(!(try f.base.snapshot().joined().contains("Anna-Secret")))
        #expect(try Maintenance.check(path: f.base.path, now: f.now).domainProblems.isEmpty)
    }
}
