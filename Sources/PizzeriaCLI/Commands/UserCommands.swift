import Foundation
import PizzeriaServices

/// `pizzeria user …`: the people who order and navigate.
enum UserCommands {
    static let command = Command(
        name: "user",
        abstract: "Manage users: add, list, show (with their orders), edit, erase.",
        discussion: """
            A handle is 1 to 32 characters of a-z 0-9 . _ - and is stored lowercase: 'Luca' and \
            'luca' are one handle, and the commands say when they lowered one. A phone number is \
            international (+, country code, 8 to 15 digits) and stored in E.164 form.
            """,
        subcommands: [add, list, find, show, edit, erase])

    static let newHandle = Argument("handle", help: "The user's handle.")
    static let handle = Argument("handle", help: "The user's handle.", completion: .users)
    static let displayName = Option("name", "name", help: "A display name (optional, at most 80 characters).")
    static let phone = Option("phone", "number", help: "A phone number for the counter, such as \"+39 333 123 4567\".")

    /// A note on stderr when the handle typed is not the handle stored.
    static func noteNormalised(_ typed: String, _ stored: String, _ context: Context) {
        // Only lowering is worth a note: surrounding spaces are trimmed like every name.
        if typed.lowercased() != typed { context.console.note("handle stored as '\(stored)' (handles are lowercase)") }
    }

    static let add = Command(
        name: "add",
        abstract: "Add a user.",
        arguments: [newHandle],
        options: [displayName, phone],
        examples: ["pizzeria user add anna --name \"Anna Rossi\" --phone \"+39 333 123 4567\""],
        run: { invocation in
            let context = invocation.context
            let typed = try invocation[newHandle]
            let user = try context.open(.requireCurrent).users.add(
                handle: typed, displayName: try invocation[displayName],
                phone: try invocation[phone])
            noteNormalised(typed, user.handle, context)
            try context.emit(user) { "Added user \(user.handle)\(user.displayName.map { " (\($0))" } ?? "").\n" }
            return .ok
        })

    /// Users in every list format (`user list`, `user find`); times for people in the pizzeria's zone.
    static func shape(_ zone: TimeZone, empty: String) -> ListOutput.Shape<User> {
        ListOutput.Shape<User>(
            table: Table("HANDLE", "NAME", "PHONE", "SINCE"),
            cells: {
                [
                    $0.handle, $0.displayName ?? ($0.erasedAt == nil ? "-" : "(erased)"), $0.phone ?? "-",
                    $0.createdAt.local(zone),
                ]
            },
            empty: empty, csv: CSVRows.user)
    }

    static let list = Command(
        name: "list",
        abstract: "List users by handle.",
        options: ListOptions.all,
        run: { invocation in
            let context = invocation.context
            // Streamed, a page at a time, like every list.
            let pizzeria = try context.open(.requireCurrent)
            let zone = try pizzeria.settings.current().timeZone
            let users = pizzeria.users
            try context.list.write(invocation, shape(zone, empty: "No users yet.\n")) { each in try users.forEach(each)
            }
            return .ok
        })

    static let text = Argument("text", help: "Part of a handle, a display name or a phone number (any common format).")

