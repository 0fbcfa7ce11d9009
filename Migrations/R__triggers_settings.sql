-- The triggers on settings: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER settings_never_deleted BEFORE DELETE ON settings
BEGIN
    SELECT RAISE(ABORT, 'the settings row is required; change it with UPDATE');
END;

CREATE TRIGGER settings_bump_generation AFTER UPDATE ON settings
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER audit_settings_require_staff AFTER UPDATE OF require_staff ON settings
WHEN OLD.require_staff IS NOT NEW.require_staff
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'settings', 'set',
           json_object('require_staff', OLD.require_staff), json_object('require_staff', NEW.require_staff)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_settings_update AFTER UPDATE ON settings
WHEN OLD.slot_minutes IS NOT NEW.slot_minutes OR OLD.slot_capacity IS NOT NEW.slot_capacity OR OLD.time_zone IS NOT NEW.time_zone
  OR OLD.booking_horizon_days IS NOT NEW.booking_horizon_days OR OLD.lead_minutes IS NOT NEW.lead_minutes
  OR OLD.paused IS NOT NEW.paused OR OLD.paused_until IS NOT NEW.paused_until OR OLD.pause_reason IS NOT NEW.pause_reason
  OR OLD.busy_minutes IS NOT NEW.busy_minutes OR OLD.busy_until IS NOT NEW.busy_until
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'settings',
           CASE WHEN OLD.paused IS NOT NEW.paused OR OLD.paused_until IS NOT NEW.paused_until OR OLD.pause_reason IS NOT NEW.pause_reason
                     THEN CASE NEW.paused WHEN 1 THEN 'pause' ELSE 'resume' END
                WHEN OLD.busy_minutes IS NOT NEW.busy_minutes OR OLD.busy_until IS NOT NEW.busy_until THEN 'busy'
                ELSE 'set' END,
           json_object('slot_minutes', OLD.slot_minutes, 'slot_capacity', OLD.slot_capacity, 'time_zone', OLD.time_zone,
                       'booking_horizon_days', OLD.booking_horizon_days, 'lead_minutes', OLD.lead_minutes, 'paused', OLD.paused,
                       'paused_until', OLD.paused_until, 'pause_reason', OLD.pause_reason, 'busy_minutes', OLD.busy_minutes,
                       'busy_until', OLD.busy_until),
           json_object('slot_minutes', NEW.slot_minutes, 'slot_capacity', NEW.slot_capacity, 'time_zone', NEW.time_zone,
                       'booking_horizon_days', NEW.booking_horizon_days, 'lead_minutes', NEW.lead_minutes, 'paused', NEW.paused,
                       'paused_until', NEW.paused_until, 'pause_reason', NEW.pause_reason, 'busy_minutes', NEW.busy_minutes,
                       'busy_until', NEW.busy_until)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER slot_loads_follow_capacity AFTER UPDATE OF slot_capacity ON settings
BEGIN
    UPDATE slot_loads SET local_minute = local_minute WHERE capacity_rule_id IS NULL;
END;

CREATE TRIGGER settings_never_replaced BEFORE INSERT ON settings
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM settings WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of settings is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

