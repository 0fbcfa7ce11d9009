import Foundation
import PizzeriaStorage
import PizzeriaTestSupport
import Testing

@testable import PizzeriaServices

/// Migration 31: every variant and every group on an item carries the item's `name_key`
/// (`pizza_name_key`), so that the menu read walks its three statements in one order. The key is
/// derived data: kept by triggers on every path, refused when typed wrong, and read by the menu
/// through its own index.
@Suite("The menu's order keys: each variant and group row carries its item's name_key")
struct MenuOrderKeyTests {
    struct Shop {
        let f: Fixture
        let margherita, diavola: Pizza
        let aggiunte: ModifierGroup
    }

    func shop() throws -> Shop {
        let f = try Fixture()
        let margherita = try f.add("Margherita", 600)
        let diavola = try f.add("Diavola", 750)
        let menu = f.pizzeria.menu
        _ = try menu.addVariant(to: margherita.id, name: "Maxi", price: Money(cents: 900))
        _ = try menu.addVariant(to: diavola.id, name: "Maxi", price: Money(cents: 1_050))
        let aggiunte = try menu.addModifierGroup(name: "Aggiunte", min: 0, max: 3)
        try menu.attach(aggiunte.id, to: margherita.id)
        try menu.attach(aggiunte.id, to: diavola.id)
        return Shop(f: f, margherita: margherita, diavola: diavola, aggiunte: aggiunte)
    }

    func sql(_ f: Fixture, _ text: String, _ arguments: [any DatabaseValueConvertible] = []) throws {
        try f.pizzeria.database.write { try $0.run(text, arguments) }
    }

    /// Every variant and group row as `table item: its key` — the key the row carries, or
    /// `wrong` where it is not its item's.
    func keys(_ f: Fixture) throws -> [String] {
        try f.pizzeria.database.read { db in
            try db.fetchAll(
                """
                SELECT 'variant' AS kind, p.name AS item, v.name AS name,
                       CASE WHEN v.pizza_name_key IS p.name_key THEN v.pizza_name_key ELSE 'wrong' END AS key
                FROM pizza_variants v JOIN pizzas p ON p.id = v.pizza_id
                UNION ALL
                SELECT 'group', p.name, g.name, CASE WHEN a.pizza_name_key IS p.name_key THEN a.pizza_name_key ELSE 'wrong' END
                FROM pizza_modifier_groups a JOIN pizzas p ON p.id = a.pizza_id JOIN modifier_groups g ON g.id = a.group_id
                ORDER BY kind, item, name
                """
            ) {
                "\(try $0.string("kind")) \(try $0.string("item"))/\(try $0.string("name")): \(try $0.optionalString("key") ?? "NULL")"
            }
        }
    }

    /// The menu as the app reads it: each item with its variants' and groups' names.
    func menu(_ f: Fixture) throws -> [String] {
        var entries: [String] = []
        let outline = try f.pizzeria.menu.forEachEntry(includeArchived: true) { entry in
            let variants = entry.variants.map(\.name).sorted().joined(separator: ",")
            entries.append("\(entry.pizza.name) [\(variants)] groups \(entry.groupIDs.count)")
        }
        #expect(outline.groups.count >= 1)
        return entries
    }

    @Test(
        "the menu read finds variants and groups by the item's key in their menu-order index: no scan, no sort",
        arguments: [false, true])
    func queryPlans(includeArchived: Bool) throws {
        let keys = includeArchived ? MenuStreamStore.whole : MenuStreamStore.active
        let shop = try shop()
        for (statement, index) in [
            (keys.variants, "pizza_variants_in_menu_order (pizza_name_key=?)"),
            (keys.groups, "pizza_modifier_groups_in_menu_order (pizza_name_key=?)"),
        ] {
            let plan = try shop.f.pizzeria.database.withWriter { db in
                try db.fetchAll("EXPLAIN QUERY PLAN " + statement.sql) { try $0.string("detail") }
            }
            #expect(plan.contains { $0.contains(index) }, "\(plan)")
            #expect(plan.contains { $0.contains("SCAN p USING INDEX pizzas_name_key") }, "\(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN") && !$0.contains("USING") }, "\(plan)")
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        }
    }

