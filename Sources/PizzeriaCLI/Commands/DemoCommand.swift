import Foundation
import PizzeriaServices

/// `pizzeria demo`: a database with the tutorial's data, to see the product working.
enum DemoCommand {
    static let command = Command(
        name: "demo",
        abstract: "Create the database if needed, put demo data on it (menu, users, orders, navigation) and show it.",
        discussion: "Safe to run again: nothing is duplicated (orders are booked with idempotency keys).",
        run: run)

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
        let seed = try pizzeria.seedDemo()
        let (notes, booked, anna, tomorrow) = (seed.notes, seed.orders, seed.walker, seed.tomorrow)
        let navigation = pizzeria.navigation
        let zone = try pizzeria.settings.current().timeZone

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
