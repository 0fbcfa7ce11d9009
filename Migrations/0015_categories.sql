-- 0015: menu categories, and capacity that counts only what uses the oven.
--
-- Every item belongs to one category (`Pizze rosse`, `Fritti`, `Bevande`, …), shown in
-- `position` order. A category says whether its items use the oven: a slot's capacity is the
-- oven's, so only lines of oven items count toward `slot_loads.booked` — a Coke no longer takes
-- a pizza's place. Existing files get one category, `Pizze` (id 1, using the oven), and every
-- pizza is in it, so every load and every refusal stays what it was.
--
-- An order line snapshots its item's `uses_oven` when it is booked, as it snapshots the name and
-- the price: moving an item to another category later does not change what was booked.

CREATE TABLE categories (
    id         INTEGER PRIMARY KEY,
    -- 1 to 40 characters, no control characters; unique ignoring case (the library also
    -- compares full Unicode case folding before it writes).
    name       TEXT NOT NULL UNIQUE COLLATE NOCASE
               CHECK (length(name) BETWEEN 1 AND 40 AND trim(name) = name
                      AND name NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                      26,27,28,29,30,31,127) || ']*')),
    -- The menu's order of sections: smaller first, ties by name (the library shifts the others
    -- to make room when a category is put at a position).
    position   INTEGER NOT NULL DEFAULT 1 CHECK (position BETWEEN 1 AND 1000),
    -- 1: its items count toward a slot's capacity (pizzas, calzoni); 0: they do not (drinks, desserts).
    uses_oven  INTEGER NOT NULL DEFAULT 1 CHECK (uses_oven IN (0, 1))
) STRICT;

INSERT INTO categories (id, name, position, uses_oven) VALUES (1, 'Pizze', 1, 1);

-- A column added with REFERENCES must default to NULL while foreign keys are on, so the
-- reference is kept by triggers instead: a pizza names a category that exists, and a category
-- with items cannot be deleted.
ALTER TABLE pizzas ADD COLUMN category_id INTEGER NOT NULL DEFAULT 1;

CREATE INDEX pizzas_by_category ON pizzas (category_id, name_key);

CREATE TRIGGER pizzas_category_exists_insert BEFORE INSERT ON pizzas
WHEN NOT EXISTS (SELECT 1 FROM categories WHERE id = NEW.category_id)
BEGIN
    SELECT RAISE(ABORT, 'category_unknown: pizzas.category_id names no category (see SELECT id, name FROM categories)');
END;

CREATE TRIGGER pizzas_category_exists_update BEFORE UPDATE OF category_id ON pizzas
WHEN NOT EXISTS (SELECT 1 FROM categories WHERE id = NEW.category_id)
BEGIN
    SELECT RAISE(ABORT, 'category_unknown: pizzas.category_id names no category (see SELECT id, name FROM categories)');
END;

CREATE TRIGGER categories_kept_while_used BEFORE DELETE ON categories
WHEN EXISTS (SELECT 1 FROM pizzas WHERE category_id = OLD.id)
BEGIN
    SELECT RAISE(ABORT, 'category_in_use: the category still has items; move them to another category first');
END;

CREATE TRIGGER categories_id_fixed BEFORE UPDATE OF id ON categories
WHEN NEW.id IS NOT OLD.id
BEGIN
    SELECT RAISE(ABORT, 'a category keeps its id; rename it instead');
END;

CREATE TRIGGER audit_categories_insert AFTER INSERT ON categories
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'category:' || NEW.id, 'add',
           json_object('name', NEW.name, 'position', NEW.position, 'uses_oven', NEW.uses_oven)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_categories_update AFTER UPDATE ON categories
