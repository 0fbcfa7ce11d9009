-- 0016: what a menu item is made of — variants (sizes), modifier groups (extras, removals, a
-- choice of dough), the EU's 14 allergens — and order lines that name what was chosen.
--
-- * pizza_variants: every item has one or more variants, each with its price; exactly one is
--   the default. `pizzas.price_cents` is the default variant's price, kept equal by triggers both
--   ways, so everything that priced a pizza before (and `UPDATE pizzas SET price_cents`) still
--   does. A new item (whoever inserts it) gets its default variant, `Normale`, from a trigger;
--   existing files get one `Normale` per item at its price.
-- * modifier_groups / modifiers / pizza_modifier_groups: a group (`Aggiunte`, `Senza`, `Impasto`)
--   has 0 to 30 modifiers and says how many of them a line takes (min_selected..max_selected); a
--   group is attached to items. A modifier's price can differ per variant name (modifier_prices:
--   bufala +2.00, on a Maxi +3.00).
-- * allergens: the 14 of Regulation (EU) 1169/2011, Annex II, as bits; an item's and a modifier's
--   `allergens` is the sum of its bits (see the view menu_items for them as text).
-- * order_lines is rebuilt (create, copy, drop, rename, as in migration 14): its UNIQUE
--   (order_id, pizza_id) goes — a Margherita and a Margherita Maxi with bufala are two lines of one
--   order, the library merges only identical choices — and a line gains the variant it names, its
--   snapshot of the variant's name and price and of the chosen modifiers (JSON, with their
--   prices), and the union of the allergens. A trigger refuses a line whose choice breaks the
--   menu's rules or whose unit price is not the variant's price plus its modifiers'.

CREATE TABLE allergens (
    bit     INTEGER PRIMARY KEY CHECK (bit > 0 AND (bit & (bit - 1)) = 0),
    code    TEXT NOT NULL UNIQUE CHECK (code GLOB '[a-z]*' AND length(code) <= 20),
    name_en TEXT NOT NULL,
    name_it TEXT NOT NULL
) STRICT;

INSERT INTO allergens (bit, code, name_en, name_it) VALUES
    (1, 'gluten', 'Cereals containing gluten', 'Cereali contenenti glutine'),
    (2, 'crustaceans', 'Crustaceans', 'Crostacei'),
    (4, 'eggs', 'Eggs', 'Uova'),
    (8, 'fish', 'Fish', 'Pesce'),
    (16, 'peanuts', 'Peanuts', 'Arachidi'),
    (32, 'soybeans', 'Soybeans', 'Soia'),
    (64, 'milk', 'Milk', 'Latte'),
    (128, 'nuts', 'Nuts', 'Frutta a guscio'),
    (256, 'celery', 'Celery', 'Sedano'),
    (512, 'mustard', 'Mustard', 'Senape'),
    (1024, 'sesame', 'Sesame seeds', 'Semi di sesamo'),
    (2048, 'sulphites', 'Sulphur dioxide and sulphites', 'Anidride solforosa e solfiti'),
    (4096, 'lupin', 'Lupin', 'Lupini'),
    (8192, 'molluscs', 'Molluscs', 'Molluschi');

CREATE TRIGGER allergens_fixed_insert BEFORE INSERT ON allergens
BEGIN
    SELECT RAISE(ABORT, 'allergens_fixed: the 14 allergens are the EU''s (Regulation 1169/2011, Annex II)');
END;

CREATE TRIGGER allergens_fixed_update BEFORE UPDATE ON allergens
BEGIN
    SELECT RAISE(ABORT, 'allergens_fixed: the 14 allergens are the EU''s (Regulation 1169/2011, Annex II)');
END;

CREATE TRIGGER allergens_fixed_delete BEFORE DELETE ON allergens
BEGIN
    SELECT RAISE(ABORT, 'allergens_fixed: the 14 allergens are the EU''s (Regulation 1169/2011, Annex II)');
