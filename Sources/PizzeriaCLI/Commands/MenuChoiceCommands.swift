import Foundation
import PizzeriaServices

extension ValueParser where Value == Money {
    /// A modifier's price: like a price, but 0 (a removal) is allowed and the most is 100.00.
    static let modifierMoney = ValueParser { text, field in
        switch Money.parse(text, allowingZero: true, maximum: Money.maximumModifier) {
        case .success(let money): return money
        case .failure(let error): throw ValidationError([FieldError(field: field, message: error.message)])
        }
    }
}

extension ValueParser where Value == Set<Allergen> {
    /// EU allergen codes separated by commas (`gluten,milk`), or `none`.
    static let allergens = ValueParser { text, field in try Allergen.parse(text, field: field) }
}

/// `pizzeria pizza variant …`, `pizza allergens`, `pizza attach|detach`: what an item is made of.
enum VariantCommands {
    static let command = Command(
        name: "variant",
        abstract: "Manage an item's variants (sizes): add, edit and remove them.",
        discussion: """
            Every item has one or more variants, each with its price; the default is what a plain order
            gets, and its price is the item's (pizza edit --price changes it). A new item has one, Normale.
            Order a variant as PIZZA/VARIANT (Margherita/Maxi).
            """,
        subcommands: [add, edit, remove])

    static let variantArgument = Argument("variant", help: "The variant's name, ignoring case.")
    static let name = Argument("name", help: "The name: 1 to 30 characters, unique in the item ignoring case.")
    static let price = RequiredOption("price", "price", help: "Its price in EUR, more than 0.", .money)
    static let newName = Option("name", "name", help: "The new name.")
    static let newPrice = Option("price", "price", help: "The new price in EUR.", .money)
    static let makeDefault = Flag("default", help: "Make it the default (its price becomes the item's).")
    static let position = Option(
        "position", "n", help: "Where it is offered among the item's variants: 1 first.", .integer(in: 1...100))

