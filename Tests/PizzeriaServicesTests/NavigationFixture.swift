import Foundation
import PizzeriaServices
import PizzeriaTestSupport

/// Orders fixture plus handy routes: the navigation tests' starting point.
struct NavigationFixture {
    let orders: OrderFixture
    var pizzeria: Pizzeria { orders.pizzeria }
    var router: NavigationService { pizzeria.navigation }
    let margherita: Route, porcini: Route, marinara: Route, order: Route
    /// The users.
    let anna: User.ID, marco: User.ID

    init() throws {
        orders = try OrderFixture()
        margherita = .pizza(id: try orders.pizza("Margherita"))
        porcini = .pizza(id: try orders.pizza("Porcini"))
        marinara = .pizza(id: try orders.pizza("Marinara"))
        order = .order(id: try orders.place("anna", "19:00", ("Margherita", 1)).order.id)
        anna = try orders.user("anna")
        marco = try orders.user("marco")
    }

    /// An id no row has: `00000000-0000-4000-8000-0000000000NN`.
    static func unknownID<Entity>(_ last: UInt8 = 0) -> Identifier<Entity> {
        Identifier(uuid: UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, last)))
    }

    /// The routes of a user's stack (anna's by default).
    func path(_ user: User.ID? = nil) throws -> [Route?] {
        try router.state(of: user ?? anna).path.map(\.route)
    }
}
