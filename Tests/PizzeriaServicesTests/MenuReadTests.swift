import Foundation
import PizzeriaStorage
import PizzeriaTestSupport
import Testing

@testable import PizzeriaServices

/// The whole menu read one item at a time (`forEachEntry`, three statements stepped side by side)
/// and held (`menu()`, the same entries collected): each entry is what the item's own read
/// (`item(_:)`, its own statements) gives, in name order, variants and groups as offered.
@Suite("The whole menu, held and streamed")
struct MenuReadTests {
    /// Margherita with Maxi put before Normale (positions 1 and 2, ids the other way), Aggiunte and Impasto attached in the
    /// reverse of the groups' menu order, Porcini with two variants and no group, Marinara
    /// archived; a fourth item added after the groups, named to sort first.
    static func menu() throws -> OrderFixture {
        let f = try OrderFixture()
        let menu = f.pizzeria.menu
        let margherita = try f.pizza("Margherita"), porcini = try f.pizza("Porcini")
        let impasto = try menu.addModifierGroup(name: "Impasto", min: 1, max: 1, position: 2)
        let aggiunte = try menu.addModifierGroup(name: "Aggiunte", min: 0, max: 3, position: 1)
        _ = try menu.addModifier(to: aggiunte.id, name: "bufala", price: Money(cents: 200))
        _ = try menu.addModifier(to: impasto.id, name: "classico", price: Money(cents: 0))
        _ = try menu.addVariant(to: margherita, name: "Maxi", price: Money(cents: 900), position: 1)
        let normale = try #require(try menu.item(margherita).variants.first { $0.name == "Normale" })
        _ = try menu.editVariant(normale.id, of: margherita, position: 2)
        _ = try menu.addVariant(to: porcini, name: "Baby", price: Money(cents: 800))
        try menu.attach(impasto.id, to: margherita)
        try menu.attach(aggiunte.id, to: margherita)
        _ = try menu.archive(id: try f.pizza("Marinara"))
        try f.base.add("Aglio e olio", 700)
        return f
    }

    static func streamed(_ menu: MenuService, includeArchived: Bool = false) throws -> (
        [Menu.Entry], Menu.Outline
    ) {
        var entries: [Menu.Entry] = []
        let outline = try menu.forEachEntry(includeArchived: includeArchived) { entries.append($0) }
        return (entries, outline)
    }

    @Test("each streamed entry is the item as item(_:) reads it; menu() holds the same; archived items on request")
    func sameAsEachItem() throws {
        let f = try Self.menu()
        let menu = f.pizzeria.menu
        for archived in [false, true] {
            let (entries, outline) = try Self.streamed(menu, includeArchived: archived)
            for entry in entries {
                let item = try menu.item(entry.pizza.id)
                #expect(entry.pizza == item.pizza && entry.variants == item.variants)
                #expect(entry.groupIDs == item.modifierGroups.map(\.id))
            }
            #expect(outline.groups == (try menu.modifierGroups()))
            #expect(outline.categories == (try menu.categories()))
            let held = try menu.menu(includeArchived: archived)
            #expect(held.entries == entries && held.groups == outline.groups && held.categories == outline.categories)
        }
        let (entries, outline) = try Self.streamed(menu)
        #expect(entries.map(\.pizza.name) == ["Aglio e olio", "Margherita", "Porcini"])
        let margherita = try #require(entries.first { $0.pizza.name == "Margherita" })
        #expect(margherita.variants.map(\.name) == ["Maxi", "Normale"])
        #expect(margherita.groupIDs == outline.groups.map(\.id))
        #expect(outline.groups.map(\.name) == ["Aggiunte", "Impasto"])
        let porcini = try #require(entries.first { $0.pizza.name == "Porcini" })
        #expect(porcini.variants.map(\.name) == ["Normale", "Baby"] && porcini.groupIDs.isEmpty)
        #expect(entries.allSatisfy { entry in entry.variants.allSatisfy { $0.pizzaID == entry.pizza.id } })
        let all = try Self.streamed(menu, includeArchived: true).0
        #expect(all.map(\.pizza.name) == ["Aglio e olio", "Margherita", "Marinara", "Porcini"])
    }

