/// Help pages generated from command definitions, in the layout of swift-argument-parser.
enum Help {
    static func usageLine(_ command: Command, path: [String]) -> String {
        var parts = [path.joined(separator: " ")]
        if !command.subcommands.isEmpty {
            parts.append("<subcommand>")
        } else {
            for option in command.options {
                let text = option.valueName.map { "--\(option.long) <\($0)>" } ?? "--\(option.long)"
                parts.append(option.isRequired ? text : "[\(text)]")
            }
            for argument in command.arguments {
                var text = "<\(argument.name)>" + (argument.isVariadic ? " ..." : "")
                if argument.isOptional { text = "[\(text)]" }
                parts.append(text)
            }
        }
        return parts.joined(separator: " ")
    }

    static func page(_ command: Command, path: [String]) -> String {
        var text = "OVERVIEW: \(command.abstract)\n"
        if let discussion = command.discussion { text += "\n\(discussion)\n" }
        text += "\nUSAGE: \(usageLine(command, path: path))\n"
        if !command.arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in command.arguments {
                text += row("<\(argument.name)>" + (argument.isVariadic ? " ..." : ""), argument.help)
            }
        }
        text += "\nOPTIONS:\n"
        for option in command.allOptions {
            text += row(option.synopsis, option.help + (option.defaultValue.map { " (default: \($0))" } ?? ""))
        }
        if !command.subcommands.isEmpty {
            text += "\nSUBCOMMANDS:\n"
            for sub in command.subcommands { text += row(sub.name, sub.abstract) }
            text +=
                "\n  See '\(path[0]) help \((path.dropFirst() + ["<subcommand>"]).joined(separator: " "))' for detailed help.\n"
        }
        if !command.examples.isEmpty {
            text += "\nEXAMPLES:\n" + command.examples.map { "  \($0)\n" }.joined()
        }
        return text
    }

    /// `  name                    help`, wrapping nothing: terminals wrap.
    private static func row(_ left: String, _ right: String) -> String {
        let width = 26
        let padded =
            left.count < width - 2 ? left.padding(to: width - 2) : left + "\n" + String(repeating: " ", count: width)
        return "  \(padded)\(right)\n"
    }
}

extension String {
    /// Pads with spaces to `width` user-perceived characters.
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