    static let add = Command(
        name: "add", abstract: "Add a variant to an item.", arguments: [PizzaCommands.pizzaArgument, name],
        options: [price, makeDefault, position, OrderCommands.by],
        examples: [
            "pizzeria pizza variant add Margherita Maxi --price 10",
            "pizzeria pizza variant add Coca-Cola '66 cl' --price 4",
        ],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let pizza = try pizzeria.lookup.pizza(try invocation[PizzaCommands.pizzaArgument])
            let variant = try pizzeria.menu.addVariant(
                to: pizza.id, name: try invocation[name], price: try invocation[price],
                position: try invocation[position], isDefault: invocation[makeDefault])
            try context.emit(variant) {
                "Added \(pizza.name) \(variant.name) (\(variant.price.formatted))\(variant.isDefault ? ", the default" : "").\n"
            }
            return .ok
        })

    static let edit = Command(
        name: "edit", abstract: "Rename, reprice or move a variant, or make it the default.",
        arguments: [PizzaCommands.pizzaArgument, variantArgument],
        options: [newName, newPrice, makeDefault, position, OrderCommands.by],
        examples: [
            "pizzeria pizza variant edit Margherita Maxi --price 10.50",
            "pizzeria pizza variant edit Margherita Maxi --default",
        ],
        run: { invocation in
            let context = invocation.context
            let name = try invocation[newName], price = try invocation[newPrice], position = try invocation[position]
            if try name == nil && price == nil && position == nil && !invocation[makeDefault] {
                throw invocation.usage("give --name, --price, --position or --default")
            }
            let pizzeria = try context.open(.requireCurrent)
            let pizza = try pizzeria.lookup.pizza(try invocation[PizzaCommands.pizzaArgument])
            let current = try pizzeria.menu.variant(named: try invocation[variantArgument], of: pizza.id)
            let variant = try pizzeria.menu.editVariant(
                current.id, of: pizza.id, name: name, price: price, position: position,
                makeDefault: invocation[makeDefault])
            try context.emit(variant) {
                "Saved \(pizza.name) \(variant.name) (\(variant.price.formatted))\(variant.isDefault ? ", the default" : "").\n"
            }
            return .ok
        })

    static let remove = Command(
        name: "remove", abstract: "Remove a variant that was never booked and is not the default.",
        arguments: [PizzaCommands.pizzaArgument, variantArgument], options: [OrderCommands.by],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let pizza = try pizzeria.lookup.pizza(try invocation[PizzaCommands.pizzaArgument])
            let variant = try pizzeria.menu.variant(named: try invocation[variantArgument], of: pizza.id)
            try pizzeria.menu.removeVariant(variant.id, of: pizza.id)
            struct Removed: Encodable { let removed: String }
            try context.emit(Removed(removed: variant.name)) { "Removed \(pizza.name) \(variant.name).\n" }
            return .ok
        })

    static let codes = Argument(
        "allergens", help: "EU allergen codes separated by commas (gluten,milk), or none.", .allergens)

    static let allergens = Command(
        name: "allergens", abstract: "Declare the EU allergens an item contains (replacing what was declared).",
        discussion: "The 14 of Regulation (EU) 1169/2011: " + Allergen.allCases.map(\.rawValue).joined(separator: ", ")
            + ".",
        arguments: [PizzaCommands.pizzaArgument, codes], options: [OrderCommands.by],
        examples: ["pizzeria pizza allergens Margherita gluten,milk", "pizzeria pizza allergens Coca-Cola none"],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let pizza = try pizzeria.lookup.pizza(try invocation[PizzaCommands.pizzaArgument])
            let saved = try pizzeria.menu.setAllergens(try invocation[codes], of: pizza.id)
            try context.emit(saved) {
                "\(saved.name): "
                    + (saved.allergens.isEmpty
                        ? "no allergens declared" : Allergen.codes(saved.allergens).joined(separator: ", "))
                    + ".\n"
            }
            return .ok
        })

    static let groups = VariadicArgument("group", help: "Modifier groups, by name or number.")

    static let attach = Command(
        name: "attach", abstract: "Offer modifier groups with an item (Aggiunte, Senza, Impasto).",
        arguments: [PizzaCommands.pizzaArgument, groups], options: [OrderCommands.by],
        examples: ["pizzeria pizza attach Margherita Aggiunte Senza"],
        run: { invocation in try changeGroups(invocation, attach: true) })

    static let detach = Command(
        name: "detach", abstract: "Stop offering modifier groups with an item (booked lines keep theirs).",
        arguments: [PizzaCommands.pizzaArgument, groups], options: [OrderCommands.by],
        run: { invocation in try changeGroups(invocation, attach: false) })

    /// `pizza attach` and `pizza detach`: each group named, then what the item offers now.
    static func changeGroups(_ invocation: Invocation, attach: Bool) throws -> ExitCode {
        let context = invocation.context
        let pizzeria = try context.open(.requireCurrent)
        let pizza = try pizzeria.lookup.pizza(try invocation[PizzaCommands.pizzaArgument])
        let found = try invocation[groups].map { try pizzeria.menu.modifierGroup(named: $0) }
        for group in found {
            if attach {
                try pizzeria.menu.attach(group.id, to: pizza.id)
            } else {
                try pizzeria.menu.detach(group.id, from: pizza.id)
            }
        }
        let item = try pizzeria.menu.item(pizza.id)
        try context.emit(item) {
            "\(pizza.name) offers "
                + (item.modifierGroups.isEmpty
                    ? "no modifiers" : item.modifierGroups.map(\.name).joined(separator: ", "))
                + ".\n"
        }
        return .ok
    }
}

/// `pizzeria modifier …`: modifier groups and their modifiers.
enum ModifierCommands {
    static let command = Command(
        name: "modifier",
        abstract: "Manage modifier groups (extras, removals, a choice of dough) and their modifiers.",
        discussion: """
            A group says how many of its modifiers one order line takes (--min/--max: 0 to 3 extras,
            exactly 1 dough). Attach a group to items with pizza attach. Order modifiers as
            PIZZA+MODIFIER+MODIFIER (Margherita+bufala+'nduja), or GROUP:MODIFIER where two groups share a
            name. A line snapshots each modifier's price, as it does the item's.
            """,
        subcommands: [list, group, add, edit, StockCommands.modifierSoldOut, StockCommands.modifierAvailable])

