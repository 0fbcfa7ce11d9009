import PizzeriaServices

/// `pizzeria user …`: the people who order and navigate.
enum UserCommands {
    static let command = Command(
        name: "user",
        abstract: "Manage users: add, list, show (with their orders).",
        discussion: "A handle is 1 to 32 characters of a-z 0-9 . _ - (stored lowercase).",
        subcommands: [add, list, show])

    static let newHandle = Argument("handle", help: "The user's handle.")
    static let handle = Argument("handle", help: "The user's handle.", completion: .users)
    static let displayName = Option("name", "name", help: "A display name (optional, at most 80 characters).")

    static let add = Command(
        name: "add",
        abstract: "Add a user.",
        arguments: [newHandle],
        options: [displayName],
        examples: ["pizzeria user add anna --name \"Anna Rossi\""],
        run: { invocation in
            let context = invocation.context
            let user = try context.open(.requireCurrent).users.add(handle: try invocation[newHandle],
                                                                   displayName: try invocation[displayName])
            try context.emit(user) { "Added user \(user.handle)\(user.displayName.map { " (\($0))" } ?? "").\n" }
            return .ok
        })

    static let list = Command(
        name: "list",
        abstract: "List users by handle.",
        options: ListOptions.all,
        run: { invocation in
            let context = invocation.context
            // Streamed, a page at a time, like every list.
            let users = try context.open(.requireCurrent).users
            let shape = ListOutput.Shape<User>(table: Table("HANDLE", "NAME", "SINCE"), cells: { [$0.handle, $0.displayName ?? "-", $0.createdAt.timestamp] },
                                               empty: "No users yet.\n", csvHeader: CSVRows.userHeader, csvRow: CSVRows.user)
            try context.list.write(invocation, shape) { each in try users.forEach(each) }
            return .ok
        })

    static let show = Command(
        name: "show",
        abstract: "Show a user and their orders.",
        arguments: [handle],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let user = try pizzeria.lookup.user(try invocation[handle])
            let orders = try pizzeria.orders.list(OrderFilter(user: user.id))
            try context.emit(Extended(base: user, key: "orders", extra: orders)) {
                "\(user.handle)\(user.displayName.map { " (\($0))" } ?? "")\n  id     \(user.id)\n  since  \(Timestamp.string(from: user.createdAt))\n\nOrders:\n"
                    + OrderText.shape.rendered(orders)
            }
            return .ok
        })
}
