import Foundation
import PizzeriaStorage
import PizzeriaTestSupport
import Testing

@testable import PizzeriaServices

/// A modifier group's kind (migration 40): an extra is priced and printed with its group, a
/// removal is free and printed `senza NAME`, a choice takes exactly one and a line that names none
/// takes its default, which is not printed — in the library and, for hand-written SQL, in the
/// schema.
@Suite("Modifier group kinds: extras, removals, a choice with a default")
struct ModifierGroupKindTests {
    /// MenuChoiceTests' menu with Impasto made a choice defaulting to classico and a removal,
    /// Senza (basilico), attached to Margherita.
    static func menu() throws -> (MenuChoiceTests.Menu, senza: ModifierGroup, basilico: Modifier) {
        let m = try MenuChoiceTests.menu()
        let menu = m.f.pizzeria.menu
        _ = try menu.editModifierGroup(m.impasto.id, kind: .choice, defaultModifier: m.classico.id)
        let senza = try menu.addModifierGroup(name: "Senza", max: 3, kind: .removal)
        let basilico = try menu.addModifier(to: senza.id, name: "basilico", price: Money(cents: 0))
        try menu.attach(senza.id, to: m.margherita)
        return (m, senza, basilico)
    }

    func auditRows(_ m: MenuChoiceTests.Menu) throws -> Int {
        try m.f.pizzeria.database.read { db in
            try db.fetchOne("SELECT count(*) AS n FROM audit_log", []) { try $0.int("n") } ?? 0
        }
    }

    func book(_ m: MenuChoiceTests.Menu, _ items: [OrderRequest.Item]) throws -> Order {
        try m.f.pizzeria.orders.place(
            OrderRequest(user: try m.f.user("anna"), items: items, pickup: try m.f.at("19:00"))
        ).order
    }

