import Foundation
import PizzeriaStorage

/// The SQL of the menu read one item at a time (``MenuService/forEachEntry(includeArchived:_:)``):
/// three statements in the menu's order — the items, their variants and their groups — stepped
/// side by side, so that nothing but one item's rows is held however large the menu is.
///
/// Each statement scans the items by the unique `name_key` index (`CROSS JOIN` keeps the items
/// the outer loop, so no statement sorts) and finds each item's variants or groups by the item's
/// key in their menu-order index (`pizza_name_key`, migration 31: the same order as the items, so
/// the lookups walk the index page after page instead of landing on a random page per item, as a
/// lookup by the random item id did): one snapshot, one order, the rows of an item adjacent in
/// all three. `IS` matches an item whose `name_key` was cleared by hand too; the id comparison
/// keeps such items apart.
enum MenuStreamStore {
    /// Calls `body` with each item in name order, its variants in the order they are offered
    /// (position, then id) and its groups' ids in the order `rank` gives (then id).
    ///
    /// The variant and group rows of an item are those whose `pizza_id` has its `id`'s bytes —
    /// the join's own `=` — compared with the item's id text held for the item
    /// (``UUIDText``), and a variant takes the item's parsed id: an item's id is parsed once
    /// however many rows it has. The two arrays are lent to `body` (`inout`) and reused for the
    /// next item, so an item costs no allocation for them unless `body` keeps them.
    static func forEach(
        includeArchived: Bool, in db: Connection, groupRank rank: (ModifierGroup.ID) -> Int,
        _ body: (Pizza, inout [Variant], inout [ModifierGroup.ID]) throws -> Void
    ) throws {
        let keys = includeArchived ? whole : active
        try db.withRows(keys.items, [], PizzaStore.Decoder.self) { items in
            try db.withRows(keys.variants, [], VariantStore.Decoder.self) { variants in
                try db.withRows(keys.groups, [], AttachmentDecoder.self) { attachments in
                    // The rows and decoders held in constants for the loop: read through the
                    // streams (`inout`), each row access retained and released the statement
                    // and each decode the decoder's arrays — about 13 retains an item (callgrind).
                    let itemRow = items.row, variantRow = variants.row, attachmentRow = attachments.row
                    let variantDecoder = variants.decoder, attachmentDecoder = attachments.decoder
                    let itemID = try itemRow.column("id"), variantItem = try variantRow.column("pizza_id")
                    let attachmentItem = attachmentDecoder.pizza
                    var variantAhead = try variants.step(), attachmentAhead = try attachments.step()
                    var itemVariants: [Variant] = [], groupIDs: [ModifierGroup.ID] = []
                    while let pizza = try items.next() {
                        let item = try UUIDText(itemRow, itemID)
                        itemVariants.removeAll(keepingCapacity: true)
                        while variantAhead, try UUIDText(variantRow, variantItem) == item {
                            itemVariants.append(
                                try variantDecoder.decode(variantRow, taking: pizza.id, for: "pizza_id"))
                            variantAhead = try variants.step()
                        }
                        if itemVariants.count > 1 { itemVariants.sort { ($0.position, $0.id) < ($1.position, $1.id) } }
                        groupIDs.removeAll(keepingCapacity: true)
                        while attachmentAhead, try UUIDText(attachmentRow, attachmentItem) == item {
                            groupIDs.append(try attachmentDecoder.decode(attachmentRow))
                            attachmentAhead = try attachments.step()
                        }
                        if groupIDs.count > 1 { groupIDs.sort { (rank($0), $0) < (rank($1), $1) } }
                        try body(pizza, &itemVariants, &groupIDs)
                    }
                }
            }
        }
    }

    /// The three statements for the items on the menu, or for every item.
    struct Keys: Sendable {
        let items, variants, groups: StatementKey

        /// `items` is the menu's own statement (``PizzaStore``); `filter` says the same of `p`.
        init(items sql: String, where filter: String) {
            items = StatementKey(sql)
            variants = StatementKey(
                """
                SELECT v.id AS id, v.pizza_id AS pizza_id, v.name AS name,
                       coalesce(v.price_cents, p.price_cents) AS price_cents,
                       v.position AS position, v.is_default AS is_default
                FROM pizzas p CROSS JOIN pizza_variants v INDEXED BY pizza_variants_in_menu_order
                    ON v.pizza_name_key IS p.name_key AND v.pizza_id = p.id
                """ + " " + filter + " ORDER BY p.name_key")
            groups = StatementKey(
                """
                SELECT a.pizza_id AS pizza_id, a.group_id AS group_id
                FROM pizzas p CROSS JOIN pizza_modifier_groups a INDEXED BY pizza_modifier_groups_in_menu_order
                    ON a.pizza_name_key IS p.name_key AND a.pizza_id = p.id
                """ + " " + filter + " ORDER BY p.name_key")
        }
    }

    static let active = Keys(items: PizzaStore.activeMenuSQL, where: "WHERE p.archived_at IS NULL")
    static let whole = Keys(items: PizzaStore.wholeMenuSQL, where: "")

    /// An attachment of a group to an item: the group's id (the item is matched by its id's text).
    private struct AttachmentDecoder: RowDecoder {
        let pizza, group: Column

        init(columns: ColumnResolver) throws { (pizza, group) = (try columns("pizza_id"), try columns("group_id")) }

        func decode(_ row: Row) throws -> ModifierGroup.ID { ModifierGroup.ID(try row.int64(group)) }
    }
}
