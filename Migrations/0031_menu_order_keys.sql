-- 0031: the menu read walks every table it reads in the menu's order.
--
-- The menu is read in name order (the unique `pizzas_name_key` index), and each item's variants
-- and modifier groups were looked up by the item's id. An item id is random, so at a large size
-- every lookup landed on a random page of `pizza_variants`' `(pizza_id, name)` index and of
-- `pizza_modifier_groups`: a menu of a million items read ~2.2 times as long per row as one of ten
-- thousand (docs/PERFORMANCE.md, session 53). Each row now carries its item's `name_key` as
-- `pizza_name_key`, indexed, so the three statements of the menu read walk three indexes in the
-- same order: one page after the other, at any size.
--
-- `pizza_name_key` is derived data, kept by triggers whoever writes: an insert that leaves it out
-- gets it filled in; an insert or update that names another value is refused (the value is the
-- item's, nothing else); renaming an item (its `name_key`) carries the new key to its rows;
-- moving a group attachment to another item takes that item's key. `pizzeria check` compares
-- every row with its item and `check --repair` rewrites a row that differs.

ALTER TABLE pizza_variants ADD COLUMN pizza_name_key TEXT;
UPDATE pizza_variants SET pizza_name_key = (SELECT p.name_key FROM pizzas p WHERE p.id = pizza_variants.pizza_id);
-- Not covering: a variant's price is not in the key, so a price edit does not rewrite this index.
CREATE INDEX pizza_variants_in_menu_order ON pizza_variants (pizza_name_key);

ALTER TABLE pizza_modifier_groups ADD COLUMN pizza_name_key TEXT;
UPDATE pizza_modifier_groups
SET pizza_name_key = (SELECT p.name_key FROM pizzas p WHERE p.id = pizza_modifier_groups.pizza_id);
-- Covering: an entry of a WITHOUT ROWID table's index holds the primary key (pizza_id, group_id).
CREATE INDEX pizza_modifier_groups_in_menu_order ON pizza_modifier_groups (pizza_name_key, group_id);

-- An item's new key goes to its variants and groups (an ASCII rename sets name_key through
-- pizzas_name_key_ascii_update, which fires this one too).
CREATE TRIGGER pizzas_name_key_to_menu_rows AFTER UPDATE OF name_key ON pizzas
WHEN NEW.name_key IS NOT OLD.name_key
BEGIN
    UPDATE pizza_variants SET pizza_name_key = NEW.name_key WHERE pizza_id = NEW.id;
    UPDATE pizza_modifier_groups SET pizza_name_key = NEW.name_key WHERE pizza_id = NEW.id;
END;

-- Every new item's `Normale` (0016) comes with the item's key.
DROP TRIGGER pizzas_default_variant;
CREATE TRIGGER pizzas_default_variant AFTER INSERT ON pizzas
BEGIN
    INSERT INTO pizza_variants (pizza_id, name, price_cents, position, is_default, pizza_name_key)
    VALUES (NEW.id, 'Normale', NEW.price_cents, 1, 1, NEW.name_key);
END;

-- Variants ----------------------------------------------------------------------------------

CREATE TRIGGER pizza_variants_name_key_insert BEFORE INSERT ON pizza_variants
WHEN NEW.pizza_name_key IS NOT NULL
  AND NEW.pizza_name_key IS NOT (SELECT p.name_key FROM pizzas p WHERE p.id = NEW.pizza_id)
BEGIN
    SELECT RAISE(ABORT, 'pizza_name_key: a variant carries its item''s name_key and nothing else; leave it out and it is filled in');
END;

CREATE TRIGGER pizza_variants_name_key_fill AFTER INSERT ON pizza_variants
WHEN NEW.pizza_name_key IS NULL
BEGIN
    UPDATE pizza_variants SET pizza_name_key = (SELECT p.name_key FROM pizzas p WHERE p.id = NEW.pizza_id)
    WHERE id = NEW.id;
END;

CREATE TRIGGER pizza_variants_name_key_update BEFORE UPDATE OF pizza_name_key ON pizza_variants
WHEN NEW.pizza_name_key IS NOT (SELECT p.name_key FROM pizzas p WHERE p.id = NEW.pizza_id)
BEGIN
    SELECT RAISE(ABORT, 'pizza_name_key: a variant carries its item''s name_key and nothing else; rename the item instead');
END;

-- Modifier groups on items ----------------------------------------------------------------

CREATE TRIGGER pizza_modifier_groups_name_key_insert BEFORE INSERT ON pizza_modifier_groups
WHEN NEW.pizza_name_key IS NOT NULL
  AND NEW.pizza_name_key IS NOT (SELECT p.name_key FROM pizzas p WHERE p.id = NEW.pizza_id)
BEGIN
    SELECT RAISE(ABORT, 'pizza_name_key: a group on an item carries the item''s name_key and nothing else; leave it out and it is filled in');
END;

CREATE TRIGGER pizza_modifier_groups_name_key_fill AFTER INSERT ON pizza_modifier_groups
WHEN NEW.pizza_name_key IS NULL
BEGIN
    UPDATE pizza_modifier_groups SET pizza_name_key = (SELECT p.name_key FROM pizzas p WHERE p.id = NEW.pizza_id)
    WHERE pizza_id = NEW.pizza_id AND group_id = NEW.group_id;
END;

CREATE TRIGGER pizza_modifier_groups_name_key_update BEFORE UPDATE OF pizza_name_key ON pizza_modifier_groups
WHEN NEW.pizza_name_key IS NOT (SELECT p.name_key FROM pizzas p WHERE p.id = NEW.pizza_id)
  AND NEW.pizza_id IS OLD.pizza_id
BEGIN
    SELECT RAISE(ABORT, 'pizza_name_key: a group on an item carries the item''s name_key and nothing else; rename the item instead');
END;

-- A group moved to another item by hand takes that item's key.
CREATE TRIGGER pizza_modifier_groups_item_moved AFTER UPDATE OF pizza_id ON pizza_modifier_groups
WHEN NEW.pizza_id IS NOT OLD.pizza_id
BEGIN
    UPDATE pizza_modifier_groups SET pizza_name_key = (SELECT p.name_key FROM pizzas p WHERE p.id = NEW.pizza_id)
    WHERE pizza_id = NEW.pizza_id AND group_id = NEW.group_id;
END;
