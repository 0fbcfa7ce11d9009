import Foundation
import PizzeriaStorage

/// The SQL of items' variants, modifier groups and modifiers. Functions take the connection of an
/// open transaction.
enum VariantStore {
    /// The columns ``Decoder`` reads, from `pizza_variants`. The default variant stores no price
    /// (NULL, migration 36): it costs its item's.
    static let columns = """
        id, pizza_id, name, position, is_default,
        coalesce(price_cents, (SELECT p.price_cents FROM pizzas p WHERE p.id = pizza_variants.pizza_id)) AS price_cents
        """

    /// A variant from a row of ``columns``.
    typealias Decoder = StoredDecoder<Variant>

    /// An item's variants in the order they are offered.
    static func variants(of pizza: Pizza.ID, in db: Connection) throws -> [Variant] {
        try db.fetchAll(
            "SELECT " + columns + " FROM pizza_variants WHERE pizza_id = ? ORDER BY position, id", [pizza],
            Decoder.self)
    }

    /// The item's default variant (`nil` for an unknown item).
    static func defaultVariant(of pizza: Pizza.ID, in db: Connection) throws -> Variant.ID? {
        try db.fetchOne("SELECT id FROM pizza_variants WHERE pizza_id = ? AND is_default = 1", [pizza]) {
            Variant.ID(try $0.int64("id"))
        }
    }

    static func insert(
        pizza: Pizza.ID, name: String, price: Money, position: Int, isDefault: Bool, in db: Connection
    ) throws -> Variant {
        // Read back after the triggers: a new default's price has moved to its item.
        let id = try db.fetchOne(
            """
            INSERT INTO pizza_variants (pizza_id, name, price_cents, position, is_default, pizza_name_key)
            VALUES (?1, ?2, ?3, ?4, ?5, (SELECT name_key FROM pizzas WHERE id = ?1)) RETURNING id
            """, [pizza, name, price.cents, position, isDefault]
        ) { Variant.ID(try $0.int64("id")) }
        guard let id,
            let inserted = try db.fetchOne(
                "SELECT " + columns + " FROM pizza_variants WHERE id = ?", [id], Decoder.self)
        else {
            throw DataError.damagedRow(table: "pizza_variants", id: name, problem: "not inserted")
        }
        return inserted
    }

    /// Changes a variant; making it the default takes that from the one that was, and a price
    /// written to the default becomes the item's (one trigger, `pizza_variants_default_price`).
    static func update(_ variant: Variant, in db: Connection) throws {
        try db.run(
            "UPDATE pizza_variants SET name = ?, price_cents = ?, position = ?, is_default = ? WHERE id = ?",
            [variant.name, variant.price.cents, variant.position, variant.isDefault, variant.id])
    }

    static func delete(_ id: Variant.ID, in db: Connection) throws {
        try db.run("DELETE FROM pizza_variants WHERE id = ?", [id])
    }

    /// Whether any order line names the variant (then it is kept: lines reference it).
    static func isBooked(_ id: Variant.ID, in db: Connection) throws -> Bool {
        try db.fetchOne("SELECT EXISTS (SELECT 1 FROM order_lines WHERE variant_id = ?) AS booked", [id]) {
            try $0.int("booked") == 1
        } ?? false
    }
}

enum ModifierStore {
    /// The columns ``GroupDecoder`` reads.
    static let groupColumns = "id, name, min_selected, max_selected, position, kind, default_modifier_id"
    typealias GroupDecoder = StoredDecoder<ModifierGroup>

    /// The columns ``Decoder`` reads: a modifier's own and its prices per variant as JSON.
    static let columns = """
        m.id, m.group_id, m.name, m.price_cents, m.allergens, m.position, m.archived_at, m.stock_left, m.stock_until,
        (SELECT json_group_array(json_object('variant', p.variant_name, 'price_cents', p.price_cents))
         FROM modifier_prices p WHERE p.modifier_id = m.id) AS variant_prices
        """
    typealias Decoder = StoredDecoder<Modifier>

    /// Every group with its modifiers, in menu order.
    static func groups(in db: Connection) throws -> [ModifierGroup] {
        try assemble(
            try db.fetchAll(
                "SELECT " + groupColumns + " FROM modifier_groups ORDER BY position, name, id", [], GroupDecoder.self),
            in: db)
    }

    /// The groups attached to an item, with their modifiers, in menu order.
    static func groups(of pizza: Pizza.ID, in db: Connection) throws -> [ModifierGroup] {
        try assemble(try attachedGroups(of: pizza, in: db), in: db)
    }

