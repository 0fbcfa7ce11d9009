/// The whole command tree. Each command lives in its own file; this is the table of contents.
enum CommandTree {
    static let root = Command(
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
