import PizzeriaServices

/// How navigation looks on a terminal.
enum NavigationText {
    static func state(_ state: NavigationState) -> String {
        var text = "\(state.handle): " + (["Menu"] + state.labels).joined(separator: " › ") + "\n"
        text += "  depth     \(state.depth)\n"
        text += "  current   \(state.labels.last ?? "menu")\n"
        text += "  previous  \(state.previousLabel ?? "menu")\n"
        if let sheet = state.sheet { text += "  sheet     " + NavigationText.sheet(sheet) }
        return text
    }

    static func sheet(_ sheet: Sheet) -> String {
        let errors = sheet.draft.validate()
        var text = "\(sheet.kind): name '\(sheet.draft.name)', price \(sheet.draft.price.formatted)"
        text += errors.isEmpty ? " (can save)\n" : "\n" + errors.map { "    error: \($0)\n" }.joined()
        return text
    }

    static func history(_ events: [NavigationEvent]) -> String {
        guard !events.isEmpty else { return "No navigation yet.\n" }
        var table = Table("WHEN", "ACTION", "ROUTES", "DEPTH", "DETAIL", rightAligned: [3])
        for event in events {
            let routes = event.routes.map { element -> String in
                switch element {
                case .route(let route): "\(route.kind):\(route.id.prefix(8))"
                case .opaque(let type, _): type
                }
            }.joined(separator: " ")
            table.add(event.at.timestamp, event.action.rawValue, routes.isEmpty ? "-" : routes, "\(event.depthAfter)", event.detail ?? "")
        }
        return table.rendered
    }
}
