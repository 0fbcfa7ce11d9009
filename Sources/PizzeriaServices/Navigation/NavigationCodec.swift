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

/// Converts a stack to and from the export formats, without a database. Elements of unknown types
/// are kept opaque, with their JSON text untouched, so a client's path comes back exactly as it
/// went in. ``NavigationService`` uses it for `export` and `importPath`.
public enum NavigationCodec {
    /// The stack as text, and how many elements the format could not hold (opaque elements have
    /// no place in a `[Route]` array: the app's decoder would fail on the whole array).
    public static func export(_ path: [NavigationElement], format: NavigationFormat, routeTypeName: String) throws -> (
        text: String, omitted: Int
    ) {
        switch format {
        case .routes:
            var parts: [String] = []
            var omitted = 0
            for element in path {
                switch element {
                case .route(let route): parts.append(try RouteJSON.encode(route))
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
    ///
    /// In the routes format every element must be a ``Route`` (the app decodes `[Route]` and
    /// fails on anything else); elements of other types exist only in the navigation-path
    /// format. Ids are read in any case (Swift's `JSONEncoder` writes `UUID`s in uppercase) and
    /// stored lowercase. The text is checked first (``JSONCheck``): syntax, nesting and duplicate
    /// keys, within ``NavigationLimits``.
    /// - Throws: ``NavigationError/malformedImport(reason:)``.
    public static func parse(_ text: String, format: NavigationFormat?, routeTypeName: String) throws
        -> [NavigationElement]
    {
        func malformed(_ reason: String) -> NavigationError { .malformedImport(reason: reason) }
        if let problem = NavigationLimits.problems(typeName: routeTypeName) {
            throw NavigationError.malformedTypeName(problem)
        }
        guard text.utf8.count <= NavigationLimits.maximumImportBytes else {
            throw malformed("is larger than \(NavigationLimits.maximumImportBytes) bytes")
        }
        do {
            try JSONCheck.validate(text, maximumDepth: NavigationLimits.maximumJSONDepth)
        } catch {
            throw malformed(error.reason)
        }
        guard
            let array = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) as? [Any]
        else {
            throw malformed("must be a JSON array")
        }
        let detected = format ?? (!array.isEmpty && array.allSatisfy { $0 is String } ? .navigationPath : .routes)
        let count = detected == .navigationPath ? array.count / 2 : array.count
        guard count <= NavigationLimits.maximumDepth else {
            throw malformed("has \(count) elements; a stack holds at most \(NavigationLimits.maximumDepth)")
        }
        switch detected {
        case .routes:
            return try array.enumerated().map { index, item in
                guard let route = try? RouteJSON.decode(Route.self, from: try canonical(item)) else {
                    let hint = item is String ? " (an array of strings is --format navigation-path)" : ""
                    throw malformed("element \(index + 1) is not a route such as {\"pizza\":{\"id\":\"…\"}}\(hint)")
                }
                return .route(route)
            }
        case .navigationPath:
            guard let strings = array as? [String] else {
                throw malformed("a navigation path must be an array of strings")
            }
            guard strings.count % 2 == 0 else {
                throw malformed("a navigation path must alternate type names and JSON (odd count \(strings.count))")
            }
            var elements: [NavigationElement] = []
            for index in stride(from: 0, to: strings.count, by: 2) {
                let type = strings[index], json = strings[index + 1], number = index / 2 + 1
                if let problem = NavigationLimits.problems(typeName: type) {
                    throw malformed("element \(number): type name \(problem)")
                }
                guard json.utf8.count <= NavigationLimits.maximumElementBytes else {
                    throw malformed(
                        "element \(number) (\(type)) is larger than \(NavigationLimits.maximumElementBytes) bytes")
                }
                do {
                    try JSONCheck.validate(json, maximumDepth: NavigationLimits.maximumJSONDepth)
                } catch {
                    throw malformed("element \(number) (\(type)) \(error.reason)")
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
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: item, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        else {
            throw NavigationError.malformedImport(reason: "holds a value that is not JSON")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
