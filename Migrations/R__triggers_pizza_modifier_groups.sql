-- The triggers on pizza_modifier_groups: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

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

CREATE TRIGGER pizza_modifier_groups_version_insert AFTER INSERT ON pizza_modifier_groups
BEGIN
    UPDATE pizzas
    SET version = version + 1,
        updated_at = coalesce((SELECT at FROM audit_context WHERE id = 1), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    WHERE id = NEW.pizza_id;
END;

CREATE TRIGGER pizza_modifier_groups_version_delete AFTER DELETE ON pizza_modifier_groups
BEGIN
    UPDATE pizzas
    SET version = version + 1,
        updated_at = coalesce((SELECT at FROM audit_context WHERE id = 1), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    WHERE id = OLD.pizza_id;
END;

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

CREATE TRIGGER pizza_modifier_groups_item_moved AFTER UPDATE OF pizza_id ON pizza_modifier_groups
WHEN NEW.pizza_id IS NOT OLD.pizza_id
BEGIN
    UPDATE pizza_modifier_groups SET pizza_name_key = (SELECT p.name_key FROM pizzas p WHERE p.id = NEW.pizza_id)
    WHERE pizza_id = NEW.pizza_id AND group_id = NEW.group_id;
END;

CREATE TRIGGER pizza_modifier_groups_never_replaced BEFORE INSERT ON pizza_modifier_groups
WHEN EXISTS (SELECT 1 FROM pizza_modifier_groups WHERE pizza_id = NEW.pizza_id AND group_id = NEW.group_id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of pizza_modifier_groups is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

