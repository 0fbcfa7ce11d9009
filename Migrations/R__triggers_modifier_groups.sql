-- The triggers on modifier_groups: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER modifier_groups_kept_while_used BEFORE DELETE ON modifier_groups
WHEN EXISTS (SELECT 1 FROM modifiers WHERE group_id = OLD.id)
BEGIN
    SELECT RAISE(ABORT, 'modifier_group_in_use: the group still has modifiers; archive them instead');
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

CREATE TRIGGER modifier_groups_never_replaced BEFORE INSERT ON modifier_groups
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM modifier_groups WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of modifier_groups is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

