/// `pizzeria manual`.
enum ManualCommand {
    static let command = Command(
        name: "manual",
        abstract: "Print the manual page (roff); read it with: man -l <(pizzeria manual).",
        examples: ["man -l <(pizzeria manual)", "pizzeria manual > ~/.local/share/man/man1/pizzeria.1"],
        run: { invocation in
            invocation.context.console.out(ManualPage.render(version: PizzeriaCLI.version))
            return .ok
        })
}