END;

-- An item's allergens: the sum of the bits of table allergens (0: none declared).
ALTER TABLE pizzas ADD COLUMN allergens INTEGER NOT NULL DEFAULT 0 CHECK (allergens BETWEEN 0 AND 16383);

CREATE TABLE pizza_variants (
    id          INTEGER PRIMARY KEY,
    pizza_id    TEXT NOT NULL REFERENCES pizzas (id),
    -- 1 to 30 characters, trimmed, no control characters; unique in its item ignoring case.
    name        TEXT NOT NULL COLLATE NOCASE
                CHECK (length(name) BETWEEN 1 AND 30 AND trim(name) = name
                       AND name NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                       26,27,28,29,30,31,127) || ']*')),
    -- More than 0, at most 1,000.00 EUR, like an item's price.
    price_cents INTEGER NOT NULL CHECK (price_cents BETWEEN 1 AND 100000),
    -- The order in which the item's variants are offered: smaller first.
    position    INTEGER NOT NULL DEFAULT 1 CHECK (position BETWEEN 1 AND 100),
    -- 1 for the variant a plain order of the item gets; exactly one per item.
    is_default  INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
    UNIQUE (pizza_id, name)
) STRICT;

INSERT INTO pizza_variants (pizza_id, name, price_cents, position, is_default)
SELECT id, 'Normale', price_cents, 1, 1 FROM pizzas;

-- Every item has its default variant, whoever adds the item.
CREATE TRIGGER pizzas_default_variant AFTER INSERT ON pizzas
BEGIN
    INSERT INTO pizza_variants (pizza_id, name, price_cents, position, is_default)
    VALUES (NEW.id, 'Normale', NEW.price_cents, 1, 1);
END;

-- The item's price is its default variant's, both ways.
CREATE TRIGGER pizzas_price_to_variant AFTER UPDATE OF price_cents ON pizzas
WHEN NEW.price_cents IS NOT OLD.price_cents
BEGIN
    UPDATE pizza_variants SET price_cents = NEW.price_cents
    WHERE pizza_id = NEW.id AND is_default = 1 AND price_cents IS NOT NEW.price_cents;
END;

CREATE TRIGGER pizza_variants_price_to_item AFTER UPDATE OF price_cents, is_default ON pizza_variants
WHEN NEW.is_default = 1
BEGIN
    UPDATE pizzas SET price_cents = NEW.price_cents WHERE id = NEW.pizza_id AND price_cents IS NOT NEW.price_cents;
END;

-- Exactly one default: making a variant the default takes it from the one that was (no unique
-- index can say this, as SQLite checks one while a multi-row UPDATE is half done); the default
-- cannot be removed or unset without another taking its place.
CREATE TRIGGER pizza_variants_one_default_insert AFTER INSERT ON pizza_variants
WHEN NEW.is_default = 1
BEGIN
    UPDATE pizza_variants SET is_default = 0 WHERE pizza_id = NEW.pizza_id AND id <> NEW.id AND is_default = 1;
    UPDATE pizzas SET price_cents = NEW.price_cents WHERE id = NEW.pizza_id AND price_cents IS NOT NEW.price_cents;
END;

CREATE TRIGGER pizza_variants_one_default_update AFTER UPDATE OF is_default ON pizza_variants
WHEN NEW.is_default = 1 AND OLD.is_default = 0
BEGIN
    UPDATE pizza_variants SET is_default = 0 WHERE pizza_id = NEW.pizza_id AND id <> NEW.id AND is_default = 1;
END;

CREATE TRIGGER pizza_variants_default_kept_delete BEFORE DELETE ON pizza_variants
WHEN OLD.is_default = 1
BEGIN
    SELECT RAISE(ABORT, 'variant_default: the default variant cannot be removed; make another variant the default first');
END;

