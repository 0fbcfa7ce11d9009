import Foundation

/// The two forms a stack is exported and imported in.
public enum NavigationFormat: String, Sendable, CaseIterable {
    /// A JSON array of ``Route`` values, bottom first: `[{"pizza":{"id":"…"}}]`.
    case routes
    /// SwiftUI's `NavigationPath.CodableRepresentation`: a flat JSON array of strings alternating
    /// a module-qualified type name and that element's JSON, last element first.
    case navigationPath = "navigation-path"

    /// The app's route type name when none is given.
    public static let defaultRouteTypeName = "PizzeriaApp.Route"
}

/// Converts a stack to and from the export formats. Elements of unknown types are kept opaque,
/// with their JSON text untouched, so a client's path comes back exactly as it went in.
enum NavigationCodec {
    /// The stack as text, and how many elements the format could not hold (opaque elements of
    /// other types have no place in a `[Route]` array).
    static func export(_ path: [NavigationElement], format: NavigationFormat, routeTypeName: String) throws -> (text: String, omitted: Int) {
        switch format {
        case .routes:
            var parts: [String] = []
            var omitted = 0
            for element in path {
                switch element {
                case .route(let route): parts.append(try RouteJSON.encode(route))
                case .opaque(let type, let json) where type == routeTypeName: parts.append(json)
                case .opaque: omitted += 1
                }
            }
            return ("[" + parts.joined(separator: ",") + "]", omitted)
        case .navigationPath:
            var strings: [String] = []
            for element in path.reversed() {
                switch element {
                case .route(let route): strings += [routeTypeName, try RouteJSON.encode(route)]
                case .opaque(let type, let json): strings += [type, json]
                }
            }
            return (try RouteJSON.encode(strings), 0)
        }
    }

    /// Parses an exported stack, bottom first. With no `format`, an array of strings is taken
    /// as a navigation path and anything else as routes.
    /// - Throws: ``NavigationError/malformedImport(reason:)``.
    static func parse(_ text: String, format: NavigationFormat?, routeTypeName: String) throws -> [NavigationElement] {
        guard let top = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else {
            throw NavigationError.malformedImport(reason: "is not JSON")
        }
        guard let array = top as? [Any] else { throw NavigationError.malformedImport(reason: "must be a JSON array") }
        let detected = format ?? (!array.isEmpty && array.allSatisfy { $0 is String } ? .navigationPath : .routes)
        switch detected {
        case .routes:
            return try array.map { item in
                let json = try canonical(item)
                if let route = try? RouteJSON.decode(Route.self, from: json) { return .route(route) }
                return .opaque(typeName: routeTypeName, json: json)
            }
        case .navigationPath:
            guard let strings = array as? [String] else {
                throw NavigationError.malformedImport(reason: "a navigation path must be an array of strings")
            }
            guard strings.count % 2 == 0 else {
                throw NavigationError.malformedImport(reason: "a navigation path must alternate type names and JSON (odd count \(strings.count))")
            }
            var elements: [NavigationElement] = []
            for index in stride(from: 0, to: strings.count, by: 2) {
                let type = strings[index], json = strings[index + 1]
                guard !type.isEmpty else { throw NavigationError.malformedImport(reason: "element \(index / 2 + 1) has an empty type name") }
                guard (try? JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])) != nil else {
                    throw NavigationError.malformedImport(reason: "element \(index / 2 + 1) (\(type)) is not valid JSON")
                }
                if type == routeTypeName, let route = try? RouteJSON.decode(Route.self, from: json) {
                    elements.append(.route(route))
                } else {
                    elements.append(.opaque(typeName: type, json: json))
                }
            }
            return elements.reversed()
        }
    }

    private static func canonical(_ item: Any) throws -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: item, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]) else {
            throw NavigationError.malformedImport(reason: "holds a value that is not JSON")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