    /// The groups attached to an item with their bounds, in menu order, without their modifiers:
    /// what a booked line keeps.
    static func attachedGroups(of pizza: Pizza.ID, in db: Connection) throws -> [ModifierGroup] {
        try db.fetchAll(attachedGroupsSQL, [pizza], GroupDecoder.self)
    }

    /// ``attachedGroups(of:in:)``'s statement, built once (every booked line of an item with
    /// groups runs it: building it per call — split, trim, join — cost more than the query).
    private static let attachedGroupsSQL =
        "SELECT "
        + groupColumns.split(separator: ",").map { "g." + $0.trimmingCharacters(in: .whitespaces) }
        .joined(separator: ", ")
            + """
             FROM pizza_modifier_groups a JOIN modifier_groups g ON g.id = a.group_id
            WHERE a.pizza_id = ? ORDER BY g.position, g.name, g.id
            """

    /// What a booking needs of a modifier it names: its group, its name, its price on the line's
    /// variant, its allergens, whether it is offered, its limit.
    struct Choice {
        let id: Modifier.ID
        let groupID: ModifierGroup.ID
        let group: String
        let name: String
        let price: Money
        let allergens: Set<Allergen>
        let isArchived: Bool
        let stockLeft: Int?
        let stockUntil: Date?
        /// Its place in its group (the order a line lists its modifiers in).
        let position: Int
        /// Its group's kind.
        let kind: ModifierGroup.Kind
        /// Whether it is its choice group's default.
        let isDefault: Bool

        /// What a line books of it.
        var chosen: ChosenModifier {
            ChosenModifier(id: id, group: group, name: name, price: price, kind: kind, isDefault: isDefault)
        }
    }

    /// The modifier `id` as a line on variant `variant` books it (one row), or `nil` if there is none.
    static func choice(id: Modifier.ID, onVariant variant: String, in db: Connection) throws -> Choice? {
        try db.fetchOne(
            """
            SELECT m.group_id, g.name AS group_name, m.name, coalesce(p.price_cents, m.price_cents) AS price_cents,
                   m.allergens, m.archived_at IS NOT NULL AS archived, m.stock_left, m.stock_until, m.position,
                   g.kind, g.default_modifier_id IS m.id AS is_default
            FROM modifiers m JOIN modifier_groups g ON g.id = m.group_id
                 LEFT JOIN modifier_prices p ON p.modifier_id = m.id AND p.variant_name = ?
            WHERE m.id = ?
            """, [variant, id]
        ) { row in
            Choice(
                id: id, groupID: ModifierGroup.ID(try row.int64("group_id")), group: try row.string("group_name"),
                name: try row.string("name"), price: Money(cents: try row.int64("price_cents")),
                allergens: Allergen.set(bits: try row.int64("allergens")), isArchived: try row.int("archived") == 1,
                stockLeft: try row.optionalInt64("stock_left").map { Int($0) },
                stockUntil: try row.optionalString("stock_until").flatMap(Timestamp.date(from:)),
                position: try row.int("position"),
                kind: ModifierGroup.Kind(rawValue: try row.string("kind")) ?? .extra,
                isDefault: try row.int("is_default") == 1)
        }
    }

    private static func assemble(_ groups: [ModifierGroup], in db: Connection) throws -> [ModifierGroup] {
        guard !groups.isEmpty else { return [] }
        var byGroup: [ModifierGroup.ID: [Modifier]] = [:]
        let marks = Array(repeating: "?", count: groups.count).joined(separator: ", ")
        try db.forEach(
            "SELECT " + columns + " FROM modifiers m WHERE m.group_id IN (" + marks
                + ") ORDER BY m.position, m.name, m.id",
            groups.map(\.id), Decoder.self
        ) { byGroup[$0.groupID, default: []].append($0) }
        return groups.map { group in
            var group = group
            group.modifiers = byGroup[group.id] ?? []
            return group
        }
    }

    static func group(id: ModifierGroup.ID, in db: Connection) throws -> ModifierGroup? {
        let found = try db.fetchOne(
            "SELECT " + groupColumns + " FROM modifier_groups WHERE id = ?", [id], GroupDecoder.self)
        return try found.flatMap { try assemble([$0], in: db).first }
    }

    /// The group called `name`, ignoring ASCII case (the column's collation).
    static func group(named name: String, in db: Connection) throws -> ModifierGroup? {
        let found = try db.fetchOne(
            "SELECT " + groupColumns + " FROM modifier_groups WHERE name = ?", [name], GroupDecoder.self)
        return try found.flatMap { try assemble([$0], in: db).first }
    }

