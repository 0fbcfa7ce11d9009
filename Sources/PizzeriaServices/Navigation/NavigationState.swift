import Foundation

/// A user's navigation as the app restores it: the stack over the menu, and the sheet on top.
/// (Readable labels for the screens are presentation: ``NavigationService/labels(for:)``.)
///
/// JSON: `{"user", "user_id", "depth", "path": [route…], "current", "previous", "sheet"}`.
public struct NavigationState: Sendable, Hashable, Codable {
    /// The user.
    public let userID: User.ID
    /// The user's handle.
    public let handle: String
    /// The stack, bottom first; empty means the menu (the root).
    public let path: [NavigationElement]
    /// The top of the stack before the last change to it (`nil`: the menu, or no change yet).
    public let previous: NavigationElement?
    /// The sheet presented over the stack, if any.
    public let sheet: Sheet?

    /// A state from its parts.
    public init(userID: User.ID, handle: String, path: [NavigationElement], previous: NavigationElement?, sheet: Sheet?)
    {
        self.userID = userID
        self.handle = handle
        self.path = path
        self.previous = previous
        self.sheet = sheet
    }

    /// The number of screens above the menu.
    public var depth: Int { path.count }
    /// The top of the stack (`nil`: the menu).
    public var current: NavigationElement? { path.last }

    private enum CodingKeys: String, CodingKey {
        case user, userID = "user_id", depth, path, current, previous, sheet
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(handle, forKey: .user)
        try container.encode(userID, forKey: .userID)
        try container.encode(depth, forKey: .depth)
        try container.encode(path, forKey: .path)
        try container.encode(current, forKey: .current)
        try container.encode(previous, forKey: .previous)
        try container.encode(sheet, forKey: .sheet)
    }

    /// Reads the documented JSON shape.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            userID: try container.decode(User.ID.self, forKey: .userID),
            handle: try container.decode(String.self, forKey: .user),
            path: try container.decode([NavigationElement].self, forKey: .path),
            previous: try container.decodeIfPresent(NavigationElement.self, forKey: .previous),
            sheet: try container.decodeIfPresent(Sheet.self, forKey: .sheet))
    }
}

/// The add-pizza or edit-pizza sheet, with its draft as last edited.
///
/// JSON: `{"kind": "add_pizza"|"edit_pizza", "pizza_id", "base_version", "draft": {"name",
/// "price", "price_cents"}, "errors": [{"field", "message"}], "can_save", "opened_at", "updated_at"}`.
public struct Sheet: Sendable, Hashable, Codable {
    /// Which sheet: add, or edit (with the pizza and the version the draft was taken at).
    public let draft: PizzaDraft
    /// When it was opened.
    public let openedAt: Date
    /// When its draft last changed.
    public let updatedAt: Date

    /// A sheet from its parts.
    public init(draft: PizzaDraft, openedAt: Date, updatedAt: Date) {
        self.draft = draft
        self.openedAt = openedAt
        self.updatedAt = updatedAt
    }

    /// `add_pizza` or `edit_pizza`.
    public var kind: String {
        if case .edit = draft.mode { "edit_pizza" } else { "add_pizza" }
    }

    private enum CodingKeys: String, CodingKey {
        case kind, pizzaID = "pizza_id", baseVersion = "base_version", draft, errors, canSave = "can_save"
        case openedAt = "opened_at", updatedAt = "updated_at"
    }

    private enum DraftKeys: String, CodingKey {
        case name, price, priceCents = "price_cents", categoryID = "category_id", allergens, variants
        case modifierGroups = "modifier_groups"
    }

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
        // The menu choices the draft sets (absent: it keeps the item's).
        let choices = PizzaDraft.Choices(draft)
        try fields.encodeIfPresent(choices.categoryID, forKey: .categoryID)
        try fields.encodeIfPresent(choices.allergens, forKey: .allergens)
        try fields.encodeIfPresent(choices.variants, forKey: .variants)
        try fields.encodeIfPresent(choices.modifierGroups, forKey: .modifierGroups)
        let errors = draft.validate()
        try container.encode(errors, forKey: .errors)
        try container.encode(errors.isEmpty, forKey: .canSave)
        try container.encodeTimestamp(openedAt, forKey: .openedAt)
        try container.encodeTimestamp(updatedAt, forKey: .updatedAt)
    }

    /// Reads the documented JSON shape.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let fields = try container.nestedContainer(keyedBy: DraftKeys.self, forKey: .draft)
        let mode: PizzaDraft.Mode
        if let id = try container.decodeIfPresent(Pizza.ID.self, forKey: .pizzaID) {
            mode = .edit(pizzaID: id, baseVersion: try container.decode(Int.self, forKey: .baseVersion))
        } else {
            mode = .add
        }
        var draft = PizzaDraft(
            mode: mode, name: try fields.decode(String.self, forKey: .name),
            price: try fields.decodeMoney(centsKey: .priceCents))
        var choices = PizzaDraft.Choices(draft)
        choices.categoryID = try fields.decodeIfPresent(Int64.self, forKey: .categoryID)
        choices.allergens = try fields.decodeIfPresent([String].self, forKey: .allergens)
        choices.variants = try fields.decodeIfPresent([PizzaDraft.Choices.Line].self, forKey: .variants)
        choices.modifierGroups = try fields.decodeIfPresent([Int64].self, forKey: .modifierGroups)
        try choices.apply(to: &draft)
        self.init(
            draft: draft,
            openedAt: try container.decodeTimestamp(forKey: .openedAt),
            updatedAt: try container.decodeTimestamp(forKey: .updatedAt))
    }
}