    @Test(
        "the key follows every path: the sheet, a rename typed by hand, a key brought by hand, rows added and moved by hand"
    )
    func keyFollows() throws {
        let shop = try shop()
        let f = shop.f
        #expect(
            try keys(f) == [
                "group Diavola/Aggiunte: diavola", "group Margherita/Aggiunte: margherita",
                "variant Diavola/Maxi: diavola", "variant Diavola/Normale: diavola",
                "variant Margherita/Maxi: margherita", "variant Margherita/Normale: margherita",
            ])
        // The edit sheet renames.
        var draft = try f.pizzeria.menu.editDraft(for: shop.margherita.id)
        draft.name = "Bufala"
        _ = try f.pizzeria.menu.save(draft)
        // An ASCII rename typed by hand (its trigger sets name_key), and a non-ASCII one with its key.
        try sql(f, "UPDATE pizzas SET name = 'Zucca' WHERE id = ?", [shop.diavola.id])
        // A variant and a group added by hand without the key; a group moved to another item.
        try sql(
            f, "INSERT INTO pizza_variants (pizza_id, name, price_cents, position) VALUES (?, 'Baby', 500, 3)",
            [shop.margherita.id])
        let senza = try f.pizzeria.menu.addModifierGroup(name: "Senza", min: 0, max: 2)
        try sql(
            f, "INSERT INTO pizza_modifier_groups (pizza_id, group_id) VALUES (?, ?)", [shop.margherita.id, senza.id])
        try sql(
            f, "UPDATE pizza_modifier_groups SET pizza_id = ? WHERE pizza_id = ? AND group_id = ?",
            [shop.diavola.id, shop.margherita.id, senza.id])
        try sql(f, "UPDATE pizzas SET name = 'Straße', name_key = 'strasse' WHERE id = ?", [shop.diavola.id])
        // An item added by hand in ASCII (its key set by a trigger after its Normale is written).
        try sql(f, "INSERT INTO pizzas (name, price_cents) VALUES ('Capricciosa', 900)")
        #expect(
            try keys(f) == [
                "group Bufala/Aggiunte: bufala", "group Straße/Aggiunte: strasse", "group Straße/Senza: strasse",
                "variant Bufala/Baby: bufala", "variant Bufala/Maxi: bufala", "variant Bufala/Normale: bufala",
                "variant Capricciosa/Normale: capricciosa", "variant Straße/Maxi: strasse",
                "variant Straße/Normale: strasse",
            ])
        #expect(
            try menu(f) == [
                "Bufala [Baby,Maxi,Normale] groups 1", "Capricciosa [Normale] groups 0",
                "Straße [Maxi,Normale] groups 2",
            ])
        #expect(try Maintenance.check(path: f.path).domainProblems.isEmpty)
    }

    @Test("a key typed wrong by hand is refused, naming the column, and changes nothing")
    func wrongKeyRefused() throws {
        let shop = try shop()
        let f = shop.f
        let before = try f.snapshot()
        #expect(
            triggerToken {
                try sql(
                    f,
                    "INSERT INTO pizza_variants (pizza_id, name, price_cents, pizza_name_key) VALUES (?, 'Baby', 500, 'diavola')",
                    [shop.margherita.id])
            } == "pizza_name_key")
        #expect(triggerToken { try sql(f, "UPDATE pizza_variants SET pizza_name_key = 'aaa'") } == "pizza_name_key")
        #expect(triggerToken { try sql(f, "UPDATE pizza_variants SET pizza_name_key = NULL") } == "pizza_name_key")
        #expect(
            triggerToken {
                try sql(
                    f, "UPDATE pizza_modifier_groups SET pizza_name_key = 'diavola' WHERE pizza_id = ?",
                    [shop.margherita.id])
            } == "pizza_name_key")
        let senza = try f.pizzeria.menu.addModifierGroup(name: "Senza", min: 0, max: 2)
        let afterGroup = try f.snapshot()
        #expect(
            triggerToken {
                try sql(
                    f, "INSERT INTO pizza_modifier_groups (pizza_id, group_id, pizza_name_key) VALUES (?, ?, 'x')",
                    [shop.margherita.id, senza.id])
            } == "pizza_name_key")
        #expect(try f.snapshot() == afterGroup)
        #expect(before != afterGroup)
    }

    @Test("items whose name_key was cleared by hand keep their own variants and groups on the menu")
    func clearedKeys() throws {
        let shop = try shop()
        let f = shop.f
        try sql(f, "UPDATE pizzas SET name_key = NULL")
        #expect(try keys(f).allSatisfy { $0.hasSuffix(": NULL") })
        #expect(try menu(f).sorted() == ["Diavola [Maxi,Normale] groups 1", "Margherita [Maxi,Normale] groups 1"])
    }

    @Test("check names a row whose key differs from its item's (the triggers bypassed) and --repair rewrites it")
    func checkAndRepair() throws {
        let shop = try shop()
        let f = shop.f
        try f.pizzeria.database.write { db in
            try db.execute("DROP TRIGGER pizza_variants_name_key_update")
            try db.run("UPDATE pizza_variants SET pizza_name_key = 'zzz' WHERE pizza_id = ?", [shop.margherita.id])
        }
        let report = try Maintenance.check(path: f.path)
        #expect(
            report.domainProblems.map(\.description) == [
                "pizza_variants \(shop.margherita.id): pizza_name_key is 'zzz', expected 'margherita' (the item's name_key)"
            ])
        #expect(try menu(f).sorted() == ["Diavola [Maxi,Normale] groups 1", "Margherita [] groups 1"])
        _ = try Maintenance.repair(path: f.path)
        #expect(try Maintenance.check(path: f.path).domainProblems.isEmpty)
        #expect(try menu(f).sorted() == ["Diavola [Maxi,Normale] groups 1", "Margherita [Maxi,Normale] groups 1"])
    }
}
