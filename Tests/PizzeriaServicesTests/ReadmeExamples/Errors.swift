import Foundation
// README-EXAMPLE-BEGIN
import PizzeriaServices

func errorsExample(_ pizzeria: Pizzeria) async -> FailureCategory? {
    do {
        var draft = PizzaDraft.blank
        draft.name = " "
        _ = try await pizzeria.write { [draft] in try $0.menu.save(draft) }
        return nil
    } catch let error as ValidationError {
        _ = error.errors  // [name: must not be empty, price: must be greater than 0]
        return error.category
    } catch {
        // Any error, storage ones included, in domain words: a category and sentences.
        return FailureReport(error).category  // .busy: try again; .unusableDatabase; .io; …
    }
}
// README-EXAMPLE-END
