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
           json_object('name', NEW.name, 'min_selected', NEW.min_selected, 'max_selected', NEW.max_selected,
                       'kind', NEW.kind, 'default_modifier_id', NEW.default_modifier_id)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_modifier_groups_update AFTER UPDATE ON modifier_groups
WHEN OLD.name IS NOT NEW.name OR OLD.min_selected IS NOT NEW.min_selected OR OLD.max_selected IS NOT NEW.max_selected
  OR OLD.position IS NOT NEW.position OR OLD.kind IS NOT NEW.kind OR OLD.default_modifier_id IS NOT NEW.default_modifier_id
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'modifier_group:' || NEW.id, 'edit',
           json_object('name', OLD.name, 'min_selected', OLD.min_selected, 'max_selected', OLD.max_selected, 'position', OLD.position,
                       'kind', OLD.kind, 'default_modifier_id', OLD.default_modifier_id),
           json_object('name', NEW.name, 'min_selected', NEW.min_selected, 'max_selected', NEW.max_selected, 'position', NEW.position,
                       'kind', NEW.kind, 'default_modifier_id', NEW.default_modifier_id)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER modifier_groups_kind_insert BEFORE INSERT ON modifier_groups
WHEN (NEW.kind = 'choice' AND (NEW.min_selected IS NOT 1 OR NEW.max_selected IS NOT 1))
  OR NEW.default_modifier_id IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'group_kind: a choice takes exactly one (min_selected = max_selected = 1), and a group gets a default once it has the modifier');
END;

CREATE TRIGGER modifier_groups_kind_update BEFORE UPDATE OF kind, min_selected, max_selected, default_modifier_id ON modifier_groups
WHEN (NEW.kind = 'choice' AND (NEW.min_selected IS NOT 1 OR NEW.max_selected IS NOT 1))
  OR (NEW.default_modifier_id IS NOT NULL
      AND (NEW.kind IS NOT 'choice'
           OR NOT EXISTS (SELECT 1 FROM modifiers m WHERE m.id = NEW.default_modifier_id AND m.group_id = NEW.id
                          AND m.archived_at IS NULL)))
  OR (NEW.kind = 'removal' AND (EXISTS (SELECT 1 FROM modifiers m WHERE m.group_id = NEW.id AND m.price_cents <> 0)
                                 OR EXISTS (SELECT 1 FROM modifier_prices p JOIN modifiers m ON m.id = p.modifier_id
                                            WHERE m.group_id = NEW.id AND p.price_cents <> 0)))
BEGIN
    SELECT RAISE(ABORT, 'group_kind: a choice takes exactly one and its default is one of its modifiers still offered; only a choice has a default; a removal''s modifiers cost nothing');
END;

CREATE TRIGGER modifier_groups_never_replaced BEFORE INSERT ON modifier_groups
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM modifier_groups WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of modifier_groups is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