    static let groupArgument = Argument("group", help: "The group, by name (ignoring case) or number.")
    static let modifierArgument = Argument("modifier", help: "The modifier's name in the group, ignoring case.")
    static let name = Argument("name", help: "The name: 1 to 40 characters, unique in its place ignoring case.")
    static let min = Option("min", "n", help: "The fewest one line takes (default 0).", .integer(in: 0...30))
    static let max = Option("max", "n", help: "The most one line takes (default 1).", .integer(in: 1...30))
    static let newName = Option("name", "name", help: "The new name.")
    static let price = Option("price", "price", help: "What it adds in EUR: 0 to 100.00 (default 0).", .modifierMoney)
    static let allergens = Option(
        "allergens", "codes", help: "EU allergen codes it brings (milk,nuts), or none.", .allergens)
    static let position = Option("position", "n", help: "Where it is offered: 1 first.", .integer(in: 1...100))
    static let kind = Option(
        "kind", "kind",
        help: "extra (priced additions, the default), removal (free: a line prints senza NAME) or choice"
            + " (exactly one, with a default).", ValueParser<ModifierGroup.Kind>.oneOf)
    static let defaultModifier = Option(
        "default", "modifier", help: "A choice's default: one of its modifiers, taken when a line names none.")
    static let archive = Flag("archive", help: "No longer offer it (booked lines keep it).")
    static let restore = Flag("restore", help: "Offer it again.")
    static let variantPrice = Option(
        "variant-price", "variant=price",
        help: "Its price on variants of this name (Maxi=3), or VARIANT= to remove that price.")

    static let list = Command(
        name: "list", abstract: "List the modifier groups with their modifiers.", options: ListOptions.all,
        run: { invocation in
            let context = invocation.context
            let groups = try context.open(.requireCurrent).menu.modifierGroups()
            let now = try context.clock()()
            let rows = groups.flatMap { group in group.modifiers.map { (group, $0) } }
            try context.list.write(invocation, shape) { each in
                try rows.forEach { try each(Row(group: $0.0, modifier: $0.1, left: $0.1.left(for: now))) }
            }
            return .ok
        })

    /// A modifier beside its group, for lists.
    struct Row: Encodable, JSONMembers {
        let group: ModifierGroup
        let modifier: Modifier
        /// How many more can be booked for a pickup now (0: sold out), or `nil`: no limit.
        let left: Int?

        /// `archived`, `sold out`, `3 left`, `offered` (`, default` for a choice's default).
        var status: String {
            if modifier.isArchived { return "archived" }
            let offered = left.map { $0 == 0 ? "sold out" : "offered, \($0) left" } ?? "offered"
            return offered + (group.defaultModifier == modifier.id ? ", default" : "")
        }

        func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
            try writer.member("group", group.name)
            try writer.member("group_id", group.id.rawValue)
            try writer.member("group_kind", group.kind.rawValue)
            try writer.member("is_default", group.defaultModifier == modifier.id)
            try writer.member("left", left)
            try writer.member("max_selected", group.maxSelected)
            try writer.member("min_selected", group.minSelected)
            try writer.member("modifier", object: modifier)
            try writer.member("sold_out", left == 0)
        }

