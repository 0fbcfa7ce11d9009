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
    var arguments: [ArgumentSpec] = []
    /// Its own options.
    var options: [OptionSpec] = []
    /// The options it shares with every command, after its own (the root adds `--version`).
    var standardOptions: [OptionSpec] = GlobalOptions.all
    /// Options of which a command line gives at most one of each group (`--note` or `--clear-note`):
    /// the parser refuses two before the command runs (exit 64, "give --a or --b, not both").
    var exclusive: [[OptionSpec]] = []
    /// Examples for the help page, each a command line.
    var examples: [String] = []
    /// Subcommands; non-empty for groups.
    var subcommands: [Command] = []
    /// The action; `nil` for groups.
    var run: (@Sendable (Invocation) throws -> ExitCode)?
    /// The hint when the command did its work but could not write its output (a closed or full
    /// stdout); `nil` when there is nothing to add, as for a watch whose reader left.
    var lostOutputHint: String?

    /// What most commands say when their output was lost: the work is done.
    static let workDoneHint = "the command itself succeeded; look before running it again"

    init(
        name: String, abstract: String, discussion: String? = nil, arguments: [any ArgumentDeclaration] = [],
        options: [any OptionDeclaration] = [], standardOptions: [OptionSpec] = GlobalOptions.all,
        exclusive: [[any OptionDeclaration]] = [], examples: [String] = [],
        subcommands: [Command] = [], lostOutputHint: String? = Command.workDoneHint,
        run: (@Sendable (Invocation) throws -> ExitCode)? = nil
    ) {
        self.lostOutputHint = lostOutputHint
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments.map(\.spec)
        self.options = options.map(\.spec)
        self.standardOptions = standardOptions
        self.exclusive = exclusive.map { $0.map(\.spec) }
        self.examples = examples
        self.subcommands = subcommands
        self.run = run
    }

    func subcommand(named name: String) -> Command? { subcommands.first { $0.name == name } }

    /// Every option the command line may give here: its own, then the standard ones.
    var allOptions: [OptionSpec] { options + standardOptions }

    /// The option `name` (`--long` or `-s`) names, if any.
    func option(named name: String) -> OptionSpec? {
        allOptions.first { name == "--\($0.long)" || $0.short.map { name == "-\($0)" } == true }
    }
}
