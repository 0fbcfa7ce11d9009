-- The triggers on weekly_hours: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER weekly_hours_no_overlap_insert AFTER INSERT ON weekly_hours
WHEN EXISTS (SELECT 1 FROM weekly_hours_minutes a JOIN weekly_hours_minutes b ON b.id <> a.id
             WHERE a.id = NEW.id
               AND ((((b.starts - a.starts) % 10080) + 10080) % 10080 < a.length
                 OR (((a.starts - b.starts) % 10080) + 10080) % 10080 < b.length))
BEGIN
    SELECT RAISE(ABORT, 'hours_overlap: two opening intervals of the week overlap');
END;

CREATE TRIGGER weekly_hours_no_overlap_update AFTER UPDATE ON weekly_hours
WHEN EXISTS (SELECT 1 FROM weekly_hours_minutes a JOIN weekly_hours_minutes b ON b.id <> a.id
             WHERE a.id = NEW.id
               AND ((((b.starts - a.starts) % 10080) + 10080) % 10080 < a.length
                 OR (((a.starts - b.starts) % 10080) + 10080) % 10080 < b.length))
BEGIN
    SELECT RAISE(ABORT, 'hours_overlap: two opening intervals of the week overlap');
END;

CREATE TRIGGER weekly_hours_per_day_limit AFTER INSERT ON weekly_hours
WHEN (SELECT count(*) FROM weekly_hours WHERE weekday = NEW.weekday) > 8
BEGIN
    SELECT RAISE(ABORT, 'hours_limit: a weekday has at most 8 opening intervals');
END;

CREATE TRIGGER audit_weekly_hours_insert AFTER INSERT ON weekly_hours
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'hours', 'add',
           json_object('weekday', NEW.weekday, 'opens_at', NEW.opens_at, 'closes_at', NEW.closes_at)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_weekly_hours_delete AFTER DELETE ON weekly_hours
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'hours', 'remove',
           json_object('weekday', OLD.weekday, 'opens_at', OLD.opens_at, 'closes_at', OLD.closes_at)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER weekly_hours_insert_bump_generation AFTER INSERT ON weekly_hours
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER weekly_hours_update_bump_generation AFTER UPDATE ON weekly_hours
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER weekly_hours_delete_bump_generation AFTER DELETE ON weekly_hours
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER weekly_hours_never_replaced BEFORE INSERT ON weekly_hours
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM weekly_hours WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of weekly_hours is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

