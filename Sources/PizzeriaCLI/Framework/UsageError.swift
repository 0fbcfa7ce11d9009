/// The command line itself is wrong: exit 64, with the usage line and a pointer to the help.
struct UsageError: Error, Sendable {
    /// What is wrong, such as `unknown option '--nmae'`.
    let message: String
    /// The command path parsed so far.
    let path: [String]
    /// The command whose usage to show.
    let command: Command
    /// `did you mean '--name'?`, when there is a close match.
    var suggestion: String?
}