    static func insertGroup(
        name: String, min: Int, max: Int, position: Int, kind: ModifierGroup.Kind, in db: Connection
    ) throws -> ModifierGroup {
        let inserted = try db.fetchOne(
            "INSERT INTO modifier_groups (name, min_selected, max_selected, position, kind) VALUES (?, ?, ?, ?, ?) RETURNING "
                + groupColumns, [name, min, max, position, kind.rawValue], GroupDecoder.self)
        guard let inserted else {
            throw DataError.damagedRow(table: "modifier_groups", id: name, problem: "not inserted")
        }
        return inserted
    }

    static func updateGroup(_ group: ModifierGroup, in db: Connection) throws {
        try db.run(
            """
            UPDATE modifier_groups SET name = ?, min_selected = ?, max_selected = ?, position = ?, kind = ?,
                   default_modifier_id = ?
            WHERE id = ?
            """,
            [
                group.name, group.minSelected, group.maxSelected, group.position, group.kind.rawValue,
                group.defaultModifier, group.id,
            ])
    }

    static func insert(
        group: ModifierGroup.ID, name: String, price: Money, allergens: Set<Allergen>, position: Int,
        in db: Connection
    ) throws -> Modifier.ID {
        let id = try db.fetchOne(
            "INSERT INTO modifiers (group_id, name, price_cents, allergens, position) VALUES (?, ?, ?, ?, ?) RETURNING id",
            [group, name, price.cents, Allergen.bits(allergens), position]
        ) { try $0.int64("id") }
        guard let id else { throw DataError.damagedRow(table: "modifiers", id: name, problem: "not inserted") }
        return Modifier.ID(id)
    }

    static func update(_ modifier: Modifier, in db: Connection) throws {
        try db.run(
            "UPDATE modifiers SET name = ?, price_cents = ?, allergens = ?, position = ?, archived_at = ? WHERE id = ?",
            [
                modifier.name, modifier.price.cents, Allergen.bits(modifier.allergens), modifier.position,
                modifier.archivedAt.map(Timestamp.string(from:)), modifier.id,
            ])
    }

    /// Sets (or with `nil` removes) the modifier's price on variants called `variant`.
    static func setPrice(_ price: Money?, of modifier: Modifier.ID, onVariant variant: String, in db: Connection) throws
    {
        if let price {
            try db.run(
                """
                INSERT INTO modifier_prices (modifier_id, variant_name, price_cents) VALUES (?, ?, ?)
                ON CONFLICT (modifier_id, variant_name) DO UPDATE SET price_cents = excluded.price_cents
                """, [modifier, variant, price.cents])
        } else {
            try db.run("DELETE FROM modifier_prices WHERE modifier_id = ? AND variant_name = ?", [modifier, variant])
        }
    }

    /// Sets (or with `left: nil` lifts) a modifier's limit, counting the change (for the audit trail).
    static func setStock(id: Modifier.ID, left: Int?, until: Date?, in db: Connection) throws {
        try db.run(
            "UPDATE modifiers SET stock_left = ?, stock_until = ?, stock_changes = stock_changes + 1 WHERE id = ?",
            [left, until.map(Timestamp.string(from:)), id])
    }

    static func modifier(id: Modifier.ID, in db: Connection) throws -> Modifier? {
        try db.fetchOne("SELECT " + columns + " FROM modifiers m WHERE m.id = ?", [id], Decoder.self)
    }

    static func attach(_ group: ModifierGroup.ID, to pizza: Pizza.ID, in db: Connection) throws -> Bool {
        // A plain insert where the group is not attached yet: the schema refuses any insert of a
        // row that exists (`row_never_replaced`, so that REPLACE cannot delete one behind its
        // triggers' back), ON CONFLICT DO NOTHING included.
        try db.run(
            """
            INSERT INTO pizza_modifier_groups (pizza_id, group_id, pizza_name_key)
            SELECT ?1, ?2, (SELECT name_key FROM pizzas WHERE id = ?1)
            WHERE NOT EXISTS (SELECT 1 FROM pizza_modifier_groups WHERE pizza_id = ?1 AND group_id = ?2)
            """,
            [pizza, group])
            == 1
    }

    static func detach(_ group: ModifierGroup.ID, from pizza: Pizza.ID, in db: Connection) throws -> Bool {
        try db.run("DELETE FROM pizza_modifier_groups WHERE pizza_id = ? AND group_id = ?", [pizza, group]) == 1
    }

    static func setAllergens(_ allergens: Set<Allergen>, of pizza: Pizza.ID, in db: Connection) throws {
        try db.run("UPDATE pizzas SET allergens = ? WHERE id = ?", [Allergen.bits(allergens), pizza])
    }
}
