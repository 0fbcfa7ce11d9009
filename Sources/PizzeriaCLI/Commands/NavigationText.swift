import Foundation
import PizzeriaServices

/// A user's navigation state with a readable label for each screen: what `nav` commands print.
/// JSON: the state's documented shape plus `labels` and `previous_label`.
struct NavigationView: Encodable {
    let state: NavigationState
    let labels: [String]
    let previousLabel: String?
    /// The open sheet's groups as the form shows them (text only).
    let sheetGroups: [String]

    /// Labels the path and the previous route in one query.
    init(_ state: NavigationState, _ navigation: NavigationService) throws {
        let all = try navigation.labels(for: state.path + (state.previous.map { [$0] } ?? []))
        self.state = state
        self.labels = Array(all.prefix(state.path.count))
        self.previousLabel = state.previous == nil ? nil : all.last
        self.sheetGroups = try state.sheet.map { try NavigationText.groups(navigation.sheetGroups($0)) } ?? []
    }

    private enum Keys: String, CodingKey { case labels, previousLabel = "previous_label" }

    func encode(to encoder: Encoder) throws {
        try state.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(labels, forKey: .labels)
        try container.encode(previousLabel, forKey: .previousLabel)
    }
}

/// An import's result with labels: `{"state": …, "dropped": […]}`.
struct ImportView: Encodable {
    let state: NavigationView
    let dropped: [Route]
}

/// How navigation looks on a terminal.
enum NavigationText {
    static func state(_ view: NavigationView) -> String {
        let state = view.state
        var text = "\(state.handle): " + (["Menu"] + view.labels).joined(separator: " › ") + "\n"
        text += "  depth     \(state.depth)\n"
        text += "  current   \(view.labels.last ?? "menu")\n"
        text += "  previous  \(view.previousLabel ?? "menu")\n"
        if let sheet = state.sheet { text += "  sheet     " + NavigationText.sheet(sheet, groups: view.sheetGroups) }
        return text
    }

    /// Each group as the sheet shows it: `Aggiunte (extra, 0 to 3)`, `Senza (removal)`,
    /// `Impasto (choice, default classico)`.
    static func groups(_ groups: [ModifierGroup]) -> [String] {
        groups.map { group in
            let detail: String
            switch group.kind {
            case .extra: detail = "extra, \(group.ruleText)"
            case .removal: detail = "removal"
            case .choice:
                detail =
                    "choice"
                    + (group.defaultModifier.flatMap { id in group.modifiers.first { $0.id == id } }.map {
                        ", default \($0.name)"
                    } ?? "")
            }
            return "\(group.name) (\(detail))"
        }
    }

    static func sheet(_ sheet: Sheet, groups: [String] = []) -> String {
        let errors = sheet.draft.validate()
        let draft = sheet.draft
        var text = "\(sheet.kind): name '\(draft.name)', price \(draft.price.formatted)"
        if let variants = draft.variants {
            text +=
                ", variants "
                + variants.map { "\($0.name) \($0.price.formatted)\($0.isDefault ? " (default)" : "")" }
                .joined(separator: ", ")
        }
        if let allergens = draft.allergens {
            text += ", allergens " + (allergens.isEmpty ? "none" : Allergen.codes(allergens).joined(separator: ","))
        }
        if let ids = draft.modifierGroupIDs {
            text += groups.isEmpty ? ", \(ids.count) modifier groups" : ", groups " + groups.joined(separator: ", ")
        }
        text += errors.isEmpty ? " (can save)\n" : "\n" + errors.map { "    error: \($0)\n" }.joined()
        return text
    }

    /// A user's history in every list mode.
    static func historyShape(_ zone: TimeZone) -> ListOutput.Shape<NavigationEvent> {
        ListOutput.Shape<NavigationEvent>(
            table: Table("WHEN", "ACTION", "ROUTES", "DEPTH", "DETAIL", rightAligned: [3]),
            cells: { event in
                let routes = event.routes.map { element -> String in
                    switch element {
                    case .route(let route): "\(route.kind):\(route.shortID)"
                    case .opaque(let type, _): type
                    }
                }.joined(separator: " ")
                return [
                    event.at.local(zone), event.action.rawValue, routes.isEmpty ? "-" : routes, "\(event.depthAfter)",
                    event.detail ?? "",
                ]
            },
            empty: "No navigation yet.\n", csv: CSVRows.event)
    }

    /// The most viewed pizzas in every list mode.
    static let viewsShape = ListOutput.Shape<PizzaViews>(
        table: Table("PIZZA", "VIEWS", "PUSHED", "RANDOM", "DEEP LINKS", "RESTORED", rightAligned: [1, 2, 3, 4, 5]),
        cells: { [$0.name, "\($0.views)", "\($0.pushed)", "\($0.random)", "\($0.deepLinks)", "\($0.restored)"] },
        empty: "No pizza has been viewed yet.\n",
        csv: CSVColumns([
            .member("pizza_id"), .member("name"), .member("views"), .member("pushed"), .member("random"),
            .member("deep_links"), .member("restored"),
        ]))
}