    @Test("a line naming no dough takes the default, unprinted; a removal prints senza; both are in the JSON")
    func defaultsAndRemovals() throws {
        let (m, _, basilico) = try Self.menu()
        let order = try book(
            m,
            [
                .init(pizza: m.margherita, quantity: 1, modifiers: [basilico.id, m.bufala.id]),
                .init(pizza: m.margherita, quantity: 2, modifiers: [m.integrale.id]),
                .init(pizza: m.margherita, quantity: 1, modifiers: [m.classico.id]),
            ])
        let first = order.lines[0], second = order.lines[1]
        #expect(first.modifiers.count == 3)
        let dough = try #require(first.modifiers.first { $0.group == "Impasto" })
        #expect(dough.name == "classico" && dough.isDefault && dough.kind == .choice && dough.text == nil)
        let removal = try #require(first.modifiers.first { $0.group == "Senza" })
        #expect(removal.kind == .removal && removal.text == "senza basilico" && !removal.isDefault)
        #expect(first.label == "Margherita Normale + Aggiunte: bufala + senza basilico", "\(first.label)")
        #expect(first.unitPrice.cents == 800)
        #expect(second.label == "Margherita Normale + Impasto: integrale" && second.unitPrice.cents == 700)
        // Naming the default is the same line as naming none.
        #expect(order.lines[2].label == "Margherita Normale" && order.lines[2].modifiers.allSatisfy(\.isDefault))
        // The stored JSON says so, and reads back the same.
        let again = try #require(try m.f.pizzeria.orders.order(id: order.id))
        #expect(again.lines == order.lines)
        let receipt = try m.f.pizzeria.payments.receipt(of: order.id).text(width: 42)
        #expect(
            receipt.contains("\n  senza basilico") && !receipt.contains("+ senza")
                && receipt.contains("+ Impasto: integrale"))
        #expect(!receipt.contains("classico"), "\(receipt)")
        #expect(try Maintenance.check(path: m.f.base.path, now: m.f.now).domainProblems.isEmpty)
    }

    @Test(
        "naming no dough or naming its default is one line, booked or added; an order holding two such lines grows only into room"
    )
    func defaultIsTheSameLine() throws {
        let (m, _, _) = try Self.menu()
        let orders = m.f.pizzeria.orders
        let order = try book(
            m,
            [
                .init(pizza: m.margherita, quantity: 1),
                .init(pizza: m.margherita, quantity: 2, modifiers: [m.classico.id]),
            ])
        #expect(order.lines.map(\.quantity) == [3])
        // An edit's --add of the same item grows that line (it made a second one: found by the simulator).
        var add = OrderEdit()
        add.add = [.init(pizza: m.margherita, quantity: 1)]
        #expect(try orders.edit(id: order.id, add).lines.map(\.quantity) == [4])
        // An order booked before holds two lines of one choice: a quantity set on them is checked
        // against the slot's room like any growth (the schema refused it with its own text).
        try m.f.pizzeria.database.write { db in
            try db.run(
                """
                INSERT INTO order_lines (order_id, line_no, pizza_id, pizza_name, unit_price_cents, quantity, uses_oven,
                                         variant_id, variant_name, base_price_cents, modifiers, allergens, vat_rate_bp, station_id)
                SELECT order_id, 2, pizza_id, pizza_name, unit_price_cents, 1, uses_oven, variant_id, variant_name,
                       base_price_cents, modifiers, allergens, vat_rate_bp, station_id
                FROM order_lines WHERE order_id = ? AND line_no = 1
                """, [order.id])
        }
        _ = try book(m, [.init(pizza: m.margherita, quantity: 7)])  // the slot (12) is full
        let before = try m.f.base.snapshot()
        var set = OrderEdit()
        set.setQuantity = [.init(pizza: m.margherita, quantity: 3)]
        let refused = #expect(throws: OrderError.self) { try orders.edit(id: order.id, set) }
        guard case .slotFull? = refused else {
            Issue.record("expected the slot's rule, got \(String(describing: refused))")
            return
        }
        #expect(try m.f.base.snapshot() == before)
    }

    @Test("a line stored before kinds (no kind, no default) reads as an extra, printed with its group")
    func olderLinesReadAsExtras() throws {
        let json = #"{"id": 3, "group": "Senza", "name": "basilico", "price": "0.00", "price_cents": 0}"#
        let modifier = try JSONDecoder().decode(ChosenModifier.self, from: Data(json.utf8))
        #expect(modifier.kind == .extra && !modifier.isDefault && modifier.text == "Senza: basilico")
    }

    @Test("each kind's rule is refused by name in the library, and nothing is written")
    func libraryRefusals() throws {
        let (m, senza, basilico) = try Self.menu()
        let menu = m.f.pizzeria.menu
        let audit = try auditRows(m)
        // A removal costs nothing, on any variant.
        #expect(throws: ValidationError.self) {
            try menu.addModifier(to: senza.id, name: "aglio", price: Money(cents: 50))
        }
        #expect(throws: ValidationError.self) { try menu.editModifier(basilico.id, price: Money(cents: 10)) }
        #expect(throws: ValidationError.self) {
            try menu.editModifier(basilico.id, variantPrice: ("Maxi", Money(cents: 10)))
        }
        // A priced group cannot become a removal.
        let kind = #expect(throws: ValidationError.self) { try menu.editModifierGroup(m.aggiunte.id, kind: .removal) }
        #expect(kind?.errors.map(\.field) == ["kind"])
        // A default is one of the group's own modifiers still offered, and only a choice has one.
        let foreign = #expect(throws: ValidationError.self) {
            try menu.editModifierGroup(m.impasto.id, defaultModifier: m.bufala.id)
        }
        #expect(foreign?.errors.map(\.field) == ["default"])
        #expect(throws: ValidationError.self) { try menu.editModifierGroup(senza.id, defaultModifier: basilico.id) }
        // The default is not archived while it is the default.
        let archive = #expect(throws: ValidationError.self) { try menu.editModifier(m.classico.id, archived: true) }
        #expect(archive?.errors.map(\.field) == ["archive"])
        #expect(try auditRows(m) == audit)
        // A choice takes exactly one, whatever bounds are asked; leaving the kind drops the default.
        let doughs = try menu.addModifierGroup(name: "Cottura", min: 0, max: 3, kind: .choice)
        #expect(doughs.minSelected == 1 && doughs.maxSelected == 1)
        let extra = try menu.editModifierGroup(m.impasto.id, kind: .extra)
        #expect(extra.defaultModifier == nil && extra.kind == .extra)
        // Without a default, a line naming no dough is refused by the group's rule.
        let none = #expect(throws: ValidationError.self) { try book(m, [.init(pizza: m.margherita, quantity: 1)]) }
        #expect(none?.errors.first?.message.contains("exactly 1 of Impasto") == true, "\(String(describing: none))")
    }

    @Test("hand-written SQL meets the same rules in the schema's triggers")
    func schemaRefusals() throws {
        let (m, senza, basilico) = try Self.menu()
        let refused: [(String, [any DatabaseValueConvertible])] = [
            ("UPDATE modifiers SET price_cents = 100 WHERE id = ?", [basilico.id]),
            ("INSERT INTO modifiers (group_id, name, price_cents) VALUES (?, 'aglio', 50)", [senza.id]),
            (
                "INSERT INTO modifier_prices (modifier_id, variant_name, price_cents) VALUES (?, 'Maxi', 50)",
                [basilico.id]
            ),
            ("UPDATE modifier_groups SET kind = 'removal' WHERE id = ?", [m.aggiunte.id]),
            ("UPDATE modifier_groups SET max_selected = 2 WHERE id = ?", [m.impasto.id]),
            ("UPDATE modifier_groups SET default_modifier_id = ? WHERE id = ?", [m.bufala.id, m.impasto.id]),
            ("UPDATE modifier_groups SET default_modifier_id = ? WHERE id = ?", [basilico.id, senza.id]),
            ("UPDATE modifiers SET archived_at = '2026-12-01T10:00:00Z' WHERE id = ?", [m.classico.id]),
            (
                "INSERT INTO modifier_groups (name, kind, min_selected, max_selected) VALUES ('Forno', 'choice', 0, 2)",
                []
            ),
            ("UPDATE modifier_groups SET kind = 'other' WHERE id = ?", [senza.id]),
        ]
        for (sql, arguments) in refused {
            let refusal = #expect(throws: DatabaseError.self, "\(sql)") {
                try m.f.pizzeria.database.write { db in _ = try db.run(sql, arguments) }
            }
            #expect(refusal?.message.contains("group_kind") == true || refusal?.message.contains("CHECK") == true)
        }
        #expect(try m.f.pizzeria.menu.modifierGroup(named: "Impasto").defaultModifier == m.classico.id)
    }

    @Test("the menu file carries kinds and defaults, and importing it makes the same groups")
    func menuFileRoundTrip() throws {
        let (m, _, _) = try Self.menu()
        let file = try m.f.pizzeria.menu.export()
        let impasto = try #require(file.modifierGroups.first { $0.name == "Impasto" })
        #expect(impasto.kind == "choice" && impasto.default == "classico")
        #expect(file.modifierGroups.first { $0.name == "Senza" }?.kind == "removal")
        let other = try OrderFixture()
        _ = try other.pizzeria.menu.importMenu(file)
        let groups = try other.pizzeria.menu.modifierGroups()
        let imported = try #require(groups.first { $0.name == "Impasto" })
        #expect(imported.kind == .choice)
        #expect(imported.defaultModifier == imported.modifiers.first { $0.name == "classico" }?.id)
        #expect(groups.first { $0.name == "Senza" }?.kind == .removal)
        // A removal priced in the file is refused, naming the place and the field.
        var priced = file
        let index = try #require(priced.modifierGroups.firstIndex { $0.name == "Senza" })
        priced.modifierGroups[index].modifiers[0].price = "1.00"
        let error = #expect(throws: (any Error).self) { try other.pizzeria.menu.importMenu(priced) }
        #expect("\(String(describing: error))".contains("removal"))
    }
}
