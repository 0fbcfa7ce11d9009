-- 0036: an item's default variant stores no price of its own: it costs what its item costs.
--
-- Since migration 16 the default variant's `price_cents` was a copy of its item's, kept equal by
-- triggers both ways (pizzas_price_to_variant, pizza_variants_price_to_item). Every price edit of
-- an item therefore also found and rewrote its default variant's row: at a million items two
-- thirds of the pages a price edit missed in the cache (7.9 misses per edit, 2.7 without that
-- row; docs/PERFORMANCE.md, session 56). The copy held nothing the item's row does not.
--
-- Now `pizza_variants.price_cents` is NULL for the default variant, and means "the item's price,
-- pizzas.price_cents"; every other variant has a price of its own (CHECK variant_price). Readers
-- write `coalesce(v.price_cents, p.price_cents)` (the view `menu_items`, the booking's line rule,
-- the services). The ways a price reached the default variant keep working, each through one
-- trigger that moves the price to the item and leaves the variant's NULL:
--   * a price written to the default variant by hand (UPDATE pizza_variants SET price_cents = 900
--     WHERE id = <the default>) becomes the item's price;
--   * another variant made the default (UPDATE pizza_variants SET is_default = 1 WHERE id = …):
--     its price becomes the item's, and the variant that was the default keeps the price it had
--     (the item's until then) as a price of its own;
--   * a variant inserted as the default: likewise (with no price given, it costs the item's).
-- An item's price edit no longer touches its variants. Before the copy, a default variant whose
-- price differed from its item's (which `pizzeria check` reported) takes the item's: the item's
-- row is what the menu and the bookings read.
--
-- The table is rebuilt (NOT NULL cannot be dropped in place), as 0032 and 0035 did: create, copy
-- in id order, drop, rename; legacy_alter_table keeps the views and triggers naming it (the FK of
-- order_lines.variant_id too). Its own triggers and its index go with the old table and are
-- created again below, unchanged but the default-price ones. Ids are kept.

PRAGMA legacy_alter_table = ON;

CREATE TABLE pizza_variants_rebuilt (
    id             INTEGER PRIMARY KEY,
    pizza_id       TEXT NOT NULL REFERENCES pizzas (id),
    -- 1 to 30 characters, trimmed, no control characters; unique in its item ignoring case.
    name           TEXT NOT NULL COLLATE NOCASE
                   CHECK (length(name) BETWEEN 1 AND 30 AND trim(name) = name
                          AND name NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                          26,27,28,29,30,31,127) || ']*')),
    -- More than 0, at most 1,000.00 EUR, like an item's price. NULL for the default variant: it
    -- costs its item's price (pizzas.price_cents).
    price_cents    INTEGER CHECK (price_cents BETWEEN 1 AND 100000),
    -- The order in which the item's variants are offered: smaller first.
    position       INTEGER NOT NULL DEFAULT 1 CHECK (position BETWEEN 1 AND 100),
    -- 1 for the variant a plain order of the item gets; exactly one per item.
    is_default     INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
    -- The item's name_key (migration 31), for the menu's order.
    pizza_name_key TEXT,
    UNIQUE (pizza_id, name),
    -- A variant other than the default has a price of its own.
    CONSTRAINT variant_price CHECK (is_default = 1 OR price_cents IS NOT NULL)
) STRICT;

INSERT INTO pizza_variants_rebuilt (id, pizza_id, name, price_cents, position, is_default, pizza_name_key)
SELECT id, pizza_id, name, CASE WHEN is_default = 1 THEN NULL ELSE price_cents END, position, is_default, pizza_name_key
FROM pizza_variants ORDER BY id;

DROP TABLE pizza_variants;

ALTER TABLE pizza_variants_rebuilt RENAME TO pizza_variants;

PRAGMA legacy_alter_table = OFF;

CREATE INDEX pizza_variants_in_menu_order ON pizza_variants (pizza_name_key);

-- The item's price edit no longer writes its default variant.
DROP TRIGGER pizzas_price_to_variant;

-- A new item's default variant: no price of its own.
DROP TRIGGER pizzas_default_variant;
CREATE TRIGGER pizzas_default_variant AFTER INSERT ON pizzas
BEGIN
    INSERT INTO pizza_variants (pizza_id, name, price_cents, position, is_default, pizza_name_key)
    VALUES (NEW.id, 'Normale', NULL, 1, 1, NEW.name_key);
END;

-- A variant inserted as the default: the variant that was the default keeps the item's price as
-- its own, the new one's price (if it has one) becomes the item's, and it keeps none itself.
CREATE TRIGGER pizza_variants_one_default_insert AFTER INSERT ON pizza_variants
WHEN NEW.is_default = 1
BEGIN
    UPDATE pizza_variants SET is_default = 0, price_cents = (SELECT p.price_cents FROM pizzas p WHERE p.id = NEW.pizza_id)
    WHERE pizza_id = NEW.pizza_id AND id <> NEW.id AND is_default = 1;
    UPDATE pizzas SET price_cents = NEW.price_cents
    WHERE NEW.price_cents IS NOT NULL AND id = NEW.pizza_id AND price_cents IS NOT NEW.price_cents;
    UPDATE pizza_variants SET price_cents = NULL WHERE NEW.price_cents IS NOT NULL AND id = NEW.id;
