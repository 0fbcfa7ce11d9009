import PizzeriaServices

/// What a shell should offer for the word being typed, from the command tree and — for pizza
/// names, user handles and order ids — from the database the command line names (`--db`, else
/// `$PIZZERIA_DB`, else `./pizzeria.sqlite`). The shell scripts only ask and print; every rule
/// lives here, where the tests reach it.
struct Completer {
    let root: Command
    let environment: [String: String]
    /// At most this many live values (a menu of a million pizzas offers the first matches).
    static let limit = 200

    /// The candidates for `current`, the word under the cursor, after the complete words `words`
    /// (the program name left out).
    func candidates(words: [String], current: String) -> [String] {
        var command = root
        var positional = 0
        var pendingOption: Option?
        var optionsEnded = false
        var database: String?
        for word in words {
            if let option = pendingOption {
                if option.long == "db" { database = word }
                pendingOption = nil
                continue
            }
            if !optionsEnded, word == "--" { optionsEnded = true; continue }
            if !optionsEnded, word.hasPrefix("--") {
                let name = String(word.dropFirst(2).prefix { $0 != "=" })
                let option = options(of: command).first { $0.long == name }
                if let option, option.takesValue {
                    if let equals = word.firstIndex(of: "=") {
                        if name == "db" { database = String(word[word.index(after: equals)...]) }
                    } else {
                        pendingOption = option
                    }
                }
                continue
            }
            if positional == 0, let sub = command.subcommand(named: word) {
                command = sub
                continue
            }
            positional += 1
        }
        let source = Source(environment: environment, databasePath: database)
        if let option = pendingOption { return complete(option.completion, current, source) }
        if !optionsEnded, current.hasPrefix("--"), let equals = current.firstIndex(of: "=") {
            let name = String(current.dropFirst(2)[..<equals])
            guard let option = options(of: command).first(where: { $0.long == name }) else { return [] }
            let prefix = String(current[...equals])
            return complete(option.completion, String(current[current.index(after: equals)...]), source).map { prefix + $0 }
        }
        if !optionsEnded, current.hasPrefix("-") {
            return options(of: command).map { "--" + $0.long }.filter { $0.hasPrefix(current) }
        }
        if !command.subcommands.isEmpty {
            return command.subcommands.map(\.name).filter { $0.hasPrefix(current) }
        }
        guard !command.arguments.isEmpty else { return [] }
        let argument = positional < command.arguments.count ? command.arguments[positional]
            : command.arguments[command.arguments.count - 1]
        guard positional < command.arguments.count || argument.isVariadic else { return [] }
        return complete(argument.completion, current, source)
    }

    private func options(of command: Command) -> [Option] {
        command.options + GlobalOptions.all + (command.name == root.name ? [GlobalOptions.version] : [])
    }

    private func complete(_ completion: Completion, _ current: String, _ source: Source) -> [String] {
        switch completion {
        case .none, .files: return []
        case .choices(let words): return words.filter { $0.hasPrefix(current) }
        case .pizzas: return source.pizzaNames(prefix: current)
        case .items: return source.pizzaNames(prefix: current)
        case .users: return source.handles(prefix: current)
        case .orders: return source.orderPrefixes(prefix: current)
        case .routes:
            if current.hasPrefix("pizza:") { return source.pizzaNames(prefix: String(current.dropFirst(6))).map { "pizza:" + $0 } }
            if current.hasPrefix("order:") { return source.orderPrefixes(prefix: String(current.dropFirst(6))).map { "order:" + $0 } }
            return ["pizza:", "order:"].filter { $0.hasPrefix(current) }
        }
    }

    /// Live values, read only when asked and never written: a missing or unusable database
    /// offers nothing (completion must not print errors into a command line).
    struct Source {
        let environment: [String: String]
        let databasePath: String?

        private func open() -> Pizzeria? {
            let path = Context.databasePath(option: databasePath, environment: environment)
            return try? Pizzeria.open(path: path, access: .requireCurrent)
        }

        // Index ranges through the lookups, so a menu of a million pizzas completes at once;
        // any failure offers nothing.
        func pizzaNames(prefix: String) -> [String] {
            (try? open()?.lookup.pizzaNames(startingWith: prefix, limit: Completer.limit)) ?? []
        }

        func handles(prefix: String) -> [String] {
            (try? open()?.lookup.handles(startingWith: prefix, limit: Completer.limit)) ?? []
        }

        /// Ids shortened to 8 characters, whole once more than that is typed.
        func orderPrefixes(prefix: String) -> [String] {
            let ids = (try? open()?.lookup.orderIDs(startingWith: prefix, limit: Completer.limit)) ?? []
            return ids.map { prefix.count > 8 ? $0.description : String($0.description.prefix(8)) }
        }
    }
}
