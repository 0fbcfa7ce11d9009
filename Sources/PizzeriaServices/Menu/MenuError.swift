/// Why the menu refused a lookup or a change.
public enum MenuError: PizzeriaFailure, Equatable {
    /// No pizza has this id (or, through ``LookupService``, id prefix, name or name prefix);
    /// `closest` is the name of the pizza it most likely misspells, when there is one.
    case notFound(_ reference: String, closest: String? = nil)
    /// An id prefix, or the start of a name, that more than one pizza has.
    case ambiguous(query: String, candidates: [Pizza])
    /// Another pizza already has this name, ignoring case (archived pizzas included).
    case duplicateName(name: String, existing: Pizza)
    /// The pizza changed since the edit started (another admin, another process).
    case conflict(pizza: Pizza, draftVersion: Int)
    /// Archiving a pizza that is already archived.
    case alreadyArchived(Pizza)
    /// Restoring a pizza that is on the menu.
    case notArchived(Pizza)
    /// No category has this name (ignoring case) or id.
    case categoryNotFound(_ reference: String, known: [String] = [])
    /// Another category already has this name, ignoring case.
    case duplicateCategory(name: String, existing: String)
    /// A category that still has items cannot be removed.
    case categoryInUse(name: String, items: Int)
    /// No variant, modifier group or modifier (`part`) has this name where it was looked for
    /// (`place`: the item or the group); `known` are the ones there are.
    case partNotFound(part: String, name: String, place: String, known: [String])
    /// Another variant, group or modifier of the same place already has this name, ignoring case.
    case duplicatePart(part: String, name: String, place: String)
    /// A change the menu's state refuses (the default variant removed, too many variants), in
    /// words that say what to do instead.
    case partRefused(_ reason: String)

    /// Not found, invalid input (ambiguous reference) or refused by the current state.
    public var category: FailureCategory {
        switch self {
        case .notFound, .categoryNotFound, .partNotFound: .notFound
        case .ambiguous: .invalidInput
        case .duplicateName, .conflict, .alreadyArchived, .notArchived, .duplicateCategory, .categoryInUse,
            .duplicatePart, .partRefused:
            .refused
        }
    }

    /// A sentence for people.
    public var description: String {
        switch self {
        case .notFound(let reference, let closest):
            "no pizza with id, id prefix or name '\(reference)'" + (closest.map { "; did you mean '\($0)'?" } ?? "")
        case .ambiguous(let query, let candidates):
            "'\(query)' matches \(candidates.count) pizzas: "
                + zip(IDPrefix.distinguishing(candidates.map(\.id.description)), candidates).map { "\($0) \($1.name)" }
                .joined(separator: ", ")
        case .duplicateName(let name, let existing):
            "name: '\(name)' is already taken by \(existing.isArchived ? "archived pizza" : "pizza") '\(existing.name)' (names are unique ignoring case)"
        case .conflict(let pizza, let draftVersion):
            "'\(pizza.name)' was changed by someone else since this edit started (version \(draftVersion), now \(pizza.version)); nothing was overwritten"
        case .alreadyArchived(let pizza):
            "'\(pizza.name)' is already archived"
        case .notArchived(let pizza):
            "'\(pizza.name)' is on the menu, not archived"
        case .categoryNotFound(let reference, let known):
            "category: no category named '\(reference)'"
                + (known.isEmpty ? "" : " (there are: \(known.joined(separator: ", ")))")
        case .duplicateCategory(let name, let existing):
            "name: '\(name)' is already the name of category '\(existing)' (names are unique ignoring case)"
        case .categoryInUse(let name, let items):
            "category '\(name)' still has \(items) item\(items == 1 ? "" : "s"); move them to another category first"
        case .partNotFound(let part, let name, let place, let known):
            "\(part): \(place) has no \(part) '\(name)'"
                + (known.isEmpty ? "" : " (there are: \(known.joined(separator: ", ")))")
        case .duplicatePart(let part, let name, let place):
            "name: \(place) already has a \(part) named '\(name)' (names are unique ignoring case)"
        case .partRefused(let reason):
            reason
        }
    }
}
