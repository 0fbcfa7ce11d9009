import PizzeriaServices

// Typed command-line declarations, in the manner of swift-argument-parser's `@Option`, `@Flag`
// and `@Argument`: a command declares each option and argument once, as a value with the type
// it parses to, and reads it back through that same value (`try invocation[Self.pickup]`). The
// declaration is also what the help page, the manual, the usage errors and the completions are
// generated from, so a misspelt name does not compile and an undocumented option cannot exist.

/// How the parser, the help and the completions see an option.
struct OptionSpec: Sendable {
    /// Without the dashes.
    let long: String
    /// The one-letter form, without the dash.
    var short: Character?
    /// Shown as `<valueName>`; `nil` for a flag.
    var valueName: String?
    /// What it does.
    let help: String
    /// Shown as `(default: …)`.
    var defaultValue: String?
    /// Whether the command cannot run without it (the parser refuses a command line that lacks it).
    var isRequired = false
    /// What the shells offer for its value.
    var completion: Completion = .none

    var takesValue: Bool { valueName != nil }

    /// `-h, --help` or `--db <path>`.
    var synopsis: String {
        var text = short.map { "-\($0), " } ?? ""
        text += "--\(long)"
        if let valueName { text += " <\(valueName)>" }
        return text
    }
}

/// How the parser, the help and the completions see a positional argument.
struct ArgumentSpec: Sendable {
    /// Shown as `<name>`.
    let name: String
    /// What it is.
    let help: String
    /// Whether it may be left out.
    var isOptional = false
    /// Whether it takes every remaining positional (`<name>...`).
    var isVariadic = false
    /// What the shells offer for it.
    var completion: Completion = .none
}

/// Something a command lists among its options.
protocol OptionDeclaration: Sendable {
    var spec: OptionSpec { get }
}

/// Something a command lists among its positional arguments.
protocol ArgumentDeclaration: Sendable {
    var spec: ArgumentSpec { get }
}

/// Turns the text of an option or argument into its value; a refusal names the field
/// (`--limit`'s field is `limit`) and exits 65.
struct ValueParser<Value: Sendable>: Sendable {
    let parse: @Sendable (_ text: String, _ field: String) throws -> Value

    init(_ parse: @escaping @Sendable (_ text: String, _ field: String) throws -> Value) { self.parse = parse }
}

extension ValueParser where Value == String {
    /// The text as typed.
    static let text = ValueParser { text, _ in text }
}

extension ValueParser where Value == Int {
    /// A whole number within `range`.
    static func integer(in range: ClosedRange<Int>) -> ValueParser {
        ValueParser { text, field in
            guard let value = Int(text), range.contains(value) else {
                throw ValidationError([
                    FieldError(
                        field: field,
                        message: "must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'"
                    )
                ])
            }
            return value
        }
    }
}

extension ValueParser where Value == OpeningInterval {
    /// A time range, `18:30-21:00` (past midnight: `22:00-01:00`); a refusal names `hours`, as
    /// the opening hours' own syntax does.
    static let interval = ValueParser { text, _ in try HoursSyntax.parseInterval(text) }
}

/// A flag: present or absent.
struct Flag: OptionDeclaration {
    let spec: OptionSpec

    init(_ long: String, short: Character? = nil, help: String) {
        spec = OptionSpec(long: long, short: short, valueName: nil, help: help)
    }
}

/// An option that takes a value of type `Value`; repeated, it keeps every value.
struct Option<Value: Sendable>: OptionDeclaration {
    let spec: OptionSpec
    let parser: ValueParser<Value>

    init(
        _ long: String, _ valueName: String, help: String, default defaultValue: String? = nil,
        completion: Completion = .none, _ parser: ValueParser<Value>
    ) {
        spec = OptionSpec(
            long: long, short: nil, valueName: valueName, help: help, defaultValue: defaultValue,
            completion: completion)
        self.parser = parser
    }
}

extension Option where Value == String {
    /// An option whose value is the text as typed.
    init(
        _ long: String, _ valueName: String, help: String, default defaultValue: String? = nil,
        completion: Completion = .none
    ) {
        self.init(long, valueName, help: help, default: defaultValue, completion: completion, .text)
    }
}