CREATE TRIGGER pizza_variants_default_kept_update AFTER UPDATE OF is_default ON pizza_variants
WHEN OLD.is_default = 1 AND NEW.is_default = 0
  AND NOT EXISTS (SELECT 1 FROM pizza_variants WHERE pizza_id = NEW.pizza_id AND is_default = 1)
BEGIN
    SELECT RAISE(ABORT, 'variant_default: an item keeps one default variant; make another the default (UPDATE pizza_variants SET is_default = 1 WHERE id = ...)');
END;

CREATE TRIGGER pizza_variants_item_fixed BEFORE UPDATE OF pizza_id ON pizza_variants
WHEN NEW.pizza_id IS NOT OLD.pizza_id
BEGIN
    SELECT RAISE(ABORT, 'a variant belongs to its item for good; add one to the other item instead');
END;

CREATE TABLE modifier_groups (
    id           INTEGER PRIMARY KEY,
    -- 1 to 40 characters, trimmed, no control characters; unique ignoring case.
    name         TEXT NOT NULL UNIQUE COLLATE NOCASE
                 CHECK (length(name) BETWEEN 1 AND 40 AND trim(name) = name
                        AND name NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                        26,27,28,29,30,31,127) || ']*')),
    -- How many of its modifiers one line takes: 0..3 extras, exactly 1 dough (1..1).
    min_selected INTEGER NOT NULL DEFAULT 0 CHECK (min_selected BETWEEN 0 AND 30),
    max_selected INTEGER NOT NULL DEFAULT 1 CHECK (max_selected BETWEEN 1 AND 30),
    -- The order in which an item's groups are offered.
    position     INTEGER NOT NULL DEFAULT 1 CHECK (position BETWEEN 1 AND 100),
    CHECK (min_selected <= max_selected)
) STRICT;

CREATE TABLE modifiers (
    id          INTEGER PRIMARY KEY,
    group_id    INTEGER NOT NULL REFERENCES modifier_groups (id),
    -- 1 to 40 characters, trimmed, no control characters; unique in its group ignoring case.
    name        TEXT NOT NULL COLLATE NOCASE
                CHECK (length(name) BETWEEN 1 AND 40 AND trim(name) = name
                       AND name NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                       26,27,28,29,30,31,127) || ']*')),
    -- What it adds to the line's unit price: 0 (senza basilico) to 100.00 EUR.
    price_cents INTEGER NOT NULL DEFAULT 0 CHECK (price_cents BETWEEN 0 AND 10000),
    -- The allergens it brings (bits of table allergens).
    allergens   INTEGER NOT NULL DEFAULT 0 CHECK (allergens BETWEEN 0 AND 16383),
    position    INTEGER NOT NULL DEFAULT 1 CHECK (position BETWEEN 1 AND 100),
    -- NULL while offered; when it was taken off otherwise (modifiers are never deleted once booked).
    archived_at TEXT CHECK (archived_at IS NULL OR archived_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z'),
    UNIQUE (group_id, name)
) STRICT;

CREATE TRIGGER modifier_groups_at_most_30 BEFORE INSERT ON modifiers
WHEN (SELECT count(*) FROM modifiers WHERE group_id = NEW.group_id) >= 30
BEGIN
    SELECT RAISE(ABORT, 'modifier_group_full: a group has at most 30 modifiers');
END;

CREATE TRIGGER modifiers_group_fixed BEFORE UPDATE OF group_id ON modifiers
WHEN NEW.group_id IS NOT OLD.group_id
BEGIN
    SELECT RAISE(ABORT, 'a modifier belongs to its group for good; add one to the other group instead');
END;

-- A modifier's price on variants of one name, where it differs (bufala on a Maxi: 3.00).
CREATE TABLE modifier_prices (
    modifier_id  INTEGER NOT NULL REFERENCES modifiers (id),
    variant_name TEXT NOT NULL COLLATE NOCASE CHECK (length(variant_name) BETWEEN 1 AND 30),
    price_cents  INTEGER NOT NULL CHECK (price_cents BETWEEN 0 AND 10000),
    PRIMARY KEY (modifier_id, variant_name)
) STRICT, WITHOUT ROWID;

