import Foundation
import PizzeriaServices
import PizzeriaTestSupport

/// Orders fixture plus handy routes: the navigation tests' starting point.
struct NavigationFixture {
    let orders: OrderFixture
    var pizzeria: Pizzeria { orders.pizzeria }
    var router: NavigationService { pizzeria.navigation }
    let margherita: Route, porcini: Route, marinara: Route, order: Route

    init() throws {
        orders = try OrderFixture()
        let menu = orders.pizzeria.menu
        margherita = .pizza(id: try menu.find("Margherita").id)
        porcini = .pizza(id: try menu.find("Porcini").id)
        marinara = .pizza(id: try menu.find("Marinara").id)
        order = .order(id: try orders.place("anna", "19:00", ("Margherita", 1)).order.id)
    }

    /// The routes of anna's stack.
    func path(_ handle: String = "anna") throws -> [Route?] {
        try router.state(of: handle).path.map(\.route)
    }
}
