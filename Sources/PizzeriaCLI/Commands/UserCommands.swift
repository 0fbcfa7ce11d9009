import PizzeriaServices

/// `pizzeria user …`: the people who order and navigate.
enum UserCommands {
    static let command = Command(
        name: "user",
        abstract: "Manage users: add, list, show (with their orders).",
        discussion: "A handle is 1 to 32 characters of a-z 0-9 . _ - (stored lowercase).",
        subcommands: [add, list, show])

    static let handleArgument = Argument(name: "handle", help: "The user's handle.")

    static let add = Command(
        name: "add",
        abstract: "Add a user.",
        arguments: [handleArgument],
        options: [.value("name", "name", help: "A display name (optional, at most 80 characters).")],
        examples: ["pizzeria user add anna --name \"Anna Rossi\""],
        run: { invocation in
            let context = invocation.context
            let user = try context.open(.requireCurrent).users.add(handle: try invocation.required("handle"),
                                                                   displayName: invocation.option("name"))
            try context.emit(user) { "Added user \(user.handle)\(user.displayName.map { " (\($0))" } ?? "").\n" }
            return .ok
        })

    static let list = Command(
        name: "list",
        abstract: "List users by handle.",
        options: [GlobalOptions.csv],
        run: { invocation in
            let context = invocation.context
            // Streamed, a page at a time, like every list.
            let users = try context.open(.requireCurrent).users
            let shapes = ListOutput.Shapes<User>(csvHeader: CSVRows.userHeader, csvRow: CSVRows.user, table: Table("HANDLE", "NAME", "SINCE"),
                                                 cells: { [$0.handle, $0.displayName ?? "-", $0.createdAt.timestamp] }, empty: "No users yet.\n")
            try context.list.stream(invocation, shapes) { each in try users.forEach(each) }
            return .ok
        })

    static let show = Command(
        name: "show",
        abstract: "Show a user and their orders.",
        arguments: [Argument(name: "handle", help: "The user's handle.", completion: .users)],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let user = try pizzeria.lookup.user(try invocation.required("handle"))
            let orders = try pizzeria.orders.list(OrderFilter(user: user.id))
            try context.emit(Extended(base: user, key: "orders", extra: orders)) {
                "\(user.handle)\(user.displayName.map { " (\($0))" } ?? "")\n  id     \(user.id)\n  since  \(Timestamp.string(from: user.createdAt))\n\nOrders:\n"
                    + OrderText.table(orders)
            }
            return .ok
        })
}
