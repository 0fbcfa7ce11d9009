/// One node of the command tree: a group of subcommands, or a command that runs.
///
/// Help texts, usage lines and "did you mean" suggestions are all generated from these
/// definitions, so a command cannot exist without its help.
struct Command: Sendable {
    /// The word that selects it, kebab-case.
    let name: String
    /// One line: what it does.
    let abstract: String
    /// More paragraphs for its help page.
    var discussion: String?
    /// Positional arguments, in order.
    var arguments: [Argument] = []
    /// Its own options (the global ones are added by the parser).
    var options: [Option] = []
    /// Examples for the help page, each a command line.
    var examples: [String] = []
    /// Subcommands; non-empty for groups.
    var subcommands: [Command] = []
    /// The action; `nil` for groups.
    var run: (@Sendable (Invocation) throws -> ExitCode)?

    func subcommand(named name: String) -> Command? { subcommands.first { $0.name == name } }
}

/// A positional argument.
struct Argument: Sendable {
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

/// What a shell completes for an argument or an option's value: fixed words, or live values
/// read from the database the command line names.
enum Completion: Sendable, Equatable {
    case none
    /// One of these words.
    case choices([String])
    /// Pizza names (on the menu and archived).
    case pizzas
    /// `PIZZA=QTY` items: pizza names.
    case items
    /// User handles.
    case users
    /// Order id prefixes.
    case orders
    /// `pizza:NAME` or `order:ID` routes.
    case routes
    /// File names (left to the shell).
    case files
}

/// A `--long` option, with an optional one-letter form; a flag when `valueName` is `nil`.
struct Option: Sendable {
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

    /// A flag: present or absent.
    static func flag(_ long: String, short: Character? = nil, help: String) -> Option {
        Option(long: long, short: short, valueName: nil, help: help)
    }

    /// An option that takes a value.
    static func value(_ long: String, _ valueName: String, help: String, default defaultValue: String? = nil,
                      required: Bool = false, completion: Completion = .none) -> Option {
        Option(long: long, short: nil, valueName: valueName, help: help, defaultValue: defaultValue, isRequired: required,
               completion: completion)
    }

    var takesValue: Bool { valueName != nil }

    /// `-h, --help` or `--db <path>`.
    var synopsis: String {
        var text = short.map { "-\($0), " } ?? ""
        text += "--\(long)"
        if let valueName { text += " <\(valueName)>" }
        return text
    }
}

/// The options every command accepts.
enum GlobalOptions {
    static let database = Option.value("db", "path", help: "The database file. Default: $PIZZERIA_DB, else ./pizzeria.sqlite.",
                                       completion: .files)
    static let json = Option.flag("json", help: "Print JSON instead of text (a stable, documented shape).")
    static let help = Option.flag("help", short: "h", help: "Show help information.")
    static let version = Option.flag("version", help: "Show the version.")

    static let all = [database, json, help]

    /// `--csv`, which list commands add to their own options.
    static let csv = Option.flag("csv", help: "Print CSV (RFC 4180, a header row) for spreadsheets instead of a table.")
}
