import Foundation

/// A user's navigation as the app restores it: the stack over the menu, and the sheet on top.
/// (Readable labels for the screens are presentation: ``NavigationService/labels(for:)``.)
///
/// JSON: `{"user", "user_id", "depth", "path": [route…], "current", "previous", "sheet"}`.
public struct NavigationState: Sendable, Hashable, Record {
    /// The user.
    public internal(set) var userID: User.ID = .blank
    /// The user's handle.
    public internal(set) var handle: String = ""
    /// The stack, bottom first; empty means the menu (the root).
    public internal(set) var path: [NavigationElement] = []
    /// The top of the stack before the last change to it (`nil`: the menu, or no change yet).
    public internal(set) var previous: NavigationElement?
    /// The sheet presented over the stack, if any.
    public internal(set) var sheet: Sheet?

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

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members: the documented JSON shape, declared once (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.derived("current", object: current)
        try visitor.derived("depth", Int64(depth))
        try visitor.member("path", objects: &path)
        try visitor.member("previous", object: &previous)
        try visitor.member("sheet", encoded: &sheet, absent: nil)
        try visitor.member("user", &handle)
        try visitor.member("user_id", &userID)
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
public struct NavigationEvent: Sendable, Hashable, Record {
    /// Increasing: the order of events.
    public internal(set) var id: Int64 = 0
    /// When.
    public internal(set) var at: Date = Date(timeIntervalSince1970: 0)
    /// What happened.
    public internal(set) var action: NavigationAction = .push
    /// The routes involved: pushed, popped, or the new stack.
    public internal(set) var routes: [NavigationElement] = []
    /// The stack depth after the change.
    public internal(set) var depthAfter: Int = 0
    /// The URL opened, the sheet field set, the seed used, …
    public internal(set) var detail: String?

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

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members, `{"action", "at", "depth_after", "detail", "id", "routes"}`, declared once (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.member("action", raw: &action, absent: nil)
        try visitor.member("at", timestamp: &at)
        try visitor.member("depth_after", &depthAfter)
        try visitor.member("detail", &detail)
        try visitor.member("id", &id)
        try visitor.member("routes", objects: &routes)
    }
}

/// How often each pizza's detail was shown, from the navigation history, by how it was opened.
public struct PizzaViews: Sendable, Hashable, Record {
    /// The pizza's id.
    public internal(set) var pizzaID: Pizza.ID = .blank
    /// Its name now.
    public internal(set) var name: String = ""
    /// How many times its detail was shown, every way.
    public internal(set) var views: Int = 0
    /// Of those, pushed from the menu.
    public internal(set) var pushed: Int = 0
    /// Picked by the Random button.
    public internal(set) var random: Int = 0
    /// Opened by a deep link.
    public internal(set) var deepLinks: Int = 0
    /// Restored with an imported path (or a replaced stack).
    public internal(set) var restored: Int = 0

    /// A row.
    public init(
        pizzaID: Pizza.ID, name: String, views: Int, pushed: Int = 0, random: Int = 0, deepLinks: Int = 0,
        restored: Int = 0
    ) {
        (self.pizzaID, self.name, self.views) = (pizzaID, name, views)
        (self.pushed, self.random, self.deepLinks, self.restored) = (pushed, random, deepLinks, restored)
    }

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members, the documented JSON shape, declared once (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.member("deep_links", &deepLinks)
        try visitor.member("name", &name)
        try visitor.member("pizza_id", &pizzaID)
        try visitor.member("pushed", &pushed)
        try visitor.member("random", &random)
        try visitor.member("restored", &restored)
        try visitor.member("views", &views)
    }
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
