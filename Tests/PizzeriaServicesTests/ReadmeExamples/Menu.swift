import Foundation
// README-EXAMPLE-BEGIN
import PizzeriaServices

func menuExample(_ pizzeria: Pizzeria) async throws -> Pizza {
    // The add sheet: a blank draft (invalid until filled in), validated and saved in one transaction.
    var draft = PizzaDraft.blank
    draft.name = "Diavola"
    draft.price = try Money.parse("8,50").get()  // people type 8,50 or €8.50; below, money is cents
    if !draft.validate().isEmpty { throw ValidationError(draft.validate()) }  // what the form shows
    let diavola: Pizza
    do {
        diavola = try await pizzeria.write { [draft] in try $0.menu.save(draft) }
    } catch MenuError.duplicateName(_, let existing) {
        diavola = existing  // names are unique ignoring case (Unicode case folding)
    }

    // The edit sheet: a draft of the pizza remembers its version; a save over someone else's
    // change is refused instead of overwriting it.
    var edit = try await pizzeria.read { try $0.menu.editDraft(for: diavola.id) }
    edit.price = Money(cents: 900)
    do {
        return try await pizzeria.write { [edit] in try $0.menu.save(edit) }
    } catch MenuError.conflict(let current, _) {
        return current  // show the current values and let the person edit again
    }
}
// README-EXAMPLE-END