/// One entry of a user's navigation history.
public struct NavigationEvent: Sendable, Hashable, Codable, JSONMembers {
    /// Increasing: the order of events.
    public let id: Int64
    /// When.
    public let at: Date
    /// What happened.
    public let action: NavigationAction
    /// The routes involved: pushed, popped, or the new stack.
    public let routes: [NavigationElement]
    /// The stack depth after the change.
    public let depthAfter: Int
    /// The URL opened, the sheet field set, the seed used, …
    public let detail: String?

    /// An event from its parts.
    public init(
        id: Int64, at: Date, action: NavigationAction, routes: [NavigationElement], depthAfter: Int, detail: String?
    ) {
        self.id = id
        self.at = at
        self.action = action
        self.routes = routes
        self.depthAfter = depthAfter
        self.detail = detail
    }

    private enum CodingKeys: String, CodingKey { case id, at, action, routes, depthAfter = "depth_after", detail }

    /// `{"action", "at", "depth_after", "detail", "id", "routes"}`, defined once (see ``JSONMembers``).
    public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        try writer.member("action", action.rawValue)
        try writer.member("at", timestamp: at)
        try writer.member("depth_after", depthAfter)
        try writer.member("detail", detail)
        try writer.member("id", id)
        try writer.member("routes", objects: routes)
    }

    /// The JSON shape.
    public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }

    /// Reads the JSON shape.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(Int64.self, forKey: .id), at: try container.decodeTimestamp(forKey: .at),
            action: try container.decode(NavigationAction.self, forKey: .action),
            routes: try container.decode([NavigationElement].self, forKey: .routes),
            depthAfter: try container.decode(Int.self, forKey: .depthAfter),
            detail: try container.decodeIfPresent(String.self, forKey: .detail))
    }
}

/// How often each pizza's detail was shown, from the navigation history, by how it was opened.
public struct PizzaViews: Sendable, Hashable, Codable, JSONMembers {
    /// The pizza's id.
    public let pizzaID: Pizza.ID
    /// Its name now.
    public let name: String
    /// How many times its detail was shown, every way.
    public let views: Int
    /// Of those, pushed from the menu.
    public let pushed: Int
    /// Picked by the Random button.
    public let random: Int
    /// Opened by a deep link.
    public let deepLinks: Int
    /// Restored with an imported path (or a replaced stack).
    public let restored: Int

    /// A row.
    public init(
        pizzaID: Pizza.ID, name: String, views: Int, pushed: Int = 0, random: Int = 0, deepLinks: Int = 0,
        restored: Int = 0
    ) {
        (self.pizzaID, self.name, self.views) = (pizzaID, name, views)
        (self.pushed, self.random, self.deepLinks, self.restored) = (pushed, random, deepLinks, restored)
    }

    private enum CodingKeys: String, CodingKey {
        case pizzaID = "pizza_id", name, views, pushed, random, deepLinks = "deep_links", restored
    }

    /// The documented JSON shape, defined once (see ``JSONMembers``).
    public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        try writer.member("deep_links", deepLinks)
        try writer.member("name", name)
        try writer.member("pizza_id", id: pizzaID)
        try writer.member("pushed", pushed)
        try writer.member("random", random)
        try writer.member("restored", restored)
        try writer.member("views", views)
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }
}

/// What an import restored, and what it had to drop.
public struct ImportResult: Sendable, Hashable, Codable {
    /// The user's state after the import.
    public let state: NavigationState
    /// Routes whose pizza or order no longer exists, in path order.
    public let dropped: [Route]

    /// A result.
    public init(state: NavigationState, dropped: [Route]) {
        self.state = state
        self.dropped = dropped
    }
}
