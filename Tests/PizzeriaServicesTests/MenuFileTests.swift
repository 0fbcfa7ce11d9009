import Foundation
import PizzeriaStorage
import PizzeriaTestSupport
import Testing

@testable import PizzeriaServices

/// The menu file: export and import round-trip, an import is one transaction that only adds
/// and updates, a dry run writes nothing, and a bad file is refused naming its place.
@Suite("Menu file: export, import, dry run, refusals")
struct MenuFileTests {
    @Test("the demo's menu exported and imported into a new file is the same menu; importing it again changes nothing")
    func roundTrip() throws {
        let source = try OrderFixture()
        try source.pizzeria.menu.importMenu(DemoData.menuFile)
        let exported = try source.pizzeria.menu.export()
        #expect(exported.items.count == 11 && exported.modifierGroups.map(\.name) == ["Aggiunte", "Senza"])
        let target = try OrderFixture()
        let decoded = try MenuFile.decode(try exported.encoded())
        try target.pizzeria.menu.importMenu(decoded)
        #expect(try target.pizzeria.menu.export() == exported)
        #expect(try target.pizzeria.menu.importMenu(decoded).isEmpty)
        let coke = try target.pizzeria.menu.item(try target.pizza("Aranciata"))
        #expect(coke.variants.map(\.name) == ["33 cl", "66 cl"] && coke.pizza.price.cents == 300)
        #expect(try Maintenance.check(path: target.base.path, now: target.now).domainProblems.isEmpty)
    }

    @Test("categories' VAT rates and stations round-trip; an invalid rate is refused by its place")
    func vatRatesRoundTrip() throws {
        let source = try OrderFixture()
        try source.pizzeria.menu.importMenu(DemoData.menuFile)
        let bevande = try source.pizzeria.menu.category(named: "Bevande")
        try source.pizzeria.payments.setVATRate(try VATRate.parse("22"), of: bevande.id)
        let friggitrice = try source.pizzeria.menu.addStation(name: "Friggitrice", capacity: 4)
        try source.pizzeria.menu.editCategory(
            try source.pizzeria.menu.category(named: "Fritti").id, station: friggitrice.id)
        let exported = try source.pizzeria.menu.export()
        #expect(exported.categories.first { $0.name == "Bevande" }?.vatRate == "22")
        #expect(exported.categories.first { $0.name == "Fritti" }?.station == "Friggitrice")
        let target = try OrderFixture()
        _ = try target.pizzeria.menu.addStation(name: "Friggitrice", capacity: 4)
        try target.pizzeria.menu.importMenu(try MenuFile.decode(try exported.encoded()))
        #expect(try target.pizzeria.menu.category(named: "Bevande").vatRate == (try VATRate.parse("22")))
        #expect(try target.pizzeria.menu.export() == exported)
        var bad = exported
        bad.categories[0].vatRate = "ventidue"
        let refused = #expect(throws: ValidationError.self) { try target.pizzeria.menu.importMenu(bad) }
        #expect(
            refused?.errors.first?.field.hasPrefix("categories[0].vat_rate") == true, "\(String(describing: refused))")
    }

    @Test("an unknown key is refused naming its place, line and column and the keys there are; nothing is written")
    func unknownKeys() throws {
        let text = """
            {"format": "pizzeria-menu", "version": 1,
             "categories": [{"name": "Pizze"}],
             "items": [{"name": "Margherita", "category": "Pizze",
                        "allergen": ["gluten"],
                        "variants": [{"name": "Normale", "price": "6.00", "defualt": true}]}]}
            """
        let refused = #expect(throws: ValidationError.self) { try MenuFile.decode(Data(text.utf8)) }
        let fields = refused?.errors.map(\.field) ?? []
        #expect(fields == ["items[0].allergen", "items[0].variants[0].defualt"], "\(fields)")
        #expect(refused?.errors.first?.message.contains("line 4, column 13") == true, "\(String(describing: refused))")
        #expect(refused?.errors.first?.message.contains("known: allergens, category") == true)
    }

    @Test("a dry run lists the differences and writes nothing")
    func dryRun() throws {
        let f = try OrderFixture()
        var file = MenuFile()
        file.items = [
            .init(
                name: "margherita", variants: [.init(name: "Normale", price: "6.50"), .init(name: "Maxi", price: "9")]),
            .init(name: "Diavola", allergens: ["gluten"], variants: [.init(name: "Normale", price: "8")]),
        ]
        let before = try f.pizzeria.menu.export()
        let changes = try f.pizzeria.menu.importMenu(file, dryRun: true)
        #expect(
            changes.map(\.description) == [
                "item margherita: Normale 6.00 → 6.50", "item margherita: variant Maxi at 9.00", "item Diavola: added",
                "item Diavola: allergens gluten",
            ], "\(changes)")
        #expect(try f.pizzeria.menu.export() == before)
        try f.pizzeria.menu.importMenu(file)
        #expect(try f.pizzeria.menu.pizza(named: "Margherita")?.price.cents == 650)
    }

    @Test("a bad file is refused naming the place and the rule; nothing of it is written")
    func refusals() throws {
        let f = try OrderFixture()
        let before = try f.pizzeria.menu.export()
        func refusal(_ json: String) -> String {
            do {
                try f.pizzeria.menu.importMenu(try MenuFile.decode(Data(json.utf8)))
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        let head = #"{"format": "pizzeria-menu", "version": 1, "#
        #expect(
            refusal(head + #""items": [{"name": "Nuova", "variants": [{"name": "N", "price": "0"}]}]}"#)
                .contains("items[0].variants[0].price"))
        #expect(refusal(head + #""items": [{"name": "Nuova", "variants": []}]}"#).contains("items[0].variants"))
        #expect(
            refusal(
                head + #""items": [{"name": "X", "allergens": ["peanut"], "variants": [{"name": "N", "price": "1"}]}]}"#
            )
            .contains("items[0].allergens"))
        #expect(
            refusal(head + #""modifier_groups": [{"name": "G", "min": 3, "max": 1, "modifiers": []}]}"#)
                .contains("modifier_groups[0].min"))
        #expect(
            refusal(head + #""items": [{"name": "Y", "category": "Nope", "variants": [{"name": "N", "price": "1"}]}]}"#)
                .contains("items[0].category"))
        #expect(refusal(head + #""items": [{"name": 5}]}"#).contains("items[0].name"))
        #expect(refusal(#"{"format": "other", "version": 1}"#).contains("format"))
        // A million modifiers: refused by the group limit before anything is read into the menu.
        var huge = MenuFile()
        huge.modifierGroups = [
            .init(name: "Tante", max: 3, modifiers: (0..<1_000_000).map { .init(name: "m\($0)") })
        ]
        #expect(throws: ValidationError.self) { try MenuFile.decode(try huge.encoded()) }
        // A valid first part and a bad last one: nothing of the first is kept.
        #expect(
            refusal(
                head
                    + #""categories": [{"name": "Fritti"}], "items": [{"name": "Supplì", "category": "Fritti", "variants": [{"name": "N", "price": "2"}]}, {"name": "Z", "variants": [{"name": "N", "price": "-1"}]}]}"#
            ).contains("items[1].variants[0].price"))
        #expect(try f.pizzeria.menu.export() == before)
    }
}