        func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }
    }

    static let shape = ListOutput.Shape<Row>(
        table: Table("GROUP", "KIND", "TAKES", "MODIFIER", "PRICE", "ALLERGENS", "STATUS", rightAligned: [4]),
        cells: {
            [
                $0.group.name, $0.group.kind.rawValue, $0.group.ruleText, $0.modifier.name, $0.modifier.price.formatted,
                Allergen.codes($0.modifier.allergens).joined(separator: ","),
                $0.status,
            ]
        },
        empty: "No modifiers.\n",
        csv: CSVColumns([
            .member("group"), .member("group_kind"), .member("min_selected"), .member("max_selected"),
            .computed("modifier") { .text($0.modifier.name) },
            .computed("price_cents") { .number($0.modifier.price.cents) },
            .computed("allergens") { .text(Allergen.codes($0.modifier.allergens).joined(separator: ",")) },
            .computed("archived") { .number($0.modifier.isArchived ? 1 : 0) },
            .member("is_default"), .member("left"), .member("sold_out"),
        ]))

    static let group = Command(
        name: "group", abstract: "Add or edit a modifier group.", subcommands: [groupAdd, groupEdit])

    static let groupAdd = Command(
        name: "add", abstract: "Add a modifier group.", arguments: [name],
        options: [kind, min, max, position, OrderCommands.by],
        examples: [
            "pizzeria modifier group add Aggiunte --max 3", "pizzeria modifier group add Senza --kind removal --max 5",
            "pizzeria modifier group add Impasto --kind choice",
        ],
        run: { invocation in
            let context = invocation.context
            let kind = try invocation[kind] ?? .extra
            if kind == .choice, let bound = try invocation[min] ?? invocation[max], bound != 1 {
                throw ValidationError([FieldError(field: "kind", message: "a choice takes exactly one, not \(bound)")])
            }
            let group = try context.open(.requireCurrent).menu.addModifierGroup(
                name: try invocation[name], min: try invocation[min] ?? (kind == .choice ? 1 : 0),
                max: try invocation[max] ?? 1, position: try invocation[position], kind: kind)
            try context.emit(group) { "Added modifier group \(group.name) (\(group.ruleText) per line).\n" }
            return .ok
        })

    static let groupEdit = Command(
        name: "edit", abstract: "Rename a group, change how many a line takes, its kind or default, or move it.",
        arguments: [groupArgument], options: [newName, kind, defaultModifier, min, max, position, OrderCommands.by],
        examples: ["pizzeria modifier group edit Impasto --kind choice --default classico"],
        run: { invocation in
            let context = invocation.context
            let newName = try invocation[newName], min = try invocation[min], max = try invocation[max]
            let position = try invocation[position], kind = try invocation[kind]
            let wanted = try invocation[defaultModifier]
            if newName == nil && min == nil && max == nil && position == nil && kind == nil && wanted == nil {
                throw invocation.usage("give --name, --kind, --default, --min, --max or --position")
            }
            let menu = try context.open(.requireCurrent).menu
            let current = try menu.modifierGroup(named: try invocation[groupArgument])
            let defaultID = try wanted.map { name in
                guard let found = current.offered.first(where: { $0.name.lowercased() == name.lowercased() }) else {
                    throw ValidationError([
                        FieldError(
                            field: "default",
                            message: "\(current.name) offers no '\(name)'; it offers "
                                + current.offered.map(\.name).joined(separator: ", "))
                    ])
                }
                return found.id
            }
            let group = try menu.editModifierGroup(
                current.id, name: newName, min: min, max: max, position: position, kind: kind,
                defaultModifier: defaultID.map { .some($0) })
            try context.emit(group) { "Saved modifier group \(group.name) (\(group.ruleText) per line).\n" }
            return .ok
        })

    static let add = Command(
        name: "add", abstract: "Add a modifier to a group.", arguments: [groupArgument, name],
        options: [price, allergens, position, OrderCommands.by],
        examples: [
            "pizzeria modifier add Aggiunte bufala --price 2 --allergens milk",
            "pizzeria modifier add Senza basilico",
        ],
        run: { invocation in
            let context = invocation.context
            let menu = try context.open(.requireCurrent).menu
            let group = try menu.modifierGroup(named: try invocation[groupArgument])
            let modifier = try menu.addModifier(
                to: group.id, name: try invocation[name], price: try invocation[price] ?? Money(cents: 0),
                allergens: try invocation[allergens] ?? [], position: try invocation[position])
            try context.emit(modifier) { "Added \(modifier.name) (\(modifier.price.formatted)) to \(group.name).\n" }
            return .ok
        })

    static let edit = Command(
        name: "edit", abstract: "Rename, reprice, archive or restore a modifier, or price it per variant.",
        arguments: [groupArgument, modifierArgument],
        options: [newName, price, allergens, position, archive, restore, variantPrice, OrderCommands.by],
        exclusive: [[archive, restore]],
        examples: [
            "pizzeria modifier edit Aggiunte bufala --variant-price Maxi=3",
            "pizzeria modifier edit Aggiunte bufala --archive   # out of bufala",
        ],
        run: { invocation in
            let context = invocation.context
            let archived: Bool? = try invocation[archive] ? true : invocation[restore] ? false : nil
            var perVariant: (variant: String, price: Money?)?
            if let text = try invocation[variantPrice] {
                guard let equals = text.lastIndex(of: "="), equals != text.startIndex else {
                    throw ValidationError([
                        FieldError(
                            field: "variant-price", message: "must be VARIANT=PRICE (Maxi=3) or VARIANT=, not '\(text)'"
                        )
                    ])
                }
                let amount = String(text[text.index(after: equals)...])
                perVariant = (
                    String(text[..<equals]),
                    amount.isEmpty ? nil : try ValueParser.modifierMoney.parse(amount, "variant-price")
                )
            }
            let name = try invocation[newName], price = try invocation[price], codes = try invocation[allergens]
            let position = try invocation[position]
            if name == nil && price == nil && codes == nil && position == nil && archived == nil && perVariant == nil {
                throw invocation.usage(
                    "give --name, --price, --allergens, --position, --archive, --restore or --variant-price")
            }
            let menu = try context.open(.requireCurrent).menu
            let group = try menu.modifierGroup(named: try invocation[groupArgument])
            let current = try menu.modifier(named: try invocation[modifierArgument], for: nil, group: group.name)
            let modifier = try menu.editModifier(
                current.id, name: name, price: price, allergens: codes, position: position, archived: archived,
                variantPrice: perVariant)
            try context.emit(modifier) {
                "Saved \(modifier.name) (\(modifier.price.formatted)) in \(group.name)"
                    + (modifier.isArchived ? ", archived" : "") + ".\n"
            }
            return .ok
        })
}

