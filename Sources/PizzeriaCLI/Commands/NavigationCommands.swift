import Foundation
import PizzeriaServices

/// `pizzeria nav …`: each user's router.
enum NavigationCommands {
    static let command = Command(
        name: "nav",
        abstract: "Each user's navigation: the stack over the menu, router operations, deep links, history.",
        discussion: """
            ROUTE is pizza:PIZZA (id, id prefix or name) or order:ORDER (id, short id or the start of
            either). Every operation is one transaction that updates the stack and appends to the
            history; a refused one changes nothing.
            """,
        subcommands: [show, push, pop, root, random, open, history, export, importCommand, stats])

    static let user = Argument("user", help: "The user's handle (or id).", completion: .users)
    static let routes = VariadicArgument(
        "route", help: "pizza:PIZZA, order:ORDER or category:CATEGORY.", completion: .routes)
    static let count = OptionalArgument(
        "count", help: "How many routes to pop (default 1).",
        ValueParser { text, field in
            guard let count = Int(text) else {
                throw ValidationError([FieldError(field: field, message: "must be a whole number, not '\(text)'")])
            }
            return count
        })
    static let depth = Option(
        "to", "depth", help: "Pop back to this depth instead (0 is the menu).", .integer(in: 0...Int(Int32.max)))
    static let seed = Option(
        "seed", "n", help: "Pick deterministically: the same seed and menu give the same pizza.",
        ValueParser { text, field in
            guard let seed = UInt64(text) else {
                throw ValidationError([
                    FieldError(field: field, message: "must be a whole number from 0 to \(UInt64.max), not '\(text)'")
                ])
            }
            return seed
        })
    static let url = Argument("url", help: "The deep link.")
    static let historyLimit = Option("limit", "n", help: "How many events.", default: "20", .integer(in: 1...1_000_000))
    static let statsLimit = Option("limit", "n", help: "How many pizzas.", default: "10", .integer(in: 1...10_000))
    static let file = OptionalArgument(
        "file", help: "The JSON file, or - (the default) for standard input.", completion: .files)

    /// Opens the database and resolves the USER argument (a handle, or an id).
    static func open(_ invocation: Invocation) throws -> (
        navigation: NavigationService, user: User.ID, pizzeria: Pizzeria
    ) {
        let pizzeria = try invocation.context.open(.requireCurrent)
        return (pizzeria.navigation, try pizzeria.lookup.user(try invocation[user]).id, pizzeria)
    }

    /// Prints the state after an operation.
    static func report(_ state: NavigationState, _ context: Context, _ navigation: NavigationService) throws -> ExitCode
    {
        let view = try NavigationView(state, navigation)
        try context.emit(view) { NavigationText.state(view) }
        return .ok
    }

    static let show = Command(
        name: "show",
        abstract: "Show the user's path, current and previous route, and sheet.",
        arguments: [user],
        run: { invocation in
            let (navigation, user, _) = try open(invocation)
            return try report(try navigation.state(of: user), invocation.context, navigation)
        })

    static let push = Command(
        name: "push",
        abstract: "Push one or several routes (several at once are one change).",
        arguments: [user, routes],
        examples: ["pizzeria nav push anna pizza:Margherita", "pizzeria nav push anna pizza:Margherita pizza:Porcini"],
        run: { invocation in
            let (navigation, user, pizzeria) = try open(invocation)
            let routes = try invocation[routes].map { try pizzeria.lookup.route($0, for: user) }
            return try report(try navigation.push(user, routes), invocation.context, navigation)
        })

    static let pop = Command(
        name: "pop",
        abstract: "Pop the top route, COUNT routes, or back to a depth.",
        discussion: "Refused (exit 1) on an empty stack or when COUNT is greater than the depth.",
        arguments: [user, count],
        options: [depth],
        run: { invocation in
            let context = invocation.context
            let (navigation, user, _) = try open(invocation)
            if let depth = try invocation[depth] {
                guard try invocation[count] == nil else { throw invocation.usage("give COUNT or --to, not both") }
                return try report(try navigation.popTo(user, depth: depth), context, navigation)
            }
            return try report(try navigation.pop(user, count: try invocation[count] ?? 1), context, navigation)
        })

    static let root = Command(
        name: "root",
        abstract: "Pop to the root: back to the menu.",
        arguments: [user],
        run: { invocation in
            let (navigation, user, _) = try open(invocation)
            return try report(try navigation.popToRoot(user), invocation.context, navigation)
        })

    static let random = Command(
        name: "random",
        abstract: "Push the detail of a random pizza on the menu (the app's Random button).",
        arguments: [user],
        options: [seed],
        run: { invocation in
            let context = invocation.context
            let seed = try invocation[seed]
            let (navigation, user, _) = try open(invocation)
            return try report(try navigation.random(user, seed: seed), context, navigation)
        })