/// An option the command cannot run without: the parser refuses a command line that lacks it
/// (exit 64), so the command reads a value, never an optional.
struct RequiredOption<Value: Sendable>: OptionDeclaration {
    let spec: OptionSpec
    let parser: ValueParser<Value>

    init(
        _ long: String, _ valueName: String, help: String, completion: Completion = .none, _ parser: ValueParser<Value>
    ) {
        spec = OptionSpec(
            long: long, short: nil, valueName: valueName, help: help, isRequired: true, completion: completion)
        self.parser = parser
    }
}

extension RequiredOption where Value == String {
    /// A required option whose value is the text as typed.
    init(_ long: String, _ valueName: String, help: String, completion: Completion = .none) {
        self.init(long, valueName, help: help, completion: completion, .text)
    }
}

/// Runs `body`, giving every field error it throws the name `field`: the option or argument the
/// user typed, when a parser shared by several of them names a field of its own.
func relabeling<T>(_ field: String, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as ValidationError {
        throw ValidationError(error.errors.map { FieldError(field: field, message: $0.message) })
    }
}

/// A positional argument that must be given.
struct Argument<Value: Sendable>: ArgumentDeclaration {
    let spec: ArgumentSpec
    let parser: ValueParser<Value>

    init(_ name: String, help: String, completion: Completion = .none, _ parser: ValueParser<Value>) {
        spec = ArgumentSpec(name: name, help: help, completion: completion)
        self.parser = parser
    }
}

extension Argument where Value == String {
    /// An argument whose value is the text as typed.
    init(_ name: String, help: String, completion: Completion = .none) {
        self.init(name, help: help, completion: completion, .text)
    }
}

/// A positional argument that may be left out.
struct OptionalArgument<Value: Sendable>: ArgumentDeclaration {
    let spec: ArgumentSpec
    let parser: ValueParser<Value>

    init(_ name: String, help: String, completion: Completion = .none, _ parser: ValueParser<Value>) {
        spec = ArgumentSpec(name: name, help: help, isOptional: true, completion: completion)
        self.parser = parser
    }
}

extension OptionalArgument where Value == String {
    /// An argument whose value is the text as typed.
    init(_ name: String, help: String, completion: Completion = .none) {
        self.init(name, help: help, completion: completion, .text)
    }
}

/// The last positional argument, taking every remaining word (`<name> ...`).
struct VariadicArgument<Value: Sendable>: ArgumentDeclaration {
    let spec: ArgumentSpec
    let parser: ValueParser<Value>

    init(
        _ name: String, help: String, optional: Bool = false, completion: Completion = .none,
        _ parser: ValueParser<Value>
    ) {
        spec = ArgumentSpec(name: name, help: help, isOptional: optional, isVariadic: true, completion: completion)
        self.parser = parser
    }
}

extension VariadicArgument where Value == String {
    /// Arguments whose values are the text as typed.
    init(_ name: String, help: String, optional: Bool = false, completion: Completion = .none) {
        self.init(name, help: help, optional: optional, completion: completion, .text)
    }
}

/// The options every command accepts.
enum GlobalOptions {
    static let database = Option<String>(
        "db", "path", help: "The database file. Default: $PIZZERIA_DB, else ./pizzeria.sqlite.",
        completion: .files)
    static let shop = Option<String>(
        "shop", "name", help: "A shop of a platform, by name (in --shops DIR or $PIZZERIA_SHOPS) instead of --db.")
    static let shops = Option<String>(
        "shops", "dir", help: "The directory of a platform's shops (default: $PIZZERIA_SHOPS).", completion: .files)
    static let placement = Option<String>(
        "placement", "file",
        help:
            "The placement of a platform's shops on nodes (default: $PIZZERIA_PLACEMENT); --shop goes to the shop's node.",
        completion: .files)
    static let node = Option<String>(
        "node", "name", help: "This node of the placement (default: $PIZZERIA_NODE): --shop must be served here.")
    static let json = Flag("json", help: "Print JSON instead of text (a stable, documented shape).")
    static let help = Flag("help", short: "h", help: "Show help information.")
    /// The root command's own option.
    static let version = Flag("version", help: "Show the version.")

    static let all: [OptionSpec] = [
        database.spec, shop.spec, shops.spec, placement.spec, node.spec, json.spec, help.spec,
    ]
}
