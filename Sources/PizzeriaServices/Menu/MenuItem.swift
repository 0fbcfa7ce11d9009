import Foundation
import PizzeriaStorage

/// An item as the app's item-detail screen shows it: the item, its variants (sizes) and the
/// modifier groups it offers, each with its modifiers.
///
/// JSON: `{"item": {…a pizza…}, "modifier_groups": [{…, "modifiers": […]}], "variants": […]}`.
public struct MenuItem: Sendable, Hashable, Identifiable, Record {
    /// The item.
    public internal(set) var pizza: Pizza = Pizza(blank: RecordBlank())
    /// Its variants in the order they are offered; one is the default.
    public internal(set) var variants: [Variant] = []
    /// Its modifier groups in the order they are offered.
    public internal(set) var modifierGroups: [ModifierGroup] = []

    /// An item.
    public init(pizza: Pizza, variants: [Variant], modifierGroups: [ModifierGroup]) {
        (self.pizza, self.variants, self.modifierGroups) = (pizza, variants, modifierGroups)
    }

    /// The item's id.
    public var id: Pizza.ID { pizza.id }

    /// The variant a plain order gets.
    public var defaultVariant: Variant? { variants.first(where: \.isDefault) ?? variants.first }

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members, the documented JSON shape, declared once (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.member("item", object: &pizza)
        try visitor.member("modifier_groups", objects: &modifierGroups)
        try visitor.member("variants", objects: &variants)
    }
}

/// The whole menu as the app's menu screen reads it: categories in order, every item on the menu
/// with its variants and the ids of its modifier groups, and every group once with its modifiers.
public struct Menu: Sendable, Hashable {
    /// One item of the menu.
    public struct Entry: Sendable, Hashable {
        /// The item.
        public let pizza: Pizza
        /// Its variants in the order they are offered.
        public let variants: [Variant]
        /// The groups it offers, in order (see ``Menu/groups``).
        public let groupIDs: [ModifierGroup.ID]
    }

    /// What a menu read one item at a time returns besides its entries
    /// (``MenuService/forEachEntry(includeArchived:_:)``): the categories and the groups the
    /// entries name by id.
    public struct Outline: Sendable, Hashable {
        /// The sections, in menu order.
        public let categories: [Category]
        /// Every modifier group with its modifiers.
        public let groups: [ModifierGroup]
    }

    /// The sections, in menu order.
    public let categories: [Category]
    /// The items on the menu, by name.
    public let entries: [Entry]
    /// Every modifier group with its modifiers.
    public let groups: [ModifierGroup]
}