    struct Enough: Error {}

    @Test("a body that throws ends the read with its error; the next read starts from the first item")
    func stopEarly() throws {
        let f = try Self.menu()
        var seen: [String] = []
        #expect(throws: Enough.self) {
            try f.pizzeria.menu.forEachEntry { entry in
                seen.append(entry.pizza.name)
                if seen.count == 2 { throw Enough() }
            }
        }
        #expect(seen == ["Aglio e olio", "Margherita"])
        #expect(try Self.streamed(f.pizzeria.menu).0.map(\.pizza.name) == ["Aglio e olio", "Margherita", "Porcini"])
    }

    @Test("body may read and write: the entries still to come are the read's snapshot")
    func writesInsideTheRead() throws {
        let f = try Self.menu()
        let menu = f.pizzeria.menu
        var seen: [String] = []
        try menu.forEachEntry { entry in
            seen.append(entry.pizza.name)
            // A read inside the read, then archiving the last item while the first is read: the
            // stream still lists it as it was, a new read sees it archived.
            let now = try menu.item(entry.pizza.id).pizza
            #expect(now.isArchived == (entry.pizza.name == "Porcini") && !entry.pizza.isArchived)
            if seen.count == 1 { _ = try menu.archive(id: try f.pizza("Porcini")) }
        }
        #expect(seen == ["Aglio e olio", "Margherita", "Porcini"])
        #expect(try Self.streamed(menu).0.map(\.pizza.name) == ["Aglio e olio", "Margherita"])
    }

    @Test(
        "many variants and groups on adjacent items, some entries kept and some dropped: each kept entry keeps its own rows, in order"
    )
    func keptAndDroppedEntries() throws {
        let f = try Self.menu()
        let menu = f.pizzeria.menu
        // Porcini gets six more variants (eight in all, more than any item before it: the read's
        // reused arrays grow) whose positions run against their ids, and three groups attached
        // against the groups' menu order.
        let porcini = try f.pizza("Porcini")
        for (offset, name) in ["Uno", "Due", "Tre", "Quattro", "Cinque", "Sei"].enumerated() {
            _ = try menu.addVariant(
                to: porcini, name: name, price: Money(cents: 900 + Int64(offset)), position: 9 - offset)
        }
        let groups = try (1...3).map { try menu.addModifierGroup(name: "G\($0)", min: 0, max: 1, position: 10 - $0) }
        for group in groups { try menu.attach(group.id, to: porcini) }
        // Keep every other entry: a dropped entry's arrays are the ones the read goes on with.
        var kept: [Menu.Entry] = [], index = 0
        try menu.forEachEntry { entry in
            if index % 2 == 0 { kept.append(entry) }
            index += 1
        }
        #expect(kept.map(\.pizza.name) == ["Aglio e olio", "Porcini"])
        for entry in kept {
            let item = try menu.item(entry.pizza.id)
            #expect(entry.variants == item.variants && entry.groupIDs == item.modifierGroups.map(\.id))
        }
        let porciniEntry = try #require(kept.last)
        #expect(
            porciniEntry.variants.map(\.name) == ["Normale", "Baby", "Sei", "Cinque", "Quattro", "Tre", "Due", "Uno"])
        #expect(porciniEntry.groupIDs == groups.reversed().map(\.id))
        #expect(kept.first?.variants.map(\.name) == ["Normale"] && kept.first?.groupIDs == [])
    }

    @Test("an empty menu streams no entry and still returns its outline")
    func empty() throws {
        let f = try Fixture()
        var count = 0
        let outline = try f.pizzeria.menu.forEachEntry { _ in count += 1 }
        let held = try f.pizzeria.menu.menu()
        #expect(count == 0 && held.entries.isEmpty && outline.groups.isEmpty)
        #expect(outline.categories == held.categories && !outline.categories.isEmpty)
    }
}
