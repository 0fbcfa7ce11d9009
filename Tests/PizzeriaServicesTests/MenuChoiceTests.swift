import Foundation
import PizzeriaStorage
import PizzeriaTestSupport
import Testing

@testable import PizzeriaServices

/// Variants, modifier groups and allergens (migration 16): a line names its variant and
/// modifiers, snapshots their prices, and keeps each group's bounds — in the library and, for
/// hand-written SQL, in the schema.
@Suite("Menu choices: variants, modifiers, allergens")
struct MenuChoiceTests {
    /// Margherita (6.00) with a Maxi at 9.00, Aggiunte (0–3: bufala 2.00, 3.00 on a Maxi, milk;
    /// 'nduja 1.50) and Impasto (exactly 1: classico 0.00, integrale 1.00, gluten) attached.
    struct Menu {
        let f: OrderFixture
        let margherita: Pizza.ID
        let maxi: Variant
        let aggiunte: ModifierGroup
        let impasto: ModifierGroup
        let bufala, nduja, classico, integrale: Modifier
    }

    static func menu() throws -> Menu {
        let f = try OrderFixture()
        let menu = f.pizzeria.menu
        let margherita = try f.pizza("Margherita")
        let maxi = try menu.addVariant(to: margherita, name: "Maxi", price: Money(cents: 900))
        let aggiunte = try menu.addModifierGroup(name: "Aggiunte", min: 0, max: 3)
        let impasto = try menu.addModifierGroup(name: "Impasto", min: 1, max: 1)
        let bufala = try menu.addModifier(to: aggiunte.id, name: "bufala", price: Money(cents: 200), allergens: [.milk])
        _ = try menu.editModifier(bufala.id, variantPrice: ("Maxi", Money(cents: 300)))
        let nduja = try menu.addModifier(to: aggiunte.id, name: "'nduja", price: Money(cents: 150))
        let classico = try menu.addModifier(to: impasto.id, name: "classico", price: Money(cents: 0))
        let integrale = try menu.addModifier(
            to: impasto.id, name: "integrale", price: Money(cents: 100), allergens: [.gluten])
        try menu.attach(aggiunte.id, to: margherita)
        try menu.attach(impasto.id, to: margherita)
        try menu.setAllergens([.gluten, .milk], of: margherita)
        return Menu(
            f: f, margherita: margherita, maxi: maxi, aggiunte: aggiunte, impasto: impasto, bufala: bufala,
            nduja: nduja, classico: classico, integrale: integrale)
    }

    func book(_ m: Menu, _ items: [OrderRequest.Item], at time: String = "19:00") throws -> Order {
        try m.f.pizzeria.orders.place(
            OrderRequest(user: try m.f.user("anna"), items: items, pickup: try m.f.at(time))
        ).order
    }

    @Test("a line is (variant + modifiers on that variant) × quantity, snapshotted with names and allergens")
    func linePrices() throws {
        let m = try Self.menu()
        let order = try book(
            m,
            [
                .init(pizza: m.margherita, quantity: 2, variant: m.maxi.id, modifiers: [m.bufala.id, m.classico.id]),
                .init(pizza: m.margherita, quantity: 1, modifiers: [m.integrale.id]),
            ])
        #expect(order.lines.count == 2)
        let maxi = order.lines[0], plain = order.lines[1]
        #expect(maxi.basePrice.cents == 900 && maxi.unitPrice.cents == 1200 && maxi.total.cents == 2400)
        #expect(maxi.variantName == "Maxi" && maxi.modifiers.map(\.name) == ["bufala", "classico"])
        #expect(maxi.modifiers.map(\.price.cents) == [300, 0])
        #expect(maxi.label == "Margherita Maxi + Aggiunte: bufala + Impasto: classico")
        #expect(plain.variantName == "Normale" && plain.unitPrice.cents == 700)
        #expect(plain.allergens == [.gluten, .milk])
        #expect(order.total.cents == 3100)
        // What was booked stays what it was when the menu changes.
        _ = try m.f.pizzeria.menu.editModifier(m.bufala.id, price: Money(cents: 250))
        _ = try m.f.pizzeria.menu.editVariant(m.maxi.id, of: m.margherita, price: Money(cents: 1000))
        let again = try #require(try m.f.pizzeria.orders.order(id: order.id))
        #expect(again.lines == order.lines && again.total.cents == 3100)
        #expect(try Maintenance.check(path: m.f.base.path, now: m.f.now).domainProblems.isEmpty)
    }

