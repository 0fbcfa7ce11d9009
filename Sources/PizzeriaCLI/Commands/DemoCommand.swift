import Foundation
import PizzeriaServices

/// `pizzeria demo`: a database with the tutorial's data, to see the product working.
enum DemoCommand {
    static let command = Command(
        name: "demo",
        abstract: "Create the database if needed, put demo data on it (menu, users, orders, navigation) and show it.",
        discussion: "Safe to run again: nothing is duplicated (orders are booked with idempotency keys).",
        run: run)

    /// The tutorial's menu.
    static let menu: [(name: String, cents: Int64)] = [("Margherita", 600), ("Porcini", 1200), ("Marinara", 400)]
    static let users: [(handle: String, name: String)] = [("anna", "Anna Rossi"), ("marco", "Marco Bianchi")]
    /// Tomorrow's orders: user, local pickup time, items.
    static let orders: [(user: String, time: String, items: [(pizza: String, quantity: Int)])] = [
        ("anna", "19:00", [("Margherita", 2), ("Porcini", 1)]),
        ("marco", "19:00", [("Marinara", 3)]),
        ("marco", "20:30", [("Porcini", 2)]),
    ]

    struct Report: Encodable {
        let database: String
        let menu: [Pizza]
        let users: [User]
        let orders: [Order]
        let navigation: NavigationView
        let history: [NavigationEvent]
    }

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let context = invocation.context
        let pizzeria = try context.open(.migrate)
        var notes: [String] = []

        for item in menu where try pizzeria.menu.pizza(named: item.name) == nil {
            _ = try pizzeria.menu.save(PizzaDraft(mode: .add, name: item.name, price: Money(cents: item.cents)))
            notes.append("added \(item.name) to the menu")
        }
        let existing = Set(try pizzeria.users.list().map(\.handle))
        for user in users where !existing.contains(user.handle) {
            try pizzeria.users.add(handle: user.handle, displayName: user.name)
            notes.append("added user \(user.handle)")
        }

        // Tomorrow in the pizzeria's zone, by its calendar (a day is not always 24 hours).
        let zone = try pizzeria.settings.current().timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let now = try context.clock()()
        let tomorrow = PickupTime.dayString(calendar.date(byAdding: .day, value: 1, to: now) ?? now, in: zone)
        var booked: [Order] = []
        for (number, order) in orders.enumerated() {
            do {
                let pickup = try pizzeria.orders.pickup(parsing: "\(tomorrow)T\(order.time)")
                let items = try order.items.map {
                    OrderRequest.Item(pizza: try pizzeria.lookup.pizza($0.pizza).id, quantity: $0.quantity)
                }
                let result = try pizzeria.orders.place(
                    OrderRequest(
                        user: try pizzeria.lookup.user(order.user).id, items: items,
                        pickup: pickup, idempotencyKey: "demo-\(tomorrow)-\(number + 1)"))
                booked.append(result.order)
                if result.created { notes.append("booked order \(result.order.id.short) for \(order.user)") }
            } catch let failure as PizzeriaFailure {
                // The demo shows the product; a refusal (a slot filled by hand, say) is shown, not fatal.
                notes.append("could not book for \(order.user) at \(order.time): \(failure)")
            }
        }

        // Anna browses the menu as in the app, once: the walk is history, not repeated on re-runs.
        let navigation = pizzeria.navigation
        let anna = try pizzeria.lookup.user("anna").id
        if try navigation.history(of: anna, limit: 1).isEmpty {
            let margherita = try pizzeria.lookup.route("pizza:Margherita", for: anna),
                porcini = try pizzeria.lookup.route("pizza:Porcini", for: anna)
            try navigation.push(anna, [margherita])
            try navigation.push(anna, [porcini])
            try navigation.pop(anna)
            try navigation.random(anna, seed: 42)
            if let order = booked.first(where: { $0.handle == "anna" }) {
                try navigation.push(anna, [.order(id: order.id)])
            }
            notes.append("walked anna through the menu")
        }

        let report = Report(
            database: context.databasePath, menu: try pizzeria.menu.list(),
            users: try pizzeria.users.list(), orders: booked,
            navigation: try NavigationView(try navigation.state(of: anna), navigation),
            history: try navigation.history(of: anna, limit: 20))
        try context.emit(report) {
            var text = "Database: \(context.databasePath)\n"
            text += notes.isEmpty ? "The demo data was already there.\n" : notes.map { "- \($0)\n" }.joined()
            text += "\nMenu:\n" + PizzaText.table(report.menu, showStatus: false)
            text += "\nOrders for tomorrow (\(tomorrow), \(zone.identifier)):\n" + OrderText.shape.rendered(booked)
            text += "\nAnna's navigation:\n" + NavigationText.state(report.navigation)
            text += "\nAnna's history:\n" + NavigationText.historyShape(zone).rendered(report.history)
            return text
        }
        return .ok
    }
}