    static let find = Command(
        name: "find",
        abstract: "Find customers by part of their handle, name or phone number.",
        discussion:
            "Case does not matter; a phone number may be typed with spaces, dashes, +39 or a leading 0. Erased customers are never found.",
        arguments: [text],
        options: ListOptions.all,
        examples: ["pizzeria user find rossi", "pizzeria user find '333 123'"],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let zone = try pizzeria.settings.current().timeZone
            let users = try pizzeria.users.find(try invocation[text])
            try context.list.write(invocation, shape(zone, empty: "No customer matches.\n")) { each in
                try users.forEach(each)
            }
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
            let zone = try pizzeria.settings.current().timeZone
            try context.emit(Extended(base: user, key: "orders", extra: orders)) {
                detail(user, zone: zone) + "\nOrders:\n" + OrderText.shape.rendered(orders)
            }
            return .ok
        })

    static func detail(_ user: User, zone: TimeZone) -> String {
        var text = "\(user.handle)\(user.displayName.map { " (\($0))" } ?? "")\n  id      \(user.id)\n"
        if let phone = user.phone { text += "  phone   \(phone)\n" }
        text += "  since   \(user.createdAt.local(zone))\n"
        if let erased = user.erasedAt {
            text += "  erased  \(erased.local(zone)) (personal data removed at the customer's request)\n"
        }
        return text
    }

    static let newHandleOption = Option("handle", "new-handle", help: "A new handle (the old one is then free).")

    static let edit = Command(
        name: "edit",
        abstract: "Change a user's handle, display name or phone.",
        discussion: "Fields not given stay as they are; an empty value (--name \"\", --phone \"\") clears the field.",
        arguments: [handle],
        options: [newHandleOption, displayName, phone],
        examples: [
            "pizzeria user edit luca --name \"Luca Bianchi\" --phone \"+39 347 555 0101\"",
            "pizzeria user edit luca --phone \"\"", "pizzeria user edit luca --handle luca.b",
        ],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let user = try pizzeria.lookup.user(try invocation[handle])
            let typedHandle = try invocation[newHandleOption]
            let name = try invocation[displayName], number = try invocation[phone]
            guard typedHandle != nil || name != nil || number != nil else {
                throw invocation.usage("nothing to change: give --handle, --name or --phone")
            }
            func change(_ value: String?) -> UserService.FieldChange? {
                value.map { $0.trimmingCharacters(in: .whitespaces).isEmpty ? .clear : .set($0) }
            }
            let edited = try pizzeria.users.edit(
                id: user.id, handle: typedHandle, displayName: change(name), phone: change(number))
            if let typedHandle { noteNormalised(typedHandle, edited.handle, context) }
            try context.emit(edited) {
                "Changed user \(edited.handle)\(edited.displayName.map { " (\($0))" } ?? "").\n"
            }
            return .ok
        })

    static let yes = Flag("yes", help: "Erase without asking (for scripts); without a terminal it is required.")

    static let erase = Command(
        name: "erase",
        abstract: "Erase a customer's personal data at their request.",
        discussion: """
            In one transaction: removes the display name and phone, replaces the handle with a stable pseudonym \
            (erased-…), cancels their future orders (`erased` in the history), removes the notes of their \
            orders and the free text of those orders' history, drops their idempotency keys and deletes their \
            navigation state, sheet and history, overwriting the deleted bytes; then empties the write-ahead \
            log, so nothing of them stays in the file or the -wal. Their orders stay for the books, under the \
            pseudonym; the erasure itself is recorded (user_erasures). It cannot be undone. On a terminal it \
            asks you to type the handle; scripts pass --yes (without a terminal and without --yes: exit 64). \
            Backups made before the erasure still hold the data: rotate them (docs/CLI.md, "Erasure").
            """,
        arguments: [handle],
        options: [yes, OrderCommands.by],
        examples: ["pizzeria user erase luca --by anna", "pizzeria user erase luca --yes --by anna"],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let user = try pizzeria.lookup.user(try invocation[handle])
            if try !invocation[yes] {
                guard context.terminal.isInteractive else {
                    throw invocation.usage("erasing cannot be undone: give --yes to erase without a terminal")
                }
                context.console.out("Erase \(user.handle)'s personal data for good? Type the handle to confirm: ")
                guard context.terminal.readLine()?.trimmingCharacters(in: .whitespaces) == user.handle else {
                    throw Refusal(
                        "not erased: the handle typed is not '\(user.handle)'",
                        hint: "run it again and type the handle exactly")
                }
            }
            let erased = try pizzeria.users.erase(id: user.id, by: try OrderCommands.actor(invocation))
            try context.emit(erased) {
                var text = "Erased \(user.handle): now \(erased.user.handle).\n"
                text +=
                    "Removed: name and phone, \(erased.navigationRows) navigation rows, \(erased.notes) order notes, "
                    + "\(erased.historyEntries) history entries redacted, \(erased.keys) idempotency keys.\n"
                if !erased.cancelledOrders.isEmpty {
                    let shown = erased.cancelledOrders.prefix(10).map(\.short).joined(separator: ", ")
                    text +=
                        "Cancelled \(erased.cancelledOrders.count) future order\(erased.cancelledOrders.count == 1 ? "" : "s"): "
                        + shown
                        + (erased.cancelledOrders.count > 10 ? ", and \(erased.cancelledOrders.count - 10) more" : "")
                        + ".\n"
                }
                text +=
                    "Kept for the books: \(erased.ordersKept) order\(erased.ordersKept == 1 ? "" : "s") (items, amounts, times) under the pseudonym.\n"
                return text
            }
            if !erased.walCleared {
                context.console.note(
                    "a reader (process \(erased.walReaders.map(String.init).joined(separator: ", "))) keeps older data in the -wal file; "
                        + "`pizzeria check` reports the erasure pending and `pizzeria check --repair` finishes it once the reader is done"
                )
            }
            return .ok
        })
}
