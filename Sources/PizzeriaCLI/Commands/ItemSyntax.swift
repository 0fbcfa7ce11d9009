import PizzeriaServices

/// The order item syntax, one rule for every command that takes an item (`order place`, `order
/// edit --add/--set/--remove`):
///
///     ITEM     = NAME [ "/" NAME ] { "+" MODIFIER } [ "=" QTY ]
///     MODIFIER = [ NAME ":" ] NAME          (GROUP:MODIFIER where two groups share a name)
///
/// A NAME is typed as it is, or in double quotes (`""` for a quote inside), and must be quoted
/// when it contains a character of the syntax: `/`, `+` or `=` in an item's or a variant's name,
/// also `:` in a modifier's or a group's (`"Calzone=2"=3`, `Cola/"0,33 l/vetro"`). Text out of
/// quotes is cut at those characters, always. Where an item's own name (an older one, made
/// before names were read this way) could be read as that text, the item is refused as
/// ambiguous, naming both readings and how to quote each; when only the whole name is an item,
/// it is that item.
enum ItemSyntax {
    /// An item as typed: names still unresolved.
    struct Parsed: Equatable {
        var pizza: String
        var variant: String?
        var modifiers: [(group: String?, name: String)]
        var quantity: Int?
        /// Whether any part was in double quotes.
        var quoted: Bool

        static func == (lhs: Parsed, rhs: Parsed) -> Bool {
            lhs.pizza == rhs.pizza && lhs.variant == rhs.variant && lhs.quantity == rhs.quantity
                && lhs.quoted == rhs.quoted
                && lhs.modifiers.map { "\($0.group ?? "")\u{0}\($0.name)" }
                    == rhs.modifiers.map { "\($0.group ?? "")\u{0}\($0.name)" }
        }
    }

    /// What `text` says, or the field error a person reads.
    static func parse(_ text: String) throws -> Parsed {
        var scanner = Scanner(text)
        func problem(_ message: String) -> ValidationError {
            ValidationError([
                FieldError(
                    field: "item",
                    message: "\(message) in '\(text)': an item is PIZZA[/VARIANT][+[GROUP:]MODIFIER…][=QTY], "
                        + "a name with / + = or : in double quotes")
            ])
        }
        var quoted = false
        func name(stoppingAt stops: Set<Character>, what: String) throws -> String {
            let (value, wasQuoted) = try scanner.name(stoppingAt: stops)
            quoted = quoted || wasQuoted
            guard !value.isEmpty else { throw problem("no \(what) name") }
            return value
        }
        var parsed = Parsed(pizza: "", variant: nil, modifiers: [], quantity: nil, quoted: false)
        parsed.pizza = try name(stoppingAt: ["/", "+", "="], what: "item")
        if scanner.take("/") { parsed.variant = try name(stoppingAt: ["/", "+", "="], what: "variant") }
        while scanner.take("+") {
            let first = try name(stoppingAt: ["+", "=", ":"], what: "modifier")
            if scanner.take(":") {
                parsed.modifiers.append((first, try name(stoppingAt: ["+", "=", ":"], what: "modifier")))
            } else {
                parsed.modifiers.append((nil, first))
            }
        }
        if scanner.take("=") {
            let digits = scanner.rest
            guard let quantity = Int(digits), digits.allSatisfy(\.isASCII) else {
                throw problem("QTY must be a whole number, not '\(digits)'")
            }
            if let rule = OrderRequest.quantityProblem(quantity, of: parsed.pizza) { throw ValidationError([rule]) }
            parsed.quantity = quantity
        } else if !scanner.atEnd {
            throw problem("unexpected '\(scanner.rest)'")
        }
        parsed.quoted = quoted
        return parsed
    }