CREATE TABLE pizza_modifier_groups (
    pizza_id TEXT NOT NULL REFERENCES pizzas (id),
    group_id INTEGER NOT NULL REFERENCES modifier_groups (id),
    PRIMARY KEY (pizza_id, group_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX pizza_modifier_groups_by_group ON pizza_modifier_groups (group_id);

CREATE TRIGGER modifier_groups_kept_while_used BEFORE DELETE ON modifier_groups
WHEN EXISTS (SELECT 1 FROM modifiers WHERE group_id = OLD.id)
BEGIN
    SELECT RAISE(ABORT, 'modifier_group_in_use: the group still has modifiers; archive them instead');
END;

CREATE TRIGGER modifiers_never_deleted BEFORE DELETE ON modifiers
BEGIN
    SELECT RAISE(ABORT, 'modifiers are never deleted: archive instead (UPDATE modifiers SET archived_at = ...)');
END;

-- The line a booking writes. Lines booked before keep their price as base_price_cents, name the
-- item's default variant, and have no modifiers and no allergens declared.
PRAGMA legacy_alter_table = ON;

CREATE TABLE order_lines_rebuilt (
    order_id         TEXT NOT NULL REFERENCES orders (id),
    line_no          INTEGER NOT NULL CHECK (line_no >= 1),
    pizza_id         TEXT NOT NULL REFERENCES pizzas (id),
    pizza_name       TEXT NOT NULL CHECK (length(pizza_name) >= 1),
    -- What one of the line costs: the variant's price plus its modifiers' (a trigger checks it).
    unit_price_cents INTEGER NOT NULL CHECK (unit_price_cents BETWEEN 1 AND 100000),
    quantity         INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 20),
    uses_oven        INTEGER NOT NULL DEFAULT 1 CHECK (uses_oven IN (0, 1)),
    -- The variant chosen, its name when booked (NULL when the item had only that one: "2 ×
    -- Margherita" as before) and its price when booked.
    variant_id       INTEGER NOT NULL REFERENCES pizza_variants (id),
    variant_name     TEXT CHECK (variant_name IS NULL OR length(variant_name) BETWEEN 1 AND 30),
    base_price_cents INTEGER NOT NULL CHECK (base_price_cents BETWEEN 1 AND 100000),
    -- The modifiers chosen, as booked: a JSON array of {"id", "group", "name", "price_cents"} in
    -- the menu's order, or NULL for none.
    modifiers        TEXT CHECK (modifiers IS NULL OR (json_valid(modifiers) AND json_type(modifiers) = 'array'
                                                       AND json_array_length(modifiers) BETWEEN 1 AND 30)),
    -- The union of the item's and the modifiers' allergens when booked (bits of table allergens).
    allergens        INTEGER NOT NULL DEFAULT 0 CHECK (allergens BETWEEN 0 AND 16383),
    PRIMARY KEY (order_id, line_no)
) STRICT, WITHOUT ROWID;

INSERT INTO order_lines_rebuilt (order_id, line_no, pizza_id, pizza_name, unit_price_cents, quantity, uses_oven,
                                 variant_id, variant_name, base_price_cents, modifiers, allergens)
SELECT l.order_id, l.line_no, l.pizza_id, l.pizza_name, l.unit_price_cents, l.quantity, l.uses_oven,
       (SELECT v.id FROM pizza_variants v WHERE v.pizza_id = l.pizza_id AND v.is_default = 1), NULL,
       l.unit_price_cents, NULL, 0
FROM order_lines l;

DROP TABLE order_lines;

ALTER TABLE order_lines_rebuilt RENAME TO order_lines;

PRAGMA legacy_alter_table = OFF;

-- The triggers of order_lines (migrations 7, 9 and 15), as they were.
CREATE TRIGGER order_lines_locked_delete BEFORE DELETE ON order_lines
WHEN (SELECT status FROM orders WHERE id = OLD.order_id) IS NOT 'placed'
BEGIN
    SELECT RAISE(ABORT, 'order_locked: lines are removed only while the order is placed');
END;

CREATE TRIGGER order_lines_locked_insert BEFORE INSERT ON order_lines
WHEN (SELECT status FROM orders WHERE id = NEW.order_id) IS NOT 'placed'
BEGIN
    SELECT RAISE(ABORT, 'order_locked: lines are added only while the order is placed');
END;

CREATE TRIGGER order_lines_locked_update BEFORE UPDATE ON order_lines
WHEN (SELECT status FROM orders WHERE id = OLD.order_id) IS NOT 'placed'
  OR NEW.order_id IS NOT OLD.order_id OR NEW.line_no IS NOT OLD.line_no OR NEW.pizza_id IS NOT OLD.pizza_id
  OR NEW.pizza_name IS NOT OLD.pizza_name OR NEW.unit_price_cents IS NOT OLD.unit_price_cents
  OR NEW.variant_id IS NOT OLD.variant_id OR NEW.variant_name IS NOT OLD.variant_name
  OR NEW.base_price_cents IS NOT OLD.base_price_cents OR NEW.modifiers IS NOT OLD.modifiers
  OR NEW.allergens IS NOT OLD.allergens
BEGIN
    SELECT RAISE(ABORT, 'order_locked: a line changes only its quantity, and only while the order is placed');
END;

CREATE TRIGGER order_lines_oven_snapshot BEFORE INSERT ON order_lines
WHEN NEW.uses_oven IS NOT (SELECT k.uses_oven FROM pizzas p JOIN categories k ON k.id = p.category_id WHERE p.id = NEW.pizza_id)
BEGIN
    SELECT RAISE(ABORT, 'order_lines_oven: order_lines.uses_oven is its item''s category''s uses_oven when booked (0 for drinks and desserts)');
END;

-- A new line's choice keeps the menu's rules, and its snapshot is the menu's as it is now.
CREATE TRIGGER order_lines_choice BEFORE INSERT ON order_lines
BEGIN
    SELECT RAISE(ABORT, 'line_variant: order_lines.variant_id must name a variant of the line''s item (see pizza_variants)')
    WHERE NOT EXISTS (SELECT 1 FROM pizza_variants v WHERE v.id = NEW.variant_id AND v.pizza_id = NEW.pizza_id);
    SELECT RAISE(ABORT, 'line_snapshot: base_price_cents and variant_name are the variant''s price and name when booked (the name NULL when the item has one variant)')
    FROM pizza_variants v
    WHERE v.id = NEW.variant_id
      AND (NEW.base_price_cents IS NOT v.price_cents
           OR NEW.variant_name IS NOT (CASE WHEN EXISTS (SELECT 1 FROM pizza_variants o WHERE o.pizza_id = NEW.pizza_id AND o.id <> v.id)
                                            THEN v.name END));
    SELECT RAISE(ABORT, 'line_modifier: each modifier must be offered (not archived) in a group of the line''s item, once, with its group, name and price as they are now')
    WHERE NEW.modifiers IS NOT NULL AND (
        EXISTS (SELECT 1 FROM json_each(NEW.modifiers) e
                LEFT JOIN modifiers m ON m.id = json_extract(e.value, '$.id')
                LEFT JOIN modifier_groups g ON g.id = m.group_id
                WHERE m.id IS NULL OR m.archived_at IS NOT NULL
                   OR NOT EXISTS (SELECT 1 FROM pizza_modifier_groups a WHERE a.pizza_id = NEW.pizza_id AND a.group_id = m.group_id)
                   OR json_extract(e.value, '$.name') IS NOT m.name
                   OR json_extract(e.value, '$.group') IS NOT g.name
                   OR json_extract(e.value, '$.price_cents') IS NOT
                      coalesce((SELECT p.price_cents FROM modifier_prices p WHERE p.modifier_id = m.id
                                  AND p.variant_name = (SELECT name FROM pizza_variants WHERE id = NEW.variant_id)),
                               m.price_cents))
        OR (SELECT count(DISTINCT json_extract(value, '$.id')) FROM json_each(NEW.modifiers)) <> json_array_length(NEW.modifiers));
    SELECT RAISE(ABORT, 'line_modifier_count: a line takes between min_selected and max_selected modifiers of each group of its item')
    WHERE EXISTS (SELECT 1 FROM pizza_modifier_groups a JOIN modifier_groups g ON g.id = a.group_id
                  WHERE a.pizza_id = NEW.pizza_id
                    AND (SELECT count(*) FROM json_each(coalesce(NEW.modifiers, '[]')) e
                         JOIN modifiers m ON m.id = json_extract(e.value, '$.id') WHERE m.group_id = g.id)
                        NOT BETWEEN g.min_selected AND g.max_selected);
    SELECT RAISE(ABORT, 'line_price: unit_price_cents is base_price_cents plus the modifiers'' price_cents')
    WHERE NEW.unit_price_cents IS NOT NEW.base_price_cents
                                      + coalesce((SELECT sum(json_extract(value, '$.price_cents')) FROM json_each(NEW.modifiers)), 0);
    SELECT RAISE(ABORT, 'line_allergens: allergens is the union of the item''s and its modifiers'' allergens when booked')
    WHERE NEW.allergens IS NOT (SELECT coalesce(sum(b.bit), 0) FROM allergens b
                                WHERE (SELECT allergens FROM pizzas WHERE id = NEW.pizza_id) & b.bit
                                   OR EXISTS (SELECT 1 FROM json_each(coalesce(NEW.modifiers, '[]')) e
                                              JOIN modifiers m ON m.id = json_extract(e.value, '$.id')
                                              WHERE m.allergens & b.bit));
END;

CREATE TRIGGER order_lines_total_delete AFTER DELETE ON order_lines
BEGIN
    UPDATE orders SET total_cents = (SELECT coalesce(sum(quantity * unit_price_cents), 0) FROM order_lines WHERE order_id = OLD.order_id)
    WHERE id = OLD.order_id;
END;

CREATE TRIGGER order_lines_total_insert AFTER INSERT ON order_lines
BEGIN
    UPDATE orders SET total_cents = (SELECT coalesce(sum(quantity * unit_price_cents), 0) FROM order_lines WHERE order_id = NEW.order_id)
    WHERE id = NEW.order_id;
END;

CREATE TRIGGER order_lines_total_update AFTER UPDATE OF quantity ON order_lines
BEGIN
    UPDATE orders SET total_cents = (SELECT coalesce(sum(quantity * unit_price_cents), 0) FROM order_lines WHERE order_id = NEW.order_id)
    WHERE id = NEW.order_id;
END;

CREATE TRIGGER slot_loads_line_delete AFTER DELETE ON order_lines
BEGIN
    UPDATE slot_loads
    SET booked = (SELECT coalesce(sum(l.quantity * l.uses_oven), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = slot_loads.pickup_at AND o.status <> 'cancelled')
    WHERE pickup_at = (SELECT pickup_at FROM orders WHERE id = OLD.order_id);
END;

CREATE TRIGGER slot_loads_line_insert AFTER INSERT ON order_lines
BEGIN
    UPDATE slot_loads
    SET booked = (SELECT coalesce(sum(l.quantity * l.uses_oven), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = slot_loads.pickup_at AND o.status <> 'cancelled')
    WHERE pickup_at = (SELECT pickup_at FROM orders WHERE id = NEW.order_id);
END;

CREATE TRIGGER slot_loads_line_update AFTER UPDATE OF quantity, uses_oven ON order_lines
BEGIN
    UPDATE slot_loads
    SET booked = (SELECT coalesce(sum(l.quantity * l.uses_oven), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = slot_loads.pickup_at AND o.status <> 'cancelled')
    WHERE pickup_at = (SELECT pickup_at FROM orders WHERE id = NEW.order_id);
END;

-- The audit trail of the menu's new parts (who changed a variant, a group, a modifier).
-- An item's first variant comes with the item (its `add` entry says the price), and the default
-- variant's price is the item's (its `price` entry says it): neither is recorded twice.
CREATE TRIGGER audit_pizza_variants_insert AFTER INSERT ON pizza_variants
WHEN EXISTS (SELECT 1 FROM pizza_variants WHERE pizza_id = NEW.pizza_id AND id <> NEW.id)
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || NEW.pizza_id, 'variant_add',
           json_object('variant_id', NEW.id, 'name', NEW.name, 'price_cents', NEW.price_cents, 'is_default', NEW.is_default)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_pizza_variants_update AFTER UPDATE ON pizza_variants
WHEN OLD.name IS NOT NEW.name OR (OLD.price_cents IS NOT NEW.price_cents AND NEW.is_default = 0)
  OR OLD.position IS NOT NEW.position OR OLD.is_default IS NOT NEW.is_default
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || NEW.pizza_id, 'variant_edit',
           json_object('variant_id', OLD.id, 'name', OLD.name, 'price_cents', OLD.price_cents, 'position', OLD.position, 'is_default', OLD.is_default),
           json_object('variant_id', NEW.id, 'name', NEW.name, 'price_cents', NEW.price_cents, 'position', NEW.position, 'is_default', NEW.is_default)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_pizza_variants_delete AFTER DELETE ON pizza_variants
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || OLD.pizza_id, 'variant_remove',
           json_object('variant_id', OLD.id, 'name', OLD.name, 'price_cents', OLD.price_cents)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_pizzas_allergens AFTER UPDATE OF allergens ON pizzas
WHEN OLD.allergens IS NOT NEW.allergens
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || NEW.id, 'allergens',
           json_object('allergens', OLD.allergens), json_object('allergens', NEW.allergens)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_modifier_groups_insert AFTER INSERT ON modifier_groups
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'modifier_group:' || NEW.id, 'add',
           json_object('name', NEW.name, 'min_selected', NEW.min_selected, 'max_selected', NEW.max_selected)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_modifier_groups_update AFTER UPDATE ON modifier_groups
WHEN OLD.name IS NOT NEW.name OR OLD.min_selected IS NOT NEW.min_selected OR OLD.max_selected IS NOT NEW.max_selected
  OR OLD.position IS NOT NEW.position
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'modifier_group:' || NEW.id, 'edit',
           json_object('name', OLD.name, 'min_selected', OLD.min_selected, 'max_selected', OLD.max_selected, 'position', OLD.position),
           json_object('name', NEW.name, 'min_selected', NEW.min_selected, 'max_selected', NEW.max_selected, 'position', NEW.position)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_modifiers_insert AFTER INSERT ON modifiers
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'modifier:' || NEW.id, 'add',
           json_object('group_id', NEW.group_id, 'name', NEW.name, 'price_cents', NEW.price_cents, 'allergens', NEW.allergens)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_modifiers_update AFTER UPDATE ON modifiers
WHEN OLD.name IS NOT NEW.name OR OLD.price_cents IS NOT NEW.price_cents OR OLD.allergens IS NOT NEW.allergens
  OR OLD.position IS NOT NEW.position OR OLD.archived_at IS NOT NEW.archived_at
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'modifier:' || NEW.id,
           CASE WHEN OLD.archived_at IS NULL AND NEW.archived_at IS NOT NULL THEN 'archive'
                WHEN OLD.archived_at IS NOT NULL AND NEW.archived_at IS NULL THEN 'restore'
                ELSE 'edit' END,
           json_object('name', OLD.name, 'price_cents', OLD.price_cents, 'allergens', OLD.allergens, 'archived_at', OLD.archived_at),
           json_object('name', NEW.name, 'price_cents', NEW.price_cents, 'allergens', NEW.allergens, 'archived_at', NEW.archived_at)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_pizza_modifier_groups_insert AFTER INSERT ON pizza_modifier_groups
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || NEW.pizza_id, 'group_attach',
           json_object('group_id', NEW.group_id)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_pizza_modifier_groups_delete AFTER DELETE ON pizza_modifier_groups
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || OLD.pizza_id, 'group_detach',
           json_object('group_id', OLD.group_id)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_modifier_prices_change AFTER INSERT ON modifier_prices
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'modifier:' || NEW.modifier_id, 'variant_price',
           json_object('variant_name', NEW.variant_name, 'price_cents', NEW.price_cents)
    FROM audit_context c WHERE c.id = 1;
END;

-- For people: allergens as text, the menu with variants, lines with what was chosen.
CREATE VIEW menu_items AS
SELECT k.position AS category_position, k.name AS category, p.name AS item, v.name AS variant, v.is_default,
       printf('%d.%02d', v.price_cents / 100, v.price_cents % 100) AS price_eur,
       (SELECT group_concat(code, ', ') FROM (SELECT code FROM allergens WHERE p.allergens & bit ORDER BY bit)) AS allergens,
       (SELECT group_concat(name, ', ') FROM (SELECT g.name FROM pizza_modifier_groups a JOIN modifier_groups g ON g.id = a.group_id
                                              WHERE a.pizza_id = p.id ORDER BY g.position, g.name)) AS modifier_groups
FROM pizzas p JOIN categories k ON k.id = p.category_id JOIN pizza_variants v ON v.pizza_id = p.id
WHERE p.archived_at IS NULL
ORDER BY k.position, k.name, p.name_key, v.position, v.name;

CREATE VIEW order_line_details AS
SELECT l.order_id, l.line_no, o.service_day, o.status, l.pizza_name AS item, l.variant_name AS variant,
       (SELECT group_concat(json_extract(e.value, '$.name'), ', ') FROM json_each(l.modifiers) e) AS modifiers,
       l.quantity,
       printf('%d.%02d', l.base_price_cents / 100, l.base_price_cents % 100) AS variant_price_eur,
       printf('%d.%02d', l.unit_price_cents / 100, l.unit_price_cents % 100) AS unit_price_eur,
       printf('%d.%02d', l.quantity * l.unit_price_cents / 100, l.quantity * l.unit_price_cents % 100) AS line_total_eur,
       l.quantity * l.unit_price_cents AS line_total_cents,
       (SELECT group_concat(code, ', ') FROM (SELECT code FROM allergens WHERE l.allergens & bit ORDER BY bit)) AS allergens
FROM order_lines l JOIN orders o ON o.id = l.order_id;

DROP VIEW order_summary;

CREATE VIEW order_summary AS
SELECT o.id AS order_id,
       u.handle,
       o.service_day,
       o.pickup_local,
       o.pickup_at,
       o.status,
       (SELECT group_concat(item, ', ')
        FROM (SELECT l.quantity || ' × ' || l.pizza_name || coalesce(' ' || l.variant_name, '')
                     || coalesce((SELECT group_concat(' + ' || json_extract(e.value, '$.name'), '') FROM json_each(l.modifiers) e), '') AS item
              FROM order_lines l WHERE l.order_id = o.id ORDER BY l.line_no)) AS items,
       printf('%d.%02d', o.total_cents / 100, o.total_cents % 100) AS total_eur,
       o.note
FROM orders o JOIN users u ON u.id = o.user_id
ORDER BY o.pickup_at, o.created_at;
