import Foundation
// README-EXAMPLE-BEGIN
import PizzeriaServices

func routerExample(_ pizzeria: Pizzeria, user: User.ID, pizza: Pizza.ID) async throws -> [NavigationElement] {
    let router = pizzeria.navigation
    try await router.popToRoot(user)  // back to the menu
    try await router.push(user, [.pizza(id: pizza)])  // the detail screen
    let state = try await router.pop(user)  // state.previous: where it was
    _ = state.previous
    try await router.open(user, url: "pizzeria://pizza/\(pizza)?utm_source=share")  // deep links replace the stack

    // State restoration: the stack as SwiftUI's NavigationPath.CodableRepresentation, and back.
    let (exported, _) = try await router.export(user, format: .navigationPath)
    _ = try await router.importPath(user, text: exported, format: .navigationPath)
    return try await router.path(of: user)  // what the app restores
}
// README-EXAMPLE-END