WHEN OLD.name IS NOT NEW.name OR OLD.position IS NOT NEW.position OR OLD.uses_oven IS NOT NEW.uses_oven
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'category:' || NEW.id, 'edit',
           json_object('name', OLD.name, 'position', OLD.position, 'uses_oven', OLD.uses_oven),
           json_object('name', NEW.name, 'position', NEW.position, 'uses_oven', NEW.uses_oven)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_categories_delete AFTER DELETE ON categories
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'category:' || OLD.id, 'remove',
           json_object('name', OLD.name, 'position', OLD.position, 'uses_oven', OLD.uses_oven)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_pizzas_category AFTER UPDATE OF category_id ON pizzas
WHEN OLD.category_id IS NOT NEW.category_id
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || NEW.id, 'category',
           json_object('category_id', OLD.category_id), json_object('category_id', NEW.category_id)
    FROM audit_context c WHERE c.id = 1;
END;

-- The line's snapshot of whether its item uses the oven (1 for every line booked before).
ALTER TABLE order_lines ADD COLUMN uses_oven INTEGER NOT NULL DEFAULT 1 CHECK (uses_oven IN (0, 1));

CREATE TRIGGER order_lines_oven_snapshot BEFORE INSERT ON order_lines
WHEN NEW.uses_oven IS NOT (SELECT k.uses_oven FROM pizzas p JOIN categories k ON k.id = p.category_id WHERE p.id = NEW.pizza_id)
BEGIN
    SELECT RAISE(ABORT, 'order_lines_oven: order_lines.uses_oven is its item''s category''s uses_oven when booked (0 for drinks and desserts)');
END;

-- The slot's load: the oven items of its orders that hold capacity. The triggers of migration 9,
-- with the line's `uses_oven` as a factor.
DROP TRIGGER slot_loads_line_delete;
DROP TRIGGER slot_loads_line_insert;
DROP TRIGGER slot_loads_line_update;
DROP TRIGGER slot_loads_order_change;
DROP TRIGGER slot_loads_booked_derived;

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

CREATE TRIGGER slot_loads_order_change AFTER UPDATE OF status, pickup_at ON orders
WHEN NEW.status IS NOT OLD.status OR NEW.pickup_at IS NOT OLD.pickup_at
BEGIN
    INSERT INTO slot_loads (pickup_at, service_day, local_minute, capacity)
    SELECT NEW.pickup_at, NEW.service_day,
           CAST(round((julianday(substr(NEW.pickup_local, 1, 16)) - julianday(NEW.service_day)) * 1440) AS INTEGER),
           (SELECT slot_capacity FROM settings WHERE id = 1)
    WHERE NOT EXISTS (SELECT 1 FROM slot_loads WHERE pickup_at = NEW.pickup_at);
    UPDATE slot_loads
    SET booked = (SELECT coalesce(sum(l.quantity * l.uses_oven), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = slot_loads.pickup_at AND o.status <> 'cancelled')
    WHERE pickup_at = OLD.pickup_at;
    UPDATE slot_loads
    SET booked = (SELECT coalesce(sum(l.quantity * l.uses_oven), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = slot_loads.pickup_at AND o.status <> 'cancelled')
    WHERE pickup_at = NEW.pickup_at AND NEW.pickup_at IS NOT OLD.pickup_at;
END;

CREATE TRIGGER slot_loads_booked_derived BEFORE UPDATE OF booked ON slot_loads
WHEN NEW.booked IS NOT (SELECT coalesce(sum(l.quantity * l.uses_oven), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                        WHERE o.pickup_at = NEW.pickup_at AND o.status <> 'cancelled')
BEGIN
    SELECT RAISE(ABORT, 'slot_loads_derived: slot_loads.booked is the sum of the slot''s orders, kept by triggers; change the orders instead');
END;

-- For people: the menu by section.
CREATE VIEW menu_by_category AS
SELECT k.position AS category_position, k.name AS category, k.uses_oven, p.name,
       printf('%d.%02d', p.price_cents / 100, p.price_cents % 100) AS price_eur
FROM pizzas p JOIN categories k ON k.id = p.category_id
WHERE p.archived_at IS NULL
ORDER BY k.position, k.name, p.name_key;