    /// The item `text` names, looked up on the menu: the item by its name or id, then its variant
    /// and modifiers by name among its own.
    static func item(_ text: String, lookup: LookupService, menu: MenuService) throws -> (
        item: OrderRequest.Item, parsed: Parsed
    ) {
        let parsed = try parse(text)
        // An item whose own name is the text typed (or the text before its last `=`) is a second
        // reading of unquoted text: only names made before they were refused can be that.
        var whole: (pizza: Pizza, quantity: Int)?
        if !parsed.quoted, text.contains(where: { "/+=:".contains($0) }) {
            if let named = try menu.pizza(named: text) {
                whole = (named, 1)
            } else if let equals = text.lastIndex(of: "="), let quantity = parsed.quantity,
                let named = try menu.pizza(named: String(text[..<equals]))
            {
                whole = (named, quantity)
            }
        }
        let strict: Result<OrderRequest.Item, Error> = Result {
            let pizza = try lookup.pizza(parsed.pizza)
            let variant = try parsed.variant.map { try menu.variant(named: $0, of: pizza.id).id }
            let modifiers = try parsed.modifiers.map {
                try menu.modifier(named: $0.name, for: pizza.id, group: $0.group).id
            }
            return OrderRequest.Item(
                pizza: pizza.id, quantity: parsed.quantity ?? 1, variant: variant, modifiers: modifiers)
        }
        guard let whole else { return (try strict.get(), parsed) }
        let wholeItem = OrderRequest.Item(pizza: whole.pizza.id, quantity: whole.quantity)
        guard case .success(let item) = strict, item.pizza != whole.pizza.id else {
            return (
                wholeItem, Parsed(pizza: whole.pizza.name, variant: nil, modifiers: [], quantity: nil, quoted: true)
            )
        }
        throw ValidationError([
            FieldError(
                field: "item",
                message:
                    "'\(text)' is ambiguous: the item \(quote(whole.pizza.name)), or \(describe(parsed)); "
                    + "write \(quote(whole.pizza.name))\(whole.quantity == 1 ? "" : "=\(whole.quantity)") for the first, "
                    + "\(typed(parsed)) for the other")
        ])
    }

    /// `name` in double quotes, a quote inside doubled.
    static func quote(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// The parsed item typed back with every name quoted.
    static func typed(_ parsed: Parsed) -> String {
        quote(parsed.pizza) + (parsed.variant.map { "/" + quote($0) } ?? "")
            + parsed.modifiers.map { "+" + ($0.group.map { quote($0) + ":" } ?? "") + quote($0.name) }.joined()
            + (parsed.quantity.map { "=\($0)" } ?? "")
    }

    /// `2 × Calzone`, `Calzone / Maxi + bufala`.
    static func describe(_ parsed: Parsed) -> String {
        (parsed.quantity.map { "\($0) × " } ?? "") + parsed.pizza + (parsed.variant.map { " / " + $0 } ?? "")
            + parsed.modifiers.map { " + " + ($0.group.map { $0 + ": " } ?? "") + $0.name }.joined()
    }

    /// Reads names and separators off the text, left to right.
    struct Scanner {
        let characters: [Character]
        var index = 0

        init(_ text: String) { characters = Array(text) }

        var atEnd: Bool { index >= characters.count }
        var rest: String { String(characters[min(index, characters.count)...]) }

        /// Takes `separator` if it is next.
        mutating func take(_ separator: Character) -> Bool {
            guard !atEnd, characters[index] == separator else { return false }
            index += 1
            return true
        }

        /// A name up to the next of `stops` (out of quotes), and whether it was quoted; quotes
        /// may hold any character, `""` being one quote.
        mutating func name(stoppingAt stops: Set<Character>) throws -> (String, Bool) {
            guard !atEnd, characters[index] == "\"" else {
                var value = ""
                while !atEnd, !stops.contains(characters[index]), characters[index] != "\"" {
                    value.append(characters[index])
                    index += 1
                }
                return (value, false)
            }
            index += 1
            var value = ""
            while true {
                guard !atEnd else {
                    throw ValidationError([
                        FieldError(
                            field: "item", message: "a name opened with \" is not closed: '\(String(characters))'")
                    ])
                }
                let character = characters[index]
                index += 1
                if character == "\"" {
                    if !atEnd, characters[index] == "\"" {
                        value.append("\"")
                        index += 1
                        continue
                    }
                    return (value, true)
                }
                value.append(character)
            }
        }
    }
}