END;

-- A variant made the default, or a price written to the default: the same three steps, one
-- trigger (two would leave their order to SQLite, and the old default must read the item's price
-- before it changes). The last UPDATE does not fire this trigger again: its row's price is NULL.
CREATE TRIGGER pizza_variants_default_price AFTER UPDATE OF price_cents, is_default ON pizza_variants
WHEN NEW.is_default = 1 AND (OLD.is_default = 0 OR NEW.price_cents IS NOT NULL)
BEGIN
    UPDATE pizza_variants SET is_default = 0, price_cents = (SELECT p.price_cents FROM pizzas p WHERE p.id = NEW.pizza_id)
    WHERE OLD.is_default = 0 AND pizza_id = NEW.pizza_id AND id <> NEW.id AND is_default = 1;
    UPDATE pizzas SET price_cents = NEW.price_cents
    WHERE NEW.price_cents IS NOT NULL AND id = NEW.pizza_id AND price_cents IS NOT NEW.price_cents;
    UPDATE pizza_variants SET price_cents = NULL WHERE NEW.price_cents IS NOT NULL AND id = NEW.id;
END;

-- The triggers of the table as they were (migrations 16, 20, 31), but default_kept_update.

CREATE TRIGGER audit_pizza_variants_delete AFTER DELETE ON pizza_variants
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || OLD.pizza_id, 'variant_remove',
           json_object('variant_id', OLD.id, 'name', OLD.name, 'price_cents', OLD.price_cents)
    FROM audit_context c WHERE c.id = 1;
END;

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

CREATE TRIGGER pizza_variants_default_kept_delete BEFORE DELETE ON pizza_variants
WHEN OLD.is_default = 1
BEGIN
    SELECT RAISE(ABORT, 'variant_default: the default variant cannot be removed; make another variant the default first');
END;

-- Now BEFORE the row is written (was AFTER): the default demoted by hand has no price, and
-- variant_price would refuse it first with a message that does not say what to do.
CREATE TRIGGER pizza_variants_default_kept_update BEFORE UPDATE OF is_default ON pizza_variants
WHEN OLD.is_default = 1 AND NEW.is_default = 0
  AND NOT EXISTS (SELECT 1 FROM pizza_variants WHERE pizza_id = NEW.pizza_id AND is_default = 1 AND id <> NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'variant_default: an item keeps one default variant; make another the default (UPDATE pizza_variants SET is_default = 1 WHERE id = ...)');
END;

CREATE TRIGGER pizza_variants_item_fixed BEFORE UPDATE OF pizza_id ON pizza_variants
WHEN NEW.pizza_id IS NOT OLD.pizza_id
BEGIN
    SELECT RAISE(ABORT, 'a variant belongs to its item for good; add one to the other item instead');
END;

CREATE TRIGGER pizza_variants_name_key_fill AFTER INSERT ON pizza_variants
WHEN NEW.pizza_name_key IS NULL
BEGIN
    UPDATE pizza_variants SET pizza_name_key = (SELECT p.name_key FROM pizzas p WHERE p.id = NEW.pizza_id)
    WHERE id = NEW.id;
END;

CREATE TRIGGER pizza_variants_name_key_insert BEFORE INSERT ON pizza_variants
WHEN NEW.pizza_name_key IS NOT NULL
  AND NEW.pizza_name_key IS NOT (SELECT p.name_key FROM pizzas p WHERE p.id = NEW.pizza_id)
BEGIN
    SELECT RAISE(ABORT, 'pizza_name_key: a variant carries its item''s name_key and nothing else; leave it out and it is filled in');
END;

CREATE TRIGGER pizza_variants_name_key_update BEFORE UPDATE OF pizza_name_key ON pizza_variants
WHEN NEW.pizza_name_key IS NOT (SELECT p.name_key FROM pizzas p WHERE p.id = NEW.pizza_id)
BEGIN
    SELECT RAISE(ABORT, 'pizza_name_key: a variant carries its item''s name_key and nothing else; rename the item instead');
END;

