-- 0014: a leaner booking and no dead columns.
--
-- order_lines_by_pizza goes: no query reads order lines by pizza (sales group over all lines;
-- pizzas are never deleted, so no foreign-key check looks for a pizza's lines), and every booked
-- line paid for one more b-tree page in it, at a random place: two of the ~20 WAL pages an
-- average booking wrote.
--
-- settings.opens_at / closes_at, the hours before the week existed (migration 6), are no longer
-- read by anything. A CHECK names them, so SQLite cannot drop the columns: the table is rebuilt
-- (create, copy, drop, rename — https://sqlite.org/lang_altertable.html#otheralter) and its
-- triggers recreated as they were. legacy_alter_table keeps the rename from rewriting or
-- re-checking the other triggers and views, which name `settings` and find the new table.

DROP INDEX order_lines_by_pizza;

PRAGMA legacy_alter_table = ON;

CREATE TABLE settings_rebuilt (
    id                   INTEGER PRIMARY KEY CHECK (id = 1),
    -- Length of a pickup slot in minutes; divides 60 so slots line up with the hour.
    slot_minutes         INTEGER NOT NULL DEFAULT 15 CHECK (slot_minutes BETWEEN 1 AND 60 AND 60 % slot_minutes = 0),
    -- Pizzas the kitchen can make per slot, where no capacity rule applies.
    slot_capacity        INTEGER NOT NULL DEFAULT 12 CHECK (slot_capacity BETWEEN 1 AND 10000),
    -- IANA time zone such as Europe/Rome; NULL means the zone of the machine running pizzeria.
    time_zone            TEXT CHECK (time_zone IS NULL OR length(time_zone) BETWEEN 1 AND 64),
    updated_at           TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    booking_horizon_days INTEGER NOT NULL DEFAULT 365 CHECK (booking_horizon_days BETWEEN 1 AND 3650),
    lead_minutes         INTEGER NOT NULL DEFAULT 15 CHECK (lead_minutes BETWEEN 0 AND 1440),
    paused               INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
    paused_until         TEXT
                         CHECK (paused_until IS NULL OR (paused = 1 AND paused_until GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z')),
    pause_reason         TEXT CHECK (pause_reason IS NULL OR (paused = 1 AND length(pause_reason) BETWEEN 1 AND 200)),
    busy_minutes         INTEGER NOT NULL DEFAULT 0 CHECK (busy_minutes BETWEEN 0 AND 1440),
    busy_until           TEXT
                         CHECK (busy_until IS NULL OR (busy_minutes > 0 AND busy_until GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z')),
    require_staff        INTEGER NOT NULL DEFAULT 0 CHECK (require_staff IN (0, 1))
) STRICT;

INSERT INTO settings_rebuilt (id, slot_minutes, slot_capacity, time_zone, updated_at, booking_horizon_days, lead_minutes,
                              paused, paused_until, pause_reason, busy_minutes, busy_until, require_staff)
SELECT id, slot_minutes, slot_capacity, time_zone, updated_at, booking_horizon_days, lead_minutes,
       paused, paused_until, pause_reason, busy_minutes, busy_until, require_staff
FROM settings;

DROP TABLE settings;

ALTER TABLE settings_rebuilt RENAME TO settings;

PRAGMA legacy_alter_table = OFF;

CREATE TRIGGER settings_never_deleted BEFORE DELETE ON settings
BEGIN
    SELECT RAISE(ABORT, 'the settings row is required; change it with UPDATE');
END;

CREATE TRIGGER settings_bump_generation AFTER UPDATE ON settings
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER slot_loads_follow_capacity AFTER UPDATE OF slot_capacity ON settings
BEGIN
    UPDATE slot_loads SET local_minute = local_minute WHERE capacity_rule IS NULL;
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
