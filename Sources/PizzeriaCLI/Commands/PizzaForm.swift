import Foundation
import PizzeriaServices

/// The add/edit sheet on a terminal: asks for each field, shows errors inline and asks again,
/// shows a summary and asks to confirm. End of input or a "no" cancels and writes nothing.
struct PizzaForm {
    let context: Context
    let menu: MenuService

    /// Runs the form from `draft`. Returns the saved pizza, or `nil` when cancelled.
    func run(_ draft: PizzaDraft, presetName: String?, presetPrice: String?) throws -> Pizza? {
        var draft = draft
        let console = context.console
        let editing: Pizza.ID?
        if case .edit(let id, _) = draft.mode { editing = id } else { editing = nil }
        console.line(
            editing == nil
                ? "Add a pizza (Ctrl-D cancels)."
                : "Edit \(draft.name) (Enter keeps the current value; Ctrl-D cancels).")

        // Name: the rules, then uniqueness, until it passes.
        while true {
            guard let answer = presetName ?? ask("Name", current: editing == nil ? nil : draft.name) else {
                return cancel()
            }
            let candidate = answer.isEmpty && editing != nil ? draft.name : answer
            var trial = draft
            trial.name = candidate
            let problems = trial.validate().filter { $0.field == "name" }
            if let problem = problems.first {
                console.line("  error: \(problem)")
                if presetName != nil { throw ValidationError(problems) }
                continue
            }
            if let taken = try menu.pizza(named: candidate), taken.id != editing {
                console.line("  error: name: '\(PizzaName.normalize(candidate))' is already taken by '\(taken.name)'")
                if presetName != nil { throw MenuError.duplicateName(name: candidate, existing: taken) }
                continue
            }
            draft.name = candidate
            break
        }

        // Price: parsed and checked until it passes.
        while true {
            guard let answer = presetPrice ?? ask("Price in EUR", current: editing == nil ? nil : draft.price.plain)
            else { return cancel() }
            if answer.isEmpty, editing != nil { break }
            switch Money.parse(answer) {
            case .success(let money):
                draft.price = money
            case .failure(let error):
                console.line("  error: price: \(error.message)")
                if presetPrice != nil { throw ValidationError([FieldError(field: "price", message: error.message)]) }
                continue
            }
            break
        }

        console.line("")
        console.line("  Name:  \(PizzaName.normalize(draft.name))")
        console.line("  Price: \(draft.price.formatted)")
        guard let confirmation = ask("Save? [y/N]", current: nil),
            ["y", "yes"].contains(confirmation.lowercased())
        else { return cancel() }
        return try menu.save(draft)
    }

    private func ask(_ label: String, current: String?) -> String? {
        context.console.out(current.map { "\(label) [\($0)]: " } ?? "\(label): ")
        return context.terminal.readLine()?.trimmingCharacters(in: .whitespaces)
    }

    private func cancel() -> Pizza? {
        context.console.line("")
        context.console.err("Cancelled; nothing was saved.\n")
        return nil
    }
}
