import Foundation
import Testing
@testable import PizzeriaServices
import PizzeriaStorage
import PizzeriaTestSupport

@Suite("Navigation: deep links, export and import")
struct DeepLinkAndExportTests {
    @Test("deep links replace the whole stack: ids, prefixes, names, several routes")
    func validLinks() throws {
        let f = try NavigationFixture()
        try f.router.push(f.anna, [f.marinara, f.marinara])
        _ = try f.pizzeria.menu.save(PizzaDraft(mode: .add, name: "Quattro Formaggi", price: Money(cents: 950)))
        let quattro = Route.pizza(id: try f.pizzeria.lookup.pizza("Quattro Formaggi").id)
        let cases: [(String, [Route])] = [
            ("pizzeria://pizza/\(f.margherita.id)", [f.margherita]),
            ("pizzeria://order/\(f.order.id)", [f.order]),
            ("pizzeria://pizza/\(f.margherita.id)/pizza/\(f.porcini.id)", [f.margherita, f.porcini]),
            ("pizzeria://pizza/\(f.margherita.id.prefix(6))/order/\(f.order.id.prefix(6))", [f.margherita, f.order]),
            ("pizzeria://pizza/Quattro%20Formaggi", [quattro]),
            ("pizzeria://pizza/quattro%20formaggi/", [quattro]),
            ("pizzeria://pizza/Margherita?utm_source=share", [f.margherita]),
            ("pizzeria://pizza/Margherita#top", [f.margherita]),
            ("pizzeria://pizza/\(f.porcini.id.uppercased())?a=1#b", [f.porcini]),
            ("PIZZERIA://Pizza/porcini", [f.porcini]),
        ]
        for (url, expected) in cases {
            let state = try f.router.open(f.anna, url: url)
            #expect(state.path.map(\.route) == expected, "\(url)")
        }
        #expect(try f.router.history(of: f.anna, limit: 1).first?.detail == "PIZZERIA://Pizza/porcini")
    }

    @Test(
        "malformed links, unknown kinds and unresolvable ids are refused and change nothing",
        arguments: [
            "", "pizza/123", "http://pizza/123", "pizzeria:pizza/123", "pizzeria://", "pizzeria:///",
            "pizzeria://pizza", "pizzeria://pizza/", "pizzeria://pizza//", "pizzeria://pizza/Margherita/pizza",
            "pizzeria://cart/1", "pizzeria://pizza/Margherita/menu/x", "pizzeria://pizza/%ZZ", "pizzeria://pizza/%",
            "pizzeria://pizza/Marghe rita", "pizzeria://?x=1", "pizzeria://pizza/?x=1",
            "pizzeria://pizza/Hawaii", "pizzeria://order/00000000", "pizzeria://pizza/Margherita/order/ffff",
            "pizzeria://pizza/%00", "pizzeria://pizza/" + String(repeating: "x/pizza/", count: 51) + "x",
        ])
    func malformedLinks(url: String) throws {
        let f = try NavigationFixture()
        try f.router.push(f.anna, [f.porcini])
        let before = try f.orders.base.snapshot()
        #expect(throws: (any Error).self) { try f.router.open(f.anna, url: url) }
        #expect(try f.orders.base.snapshot() == before)
    }

    @Test("Route encodes in the form Swift synthesises")
    func routeJSON() throws {
        let pizza: Pizza.ID = NavigationFixture.unknownID(1), order: Order.ID = NavigationFixture.unknownID(2)
        #expect(
            try RouteJSON.encode(Route.pizza(id: pizza)) == #"{"pizza":{"id":"00000000-0000-4000-8000-000000000001"}}"#)
        #expect(
            try RouteJSON.encode(Route.order(id: order)) == #"{"order":{"id":"00000000-0000-4000-8000-000000000002"}}"#)
        // An app's own enum with UUID ids, synthesised, reads the backend's output, and the other way round.
        enum AppRoute: Codable, Equatable { case pizza(id: UUID), order(id: UUID) }
        let id = UUID()
        let decoded = try JSONDecoder().decode(
            AppRoute.self, from: Data(try RouteJSON.encode(Route.pizza(id: Pizza.ID(uuid: id))).utf8))
        #expect(decoded == .pizza(id: id))
        let fromApp = try JSONDecoder().decode(Route.self, from: try JSONEncoder().encode(AppRoute.order(id: id)))
        #expect(fromApp == .order(id: Order.ID(uuid: id)))
    }

