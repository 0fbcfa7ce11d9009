-- The triggers on modifiers: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

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

CREATE TRIGGER modifiers_never_deleted BEFORE DELETE ON modifiers
BEGIN
    SELECT RAISE(ABORT, 'modifiers are never deleted: archive instead (UPDATE modifiers SET archived_at = ...)');
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

CREATE TRIGGER audit_modifiers_stock AFTER UPDATE OF stock_changes ON modifiers
WHEN OLD.stock_changes IS NOT NEW.stock_changes
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'modifier:' || NEW.id,
           CASE WHEN NEW.stock_left IS NULL THEN 'available' WHEN NEW.stock_left = 0 THEN 'sold_out' ELSE 'stock' END,
           json_object('stock_left', OLD.stock_left, 'stock_until', OLD.stock_until),
           json_object('stock_left', NEW.stock_left, 'stock_until', NEW.stock_until)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER modifiers_never_replaced BEFORE INSERT ON modifiers
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM modifiers WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of modifiers is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER modifiers_removal_free BEFORE INSERT ON modifiers
WHEN NEW.price_cents <> 0 AND (SELECT kind FROM modifier_groups WHERE id = NEW.group_id) = 'removal'
BEGIN
    SELECT RAISE(ABORT, 'group_kind: a removal costs nothing (price_cents 0)');
END;

CREATE TRIGGER modifiers_removal_free_update BEFORE UPDATE OF price_cents, archived_at ON modifiers
WHEN (NEW.price_cents <> 0 AND (SELECT kind FROM modifier_groups WHERE id = NEW.group_id) = 'removal')
  OR (NEW.archived_at IS NOT NULL AND EXISTS (SELECT 1 FROM modifier_groups g WHERE g.default_modifier_id = NEW.id))
BEGIN
    SELECT RAISE(ABORT, 'group_kind: a removal costs nothing, and a choice''s default is not archived (make another the default first)');
END;