CREATE TRIGGER pizza_variants_version_delete AFTER DELETE ON pizza_variants
BEGIN
    UPDATE pizzas
    SET version = version + 1,
        updated_at = coalesce((SELECT at FROM audit_context WHERE id = 1), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    WHERE id = OLD.pizza_id;
END;

CREATE TRIGGER pizza_variants_version_insert AFTER INSERT ON pizza_variants
WHEN EXISTS (SELECT 1 FROM pizza_variants WHERE pizza_id = NEW.pizza_id AND id <> NEW.id)
BEGIN
    UPDATE pizzas
    SET version = version + 1,
        updated_at = coalesce((SELECT at FROM audit_context WHERE id = 1), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    WHERE id = NEW.pizza_id;
END;

CREATE TRIGGER pizza_variants_version_update AFTER UPDATE ON pizza_variants
WHEN OLD.name IS NOT NEW.name
  OR OLD.position IS NOT NEW.position
  OR OLD.is_default IS NOT NEW.is_default
  OR (OLD.price_cents IS NOT NEW.price_cents AND NEW.is_default = 0)
BEGIN
    UPDATE pizzas
    SET version = version + 1,
        updated_at = coalesce((SELECT at FROM audit_context WHERE id = 1), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    WHERE id = NEW.pizza_id;
END;

-- The booking's line rule: a default variant's price is its item's.
DROP TRIGGER order_lines_insert_rules;
CREATE TRIGGER order_lines_insert_rules BEFORE INSERT ON order_lines
BEGIN
    -- line_vat (was order_lines_vat)
    SELECT RAISE(ABORT, 'line_vat: a line''s vat_rate_bp is its category''s rate when booked (categories.vat_rate_bp, else shop.vat_rate_bp)')
    WHERE NEW.vat_rate_bp IS NOT (SELECT coalesce(c.vat_rate_bp, s.vat_rate_bp)
                                  FROM pizzas p JOIN categories c ON c.id = p.category_id, shop s
                                  WHERE p.id = NEW.pizza_id AND s.id = 1);
    -- sold_out (was order_lines_stock_check)
    SELECT RAISE(ABORT, 'sold_out: the item has fewer left than the line asks for, for this pickup (see pizzas.stock_left)')
    FROM pizzas p
    WHERE p.id = NEW.pizza_id AND p.stock_left < NEW.quantity
      AND (p.stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = NEW.order_id) < p.stock_until);
    SELECT RAISE(ABORT, 'sold_out: a modifier has fewer left than the line asks for, for this pickup (see modifiers.stock_left)')
    WHERE NEW.modifiers IS NOT NULL AND EXISTS (
        SELECT 1 FROM json_each(NEW.modifiers) e JOIN modifiers m ON m.id = json_extract(e.value, '$.id')
        WHERE m.stock_left < NEW.quantity
          AND (m.stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = NEW.order_id) < m.stock_until));
    -- line_variant, line_snapshot, line_modifier, line_modifier_count, line_price, line_allergens
    -- (was order_lines_choice)
    SELECT RAISE(ABORT, 'line_variant: order_lines.variant_id must name a variant of the line''s item (see pizza_variants)')
    WHERE NOT EXISTS (SELECT 1 FROM pizza_variants v WHERE v.id = NEW.variant_id AND v.pizza_id = NEW.pizza_id);
    SELECT RAISE(ABORT, 'line_snapshot: base_price_cents and variant_name are the variant''s price (the item''s for its default variant) and name when booked (the name NULL when the item has one variant)')
    FROM pizza_variants v
    WHERE v.id = NEW.variant_id
      AND (NEW.base_price_cents IS NOT coalesce(v.price_cents, (SELECT p.price_cents FROM pizzas p WHERE p.id = NEW.pizza_id))
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
    -- order_lines_oven (was order_lines_oven_snapshot)
    SELECT RAISE(ABORT, 'order_lines_oven: order_lines.uses_oven is its item''s category''s uses_oven when booked (0 for drinks and desserts)')
    WHERE NEW.uses_oven IS NOT (SELECT k.uses_oven FROM pizzas p JOIN categories k ON k.id = p.category_id WHERE p.id = NEW.pizza_id);
    -- order_locked (was order_lines_locked_insert)
    SELECT RAISE(ABORT, 'order_locked: lines are added only while the order is placed')
    WHERE (SELECT status FROM orders WHERE id = NEW.order_id) IS NOT 'placed';
END;

-- The analysts' menu: the default variant's price is its item's.
DROP VIEW menu_items;
CREATE VIEW menu_items AS
SELECT k.position AS category_position, k.name AS category, p.name AS item, v.name AS variant, v.is_default,
       printf('%d.%02d', coalesce(v.price_cents, p.price_cents) / 100, coalesce(v.price_cents, p.price_cents) % 100) AS price_eur,
       (SELECT group_concat(code, ', ') FROM (SELECT code FROM allergens WHERE p.allergens & bit ORDER BY bit)) AS allergens,
       (SELECT group_concat(name, ', ') FROM (SELECT g.name FROM pizza_modifier_groups a JOIN modifier_groups g ON g.id = a.group_id
                                              WHERE a.pizza_id = p.id ORDER BY g.position, g.name)) AS modifier_groups
FROM pizzas p JOIN categories k ON k.id = p.category_id JOIN pizza_variants v ON v.pizza_id = p.id
WHERE p.archived_at IS NULL
ORDER BY k.position, k.name, p.name_key, v.position, v.name;
