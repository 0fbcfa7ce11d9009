-- The triggers on capacity_rules: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER capacity_rules_no_partial_overlap BEFORE INSERT ON capacity_rules
WHEN EXISTS (
    SELECT 1 FROM capacity_rules r
    WHERE (r.weekday IS NEW.weekday AND r.day IS NEW.day)
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
    SELECT RAISE(ABORT, 'capacity_rules_overlap: two rules of one kind on one day must be nested or apart');
END;

CREATE TRIGGER capacity_rules_fixed_range BEFORE UPDATE OF weekday, day, starts_at, ends_at ON capacity_rules
BEGIN
    SELECT RAISE(ABORT, 'capacity_rules_fixed_range: delete the rule and insert the new range');
END;

CREATE TRIGGER capacity_rules_apply_insert AFTER INSERT ON capacity_rules
BEGIN
    UPDATE slot_loads SET local_minute = local_minute
    WHERE service_day = coalesce(NEW.day, service_day)
      AND (NEW.weekday IS NULL OR (CAST(strftime('%w', service_day) AS INTEGER) + 6) % 7 + 1 = NEW.weekday);
END;

CREATE TRIGGER audit_capacity_insert AFTER INSERT ON capacity_rules
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'capacity', 'set',
           json_object('rule', NEW.rule, 'capacity', NEW.capacity)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_capacity_update AFTER UPDATE OF capacity ON capacity_rules
WHEN OLD.capacity IS NOT NEW.capacity
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'capacity', 'set',
           json_object('rule', OLD.rule, 'capacity', OLD.capacity), json_object('rule', NEW.rule, 'capacity', NEW.capacity)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_capacity_delete AFTER DELETE ON capacity_rules
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'capacity', 'remove',
           json_object('rule', OLD.rule, 'capacity', OLD.capacity)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER capacity_rules_insert_bump_generation AFTER INSERT ON capacity_rules
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER capacity_rules_update_bump_generation AFTER UPDATE ON capacity_rules
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER capacity_rules_delete_bump_generation AFTER DELETE ON capacity_rules
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER capacity_rules_apply_delete AFTER DELETE ON capacity_rules
BEGIN
    UPDATE slot_loads SET local_minute = local_minute WHERE capacity_rule_id = OLD.id;
END;

CREATE TRIGGER capacity_rules_apply_update AFTER UPDATE OF capacity ON capacity_rules
BEGIN
    UPDATE slot_loads SET local_minute = local_minute WHERE capacity_rule_id = NEW.id;
END;

CREATE TRIGGER capacity_rules_never_replaced BEFORE INSERT ON capacity_rules
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM capacity_rules WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of capacity_rules is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

