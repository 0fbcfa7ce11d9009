/// What a shell should offer for the word being typed. The complete words before it go through
/// the parser's own scan (leniently: a line being typed may hold anything), which says where the
/// cursor stands — which command, which option waits for its value, which argument comes next —
/// and the declaration found there says what to offer. The shell scripts only ask and print.
struct Completer {
    let root: Command
    let environment: [String: String]

    /// The candidates for `current`, the word under the cursor, after the complete words `words`
    /// (the program name left out).
    func candidates(words: [String], current: String) -> [String] {
        guard let scan = try? Parser(root: root).scan(words, mode: .lenient) else { return [] }
        let command = scan.command
        let source = CompletionSource(environment: environment, databasePath: try? scan.values[GlobalOptions.database])
        if let option = scan.pendingOption { return complete(option.completion, current, source) }
        if !scan.optionsEnded, current.hasPrefix("-") {
            let (name, inline) = Parser.split(current)
            if let inline {
                guard let option = command.option(named: name), option.takesValue else { return [] }
                return complete(option.completion, inline, source).map { name + "=" + $0 }
            }
            return command.allOptions.map { "--" + $0.long }.filter { $0.hasPrefix(current) }
        }
        if scan.values.positionals.isEmpty, !command.subcommands.isEmpty, !scan.optionsEnded {
            return command.subcommands.map(\.name).filter { $0.hasPrefix(current) }
        }
        let arguments = command.arguments
        let position = scan.values.positionals.count
        guard
            let argument = position < arguments.count
                ? arguments[position] : arguments.last.flatMap({ $0.isVariadic ? $0 : nil })
        else {
            return []
        }
        return complete(argument.completion, current, source)
    }

    private func complete(_ completion: Completion, _ typed: String, _ source: CompletionSource) -> [String] {
        switch completion {
        case .none, .files: []
        case .choices(let words): words.filter { $0.hasPrefix(typed) }
        case .custom(let provider): provider.candidates(typed, source)
        }
    }
}
