/// Why a router operation was refused. A refused operation changes nothing.
public enum NavigationError: PizzeriaFailure, Equatable {
    /// `pop` on the menu.
    case emptyStack
    /// `pop(count)` with `count` outside 1…depth.
    case cannotPop(count: Int, depth: Int)
    /// `popTo(depth:)` outside 0…depth.
    case cannotPopTo(depth: Int, current: Int)
    /// `popTo(route:)` for a route not in the stack.
    case routeNotInStack(Route)
    /// A route whose pizza or order does not exist.
    case unknownTarget(Route)
    /// An order route naming no order of the user: another customer's order is answered like
    /// a missing one.
    case noSuchOrder
    /// `random` with nothing on the menu.
    case emptyMenu
    /// A deep link that does not parse, or names an unknown kind.
    case malformedLink(url: String, reason: String)
    /// An import text that is not the expected JSON.
    case malformedImport(reason: String)
    /// Opening a sheet while one is open.
    case sheetAlreadyOpen(kind: String)
    /// A sheet operation with no sheet open.
    case noSheet
    /// A route in `kind:REF` form that does not parse.
    case malformedRoute(String)
    /// A client type name (`--type-name`) that breaks the rules.
    case malformedTypeName(String)
    /// The change would make the stack deeper than ``NavigationLimits/maximumDepth``.
    case tooDeep(depth: Int)
    /// An import whose every route names a pizza or order that does not exist: nothing would be
    /// left of a non-empty path, so nothing is imported.
    case nothingToImport(missing: Int)

    /// Invalid input, not found, or refused by the current state.
    public var category: FailureCategory {
        switch self {
        case .malformedLink, .malformedImport, .malformedRoute, .malformedTypeName, .tooDeep: .invalidInput
        case .unknownTarget, .noSuchOrder, .nothingToImport: .notFound
        case .cannotPop(let count, _) where count < 1: .invalidInput
        default: .refused
        }
    }

    /// A sentence for people.
    public var description: String {
        switch self {
        case .emptyStack: "the stack is empty (the user is on the menu): nothing to pop"
        case .cannotPop(let count, let depth) where count < 1:
            "count: must be at least 1 (got \(count); the stack has depth \(depth))"
        case .cannotPop(let count, let depth): "cannot pop \(count): the stack has depth \(depth)"
        case .cannotPopTo(let depth, let current): "cannot pop to depth \(depth): the stack has depth \(current)"
        case .routeNotInStack(let route): "\(route.kind) \(route.shortID) is not in the stack"
        // An order that is not the user's is answered like a missing one, without its id.
        case .unknownTarget(.order), .noSuchOrder: "no such order for this user"
        case .unknownTarget(let route): "no \(route.kind) with id \(route.id)"
        case .emptyMenu: "the menu is empty: there is no pizza to pick"
        case .malformedLink(let url, let reason): "url: '\(url)' \(reason)"
        case .malformedImport(let reason): "input: \(reason)"
        case .sheetAlreadyOpen(let kind): "a sheet is already open (\(kind)); save or dismiss it first"
        case .noSheet: "no sheet is open"
        case .malformedRoute(let text): "route: '\(text)' must be pizza:PIZZA, order:ORDER or category:CATEGORY"
        case .malformedTypeName(let problem): "type-name: \(problem)"
        case .tooDeep(let depth):
            "the stack would have depth \(depth); at most \(NavigationLimits.maximumDepth) screens are kept"
        case .nothingToImport(let missing):
            "input: none of its \(missing) route\(missing == 1 ? "" : "s") names an existing pizza or order (another database's ids?); nothing was imported"
        }
    }
}
