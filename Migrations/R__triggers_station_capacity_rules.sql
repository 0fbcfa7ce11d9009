-- The triggers on station_capacity_rules: the rules every writer is held to and the history they
-- write. A repeatable definition (see R__views.sql): edit here. The order of the triggers is the
-- order they are made in, and SQLite runs a table's triggers of one kind last made first: keep a
-- new one where it must run. A rule changes no stored load: `station_loads_capacity` reads the
-- capacity when a load grows, and `check` reports a future slot left over a lowered one.

CREATE TRIGGER station_capacity_rules_not_the_slots BEFORE INSERT ON station_capacity_rules
WHEN EXISTS (SELECT 1 FROM stations WHERE id = NEW.station_id AND holds_slot_capacity = 1)
BEGIN
    SELECT RAISE(ABORT, 'station_capacity_rules_slot_station: the station holding the slot capacity takes its capacity from capacity_rules');
END;

CREATE TRIGGER station_capacity_rules_no_partial_overlap BEFORE INSERT ON station_capacity_rules
WHEN EXISTS (
    SELECT 1 FROM station_capacity_rules r
    WHERE r.station_id = NEW.station_id AND (r.weekday IS NEW.weekday AND r.day IS NEW.day)
      AND (CAST(substr(NEW.starts_at, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.starts_at, 4, 2) AS INTEGER)) < r.end_minute
      AND r.start_minute < (CAST(substr(NEW.ends_at, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.ends_at, 4, 2) AS INTEGER)
                            + CASE WHEN NEW.ends_at <= NEW.starts_at THEN 1440 ELSE 0 END)
      AND NOT (r.start_minute <= (CAST(substr(NEW.starts_at, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.starts_at, 4, 2) AS INTEGER))
               AND (CAST(substr(NEW.ends_at, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.ends_at, 4, 2) AS INTEGER)
                    + CASE WHEN NEW.ends_at <= NEW.starts_at THEN 1440 ELSE 0 END) <= r.end_minute)
      AND NOT ((CAST(substr(NEW.starts_at, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.starts_at, 4, 2) AS INTEGER)) <= r.start_minute
               AND r.end_minute <= (CAST(substr(NEW.ends_at, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.ends_at, 4, 2) AS INTEGER)
                                    + CASE WHEN NEW.ends_at <= NEW.starts_at THEN 1440 ELSE 0 END))
)
BEGIN
    SELECT RAISE(ABORT, 'capacity_rules_overlap: two rules of one station and kind on one day must be nested or apart');
END;

CREATE TRIGGER station_capacity_rules_fixed_range BEFORE UPDATE OF station_id, weekday, day, starts_at, ends_at ON station_capacity_rules
BEGIN
    SELECT RAISE(ABORT, 'capacity_rules_fixed_range: delete the rule and insert the new range');
END;

CREATE TRIGGER audit_station_capacity_insert AFTER INSERT ON station_capacity_rules
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'station:' || NEW.station_id,
           'capacity set', json_object('rule', NEW.rule, 'capacity', NEW.capacity)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_station_capacity_update AFTER UPDATE OF capacity ON station_capacity_rules
WHEN OLD.capacity IS NOT NEW.capacity
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'station:' || NEW.station_id,
           'capacity set', json_object('rule', OLD.rule, 'capacity', OLD.capacity), json_object('rule', NEW.rule, 'capacity', NEW.capacity)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_station_capacity_delete AFTER DELETE ON station_capacity_rules
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'station:' || OLD.station_id,
           'capacity remove', json_object('rule', OLD.rule, 'capacity', OLD.capacity)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER station_capacity_rules_insert_bump_generation AFTER INSERT ON station_capacity_rules
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER station_capacity_rules_update_bump_generation AFTER UPDATE ON station_capacity_rules
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER station_capacity_rules_delete_bump_generation AFTER DELETE ON station_capacity_rules
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER station_capacity_rules_never_replaced BEFORE INSERT ON station_capacity_rules
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM station_capacity_rules WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of station_capacity_rules is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;