/// `pizza sold-out|available`, `modifier sold-out|available`: "86" tonight, apart from archiving.
enum StockCommands {
    static let left = Option(
        "left", "n", help: "Not sold out yet: only this many more can be booked (default 0: sold out).",
        .integer(in: 0...Stock.maximum))
    static let until = Option(
        "until", "when",
        help: "end-of-service (default), never (until made available), or a time: HH:MM or YYYY-MM-DDTHH:MM.")
    static let discussion = """
        Bookings and edits for pickups before the end are refused (1) once none is left, naming when it is
        back; bookings take from --left and cancellations give back. From the end on (by default the end of
        tonight's last slot) it is available by itself; tomorrow's bookings are never refused. Archiving is
        for taking an item off the menu for good.
        """

    static func end(_ invocation: Invocation, _ pizzeria: Pizzeria) throws -> MenuService.StockEnd {
        switch try invocation[until]?.lowercased() {
        case nil, "end-of-service": return .endOfService
        case "never": return .untilAvailable
        case let text?: return .at(try relabeling("until") { try pizzeria.orders.pickup(parsing: text) })
        }
    }

    static func text(_ name: String, left: Int?, until: Date?, zone: TimeZone) -> String {
        "\(name): " + PizzaText.stockText(left, until: until, zone: zone) + ".\n"
    }

    static let soldOut = Command(
        name: "sold-out", abstract: "Mark an item sold out tonight (or only --left N more).", discussion: discussion,
        arguments: [PizzaCommands.pizzaArgument], options: [left, until, OrderCommands.by],
        examples: ["pizzeria pizza sold-out Porcini", "pizzeria pizza sold-out Margherita --left 12 --until 22:00"],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let pizza = try pizzeria.lookup.pizza(try invocation[PizzaCommands.pizzaArgument])
            let saved = try pizzeria.menu.setStock(
                of: pizza.id, left: try invocation[left] ?? 0, until: try end(invocation, pizzeria))
            let zone = try pizzeria.settings.current().timeZone
            try context.emit(saved) { text(saved.name, left: saved.stockLeft, until: saved.stockUntil, zone: zone) }
            return .ok
        })

    static let available = Command(
        name: "available", abstract: "Make a sold-out item available again.",
        arguments: [PizzaCommands.pizzaArgument], options: [OrderCommands.by],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let pizza = try pizzeria.lookup.pizza(try invocation[PizzaCommands.pizzaArgument])
            let saved = try pizzeria.menu.makeAvailable(pizza.id)
            try context.emit(saved) { "\(saved.name): available.\n" }
            return .ok
        })

    static let modifierSoldOut = Command(
        name: "sold-out", abstract: "Mark a modifier sold out tonight (out of bufala).", discussion: discussion,
        arguments: [ModifierCommands.groupArgument, ModifierCommands.modifierArgument],
        options: [left, until, OrderCommands.by],
        examples: ["pizzeria modifier sold-out Aggiunte bufala"],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let group = try pizzeria.menu.modifierGroup(named: try invocation[ModifierCommands.groupArgument])
            let modifier = try pizzeria.menu.modifier(
                named: try invocation[ModifierCommands.modifierArgument], for: nil, group: group.name)
            let saved = try pizzeria.menu.setStock(
                ofModifier: modifier.id, left: try invocation[left] ?? 0, until: try end(invocation, pizzeria))
            let zone = try pizzeria.settings.current().timeZone
            try context.emit(saved) { text(saved.name, left: saved.stockLeft, until: saved.stockUntil, zone: zone) }
            return .ok
        })

    static let modifierAvailable = Command(
        name: "available", abstract: "Make a sold-out modifier available again.",
        arguments: [ModifierCommands.groupArgument, ModifierCommands.modifierArgument], options: [OrderCommands.by],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let group = try pizzeria.menu.modifierGroup(named: try invocation[ModifierCommands.groupArgument])
            let modifier = try pizzeria.menu.modifier(
                named: try invocation[ModifierCommands.modifierArgument], for: nil, group: group.name)
            let saved = try pizzeria.menu.makeAvailable(modifier: modifier.id)
            try context.emit(saved) { "\(saved.name): available.\n" }
            return .ok
        })
}
