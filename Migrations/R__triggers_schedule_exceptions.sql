-- The triggers on schedule_exceptions: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER audit_exceptions_insert AFTER INSERT ON schedule_exceptions
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'hours',
           CASE NEW.kind WHEN 'closed' THEN 'close' ELSE NEW.kind END,
           json_object('day', NEW.day, 'kind', NEW.kind, 'opens_at', NEW.opens_at, 'closes_at', NEW.closes_at, 'reason', NEW.reason)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_exceptions_delete AFTER DELETE ON schedule_exceptions
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'hours', 'remove',
           json_object('day', OLD.day, 'kind', OLD.kind, 'opens_at', OLD.opens_at, 'closes_at', OLD.closes_at, 'reason', OLD.reason)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER schedule_exceptions_insert_bump_generation AFTER INSERT ON schedule_exceptions
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER schedule_exceptions_update_bump_generation AFTER UPDATE ON schedule_exceptions
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER schedule_exceptions_delete_bump_generation AFTER DELETE ON schedule_exceptions
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER schedule_exceptions_never_replaced BEFORE INSERT ON schedule_exceptions
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM schedule_exceptions WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of schedule_exceptions is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

