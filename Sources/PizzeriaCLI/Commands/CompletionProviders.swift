import PizzeriaServices

/// The live values this program completes, read from the database through the lookups' index
/// ranges (a menu of a million pizzas completes at once). Any failure offers nothing.
extension Completion {
    /// Pizza names (on the menu and archived).
    static let pizzas = Completion.custom(
        CompletionProvider { typed, source in
            (try? source.open()?.lookup.pizzaNames(startingWith: typed, limit: CompletionSource.limit)) ?? []
        })

    /// User handles.
    static let users = Completion.custom(
        CompletionProvider { typed, source in
            (try? source.open()?.lookup.handles(startingWith: typed, limit: CompletionSource.limit)) ?? []
        })

    /// Order ids, shortened to 8 characters until more than that is typed.
    static let orders = Completion.custom(CompletionProvider(candidates: orderPrefixes))

    /// `pizza:NAME`, `order:ID` or `category:NAME` routes.
    static let routes = Completion.custom(
        CompletionProvider { typed, source in
            if typed.hasPrefix("pizza:") {
                let names =
                    (try? source.open()?.lookup.pizzaNames(
                        startingWith: String(typed.dropFirst(6)), limit: CompletionSource.limit)) ?? []
                return names.map { "pizza:" + $0 }
            }
            if typed.hasPrefix("order:") {
                return orderPrefixes(String(typed.dropFirst(6)), source).map { "order:" + $0 }
            }
            if typed.hasPrefix("category:") {
                let names = (try? source.open()?.menu.categories().map(\.name)) ?? []
                let wanted = typed.dropFirst(9).lowercased()
                return names.filter { $0.lowercased().hasPrefix(wanted) }.map { "category:" + $0 }
            }
            return ["pizza:", "order:", "category:"].filter { $0.hasPrefix(typed) }
        })

    private static func orderPrefixes(_ typed: String, _ source: CompletionSource) -> [String] {
        let ids = (try? source.open()?.lookup.orderIDs(startingWith: typed, limit: CompletionSource.limit)) ?? []
        let start = typed.lowercased()
        return ids.map { $0.short.hasPrefix(start) ? $0.short : $0.description }
    }
}