    @Test(
        "stored elements decode the same through the fast path and the JSON decoder",
        arguments: [
            NavigationElement.route(.pizza(id: NavigationFixture.unknownID(7))),
            .route(.order(id: NavigationFixture.unknownID(9))),
            .opaque(typeName: "Swift.Int", json: "42"),
            .opaque(typeName: "PizzeriaApp.Route", json: #"{"pizza":{"id":"not-a-uuid"}}"#),
            .opaque(typeName: "PizzeriaApp.Route", json: #"{"pizza":{"id":"x","extra":1}}"#),
        ])
    func fastDecoding(element: NavigationElement) throws {
        let text = try RouteJSON.encode(element)
        #expect(try RouteJSON.decodeElement(text) == element)
        #expect(try RouteJSON.decode(NavigationElement.self, from: text) == element)
    }

    @Test(
        "stored elements are written directly exactly as the JSON encoder writes them",
        arguments: [
            [NavigationElement](), [.route(.pizza(id: NavigationFixture.unknownID(7)))],
            [
                .route(.pizza(id: Pizza.ID.random())), .route(.order(id: Order.ID.random())),
                .route(.pizza(id: Pizza.ID.random())),
            ],
            [.route(.pizza(id: NavigationFixture.unknownID(7))), .opaque(typeName: "Swift.Int", json: "42")],
        ])
    func directEncoding(elements: [NavigationElement]) throws {
        #expect(try RouteJSON.encodeElements(elements) == RouteJSON.encode(elements))
        for element in elements { #expect(try RouteJSON.encodeElement(element) == RouteJSON.encode(element)) }
        #expect(try RouteJSON.decodeElements(RouteJSON.encodeElements(elements)) == elements)
    }

    @Test("both export formats round-trip, unknown element types included")
    func roundTrip() throws {
        let f = try NavigationFixture()
        let path: [NavigationElement] = [
            .route(f.margherita), .opaque(typeName: "Swift.Int", json: "42"), .route(f.order),
            .opaque(typeName: "PizzeriaApp.Route", json: #"{"settings":{}}"#), .route(f.porcini),
        ]
        try f.router.replace(f.anna, path: path)
        let (navigationPath, omitted) = try f.router.export(f.anna, format: .navigationPath)
        #expect(omitted == 0)
        let strings = try JSONDecoder().decode([String].self, from: Data(navigationPath.utf8))
        #expect(strings.count == 10)
        // The last route first.
        #expect(strings[0] == "PizzeriaApp.Route" && strings[1] == #"{"pizza":{"id":"\#(f.porcini.id)"}}"#)
        #expect(strings[6] == "Swift.Int" && strings[7] == "42")

        try f.router.popToRoot(f.anna)
        let restored = try f.router.importPath(f.anna, text: navigationPath)
        #expect(restored.state.path == path && restored.dropped.isEmpty)
        #expect(try f.router.export(f.anna, format: .navigationPath).text == navigationPath)

        let (routes, skipped) = try f.router.export(f.anna, format: .routes)
        #expect(skipped == 2)  // opaque elements have no place in a [Route] array
        // What the app does with it: decode [Route] with its own enum.
        enum AppRoute: Codable, Equatable { case pizza(id: UUID), order(id: UUID) }
        #expect(try JSONDecoder().decode([AppRoute].self, from: Data(routes.utf8)).count == 3)
        try f.router.popToRoot(f.anna)
        let fromRoutes = try f.router.importPath(f.anna, text: routes, format: .routes)
        #expect(fromRoutes.state.path == path.filter { $0.route != nil })
        #expect(try f.router.export(f.anna, format: .routes).text == routes)
    }

    @Test("a hand-written NavigationPath is imported correctly, with a custom route type name")
    func handWritten() throws {
        let f = try NavigationFixture()
        let text = """
            ["Swift.Int","42","MyApp.Route","{\\"pizza\\":{\\"id\\":\\"\(f.porcini.id)\\"}}","MyApp.Route","{\\"order\\":{\\"id\\":\\"\(f.order.id)\\"}}"]
            """
        let result = try f.router.importPath(f.anna, text: text, format: .navigationPath, routeTypeName: "MyApp.Route")
        #expect(result.state.path == [.route(f.order), .route(f.porcini), .opaque(typeName: "Swift.Int", json: "42")])
        // With the default type name, MyApp.Route elements are someone else's: kept opaque.
        let other = try f.router.importPath(f.anna, text: text)
        #expect(other.state.path.allSatisfy { $0.route == nil })
        #expect(try f.router.export(f.anna, format: .navigationPath).text.contains(#""MyApp.Route""#))
    }

    @Test("on import, routes whose target is gone are dropped and reported; archived pizzas stay")
    func dropsMissing() throws {
        let f = try NavigationFixture()
        try f.pizzeria.menu.archive(id: try f.pizzeria.lookup.pizza("Marinara").id)
        let gone = Route.pizza(id: NavigationFixture.unknownID())
        let goneOrder = Route.order(id: NavigationFixture.unknownID(1))
        let text = try RouteJSON.encode([f.marinara, gone, f.order, goneOrder])
        let result = try f.router.importPath(f.anna, text: text)
        #expect(result.state.path.map(\.route) == [f.marinara, f.order])
        #expect(result.dropped == [gone, goneOrder])
    }

    @Test(
        "malformed imports are refused and change nothing",
        arguments: [
            "", "not json", "{}", "42", #"["PizzeriaApp.Route"]"#, #"["PizzeriaApp.Route","{not json"]"#,
            #"["", "42"]"#, #"[1, "x"]"#,
        ])
    func malformedImports(text: String) throws {
        let f = try NavigationFixture()
        try f.router.push(f.anna, [f.porcini])
        let before = try f.orders.base.snapshot()
        let format: NavigationFormat? = text == #"[1, "x"]"# ? .navigationPath : nil
        #expect(throws: NavigationError.self) { try f.router.importPath(f.anna, text: text, format: format) }
        #expect(try f.orders.base.snapshot() == before)
    }

    @Test("JSON as Swift's JSONEncoder writes it (uppercase UUIDs) restores the stack, in both formats")
    func uppercaseIDs() throws {
        let f = try NavigationFixture()
        enum AppRoute: Codable { case pizza(id: UUID), order(id: UUID) }
        let appPath = [
            AppRoute.pizza(id: try #require(UUID(uuidString: f.margherita.id))),
            .order(id: try #require(UUID(uuidString: f.order.id))),
        ]
        let routes = String(decoding: try JSONEncoder().encode(appPath), as: UTF8.self)
        #expect(routes.contains(f.margherita.id.uppercased()))
        let restored = try f.router.importPath(f.anna, text: routes, format: .routes)
        #expect(restored.state.path.map(\.route) == [f.margherita, f.order] && restored.dropped.isEmpty)
        // SwiftUI's NavigationPath.CodableRepresentation holds the same JSON, last element first.
        let elements = try appPath.reversed().flatMap {
            ["PizzeriaApp.Route", String(decoding: try JSONEncoder().encode($0), as: UTF8.self)]
        }
        let navigationPath = String(decoding: try JSONEncoder().encode(elements), as: UTF8.self)
        try f.router.popToRoot(f.anna)
        let fromPath = try f.router.importPath(f.anna, text: navigationPath, format: .navigationPath)
        #expect(fromPath.state.path.map(\.route) == [f.margherita, f.order])
        #expect(try f.router.export(f.anna).text.contains(f.margherita.id))  // stored lowercase
    }

    @Test("an import none of whose routes exists changes nothing and says so (66)")
    func nothingToImport() throws {
        let f = try NavigationFixture()
        try f.router.push(f.anna, [f.porcini])
        let before = try f.orders.base.snapshot()
        let text = try RouteJSON.encode([
            Route.pizza(id: NavigationFixture.unknownID()), .order(id: NavigationFixture.unknownID(1)),
        ])
        let error = #expect(throws: NavigationError.self) { try f.router.importPath(f.anna, text: text) }
        #expect(error == .nothingToImport(missing: 2) && error?.category == .notFound)
        #expect(try f.orders.base.snapshot() == before)
    }

    @Test(
        "the routes format holds routes only; limits; duplicate keys and depth alike in both formats",
        arguments: [
            (
                #"[{"pizza":{"id":"D6A704A4-1111-4000-8000-000000000000"}}, {"foo": 1}, 42]"#, NavigationFormat.routes,
                "element 2 is not a route"
            ),
            (#"["PizzeriaApp.Route","{\"pizza\":{\"id\":\"x\"}}"]"#, .routes, "--format navigation-path"),
            (#"[{"pizza":{"id":"a","id":"b"}}]"#, .routes, "the key \"id\" twice"),
            (#"["Swift.Int","{\"a\":1,\"a\":2}"]"#, .navigationPath, "the key \"a\" twice"),
            (String(repeating: "[", count: 40) + String(repeating: "]", count: 40), .routes, "nested too deep"),
            (
                #"["Swift.Int",""# + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + #""]"#,
                .navigationPath, "nested too deep"
            ),
            (#"["Bad\u0000Name","42"]"#, .navigationPath, "type name must not contain control characters"),
            (
                "[" + Array(repeating: #"{"pizza":{"id":"x"}}"#, count: 501).joined(separator: ",") + "]", .routes,
                "at most 500"
            ),
            ("[" + String(repeating: " ", count: 1 << 20) + "]", .routes, "larger than"),
        ])
    func strictImports(text: String, format: NavigationFormat, message: String) throws {
        let f = try NavigationFixture()
        try f.router.push(f.anna, [f.porcini])
        let before = try f.orders.base.snapshot()
        let error = #expect(throws: NavigationError.self) {
            try f.router.importPath(f.anna, text: text, format: format)
        }
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
        #expect(error?.category == .invalidInput)
        #expect(try f.orders.base.snapshot() == before)
    }

    @Test("type names: empty or with control characters are refused on export too; stacks have a maximum depth")
    func typeNamesAndDepth() throws {
        let f = try NavigationFixture()
        #expect(throws: NavigationError.malformedTypeName("must not be empty")) {
            try f.router.export(f.anna, format: .navigationPath, routeTypeName: "")
        }
        #expect(throws: NavigationError.self) {
            try f.router.export(f.anna, format: .navigationPath, routeTypeName: "A\u{7}B")
        }
        try f.router.push(f.anna, Array(repeating: f.porcini, count: NavigationLimits.maximumDepth))
        let before = try f.orders.base.snapshot()
        #expect(throws: NavigationError.tooDeep(depth: NavigationLimits.maximumDepth + 1)) {
            try f.router.push(f.anna, [f.porcini])
        }
        #expect(try f.orders.base.snapshot() == before)
    }
}
