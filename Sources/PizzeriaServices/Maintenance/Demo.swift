import Foundation

/// What ``Pizzeria/seedDemo()`` did: the tutorial's data on the file, added only where missing.
public struct DemoSeed: Sendable {
    /// What it added, a sentence each (`added Margherita to the menu`); empty when all was there.
    public let notes: [String]
    /// Tomorrow in the pizzeria's zone: the day of the demo's orders.
    public let tomorrow: LocalDate
    /// The demo's orders for tomorrow (booked now, or found by their idempotency keys).
    public let orders: [Order]
    /// The customer whose navigation the demo walks (`anna`).
    public let walker: User.ID
}

/// The tutorial's data: a menu, two customers, three orders for tomorrow and a walk through the
/// menu — the same on every run, and never duplicated (orders carry idempotency keys).
enum DemoData {
    static let menu: [(name: String, cents: Int64)] = [("Margherita", 600), ("Porcini", 1200), ("Marinara", 400)]

    /// A Naples pizzeria's menu: sections (drinks and desserts take no oven), sizes, extras and
    /// removals, the allergens of every item. Imported once (when Cosacca is missing) over the three
    /// pizzas above, whose prices it keeps.
    static var menuFile: MenuFile {
        typealias Item = MenuFile.ItemEntry
        typealias Variant = MenuFile.VariantEntry
        func pizza(_ name: String, _ price: String, maxi: String? = nil, _ allergens: [String] = ["gluten", "milk"])
            -> Item
        {
            Item(
                name: name, category: "Pizze", allergens: allergens,
                variants: [Variant(name: "Normale", price: price, isDefault: true)]
                    + (maxi.map { [Variant(name: "Maxi", price: $0)] } ?? []),
                modifierGroups: ["Aggiunte", "Senza"])
        }
        var file = MenuFile()
        file.categories = [
            .init(name: "Pizze", usesOven: true), .init(name: "Fritti", usesOven: true),
            .init(name: "Bevande", usesOven: false), .init(name: "Dolci", usesOven: false),
        ]
        file.modifierGroups = [
            .init(
                name: "Aggiunte", min: 0, max: 3,
                modifiers: [
                    .init(name: "bufala", price: "2.00", allergens: ["milk"], variantPrices: ["Maxi": "3.00"]),
                    .init(name: "'nduja", price: "1.50"),
                    .init(name: "doppia mozzarella", price: "1.00", allergens: ["milk"]),
                    .init(name: "acciughe", price: "1.50", allergens: ["fish"]),
                ]),
            .init(
                name: "Senza", min: 0, max: 3, kind: "removal",
                modifiers: [.init(name: "basilico"), .init(name: "aglio"), .init(name: "origano")]),
        ]
        file.items = [
            pizza("Margherita", "6.00", maxi: "9.00"), pizza("Marinara", "4.00", maxi: "6.50", ["gluten"]),
            pizza("Porcini", "12.00"), pizza("Salsiccia e friarielli", "8.00", maxi: "11.00"),
            pizza("Cosacca", "7.00", maxi: "10.00"), pizza("Romana", "7.50", ["gluten", "milk", "fish"]),
            Item(
                name: "Frittatina", category: "Fritti", allergens: ["gluten", "milk", "eggs"],
                variants: [Variant(name: "Normale", price: "3.50")]),
            Item(
                name: "Montanara", category: "Fritti", allergens: ["gluten", "milk"],
                variants: [Variant(name: "Normale", price: "4.00")]),
            Item(
                name: "Aranciata", category: "Bevande", allergens: [],
                variants: [
                    Variant(name: "33 cl", price: "3.00", isDefault: true), Variant(name: "66 cl", price: "4.50"),
                ]),
            Item(
                name: "Acqua", category: "Bevande", allergens: [], variants: [Variant(name: "50 cl", price: "1.50")]),
            Item(
                name: "Babà", category: "Dolci", allergens: ["gluten", "eggs", "milk", "sulphites"],
                variants: [Variant(name: "Normale", price: "4.50")]),
        ]
        return file
    }
    static let users: [(handle: String, name: String)] = [("anna", "Anna Rossi"), ("marco", "Marco Bianchi")]
    /// Tomorrow's orders: user, local pickup time, items.
    static let orders: [(user: String, hour: Int, minute: Int, items: [(pizza: String, quantity: Int)])] = [
        ("anna", 19, 0, [("Margherita", 2), ("Porcini", 1)]),
        ("marco", 19, 0, [("Marinara", 3)]),
        ("marco", 20, 30, [("Porcini", 2)]),
    ]
}

