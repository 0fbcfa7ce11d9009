/// The completion scripts `pizzeria completions SHELL` prints. Each asks the hidden command
/// `pizzeria __complete WORDS… CURRENT` for candidates, one per line, so every rule (and the
/// database lookups) stays in ``Completer``.
enum CompletionScripts {
    static let shells = ["bash", "zsh", "fish"]

    static func script(for shell: String) -> String? {
        switch shell {
        case "bash": bash
        case "zsh": zsh
        case "fish": fish
        default: nil
        }
    }

    static let bash = #"""
        # bash completion for pizzeria. Install: pizzeria completions bash > ~/.local/share/bash-completion/completions/pizzeria
        _pizzeria() {
            local current="${COMP_WORDS[COMP_CWORD]}" line
            COMPREPLY=()
            while IFS= read -r line; do
                # Quoted for the shell: pizza names have spaces.
                COMPREPLY+=("$(printf '%q' "$line")")
            done < <("${COMP_WORDS[0]}" __complete "${COMP_WORDS[@]:1:COMP_CWORD-1}" "$current" 2>/dev/null)
        }
        complete -o default -o nospace -F _pizzeria pizzeria

        """#

    static let zsh = #"""
        #compdef pizzeria
        # zsh completion for pizzeria. Install: pizzeria completions zsh > "${fpath[1]}/_pizzeria" (then compinit)
        _pizzeria() {
            local -a candidates
            candidates=("${(@f)$("${words[1]}" __complete "${(@)words[2,CURRENT-1]}" "${words[CURRENT]}" 2>/dev/null)}")
            compadd -Q -a candidates
        }
        compdef _pizzeria pizzeria

        """#

    static let fish = #"""
        # fish completion for pizzeria. Install: pizzeria completions fish > ~/.config/fish/completions/pizzeria.fish
        complete -c pizzeria -f -a '(pizzeria __complete (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)'

        """#
}
