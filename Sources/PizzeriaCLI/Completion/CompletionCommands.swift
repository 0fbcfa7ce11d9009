/// `pizzeria completions SHELL` and the hidden entry point the scripts call.
enum CompletionCommands {
    static let shell = Argument("shell", help: "bash, zsh or fish.", completion: .choices(CompletionScripts.shells))

    static let completions = Command(
        name: "completions",
        abstract: "Print a shell completion script (bash, zsh or fish).",
        discussion: """
            Completes commands, options, fixed option values and, from the database the command
            line names (--db or $PIZZERIA_DB), pizza names, user handles and order ids.
            """,
        arguments: [shell],
        examples: [
            "pizzeria completions bash > ~/.local/share/bash-completion/completions/pizzeria",
            "pizzeria completions zsh > \"${fpath[1]}/_pizzeria\"",
            "pizzeria completions fish > ~/.config/fish/completions/pizzeria.fish",
        ],
        run: { invocation in
            let shell = try invocation[shell]
            guard let script = CompletionScripts.script(for: shell) else {
                throw invocation.usage("no completions for the shell '\(shell)'; choose bash, zsh or fish")
            }
            invocation.context.console.out(script)
            return .ok
        })

    /// The word the completion scripts call `pizzeria` with: `pizzeria __complete WORDS… CURRENT`
    /// prints the candidates for CURRENT, one per line. Handled before the parser (the words
    /// are someone else's command line, options included) and never listed.
    static let entryPoint = "__complete"

    static func complete(_ words: [String], environment: [String: String], console: Console) {
        let completer = Completer(root: CommandTree.root, environment: environment)
        let candidates = completer.candidates(words: Array(words.dropLast()), current: words.last ?? "")
        console.out(candidates.map { $0 + "\n" }.joined())
    }
}
