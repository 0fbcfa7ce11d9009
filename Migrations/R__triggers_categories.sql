-- The triggers on categories: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

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
           json_object('name', NEW.name, 'position', NEW.position, 'uses_oven', NEW.uses_oven, 'station_id', NEW.station_id)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_categories_update AFTER UPDATE ON categories
WHEN OLD.name IS NOT NEW.name OR OLD.position IS NOT NEW.position OR OLD.uses_oven IS NOT NEW.uses_oven
  OR OLD.station_id IS NOT NEW.station_id
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'category:' || NEW.id, 'edit',
           json_object('name', OLD.name, 'position', OLD.position, 'uses_oven', OLD.uses_oven, 'station_id', OLD.station_id),
           json_object('name', NEW.name, 'position', NEW.position, 'uses_oven', NEW.uses_oven, 'station_id', NEW.station_id)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_categories_delete AFTER DELETE ON categories
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'category:' || OLD.id, 'remove',
           json_object('name', OLD.name, 'position', OLD.position, 'uses_oven', OLD.uses_oven)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER categories_kept_while_shown BEFORE DELETE ON categories
WHEN EXISTS (SELECT 1 FROM navigation_stack WHERE category_id = OLD.id)
BEGIN
    SELECT RAISE(ABORT, 'category_shown: the category is on a user''s navigation stack (see SELECT handle FROM navigation_paths); move them back with pizzeria nav root HANDLE first');
END;

CREATE TRIGGER audit_categories_vat AFTER UPDATE OF vat_rate_bp ON categories
WHEN OLD.vat_rate_bp IS NOT NEW.vat_rate_bp
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'category:' || NEW.id,
           'vat', json_object('vat_rate_bp', OLD.vat_rate_bp), json_object('vat_rate_bp', NEW.vat_rate_bp)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER categories_never_replaced BEFORE INSERT ON categories
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM categories WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of categories is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;


CREATE TRIGGER categories_station_insert AFTER INSERT ON categories
BEGIN
    UPDATE categories SET station_id = (SELECT id FROM stations WHERE holds_slot_capacity = 1)
    WHERE id = NEW.id AND NEW.station_id IS NULL AND NEW.uses_oven = 1;
    UPDATE categories SET uses_oven = (SELECT holds_slot_capacity FROM stations WHERE id = NEW.station_id)
    WHERE id = NEW.id AND NEW.station_id IS NOT NULL
      AND NEW.uses_oven IS NOT (SELECT holds_slot_capacity FROM stations WHERE id = NEW.station_id);
END;

CREATE TRIGGER categories_station_update AFTER UPDATE OF station_id ON categories
WHEN NEW.uses_oven IS NOT coalesce((SELECT holds_slot_capacity FROM stations WHERE id = NEW.station_id), 0)
BEGIN
    UPDATE categories SET uses_oven = coalesce((SELECT holds_slot_capacity FROM stations WHERE id = NEW.station_id), 0)
    WHERE id = NEW.id;
END;

CREATE TRIGGER categories_uses_oven_update AFTER UPDATE OF uses_oven ON categories
WHEN NEW.uses_oven IS NOT coalesce((SELECT holds_slot_capacity FROM stations WHERE id = NEW.station_id), 0)
BEGIN
    UPDATE categories SET station_id = CASE WHEN NEW.uses_oven = 1 THEN (SELECT id FROM stations WHERE holds_slot_capacity = 1) END
    WHERE id = NEW.id;
END;
