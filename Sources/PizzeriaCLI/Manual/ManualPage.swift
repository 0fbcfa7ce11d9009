/// The roff manual page `pizzeria manual` prints (`man -l <(pizzeria manual)`), generated from
/// the command tree like the help pages, so it lists every command and option there is.
enum ManualPage {
    /// Environment variables the binary reads, documented once here.
    static let environment: [(String, String)] = [
        ("PIZZERIA_DB", "The database file when --db is not given (default ./pizzeria.sqlite)."),
        (
            "PIZZERIA_SYNCHRONOUS",
            "full (the default: every acknowledged write survives power loss) or normal (faster; a power cut may lose the last commits, never corrupt)."
        ),
        (
            "PIZZERIA_BUSY_TIMEOUT_MS",
            "How long to wait for another process's write lock before exiting 75 (default 5000)."
        ),
        (
            "PIZZERIA_CHECKPOINTS",
            "auto (the default) or external (leave checkpoints to a replicator such as Litestream)."
        ),
        ("PIZZERIA_NOW", "A fixed ISO-8601 UTC time used as now (tests and demos)."),
        ("NO_COLOR", "When set, nothing is coloured (see https://no-color.org)."),
        ("COLUMNS", "The width charts use when the terminal does not say."),
    ]

    static let exitCodes: [(Int32, String)] = [
        (0, "Success."),
        (
            1,
            "Refused by the current state: an empty stack, a full slot, an edit conflict, a duplicate name, an illegal status change."
        ),
        (64, "Usage error: unknown command or option, missing argument."),
        (65, "Invalid input, or a database file that cannot be used."),
        (66, "Not found: a pizza, user, order, file or database."),
        (70, "Internal error."),
        (74, "Input/output error, such as a closed or full standard output."),
        (75, "The database stayed busy (locked by another process) past the timeout; retry."),
    ]

    static func render(version: String) -> String {
        var text = """
            .TH PIZZERIA 1 "" "pizzeria \(version)" "User Commands"
            .SH NAME
            pizzeria \\- \(escape(CommandTree.root.abstract))
            .SH SYNOPSIS
            .B pizzeria
            .I command
            [\\fIoptions\\fR] [\\fIarguments\\fR]
            .SH DESCRIPTION
            \(escape(CommandTree.root.discussion ?? ""))
            .SH GLOBAL OPTIONS

            """
        for option in CommandTree.root.standardOptions { text += item(option) }
        text += ".SH COMMANDS\n"
        for (path, command) in commands(CommandTree.root, path: ["pizzeria"]) where command.run != nil {
            text += ".SS \(escape(path.dropFirst().joined(separator: " ")))\n"
            text += ".B \(escape(Help.usageLine(command, path: path)))\n.br\n"
            text += escape(command.abstract) + "\n"
            if let discussion = command.discussion { text += ".PP\n" + escape(discussion) + "\n" }
            for argument in command.arguments {
                text +=
                    ".TP\n.I \(escape(argument.name))\(argument.isVariadic ? " ..." : "")\n\(escape(argument.help))\n"
            }
            for option in command.options { text += item(option) }
            if !command.examples.isEmpty {
                text += ".PP\nExamples:\n.nf\n" + command.examples.map { escape($0) + "\n" }.joined() + ".fi\n"
            }
        }
        text += ".SH EXIT STATUS\n"
        for (code, meaning) in exitCodes { text += ".TP\n.B \(code)\n\(escape(meaning))\n" }
        text += ".SH ENVIRONMENT\n"
        for (name, meaning) in environment { text += ".TP\n.B \(name)\n\(escape(meaning))\n" }
        text += """
            .SH FILES
            .TP
            .I ./pizzeria.sqlite
            The default database.
            .TP
            .I DATABASE\\-wal\\fR, \\fIDATABASE\\-shm
            SQLite's write-ahead log and its index, beside the database while it is in use; copy the database with \\fBpizzeria backup\\fR, not cp.
            .SH SEE ALSO
            .BR sqlite3 (1),
            .BR litestream (1)

            """
        return text
    }

    private static func item(_ option: OptionSpec) -> String {
        var synopsis = option.short.map { "\\-\($0), " } ?? ""
        synopsis += "\\-\\-" + escape(option.long)
        if let valueName = option.valueName { synopsis += " \\fI\(escape(valueName))\\fR" }
        var help = escape(option.help)
        if let defaultValue = option.defaultValue { help += " (default: \(escape(defaultValue)))" }
        return ".TP\n.B \(synopsis)\n\(help)\n"
    }

    private static func commands(_ command: Command, path: [String]) -> [([String], Command)] {
        [(path, command)] + command.subcommands.flatMap { commands($0, path: path + [$0.name]) }
    }

    /// Text safe in roff: backslashes escaped, hyphens as minus signs (so options can be
    /// searched and copied), non-ASCII characters by code point, and no line that starts with a
    /// control character.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            // Non-ASCII as groff's \[uXXXX], so the page renders without a preprocessor.
            case _ where scalar.value > 127:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
        }.joined(separator: "\n")
    }
}