    static let open = Command(
        name: "open",
        abstract: "Open a deep link: its routes replace the whole stack.",
        discussion:
            "pizzeria://pizza/ID, pizzeria://order/ID, or several: pizzeria://pizza/ID/pizza/ID2. A pizza may be named by its URL-encoded name.",
        arguments: [user, url],
        examples: [
            "pizzeria nav open anna pizzeria://pizza/Quattro%20Formaggi",
            "pizzeria nav open anna pizzeria://pizza/4f1c/order/9a2b",
        ],
        run: { invocation in
            let context = invocation.context
            let (navigation, user, _) = try open(invocation)
            return try report(try navigation.open(user, url: try invocation[url]), context, navigation)
        })

    static let history = Command(
        name: "history",
        abstract: "Show the user's latest navigation events, oldest first.",
        arguments: [user],
        options: [historyLimit] + ListOptions.all,
        run: { invocation in
            let context = invocation.context
            let limit = try invocation[historyLimit] ?? 20
            let (navigation, user, pizzeria) = try open(invocation)
            let events = try navigation.history(of: user, limit: limit)
            let zone = try pizzeria.settings.current().timeZone
            try context.list.write(invocation, NavigationText.historyShape(zone)) { each in try events.forEach(each) }
            return .ok
        })

    static let formatOption = Option(
        "format", "format",
        help: "routes (a JSON array of Route) or navigation-path (NavigationPath.CodableRepresentation).",
        completion: .choices(["routes", "navigation-path"]))
    static let typeNameOption = Option(
        "type-name", "name", help: "The app's module-qualified route type name.",
        default: NavigationFormat.defaultRouteTypeName)

    static func format(_ invocation: Invocation) throws -> NavigationFormat? {
        guard let text = try invocation[formatOption] else { return nil }
        guard let format = NavigationFormat(rawValue: text) else {
            throw invocation.usage("--format must be routes or navigation-path, not '\(text)'")
        }
        return format
    }

    static let export = Command(
        name: "export",
        abstract: "Print the user's stack as JSON, for the app to restore.",
        arguments: [user],
        options: [formatOption, typeNameOption],
        run: { invocation in
            let context = invocation.context
            let (navigation, user, _) = try open(invocation)
            let (text, omitted) = try navigation.export(
                user, format: try format(invocation) ?? .routes,
                routeTypeName: try invocation[typeNameOption] ?? NavigationFormat.defaultRouteTypeName)
            context.console.line(text)
            if omitted > 0 {
                context.console.note(
                    "\(omitted) element(s) of other types cannot be written as routes; use --format navigation-path to keep them"
                )
            }
            return .ok
        })

    static let importCommand = Command(
        name: "import",
        abstract: "Replace the user's stack with an exported one (from FILE, or - for standard input).",
        discussion: """
            Routes whose pizza or order no longer exists are dropped and reported; archived pizzas stay;
            if none of the routes exists, nothing is imported (exit 66). Ids match in any case. In the
            routes format every element must be a route; elements of other types are kept only in the
            navigation-path format. Without --format, an array of strings is read as a navigation path and
            anything else as routes. Limits: 1 MiB of input, 500 elements, JSON nested 32 deep, no
            duplicate keys.
            """,
        arguments: [user, file],
        options: [formatOption, typeNameOption],
        run: { invocation in
            let context = invocation.context
            let source = try invocation[file] ?? "-"
            let data = try StandardInput.read(source, limit: NavigationLimits.maximumImportBytes)
            guard let text = String(validating: data, as: UTF8.self) else {
                throw ValidationError([FieldError(field: "input", message: "is not valid UTF-8")])
            }
            let (navigation, user, _) = try open(invocation)
            let progress = ProgressLine("importing", context: context)
            let result = try navigation.importPath(
                user, text: text, format: try format(invocation),
                routeTypeName: try invocation[typeNameOption] ?? NavigationFormat.defaultRouteTypeName,
                progress: { progress.update($0, of: $1, unit: "elements checked") })
            progress.finish()
            let view = ImportView(state: try NavigationView(result.state, navigation), dropped: result.dropped)
            try context.emit(view) {
                NavigationText.state(view.state)
                    + result.dropped.map { "  dropped   \($0.kind) \($0.id) (no longer exists)\n" }.joined()
            }
            return .ok
        })

    static let stats = Command(
        name: "stats",
        abstract:
            "The most viewed pizzas: how often each detail was shown (pushed, at random, by deep link, restored), over all users.",
        options: [statsLimit] + ListOptions.all,
        run: { invocation in
            let context = invocation.context
            let views = try context.open(.requireCurrent).navigation.mostViewed(limit: try invocation[statsLimit] ?? 10)
            try context.list.write(invocation, NavigationText.viewsShape) { each in try views.forEach(each) }
            return .ok
        })
}
