-- The triggers on staff: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER audit_staff_insert AFTER INSERT ON staff
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'staff:' || NEW.name, 'add',
           json_object('name', NEW.name, 'role', NEW.role)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_staff_update AFTER UPDATE ON staff
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'staff:' || NEW.name, 'edit',
           json_object('name', OLD.name, 'role', OLD.role), json_object('name', NEW.name, 'role', NEW.role)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_staff_delete AFTER DELETE ON staff
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'staff:' || OLD.name, 'remove',
           json_object('name', OLD.name, 'role', OLD.role)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER staff_never_replaced BEFORE INSERT ON staff
WHEN EXISTS (SELECT 1 FROM staff WHERE name = NEW.name)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of staff is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

