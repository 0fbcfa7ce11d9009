import Foundation
import PizzeriaStorage

// The whole menu as the app's menu screen reads it: held (`menu()`) or one item at a time
// (`forEachEntry`), from one read transaction either way (the SQL in `MenuStreamStore`).
extension MenuService {
    /// The whole menu on offer — categories, items with their variants and groups, the groups with
    /// their modifiers — in one read transaction: ``forEachEntry(includeArchived:_:)``'s entries,
    /// held.
    public func menu(includeArchived: Bool = false) throws -> Menu {
        var entries: [Menu.Entry] = []
        let outline = try forEachEntry(includeArchived: includeArchived) { entries.append($0) }
        return Menu(categories: outline.categories, entries: entries, groups: outline.groups)
    }

    /// The menu one item at a time, for a menu too large to hold: `body` gets each entry in name
    /// order — the item, its variants in the order they are offered, its groups' ids in the menu's
    /// order — and the call returns the categories and groups, all from one read transaction.
    /// Memory stays flat in the number of items: the items, their variants and their groups are
    /// three statements stepped side by side in the menu's order, each item's variants and groups
    /// found by the item's key in an index kept in the same order (measured faster at 10,000 items
    /// than one scan of each table into hash tables; per item as fast at a million items as at ten
    /// thousand). Returning early is throwing from `body`. `body` runs
    /// while the read is open and may read and write through the library (a read takes another
    /// reader connection); the entries still to come are the read's snapshot.
    @discardableResult
    public func forEachEntry(includeArchived: Bool = false, _ body: (Menu.Entry) throws -> Void) throws -> Menu.Outline
    {
        try database.read { db in
            let groups = try ModifierStore.groups(in: db)
            let rank = Dictionary(uniqueKeysWithValues: groups.enumerated().map { ($1.id, $0) })
            let outline = Menu.Outline(categories: try CategoryStore.list(in: db), groups: groups)
            try MenuStreamStore.forEach(includeArchived: includeArchived, in: db, groupRank: { rank[$0] ?? .max }) {
                pizza, variants, groupIDs in
                try body(Menu.Entry(pizza: pizza, variants: variants, groupIDs: groupIDs))
            }
            return outline
        }
    }
}
