import Foundation
// README-EXAMPLE-BEGIN
import PizzeriaServices

func routerExample(_ pizzeria: Pizzeria, user: User.ID, pizza: Pizza.ID) async throws -> [NavigationElement] {
    // Several calls through one door: each is its own savepoint, all share the batch's commit.
    try await pizzeria.write { pizzeria in
        let router = pizzeria.navigation
        try router.popToRoot(user)  // back to the menu
        try router.push(user, [.category(id: Category.defaultID)])  // a menu section: {"category":{"id":1}}
        try router.push(user, [.pizza(id: pizza)])  // the detail screen
        let state = try router.pop(user)  // state.previous: where it was
        _ = state.previous
        try router.open(user, url: "pizzeria://pizza/\(pizza)?utm_source=share")  // deep links replace the stack

        // State restoration: the stack as SwiftUI's NavigationPath.CodableRepresentation, and back.
        let (exported, _) = try router.export(user, format: .navigationPath)
        _ = try router.importPath(user, text: exported, format: .navigationPath)
        return try router.path(of: user)  // what the app restores
    }
}
// README-EXAMPLE-END
