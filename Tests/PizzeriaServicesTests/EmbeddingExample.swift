// The README's "Embedding as a library" example, compiled and run by the tests. The text between
// the markers must equal the README's code block (EmbeddingExampleTests checks it).
import Foundation
// README-EXAMPLE-BEGIN
import PizzeriaServices

func embeddingExample(databasePath: String) throws -> [String] {
    // Opens the file, creating it and applying migrations as needed. Share one instance.
    let pizzeria = try Pizzeria.open(path: databasePath)

    // The add sheet: a blank draft, filled in, validated, saved in one transaction.
    var draft = PizzaDraft.blank
    draft.name = "Diavola"
    draft.price = try Money.parse("8,50").get()
    guard draft.validate().isEmpty else { return draft.validate().map(\.description) }
    let diavola = try pizzeria.menu.save(draft)

    // The edit sheet: a draft taken from the pizza remembers its version.
    var edit = PizzaDraft(editing: diavola)
    edit.price = Money(cents: 900)
    do {
        _ = try pizzeria.menu.save(edit)
    } catch let conflict as MenuError {
        return [conflict.description]  // someone else changed it meanwhile
    }

    return try pizzeria.menu.list().map { "\($0.name) \($0.price.formatted)" }
}
// README-EXAMPLE-END
