/// The whole command tree. Each command lives in its own file; this is the table of contents.
enum CommandTree {
    /// The tree, every changing command (one in ``AuditCommands/roles``) taking `--by NAME`.
    static let root = withBy(tree, path: [])

    /// `command` (at `path`, the words after `pizzeria`) and its subcommands, `--by` added to
    /// each changing command that lacks it.
    static func withBy(_ command: Command, path: [String]) -> Command {
        var command = command
        if AuditCommands.roles[path.joined(separator: " ")] != nil,
            !command.options.contains(where: { $0.long == OrderCommands.by.spec.long })
        {
            command.options.append(OrderCommands.by.spec)
        }
        command.subcommands = command.subcommands.map { withBy($0, path: path + [$0.name]) }
        return command
    }

    static let tree = Command(
        name: "pizzeria",
        abstract: "Administer a Pizzeria database: the menu, users, orders and each user's navigation.",
        discussion: """
            Data goes to stdout (text for people, or JSON with --json); errors go to stderr as
            'error: …'. Exit codes: 0 ok, 1 refused by the current state, 64 usage, 65 invalid
            input or unusable database file, 66 not found, 70 internal, 74 I/O, 75 database busy.
            """,
        standardOptions: GlobalOptions.all + [GlobalOptions.version.spec],
        subcommands: [
            InitCommand.command, MigrationsCommand.command, CheckCommand.command, BackupCommand.command,
            ShopsCommands.command,
            DemoCommand.command, PizzaCommands.command, CategoryCommands.command, StationCommands.command,
            ModifierCommands.command,
            MenuFileCommands.command,
            UserCommands.command,
            ConfigCommands.command,
            OrderCommands.command, SlotsCommand.command, HoursCommands.command, CapacityCommands.command,
            CapacityCommands.pause,
            CapacityCommands.resume, CapacityCommands.busy, ReportCommands.command, NavigationCommands.command,
            SheetCommands.command, AuditCommands.audit, AuditCommands.staff, NotifyCommands.command,
            CompletionCommands.completions,
            ManualCommand.command,
        ])
}