    @Test(
        "each group's bounds, an item's own modifiers and archived ones are refused, naming the rule; nothing written")
    func choiceRules() throws {
        let m = try Self.menu()
        let missing = #expect(throws: ValidationError.self) { try book(m, [.init(pizza: m.margherita)]) }
        #expect(
            missing?.errors.first?.message.contains("exactly 1 of Impasto") == true, "\(String(describing: missing))")
        let two = #expect(throws: ValidationError.self) {
            try book(m, [.init(pizza: m.margherita, modifiers: [m.classico.id, m.integrale.id])])
        }
        #expect(two?.errors.first?.field == "modifiers")
        let marinara = try m.f.pizza("Marinara")
        let stray = #expect(throws: ValidationError.self) {
            try book(m, [.init(pizza: marinara, modifiers: [m.bufala.id])])
        }
        #expect(stray?.errors.first?.message.contains("not offered with Marinara") == true)
        let twice = #expect(throws: ValidationError.self) {
            try book(m, [.init(pizza: m.margherita, modifiers: [m.classico.id, m.classico.id])])
        }
        #expect(twice?.errors.first?.message.contains("each modifier once") == true)
        _ = try m.f.pizzeria.menu.editModifier(m.bufala.id, archived: true)
        let archived = #expect(throws: OrderError.self) {
            try book(m, [.init(pizza: m.margherita, modifiers: [m.bufala.id, m.classico.id])])
        }
        #expect(archived == .archivedModifier(item: "Margherita", modifier: "bufala"))
        #expect(try m.f.pizzeria.orders.list().isEmpty)
    }

    @Test("the same choice twice is one line; other choices of one item are their own lines; edits go by choice")
    func mergingAndEdits() throws {
        let m = try Self.menu()
        let plain = OrderRequest.Item(pizza: m.margherita, quantity: 1, modifiers: [m.classico.id])
        let normale = try #require(try m.f.pizzeria.menu.item(m.margherita).defaultVariant)
        let named = OrderRequest.Item(pizza: m.margherita, quantity: 2, variant: normale.id, modifiers: [m.classico.id])
        let order = try book(
            m, [plain, named, .init(pizza: m.margherita, variant: m.maxi.id, modifiers: [m.classico.id])])
        #expect(order.lines.map(\.quantity) == [3, 1])
        var change = OrderEdit()
        change.setQuantity = [.init(pizza: m.margherita, quantity: 5, modifiers: [m.classico.id])]
        change.add = [.init(pizza: m.margherita, variant: m.maxi.id, modifiers: [m.integrale.id, m.nduja.id])]
        let edited = try m.f.pizzeria.orders.edit(id: order.id, change)
        #expect(edited.lines.map(\.quantity) == [5, 1, 1])
        #expect(edited.lines[2].label == "Margherita Maxi + Aggiunte: 'nduja + Impasto: integrale")
        let removed = try m.f.pizzeria.orders.edit(
            id: order.id,
            OrderEdit(remove: [m.margherita], setQuantity: [.init(pizza: try m.f.pizza("Porcini"), quantity: 1)]))
        #expect(removed.lines.map(\.pizzaName) == ["Porcini"])
    }

    @Test("an item with one variant books and reads as a pizza did: no variant name, one line per pizza")
    func singleVariantUnchanged() throws {
        let f = try OrderFixture()
        let order = try f.place("anna", "19:00", ("Porcini", 2), ("Porcini", 1)).order
        #expect(order.lines.count == 1 && order.lines[0].variantName == nil && order.lines[0].label == "Porcini")
        #expect(order.lines[0].basePrice == order.lines[0].unitPrice && order.total.cents == 3600)
    }

    @Test("the default variant's price is the item's, both ways; the default cannot be removed or unset")
    func defaultVariant() throws {
        let m = try Self.menu()
        let menu = m.f.pizzeria.menu
        let item = try menu.item(m.margherita)
        let normale = try #require(item.defaultVariant)
        #expect(normale.name == Variant.defaultName && normale.price.cents == 600)
        _ = try menu.editVariant(m.maxi.id, of: m.margherita, makeDefault: true)
        #expect(try menu.pizza(id: m.margherita)?.price.cents == 900)
        #expect(try menu.item(m.margherita).variants.filter(\.isDefault).map(\.name) == ["Maxi"])
        var draft = try menu.editDraft(for: m.margherita)
        draft.price = Money(cents: 950)
        _ = try menu.save(draft)
        #expect(try menu.item(m.margherita).defaultVariant?.price.cents == 950)
        let refused = #expect(throws: MenuError.self) { try menu.removeVariant(m.maxi.id, of: m.margherita) }
        #expect(refused?.description.contains("make another the default first") == true)
        try menu.removeVariant(normale.id, of: m.margherita)
        #expect(try menu.item(m.margherita).variants.map(\.name) == ["Maxi"])
        let sql = #expect(throws: DatabaseError.self) {
            try m.f.pizzeria.database.write { db in _ = try db.run("UPDATE pizza_variants SET is_default = 0") }
        }
        #expect(sql?.message.contains("variant_default") == true)
        #expect(try Maintenance.check(path: m.f.base.path, now: m.f.now).domainProblems.isEmpty)
    }

    @Test(
        "the default variant stores no price of its own (migration 36): every way a price reaches it moves the price to the item"
    )
    func defaultVariantStoresNoPrice() throws {
        let m = try Self.menu()
        let menu = m.f.pizzeria.menu
        let database = m.f.pizzeria.database
        func stored() throws -> [String] {
            try database.read { db in
                try db.fetchAll(
                    """
                    SELECT v.name, v.price_cents, v.is_default, p.price_cents AS item
                    FROM pizza_variants v JOIN pizzas p ON p.id = v.pizza_id WHERE p.id = ? ORDER BY v.id
                    """, [m.margherita]
                ) {
                    "\(try $0.string("name")) " + (try $0.optionalInt64("price_cents").map(String.init) ?? "-")
                        + (try $0.int("is_default") == 1 ? " default" : "") + " item \(try $0.int64("item"))"
                }
            }
        }
        func sql(_ statement: String) -> String {
            do {
                try database.write { db in _ = try db.run(statement) }
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        #expect(try stored() == ["Normale - default item 600", "Maxi 900 item 600"])
        // Every reader sees the item's price on the default.
        #expect(try menu.item(m.margherita).variants.map(\.price.cents) == [600, 900])
        // A price written to the default by hand becomes the item's (and its history's).
        #expect(sql("UPDATE pizza_variants SET price_cents = 650 WHERE is_default = 1") == "accepted")
        #expect(try stored() == ["Normale - default item 650", "Maxi 900 item 650"])
        #expect(try menu.history(of: m.margherita).max(by: { $0.version < $1.version })?.newPrice.cents == 650)
        // Another variant made the default: its price becomes the item's, the old default keeps its own.
        _ = try menu.editVariant(m.maxi.id, of: m.margherita, makeDefault: true)
        #expect(try stored() == ["Normale 650 item 900", "Maxi - default item 900"])
        #expect(try menu.item(m.margherita).variants.map(\.price.cents) == [650, 900])
        // The same by hand, and a variant inserted as the default.
        #expect(sql("UPDATE pizza_variants SET is_default = 1 WHERE name = 'Normale'") == "accepted")
        #expect(try stored() == ["Normale - default item 650", "Maxi 900 item 650"])
        let added = try menu.addVariant(to: m.margherita, name: "Baby", price: Money(cents: 500), isDefault: true)
        #expect(added.price.cents == 500 && added.isDefault)
        #expect(try stored() == ["Normale 650 item 500", "Maxi 900 item 500", "Baby - default item 500"])
        // Refused: another variant without a price; the only default demoted by hand.
        #expect(sql("UPDATE pizza_variants SET price_cents = NULL WHERE name = 'Maxi'").contains("variant_price"))
        #expect(sql("UPDATE pizza_variants SET is_default = 0 WHERE name = 'Baby'").contains("variant_default"))
        #expect(try stored() == ["Normale 650 item 500", "Maxi 900 item 500", "Baby - default item 500"])
        // A booking of the default is at the item's price now; a line snapshotting another is refused.
        var draft = try menu.editDraft(for: m.margherita)
        draft.price = Money(cents: 550)
        _ = try menu.save(draft)
        let order = try book(m, [.init(pizza: m.margherita, modifiers: [m.classico.id])])
        #expect(order.lines.map(\.unitPrice.cents) == [550])
        #expect(try stored() == ["Normale 650 item 550", "Maxi 900 item 550", "Baby - default item 550"])
        #expect(
            sql(
                """
                INSERT INTO order_lines (order_id, line_no, pizza_id, pizza_name, unit_price_cents, quantity,
                                         variant_id, variant_name, base_price_cents, modifiers, allergens)
                SELECT '\(order.id)', 2, pizza_id, 'Margherita', 500, 1, id, name, 500,
                       '[{"group":"Impasto","id":\(m.classico.id),"name":"classico","price_cents":0}]', 65
                FROM pizza_variants WHERE pizza_id = '\(m.margherita)' AND is_default = 1
                """
            ).contains("line_snapshot"))
        #expect(try Maintenance.check(path: m.f.base.path, now: m.f.now).domainProblems.isEmpty)
    }

    @Test(
        "every change the sheet can make bumps the item's version once, whatever path made it: a sheet saved from an older draft is a conflict"
    )
    func choicesBumpVersion() throws {
        let m = try Self.menu()
        let menu = m.f.pizzeria.menu
        let db = m.f.pizzeria.database
        let fritti = try menu.addCategory(name: "Fritti")
        let changes: [(String, () throws -> Void)] = [
            ("variant added", { _ = try menu.addVariant(to: m.margherita, name: "Baby", price: Money(cents: 500)) }),
            ("variant renamed", { _ = try menu.editVariant(m.maxi.id, of: m.margherita, name: "Grande") }),
            ("group detached", { _ = try menu.detach(m.impasto.id, from: m.margherita) }),
            ("group attached", { _ = try menu.attach(m.impasto.id, to: m.margherita) }),
            ("allergens", { _ = try menu.setAllergens([.gluten], of: m.margherita) }),
            (
                "sql variant price",
                {
                    try db.write {
                        _ = try $0.run("UPDATE pizza_variants SET price_cents = 950 WHERE id = ?", [m.maxi.id])
                    }
                }
            ),
            (
                "sql category",
                {
                    try db.write {
                        _ = try $0.run("UPDATE pizzas SET category_id = ? WHERE id = ?", [fritti.id, m.margherita])
                    }
                }
            ),
            (
                "sql variant removed",
                { try db.write { _ = try $0.run("DELETE FROM pizza_variants WHERE name = 'Baby'") } }
            ),
        ]
        for (label, change) in changes {
            let draft = try menu.editDraft(for: m.margherita)
            let before = try #require(try menu.pizza(id: m.margherita)).version
            try change()
            #expect(try menu.pizza(id: m.margherita)?.version == before + 1, "\(label)")
            var stale = draft
            stale.name = "Margherita DOP"
            let error = #expect(throws: MenuError.self, "\(label)") { try menu.save(stale) }
            guard case .conflict = error else { Issue.record("\(label): \(String(describing: error))"); continue }
        }
        // A price edit still bumps once, though it reaches the default variant too; stock does not bump.
        let version = try #require(try menu.pizza(id: m.margherita)).version
        var draft = try menu.editDraft(for: m.margherita)
        draft.price = Money(cents: 640)
        #expect(try menu.save(draft).version == version + 1)
        try db.write { _ = try $0.run("UPDATE pizzas SET stock_left = 5 WHERE id = ?", [m.margherita]) }
        #expect(try menu.pizza(id: m.margherita)?.version == version + 1)
    }

    @Test("the schema's allergens table and the library's Allergen agree: codes and bits, in Annex II order")
    func allergenBits() throws {
        let f = try OrderFixture()
        let rows = try f.pizzeria.database.read { db in
            try db.fetchAll("SELECT code, bit FROM allergens ORDER BY bit") {
                (try $0.string("code"), try $0.int64("bit"))
            }
        }
        #expect(rows.map(\.0) == Allergen.allCases.map(\.rawValue))
        #expect(rows.map(\.1) == Allergen.allCases.map(\.bit))
        #expect(Allergen.set(bits: 64 | 1) == [.milk, .gluten] && Allergen.bits([.molluscs]) == 8192)
    }

    @Test("every one of the 16,384 allergen sets reads back from its bits, twice (the second from the kept slots)")
    func everyAllergenSet() {
        var wrong: [Int64] = []
        for _ in 0..<2 {
            for bits in Int64(0)..<(1 << 14) {
                let expected = Set(Allergen.allCases.filter { bits & $0.bit != 0 })
                if Allergen.set(bits: bits) != expected || Allergen.bits(expected) != bits { wrong.append(bits) }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
        #expect(Allergen.set(bits: 1 << 20) == [] && Allergen.set(bits: (1 << 20) | 8) == [.fish])
    }

    @Test("bad menu input is refused naming the field, nothing written")
    func badInput() throws {
        let m = try Self.menu()
        let menu = m.f.pizzeria.menu
        let bounds = #expect(throws: ValidationError.self) { try menu.addModifierGroup(name: "Salse", min: 3, max: 1) }
        #expect(bounds?.errors.first?.field == "min")
        let price = #expect(throws: ValidationError.self) {
            try menu.addModifier(to: m.aggiunte.id, name: "oro", price: Money(cents: 10_001))
        }
        #expect(price?.errors.first?.field == "price")
        let variant = #expect(throws: ValidationError.self) {
            try menu.addVariant(to: m.margherita, name: "Baby", price: Money(cents: 0))
        }
        #expect(variant?.errors.first?.field == "price")
        #expect(throws: MenuError.self) {
            try menu.addVariant(to: m.margherita, name: "maxi", price: Money(cents: 900))
        }
        #expect(throws: ValidationError.self) { try Allergen.parse("gluten,peanut") }
        #expect(try Allergen.parse("Gluten, milk") == [.gluten, .milk])
        #expect(try menu.modifierGroups().map(\.name) == ["Aggiunte", "Impasto"])
        #expect(try menu.item(m.margherita).variants.count == 2)
    }

    @Test("hand-written lines keep the menu's rules: group bounds, the snapshot, the unit price")
    func schemaKeepsTheRules() throws {
        let m = try Self.menu()
        let order = try book(m, [.init(pizza: m.margherita, modifiers: [m.classico.id])])
        func insert(_ modifiers: String?, unit: Int, base: Int = 600) throws {
            try m.f.pizzeria.database.write { db in
                _ = try db.run(
                    """
                    INSERT INTO order_lines (order_id, line_no, pizza_id, pizza_name, unit_price_cents, quantity,
                                             variant_id, variant_name, base_price_cents, modifiers, allergens)
                    SELECT ?, 2, pizza_id, 'Margherita', ?, 1, id, name, ?, ?, 65 FROM pizza_variants
                    WHERE pizza_id = ? AND is_default = 1
                    """, [order.id, unit, base, modifiers, m.margherita])
            }
        }
        func message(_ body: () throws -> Void) -> String {
            do {
                try body()
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        let classico = #"[{"group":"Impasto","id":\#(m.classico.id),"name":"classico","price_cents":0}]"#
        let integrale = #"[{"group":"Impasto","id":\#(m.integrale.id),"name":"integrale","price_cents":100}]"#
        let cheap = #"[{"group":"Impasto","id":\#(m.integrale.id),"name":"integrale","price_cents":0}]"#
        let both =
            #"[{"group":"Impasto","id":\#(m.classico.id),"name":"classico","price_cents":0},{"group":"Impasto","id":\#(m.integrale.id),"name":"integrale","price_cents":100}]"#
        #expect(message { try insert(nil, unit: 600) }.contains("line_modifier_count"))
        #expect(message { try insert(both, unit: 700) }.contains("line_modifier_count"))
        #expect(message { try insert(cheap, unit: 600) }.contains("line_modifier"))
        #expect(message { try insert(integrale, unit: 600) }.contains("line_price"))
        #expect(message { try insert(classico, unit: 600, base: 500) }.contains("line_snapshot"))
        #expect(message { try insert(integrale, unit: 700) } == "accepted")
        #expect(try m.f.pizzeria.orders.order(id: order.id)?.total.cents == 1300)
    }

    @Test("an older file upgrades: every item gets one default variant at its price; old lines read and total the same")
    func upgrade() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("old.sqlite")
        let old = try SchemaMigrator(migrations: Array(Migration.embedded.prefix(15))).open(
            path: path, access: .migrate)
        try old.write { db in
            try db.execute(
                """
                UPDATE settings SET time_zone = 'Europe/Rome';
                INSERT INTO users (id, handle) VALUES ('11111111-1111-4111-8111-111111111111', 'anna');
                INSERT INTO pizzas (id, name, price_cents) VALUES ('22222222-2222-4222-8222-222222222222', 'Margherita', 600);
                INSERT INTO orders (id, user_id, pickup_at, service_day, pickup_local)
                VALUES ('33333333-3333-4333-8333-333333333333', '11111111-1111-4111-8111-111111111111',
                        '2026-12-02T18:30:00Z', '2026-12-02', '2026-12-02T19:30+01:00');
                INSERT INTO order_lines (order_id, line_no, pizza_id, pizza_name, unit_price_cents, quantity)
                VALUES ('33333333-3333-4333-8333-333333333333', 1, '22222222-2222-4222-8222-222222222222', 'Margherita', 550, 3);
                """)
        }
        let pizzeria = try Pizzeria.open(path: path)
        let orderID = try #require(Order.ID("33333333-3333-4333-8333-333333333333"))
        let order = try #require(try pizzeria.orders.order(id: orderID))
        #expect(order.total.cents == 1650 && order.lines.first?.label == "Margherita")
        #expect(order.lines.first?.basePrice.cents == 550 && order.lines.first?.variantID != nil)
        let item = try pizzeria.menu.item(try #require(Pizza.ID("22222222-2222-4222-8222-222222222222")))
        #expect(item.variants.map(\.name) == ["Normale"] && item.variants.first?.price.cents == 600)
        #expect(try Maintenance.check(path: path).domainProblems.isEmpty)
    }
}