extension Pizzeria {
    /// Puts the tutorial's data on the file where it is missing: the menu, the users, tomorrow's
    /// orders (a refusal — a slot filled by hand, say — is a note, not a failure) and, once, a
    /// walk through the menu as the app would make it.
    public func seedDemo() throws -> DemoSeed {
        var notes: [String] = []
        for item in DemoData.menu where try menu.pizza(named: item.name) == nil {
            _ = try menu.save(PizzaDraft(mode: .add, name: item.name, price: Money(cents: item.cents)))
            notes.append("added \(item.name) to the menu")
        }
        if try menu.pizza(named: "Cosacca") == nil {
            let changes = try menu.importMenu(DemoData.menuFile)
            if !changes.isEmpty { notes.append("imported the demo menu (\(changes.count) changes)") }
        }
        // The shop's head for receipts, and drinks at Italy's 22 % VAT, the first time only.
        if try payments.shop().name == nil {
            try payments.update(.name("Pizzeria Demo"))
            try payments.update(.address("Via dei Tribunali 1, 80138 Napoli"))
            try payments.update(.vatNumber("IT01234567890"))
            if let drinks = try? menu.category(named: "Bevande"), drinks.vatRate == nil {
                try payments.setVATRate(VATRate(unchecked: 2200), of: drinks.id)
            }
            notes.append("set the shop's details and 22 % VAT on Bevande")
        }
        let existing = Set(try users.list().map(\.handle))
        for user in DemoData.users where !existing.contains(user.handle) {
            try users.add(handle: user.handle, displayName: user.name)
            notes.append("added user \(user.handle)")
        }

        let clock = try settings.current().clock
        let tomorrow = clock.date(of: now()).adding(days: 1)
        var booked: [Order] = []
        for (number, order) in DemoData.orders.enumerated() {
            let time = LocalTime(hour: order.hour, minute: order.minute) ?? .midnight
            do {
                let items = try order.items.map {
                    OrderRequest.Item(pizza: try lookup.pizza($0.pizza).id, quantity: $0.quantity)
                }
                let result = try orders.place(
                    OrderRequest(
                        user: try lookup.user(order.user).id, items: items,
                        pickup: try clock.instant(on: tomorrow, at: time),
                        idempotencyKey: "demo-\(tomorrow)-\(number + 1)"))
                booked.append(result.order)
                if result.created { notes.append("booked order \(result.order.id.short) for \(order.user)") }
            } catch let failure as PizzeriaFailure {
                notes.append("could not book for \(order.user) at \(time): \(failure)")
            } catch let failure as PickupTime.ParseError {
                notes.append("could not book for \(order.user) at \(time): pickup: \(failure.message)")
            }
        }

        // Anna paid her first order in the app: recorded once (by its reference).
        if let order = booked.first(where: { $0.handle == "anna" }) {
            do {
                let (_, created) = try payments.pay(
                    PaymentRequest(order: order.id, method: .online, reference: "demo-psp-\(tomorrow)"))
                if created { notes.append("recorded anna's online payment of order \(order.id.short)") }
            } catch let failure as PaymentError {
                notes.append("could not record anna's payment: \(failure)")
            }
        }

        // Anna browses the menu as in the app, once: the walk is history, not repeated on re-runs.
        let anna = try lookup.user("anna").id
        if try navigation.history(of: anna, limit: 1).isEmpty {
            let margherita = try lookup.route("pizza:Margherita", for: anna),
                porcini = try lookup.route("pizza:Porcini", for: anna)
            try navigation.push(anna, [margherita])
            try navigation.push(anna, [porcini])
            try navigation.pop(anna)
            try navigation.random(anna, seed: 42)
            if let order = booked.first(where: { $0.handle == "anna" }) {
                try navigation.push(anna, [.order(id: order.id)])
            }
            notes.append("walked anna through the menu")
        }
        return DemoSeed(notes: notes, tomorrow: tomorrow, orders: booked, walker: anna)
    }
}
