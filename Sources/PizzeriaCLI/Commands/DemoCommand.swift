import PizzeriaServices

/// `pizzeria demo`: a database with the tutorial's data, to see the product working.
enum DemoCommand {
    static let command = Command(
        name: "demo",
        abstract: "Create the database if needed, put the tutorial's menu on it, and show it.",
        discussion: "Safe to run again: nothing is duplicated.",
        run: run)

    /// The tutorial's menu.
    static let menu: [(name: String, cents: Int64)] = [("Margherita", 600), ("Porcini", 1200), ("Marinara", 400)]

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let context = invocation.context
        let pizzeria = try context.open(.migrate)
        var added: [String] = []
        for item in menu where try pizzeria.menu.nameTakenBy(item.name, excluding: nil) == nil {
            _ = try pizzeria.menu.save(PizzaDraft(mode: .add, name: item.name, price: Money(cents: item.cents)))
            added.append(item.name)
        }
        let pizzas = try pizzeria.menu.list()
        if context.json {
            try context.printJSON(pizzas)
        } else {
            context.console.line("Database: \(context.databasePath)")
            context.console.line(added.isEmpty ? "The menu was already there." : "Added to the menu: \(added.joined(separator: ", ")).")
            context.console.line("")
            context.console.out(PizzaText.table(pizzas, showStatus: false))
        }
        return .ok
    }
}
