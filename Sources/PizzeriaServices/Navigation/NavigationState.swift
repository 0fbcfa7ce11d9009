/// A user's navigation as the app restores it: the stack over the menu, and the sheet on top.
///
/// JSON: `{"user", "depth", "path": [route…], "labels": […], "current", "previous",
/// "previous_label", "sheet"}`.
public struct NavigationState: Sendable, Hashable, Encodable {
    /// The user's handle.
    public let handle: String
    /// The stack, bottom first; empty means the menu (the root).
    public let path: [NavigationElement]
    /// A readable label for each element: the pizza's name, `order 1a2b3c4d`, or the type name.
    public let labels: [String]
    /// The top of the stack before the last change to it (`nil`: the menu, or no change yet).
    public let previous: NavigationElement?
    /// A readable label for ``previous``.
    public let previousLabel: String?
    /// The sheet presented over the stack, if any.
    public let sheet: Sheet?

    /// The number of screens above the menu.
    public var depth: Int { path.count }
    /// The top of the stack (`nil`: the menu).
    public var current: NavigationElement? { path.last }

    private enum CodingKeys: String, CodingKey { case user, depth, path, labels, current, previous, previousLabel = "previous_label", sheet }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(handle, forKey: .user)
        try container.encode(depth, forKey: .depth)
        try container.encode(path, forKey: .path)
        try container.encode(labels, forKey: .labels)
        try container.encode(current, forKey: .current)
        try container.encode(previous, forKey: .previous)
        try container.encode(previousLabel, forKey: .previousLabel)
        try container.encode(sheet, forKey: .sheet)
    }
}

/// The add-pizza or edit-pizza sheet, with its draft as last edited.
///
/// JSON: `{"kind": "add_pizza"|"edit_pizza", "pizza_id", "base_version", "draft": {"name",
/// "price", "price_cents"}, "errors": [{"field", "message"}], "can_save", "opened_at", "updated_at"}`.
public struct Sheet: Sendable, Hashable, Encodable {
    /// Which sheet: add, or edit (with the pizza and the version the draft was taken at).
    public let draft: PizzaDraft
    /// When it was opened (ISO-8601 UTC).
    public let openedAt: String
    /// When its draft last changed (ISO-8601 UTC).
    public let updatedAt: String

    /// `add_pizza` or `edit_pizza`.
    public var kind: String {
        if case .edit = draft.mode { "edit_pizza" } else { "add_pizza" }
    }

    private enum CodingKeys: String, CodingKey {
        case kind, pizzaID = "pizza_id", baseVersion = "base_version", draft, errors, canSave = "can_save"
        case openedAt = "opened_at", updatedAt = "updated_at"
    }

    private enum DraftKeys: String, CodingKey { case name, price, priceCents = "price_cents" }

    /// The documented JSON shape; `errors` is what the app shows while the save button is disabled.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        if case .edit(let id, let version) = draft.mode {
            try container.encode(id, forKey: .pizzaID)
            try container.encode(version, forKey: .baseVersion)
        } else {
            try container.encodeNil(forKey: .pizzaID)
            try container.encodeNil(forKey: .baseVersion)
        }
        var fields = container.nestedContainer(keyedBy: DraftKeys.self, forKey: .draft)
        try fields.encode(draft.name, forKey: .name)
        try fields.encode(draft.price, forKey: .price, centsKey: .priceCents)
        let errors = draft.validate()
        try container.encode(errors, forKey: .errors)
        try container.encode(errors.isEmpty, forKey: .canSave)
        try container.encode(openedAt, forKey: .openedAt)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}

/// One entry of a user's navigation history.
public struct NavigationEvent: Sendable, Hashable, Encodable {
    /// Increasing: the order of events.
    public let id: Int64
    /// When (ISO-8601 UTC).
    public let at: String
    /// What happened.
    public let action: NavigationAction
    /// The routes involved: pushed, popped, or the new stack.
    public let routes: [NavigationElement]
    /// The stack depth after the change.
    public let depthAfter: Int
    /// The URL opened, the sheet field set, the seed used, …
    public let detail: String?

    private enum CodingKeys: String, CodingKey { case id, at, action, routes, depthAfter = "depth_after", detail }
}

/// Pushes per pizza, from the navigation history.
public struct PizzaViews: Sendable, Hashable, Encodable {
    /// The pizza's id.
    public let pizzaID: String
    /// Its name now.
    public let name: String
    /// How many times its detail was pushed.
    public let views: Int

    private enum CodingKeys: String, CodingKey { case pizzaID = "pizza_id", name, views }
}

/// What an import restored, and what it had to drop.
public struct ImportResult: Sendable, Hashable, Encodable {
    /// The user's state after the import.
    public let state: NavigationState
    /// Routes whose pizza or order no longer exists, in path order.
    public let dropped: [Route]
}
