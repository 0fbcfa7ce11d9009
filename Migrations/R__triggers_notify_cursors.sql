-- The triggers on notify_cursors: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER audit_notify_cursors_insert AFTER INSERT ON notify_cursors
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'notifier:' || NEW.name,
           'add', NULL, json_object('after_event', NEW.after_event, 'kinds', NEW.kinds)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_notify_cursors_update AFTER UPDATE OF after_event, kinds ON notify_cursors
WHEN (NEW.after_event IS NOT OLD.after_event OR NEW.kinds IS NOT OLD.kinds)
 AND ((SELECT source FROM audit_context WHERE id = 1) IS NOT NULL
      OR NOT EXISTS (SELECT 1 FROM pragma_table_list('pizzeria_connection') WHERE schema = 'temp'))
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'notifier:' || NEW.name,
           CASE WHEN NEW.kinds IS NOT OLD.kinds THEN 'set' ELSE 'reset' END,
           json_object('after_event', OLD.after_event, 'kinds', OLD.kinds),
           json_object('after_event', NEW.after_event, 'kinds', NEW.kinds)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_notify_cursors_delete AFTER DELETE ON notify_cursors
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'notifier:' || OLD.name,
           'remove', json_object('after_event', OLD.after_event, 'kinds', OLD.kinds), NULL
    FROM audit_context c WHERE c.id = 1;
END;

