import Foundation

/// Deep links: `pizzeria://pizza/ID`, `pizzeria://order/ID`, `pizzeria://category/NAME`, several
/// pairs in one link.
///
/// ``NavigationService/open(_:url:)`` resolves a link's references against the database; `parse`
/// alone checks its form, for a service that validates links before storing them.
public enum DeepLink {
    /// The largest number of routes one link may name.
    public static let maximumRoutes = 50

    /// The `(kind, reference)` pairs of a link, references percent-decoded. A query and a
    /// fragment (`?utm_source=share`, `#top`), which shared links carry, are ignored, as apps do.
    /// - Throws: ``NavigationError/malformedLink(url:reason:)``.
    public static func parse(_ url: String) throws -> [(kind: String, reference: String)] {
        func malformed(_ reason: String) -> NavigationError { .malformedLink(url: url, reason: reason) }
        let scheme = "pizzeria://"
        guard url.lowercased().hasPrefix(scheme) else { throw malformed("must start with pizzeria://") }
        var rest = String(url.dropFirst(scheme.count).prefix { $0 != "?" && $0 != "#" })
        guard !rest.contains(where: \.isWhitespace) else { throw malformed("must not contain spaces") }
        if rest.hasSuffix("/") { rest.removeLast() }
        guard !rest.isEmpty else { throw malformed("names no screen") }
        let segments = rest.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !segments.contains(where: \.isEmpty) else { throw malformed("has an empty path segment") }
        guard segments.count % 2 == 0 else { throw malformed("must be kind/id pairs, such as pizza/ID") }
        guard segments.count / 2 <= maximumRoutes else { throw malformed("names more than \(maximumRoutes) screens") }
        return try stride(from: 0, to: segments.count, by: 2).map { index in
            let kind = segments[index].lowercased()
            guard Route.kinds.contains(kind) else {
                throw malformed("has unknown kind '\(segments[index])' (pizza, order or category)")
            }
            guard let reference = segments[index + 1].removingPercentEncoding, !reference.isEmpty else {
                throw malformed("has a badly percent-encoded segment '\(segments[index + 1])'")
            }
            return (kind, reference)
        }
    }
}
